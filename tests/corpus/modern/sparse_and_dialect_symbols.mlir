// Sparse element attributes (splat index and value literals take mlir-opt's shapes) and
// dialect symbols whose body is an identifier (`!ns<id>` prints as `!ns.id`).
func.func @tables() -> !lab<cell> {
  "x.t"() {a = sparse<[[0, 1], [2, 0]], [7, -3]> : tensor<3x2xi16>, b = sparse<1, 2.5> : vector<4xf32>, c = sparse<> : tensor<2x2xi8>} : () -> ()
  "x.t"() {d = sparse<[[0, 0]], ["tag"]> : tensor<1x1x!lab.text>, e = #lab<mark>, f = #lab<"free form">} : () -> ()
  %v = "x.make"() : () -> !lab<cell>
  return %v : !lab<cell>
}

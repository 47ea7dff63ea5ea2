// ERROR: 3:3: 'affine.parallel' op region #0 ('region') failed to verify constraint: region with 1 blocks
func.func @f() {
  "affine.parallel"() ({}) {lowerBoundsGroups = dense<> : tensor<0xi32>, lowerBoundsMap = affine_map<() -> ()>, reductions = [], steps = [], upperBoundsGroups = dense<> : tensor<0xi32>, upperBoundsMap = affine_map<() -> ()>} : () -> ()
  return
}

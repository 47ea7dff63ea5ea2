// No dominance inside unreachable blocks, nor in single-block regions of unknown ops
// (mlir-opt cannot tell they are not graph regions).
func.func @dead_code() -> i32 {
  %c = arith.constant 3 : i32
  return %c : i32
^dead:
  %a = "x.use"(%b) : (i32) -> i32
  cf.br ^later
^later:
  %b = "x.def"() : () -> i32
  return %a : i32
}

"x.container"() ({
  %p = "x.step"(%q) : (i64) -> i64
  %q = "x.step"(%p) : (i64) -> i64
  "x.end"() : () -> ()
}) : () -> ()

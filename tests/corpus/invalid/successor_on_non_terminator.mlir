// ERROR: 3:26: successors in non-terminator
func.func @f() {
  %c = "arith.constant"()[^done] {value = 1 : i32} : () -> i32
^done:
  return
}

// ERROR: 3:19: use of value '%a' expects different type than prior uses: 'f32' vs 'i32'
func.func @f(%a: i32) {
  %0 = arith.addf %a, %a : f32
  return
}

// ERROR: 3:19: 'less' is an incorrect value of the 'predicate' attribute
func.func @f(%a: i32) {
  %0 = arith.cmpi less, %a, %a : i32
  return
}

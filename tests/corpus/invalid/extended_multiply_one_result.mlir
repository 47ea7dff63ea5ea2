// ERROR: 3:9: 'arith.mului_extended' op expected 2 results
func.func @f(%a: i32) {
  %lo = "arith.mului_extended"(%a, %a) : (i32, i32) -> i32
  return
}

// ERROR: 3:19: custom op 'arith.cmpi' expected string or keyword containing one of the following enum values for attribute 'predicate' [eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge]
func.func @f(%a: i32) {
  %0 = arith.cmpi less, %a, %a : i32
  return
}

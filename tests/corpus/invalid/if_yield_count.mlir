// ERROR: 3:12: 'scf.if' op along control flow edge from Operation scf.yield to parent: region branch point has 1 operands, but region successor needs 2 inputs
func.func @f(%c: i1, %x: i32) -> (i32, i32) {
  %a, %b = scf.if %c -> (i32, i32) {
    scf.yield %x, %x : i32, i32
  } else {
    scf.yield %x : i32
  }
  return %a, %b : i32, i32
}

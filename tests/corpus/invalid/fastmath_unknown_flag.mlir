// ERROR: 3:35: custom op 'arith.divf' expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast
func.func @f(%x: f32) -> f32 {
  %q = arith.divf %x, %x fastmath<quick> : f32
  return %q : f32
}

// ERROR: 3:8: 'arith.trunci' op requires the same shape for all operands and results
func.func @f(%a: vector<4xi32>) {
  %0 = arith.trunci %a : vector<4xi32> to vector<8xi16>
  return
}

// ERROR: 3:8: 'vector.fma' op operand #0 must be vector of floating-point values, but got 'vector<8xi32>'
func.func @f(%v: vector<8xi32>) {
  %b = vector.fma %v, %v, %v : vector<8xi32>
  return
}

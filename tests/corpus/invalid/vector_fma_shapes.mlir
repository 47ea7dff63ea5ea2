// ERROR: 3:8: 'vector.fma' op failed to verify that all of {lhs, rhs, acc, result} have same type
func.func @f(%v: vector<8xf32>, %w: vector<4xf32>) {
  %b = "vector.fma"(%v, %v, %w) : (vector<8xf32>, vector<8xf32>, vector<4xf32>) -> vector<8xf32>
  return
}

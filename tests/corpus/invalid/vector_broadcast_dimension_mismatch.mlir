// ERROR: 3:8: 'vector.broadcast' op dimension mismatch (8 vs. 4)
func.func @f(%v: vector<8xf32>) {
  %b = vector.broadcast %v : vector<8xf32> to vector<2x4xf32>
  return
}

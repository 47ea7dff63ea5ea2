// ERROR: 3:8: 'vector.extract' op expected position attribute #1 to be a non-negative integer smaller than the corresponding vector dimension or poison (-1)
func.func @f(%v: vector<8xf32>) {
  %b = vector.extract %v[8] : f32 from vector<8xf32>
  return
}

// ERROR: 3:8: 'vector.extract' op inferred type(s) 'vector<8xf32>' are incompatible with return type(s) of operation 'f32'
func.func @f(%v: vector<2x8xf32>) {
  %b = vector.extract %v[1] : f32 from vector<2x8xf32>
  return
}

// ERROR: 3:8: 'vector.insert' op expected position attribute rank to match the dest vector rank
func.func @f(%v: vector<2x8xf32>, %a: f32) {
  %b = vector.insert %a, %v [1] : f32 into vector<2x8xf32>
  return
}

// ERROR: 3:8: 'vector.broadcast' op failed to verify that source operand and result have same element type
func.func @f(%a: f32) {
  %b = vector.broadcast %a : f32 to vector<8xf64>
  return
}

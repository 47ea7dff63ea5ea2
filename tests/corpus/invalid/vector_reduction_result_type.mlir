// ERROR: 3:8: 'vector.reduction' op failed to verify that source operand and result have same element type
func.func @f(%v: vector<8xf32>) {
  %b = vector.reduction <add>, %v : vector<8xf32> into f64
  return
}

// ERROR: 3:8: 'vector.reduction' op unsupported reduction rank: 2
func.func @f(%v: vector<8x4xf32>) {
  %b = vector.reduction <add>, %v : vector<8x4xf32> into f32
  return
}

// ERROR: 3:8: 'vector.reduction' op unsupported reduction type ''f32'' for kind 'and'
func.func @f(%v: vector<8xf32>) {
  %b = vector.reduction <and>, %v : vector<8xf32> into f32
  return
}

// ERROR: 3:44: custom op 'vector.insert' invalid kind of type specified: expected builtin.vector, but found 'f32'
func.func @f(%b: f32) {
  %0 = vector.insert %b, %b [0] : f32 into f32
  return
}

// ERROR: 3:3: branch has 2 operands for successor #0, but target block has 1
func.func @f(%x: f32) {
  cf.br ^exit(%x, %x : f32, f32)
^exit(%y: f32):
  return
}

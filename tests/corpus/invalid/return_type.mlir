// ERROR: 3:3: type of return operand 0 ('f32') doesn't match function result type ('i32') in function @f
func.func @f(%x: f32) -> i32 {
  return %x : f32
}

// ERROR: 3:14: custom op 'func.func' expected SSA identifier
func.func @f(%a: i32,
             i64) {
  return
}

// ERROR: 2:16: custom op 'func.func' expected non-empty function body
func.func @f() {}

// ERROR: 3:8: custom op 'foo' is unknown (tried 'func.foo' as well)
func.func @f() {
  %0 = foo
  return
}

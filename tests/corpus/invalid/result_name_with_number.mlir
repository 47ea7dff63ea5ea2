// ERROR: 3:5: expected '=' after SSA name
func.func @f() {
  %r#0 = "x.make"() : () -> i32
  return
}

// ERROR: 7:3: definition of SSA value '%later#0' has type 'i64'
func.func @f() -> i32 {
  cf.br ^def
^use:
  return %later : i32
^def:
  %later = "x.make"() : () -> i64
  cf.br ^use
}

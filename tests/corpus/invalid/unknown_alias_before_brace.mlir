// ERROR: 2:27: undefined symbol alias id 'missing'
func.func @f() -> !missing {
  return
}

// ERROR: 3:3: 'func.call' op 'g' does not reference a valid function
func.func @f() {
  call @g() : () -> ()
  return
}

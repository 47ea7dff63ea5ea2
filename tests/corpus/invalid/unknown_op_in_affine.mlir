// ERROR: 3:3: unregistered operation 'affine.frobnicate' found in dialect ('affine') that does not allow unknown operations
func.func @f() {
  "affine.frobnicate"() : () -> ()
  return
}

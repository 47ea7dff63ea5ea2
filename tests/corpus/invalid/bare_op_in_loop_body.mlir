// ERROR: 4:5: Dialect `' not found for custom op 'frobnicate'  (tried '.frobnicate' as well)
func.func @f() {
  affine.for %i = 0 to 4 {
    frobnicate
  }
  return
}

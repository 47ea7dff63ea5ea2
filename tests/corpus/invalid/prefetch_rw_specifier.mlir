// ERROR: 3:3: custom op 'affine.prefetch' rw specifier has to be 'read' or 'write'
func.func @f(%A: memref<4xf32>, %i: index) {
  affine.prefetch %A[%i], readwrite, locality<1>, data : memref<4xf32>
  return
}

// Subscripts through affine.apply: the access maps are composed with the apply maps.
func.func @apply(%A: memref<30xf32>) {
  affine.for %i = 0 to 8 {
    %x = affine.apply affine_map<(d0) -> (d0 * 3)>(%i)
    %y = affine.apply affine_map<(d0) -> (d0 + 4)>(%x)
    %v = affine.load %A[%y] : memref<30xf32>
    affine.store %v, %A[%x + 1] : memref<30xf32>
  }
  return
}

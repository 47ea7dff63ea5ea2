// A layout that is not one-to-one: A[2k] and A[2k+1] are the same element, so the store
// A[i] and the load A[i+1] meet whenever i is even.
func.func @alias(%c: f32) {
  %A = memref.alloc() : memref<16xf32, affine_map<(d0) -> (d0 floordiv 2)>>
  affine.for %i = 0 to 14 {
    %v = affine.load %A[%i + 1] : memref<16xf32, affine_map<(d0) -> (d0 floordiv 2)>>
    affine.store %v, %A[%i] : memref<16xf32, affine_map<(d0) -> (d0 floordiv 2)>>
  }
  return
}

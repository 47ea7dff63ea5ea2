// Regions whose terminators are implicit in the custom syntax but explicit in the IR.
func.func @implicit(%c: i1, %n: index, %A: memref<8xf32>, %x: f32) {
  scf.if %c {
  } else {
  }
  affine.for %i = 0 to 8 {
    affine.if affine_set<(d0) : (d0 - 4 >= 0)>(%i) {
    } else {
      affine.store %x, %A[%i] : memref<8xf32>
    }
  }
  affine.parallel (%i) = (0) to (8) {
    affine.yield
  }
  affine.for %i = 0 to 8 {
    affine.yield
  }
  return
}

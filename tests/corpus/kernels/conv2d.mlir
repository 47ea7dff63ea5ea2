// conv2d: O += I * W, a 5 x 3 filter over a single-channel image, accumulated in O (not
// PolyBench; the shape of a CNN layer's inner loops).
// scale: 28=H 22=W 24=OH 20=OW
func.func @conv2d(%I: memref<28x22xf32>, %W: memref<5x3xf32>, %O: memref<24x20xf32>) {
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 20 {
      affine.for %p = 0 to 5 {
        affine.for %q = 0 to 3 {
          %x = affine.load %I[%i + %p, %j + %q] : memref<28x22xf32>
          %w = affine.load %W[%p, %q] : memref<5x3xf32>
          %m = arith.mulf %x, %w : f32
          %o = affine.load %O[%i, %j] : memref<24x20xf32>
          %s = arith.addf %o, %m : f32
          affine.store %s, %O[%i, %j] : memref<24x20xf32>
        }
      }
    }
  }
  return
}

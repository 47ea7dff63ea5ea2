// An imperfect nest with scalar code between loops, a reduction through iter_args, an
// affine.if guard and a call to an external function.
func.func private @sink(f32)
func.func @imperfect(%A: memref<100x100xf32>, %x: memref<100xf32>, %y: memref<100xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 100 {
    affine.store %zero, %y[%i] : memref<100xf32>
    %sum = affine.for %j = 0 to 100 iter_args(%acc = %zero) -> (f32) {
      %a = affine.load %A[%i, %j] : memref<100x100xf32>
      %b = affine.load %x[%j] : memref<100xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %sum, %y[%i] : memref<100xf32>
    affine.if affine_set<(d0) : (d0 - 50 >= 0)>(%i) {
      func.call @sink(%sum) : (f32) -> ()
    }
  }
  return
}

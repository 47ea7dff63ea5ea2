// y = A * x + A^T * z where A is stored column-major (the permutation layout (d1, d0)).
// scale: 24=M 20=N
#colmajor = affine_map<(d0, d1) -> (d1, d0)>
func.func @transposed_layout(%A: memref<24x20xf32, #colmajor>, %x: memref<20xf32>, %y: memref<24xf32>, %z: memref<24xf32>, %w: memref<20xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 24 {
    affine.store %zero, %y[%i] : memref<24xf32>
    affine.for %j = 0 to 20 {
      %a = affine.load %A[%i, %j] : memref<24x20xf32, #colmajor>
      %xv = affine.load %x[%j] : memref<20xf32>
      %p = arith.mulf %a, %xv : f32
      %yv = affine.load %y[%i] : memref<24xf32>
      %s = arith.addf %yv, %p : f32
      affine.store %s, %y[%i] : memref<24xf32>
    }
  }
  affine.for %j = 0 to 20 {
    affine.store %zero, %w[%j] : memref<20xf32>
    affine.for %i = 0 to 24 {
      %a = affine.load %A[%i, %j] : memref<24x20xf32, #colmajor>
      %zv = affine.load %z[%i] : memref<24xf32>
      %p = arith.mulf %a, %zv : f32
      %wv = affine.load %w[%j] : memref<20xf32>
      %s = arith.addf %wv, %p : f32
      affine.store %s, %w[%j] : memref<20xf32>
    }
  }
  return
}

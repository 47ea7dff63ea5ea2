// symm (PolyBench): C = alpha * A * B + beta * C with A symmetric, only its lower triangle
// read; the row's partial sum temp2 is carried in iter_args.
// scale: 20=M 24=N
func.func @symm(%C: memref<20x24xf32>, %A: memref<20x20xf32>, %B: memref<20x24xf32>) {
  %alpha = arith.constant 1.5 : f32
  %beta = arith.constant 1.2 : f32
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 20 {
    affine.for %j = 0 to 24 {
      %temp2 = affine.for %k = 0 to affine_map<(d0) -> (d0)>(%i) iter_args(%acc = %zero) -> (f32) {
        %bij = affine.load %B[%i, %j] : memref<20x24xf32>
        %ab = arith.mulf %alpha, %bij : f32
        %aik = affine.load %A[%i, %k] : memref<20x20xf32>
        %p = arith.mulf %ab, %aik : f32
        %ckj = affine.load %C[%k, %j] : memref<20x24xf32>
        %s = arith.addf %ckj, %p : f32
        affine.store %s, %C[%k, %j] : memref<20x24xf32>
        %bkj = affine.load %B[%k, %j] : memref<20x24xf32>
        %q = arith.mulf %bkj, %aik : f32
        %next = arith.addf %acc, %q : f32
        affine.yield %next : f32
      }
      %cij = affine.load %C[%i, %j] : memref<20x24xf32>
      %bc = arith.mulf %beta, %cij : f32
      %bij = affine.load %B[%i, %j] : memref<20x24xf32>
      %ab = arith.mulf %alpha, %bij : f32
      %aii = affine.load %A[%i, %i] : memref<20x20xf32>
      %d = arith.mulf %ab, %aii : f32
      %s1 = arith.addf %bc, %d : f32
      %t = arith.mulf %alpha, %temp2 : f32
      %s2 = arith.addf %s1, %t : f32
      affine.store %s2, %C[%i, %j] : memref<20x24xf32>
    }
  }
  return
}

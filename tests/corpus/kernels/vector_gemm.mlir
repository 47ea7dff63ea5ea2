// gemm (C += alpha * A * B) register-tiled by hand: 2 rows x 2 vector<8xf32> of C held in
// iter_args across the k loop (vector.broadcast of alpha * A[i][k], vector.fma), a column
// tail of one vector<4xf32> and a scalar tail column, as a register tile leaves them.
// scale: 20=M 13=K
func.func @vector_gemm(%C: memref<20x37xf32>, %A: memref<20x13xf32>, %B: memref<13x37xf32>) {
  %alpha = arith.constant 1.5 : f32
  affine.for %i = 0 to 20 step 2 {
    affine.for %j = 0 to 32 step 16 {
      %c00 = affine.vector_load %C[%i, %j] : memref<20x37xf32>, vector<8xf32>
      %c01 = affine.vector_load %C[%i, %j + 8] : memref<20x37xf32>, vector<8xf32>
      %c10 = affine.vector_load %C[%i + 1, %j] : memref<20x37xf32>, vector<8xf32>
      %c11 = affine.vector_load %C[%i + 1, %j + 8] : memref<20x37xf32>, vector<8xf32>
      %r:4 = affine.for %k = 0 to 13 iter_args(%x00 = %c00, %x01 = %c01, %x10 = %c10, %x11 = %c11) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>) {
        %b0 = affine.vector_load %B[%k, %j] : memref<13x37xf32>, vector<8xf32>
        %b1 = affine.vector_load %B[%k, %j + 8] : memref<13x37xf32>, vector<8xf32>
        %a0 = affine.load %A[%i, %k] : memref<20x13xf32>
        %s0 = arith.mulf %alpha, %a0 : f32
        %v0 = vector.broadcast %s0 : f32 to vector<8xf32>
        %y00 = vector.fma %v0, %b0, %x00 : vector<8xf32>
        %y01 = vector.fma %v0, %b1, %x01 : vector<8xf32>
        %a1 = affine.load %A[%i + 1, %k] : memref<20x13xf32>
        %s1 = arith.mulf %alpha, %a1 : f32
        %v1 = vector.broadcast %s1 : f32 to vector<8xf32>
        %y10 = vector.fma %v1, %b0, %x10 : vector<8xf32>
        %y11 = vector.fma %v1, %b1, %x11 : vector<8xf32>
        affine.yield %y00, %y01, %y10, %y11 : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>
      }
      affine.vector_store %r#0, %C[%i, %j] : memref<20x37xf32>, vector<8xf32>
      affine.vector_store %r#1, %C[%i, %j + 8] : memref<20x37xf32>, vector<8xf32>
      affine.vector_store %r#2, %C[%i + 1, %j] : memref<20x37xf32>, vector<8xf32>
      affine.vector_store %r#3, %C[%i + 1, %j + 8] : memref<20x37xf32>, vector<8xf32>
    }
    affine.for %ii = 0 to 2 {
      %t = affine.vector_load %C[%i + %ii, 32] : memref<20x37xf32>, vector<4xf32>
      %rt = affine.for %k = 0 to 13 iter_args(%x = %t) -> (vector<4xf32>) {
        %b = affine.vector_load %B[%k, 32] : memref<13x37xf32>, vector<4xf32>
        %a = affine.load %A[%i + %ii, %k] : memref<20x13xf32>
        %s = arith.mulf %alpha, %a : f32
        %sv = vector.broadcast %s : f32 to vector<4xf32>
        %p = arith.mulf %sv, %b : vector<4xf32>
        %y = arith.addf %x, %p : vector<4xf32>
        affine.yield %y : vector<4xf32>
      }
      affine.vector_store %rt, %C[%i + %ii, 32] : memref<20x37xf32>, vector<4xf32>
      %e = affine.load %C[%i + %ii, 36] : memref<20x37xf32>
      %re = affine.for %k = 0 to 13 iter_args(%x = %e) -> (f32) {
        %b = affine.load %B[%k, 36] : memref<13x37xf32>
        %a = affine.load %A[%i + %ii, %k] : memref<20x13xf32>
        %s = arith.mulf %alpha, %a : f32
        %p = arith.mulf %s, %b : f32
        %y = arith.addf %x, %p : f32
        affine.yield %y : f32
      }
      affine.store %re, %C[%i + %ii, 36] : memref<20x37xf32>
    }
  }
  return
}

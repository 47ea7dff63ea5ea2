// In-place Gauss-Seidel sweep: dependences (1,-1), (1,0), (1,1), (0,1).
func.func @seidel_2d(%A: memref<?x?xf64>, %N: index, %T: index) {
  %ninth = arith.constant 0.1111111111111111 : f64
  affine.for %t = 0 to %T {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
        %a = affine.load %A[%i - 1, %j - 1] : memref<?x?xf64>
        %b = affine.load %A[%i - 1, %j] : memref<?x?xf64>
        %c = affine.load %A[%i - 1, %j + 1] : memref<?x?xf64>
        %d = affine.load %A[%i, %j - 1] : memref<?x?xf64>
        %e = affine.load %A[%i, %j] : memref<?x?xf64>
        %f = affine.load %A[%i, %j + 1] : memref<?x?xf64>
        %g = affine.load %A[%i + 1, %j - 1] : memref<?x?xf64>
        %h = affine.load %A[%i + 1, %j] : memref<?x?xf64>
        %k = affine.load %A[%i + 1, %j + 1] : memref<?x?xf64>
        %s1 = arith.addf %a, %b : f64
        %s2 = arith.addf %s1, %c : f64
        %s3 = arith.addf %s2, %d : f64
        %s4 = arith.addf %s3, %e : f64
        %s5 = arith.addf %s4, %f : f64
        %s6 = arith.addf %s5, %g : f64
        %s7 = arith.addf %s6, %h : f64
        %s8 = arith.addf %s7, %k : f64
        %v = arith.mulf %s8, %ninth : f64
        affine.store %v, %A[%i, %j] : memref<?x?xf64>
      }
    }
  }
  return
}

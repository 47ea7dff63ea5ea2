// The consumer writes A[i + 1], which the producer reads one iteration later: fused, the
// producer instance i + 1 must run in consumer iteration i (the exact slice shifts it).
// scale: 33=N+1 32=N
func.func @reversed(%A: memref<33xf32>, %B: memref<32xf32>) {
  affine.for %i = 0 to 32 {
    %a = affine.load %A[%i] : memref<33xf32>
    affine.store %a, %B[%i] : memref<32xf32>
  }
  affine.for %i = 0 to 32 {
    %b = affine.load %B[%i] : memref<32xf32>
    %s = arith.addf %b, %b : f32
    affine.store %s, %A[%i + 1] : memref<33xf32>
  }
  return
}

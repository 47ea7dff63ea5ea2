// A row computed once and broadcast: B[j] = exp(x[j]), C[i][j] = A[i][j] * B[j]. Every
// consumer row reads all of B: run once, B[j] goes in row 0 under a guard; recomputed in
// every (i, j), 2048 producer instances for 64 (+3100%) into a one-element buffer.
func.func @bcast(%x: memref<64xf32>, %A: memref<32x64xf32>, %C: memref<32x64xf32>) {
  %B = memref.alloc() : memref<64xf32>
  affine.for %j = 0 to 64 {
    %a = affine.load %x[%j] : memref<64xf32>
    %e = math.exp %a : f32
    affine.store %e, %B[%j] : memref<64xf32>
  }
  affine.for %i = 0 to 32 {
    affine.for %j = 0 to 64 {
      %b = affine.load %B[%j] : memref<64xf32>
      %a = affine.load %A[%i, %j] : memref<32x64xf32>
      %p = arith.mulf %a, %b : f32
      affine.store %p, %C[%i, %j] : memref<32x64xf32>
    }
  }
  memref.dealloc %B : memref<64xf32>
  return
}

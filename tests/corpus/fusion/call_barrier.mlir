// A call between producer and consumer: its effects are unseen, so nothing may cross it.
func.func @observe(%M: memref<32xf32>) {
  affine.for %i = 0 to 32 {
    %m = affine.load %M[%i] : memref<32xf32>
    %d = arith.addf %m, %m : f32
    affine.store %d, %M[%i] : memref<32xf32>
  }
  return
}
func.func @barrier(%A: memref<32xf32>, %B: memref<32xf32>, %C: memref<32xf32>) {
  affine.for %i = 0 to 32 {
    %a = affine.load %A[%i] : memref<32xf32>
    affine.store %a, %B[%i] : memref<32xf32>
  }
  func.call @observe(%B) : (memref<32xf32>) -> ()
  affine.for %i = 0 to 32 {
    %b = affine.load %B[%i] : memref<32xf32>
    %s = arith.addf %b, %b : f32
    affine.store %s, %C[%i] : memref<32xf32>
  }
  return
}

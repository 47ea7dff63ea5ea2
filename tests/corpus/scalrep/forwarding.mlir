// Store-to-load forwarding, a redundant load and a dead store in one loop body; a 0-d
// memref; a store to another argument (which may alias) between a store and a load; an
// scf.for body (a non-affine region) with a memref.load.
func.func @forwarding(%A: memref<32xf32>, %B: memref<32xf32>, %C: memref<2xf32>) {
  %T = memref.alloc() : memref<32xf32>
  %S = memref.alloc() : memref<f32>
  affine.for %i = 0 to 32 {
    %a = affine.load %A[%i] : memref<32xf32>
    %a2 = affine.load %A[%i] : memref<32xf32>
    %s = arith.addf %a, %a2 : f32
    affine.store %s, %T[%i] : memref<32xf32>
    affine.store %a, %B[%i] : memref<32xf32>
    %t = affine.load %T[%i] : memref<32xf32>
    affine.store %t, %S[] : memref<f32>
    %u = affine.load %S[] : memref<f32>
    %v = arith.mulf %u, %t : f32
    affine.store %v, %B[%i] : memref<32xf32>
    affine.store %a, %A[%i] : memref<32xf32>
    %w = affine.load %B[%i] : memref<32xf32>
    %x = arith.addf %w, %v : f32
    affine.store %x, %A[%i] : memref<32xf32>
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %k = %c0 to %c4 step %c1 {
    %z = memref.load %A[%k] : memref<32xf32>
    affine.store %z, %S[] : memref<f32>
    %y = affine.load %S[] : memref<f32>
    memref.store %y, %B[%k] : memref<32xf32>
  }
  %last = affine.load %S[] : memref<f32>
  affine.store %last, %C[1] : memref<2xf32>
  memref.dealloc %T : memref<32xf32>
  return
}

// The size of a subview's dynamic dimension is a valid symbol when the size operand is one.
func.func @tiles(%A: memref<?x?xf32>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = memref.dim %A, %c0 : memref<?x?xf32>
  affine.for %t = 0 to %m step 32 {
    %s = memref.subview %A[0, 0] [%rows, %t] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
    %d = memref.dim %s, %c0 : memref<?x?xf32, strided<[?, 1]>>
    affine.for %i = 0 to %d {
      %v = affine.load %s[%i, 0] : memref<?x?xf32, strided<[?, 1]>>
      affine.store %v, %A[%i, %t] : memref<?x?xf32>
    }
  }
  return
}

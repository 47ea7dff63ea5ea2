// The seed specification's matrix multiply in its 2018-19 syntax: `func`, `for`
// instructions and the standard `alloc`/`dim`/`load`/`store`/`constant` operations.
func @multiply(%A: memref<100x?xf32>, %B: memref<?x50xf32>) -> (memref<100x50xf32>) {
  %n = dim %A, 1 : memref<100x?xf32>
  %C = alloc() : memref<100x50xf32>
  %zero = constant 0.0 : f32
  for %i = 0 to 100 {
    for %j = 0 to 50 {
      store %zero, %C[%i, %j] : memref<100x50xf32>
      for %k = 0 to %n {
        %a_v = load %A[%i, %k] : memref<100x?xf32>
        %b_v = load %B[%k, %j] : memref<?x50xf32>
        %prod = mulf %a_v, %b_v : f32
        %c_v = load %C[%i, %j] : memref<100x50xf32>
        %sum = addf %c_v, %prod : f32
        store %sum, %C[%i, %j] : memref<100x50xf32>
      }
    }
  }
  return %C : memref<100x50xf32>
}

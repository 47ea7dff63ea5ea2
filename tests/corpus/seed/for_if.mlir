// `for` and `if` instructions (seeds/002 "'for' instruction", "'if' instruction").
// Fixed: the callees @F1/@F2/@S1/@S2 are declared; `@reduced_domain_example(%A, %X, %N) :
// (...)` is not the function grammar, and %N must be an index to bound a loop; the
// undefined #map42/#map43 are defined.
#map57 = (d0)[s0] -> (s0 - d0 - 1)
#map42 = (d0) -> (d0 floordiv 2)
#map43 = (d0, d1) -> (d0 + d1 mod 10)
#set = (d0, d1)[s0]: (d0 - 10 >= 0, s0 - d0 - 9 >= 0,
                      d1 - 10 >= 0, s0 - d1 - 9 >= 0)

func @F1(memref<?x?xf32>, index, index) -> f32
func @F2(f32, memref<?x?xf32>, index, index)
func @S1(i32, index, index) -> i32
func @S2(i32, memref<10xi32>, index, index)

func @simple_example(%A: memref<?x?xf32>, %B: memref<?x?xf32>) {
  %N = dim %A, 0 : memref<?x?xf32>
  for %i = 0 to %N step 1 {
    for %j = 0 to %N {   // implicitly steps by 1
      %0 = affine_apply #map57(%j)[%N]
      %tmp = call @F1(%A, %i, %0) : (memref<?x?xf32>, index, index)->(f32)
      call @F2(%tmp, %B, %i, %0) : (f32, memref<?x?xf32>, index, index)->()
    }
  }
  return
}

func @reduced_domain_example(%A: memref<10xi32>, %X: i32, %N: index) {
  for %i = 0 to %N {
     for %j = 0 to %N {
       %0 = affine_apply #map42(%j)
       %tmp = call @S1(%X, %i, %0) : (i32, index, index) -> i32
       if #set(%i, %j)[%N] {
          %1 = affine_apply #map43(%i, %j)
          call @S2(%tmp, %A, %i, %1) : (i32, memref<10xi32>, index, index) -> ()
       }
    }
  }
  return
}

// `else` and `else if` clauses of the seed grammar, and max/min bounds.
#lb = (d0)[s0] -> (d0, s0)
#ub = (d0)[s0] -> (d0 + 8, s0 + 20)
#set2 = (d0)[s0] : (d0 - s0 >= 0)
func @else_if(%A: memref<100xf32>, %N: index, %v: f32) {
  for %i = 0 to 64 step 4 {
    for %k = max #lb(%i)[%N] to min #ub(%i)[%N] {
      if #set2(%k)[%N] {
        store %v, %A[%k] : memref<100xf32>
      } else if #set2(%i)[%N] {
        store %v, %A[%i] : memref<100xf32>
      } else {
        store %v, %A[%k + 1] : memref<100xf32>
      }
    }
  }
  return
}

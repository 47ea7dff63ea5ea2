// Stores that may not run (under scf.if): the elements they leave unwritten must keep their
// values, so a buffer for them is copied in before it is copied out. Under affine.if the
// written elements are known exactly and need no copy-in.
func.func @relu_in_place(%A: memref<6x20xf32>, %B: memref<6x20xf32>) {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 20 {
      %a = affine.load %A[%i, %j] : memref<6x20xf32>
      %p = arith.cmpf ogt, %a, %z : f32
      scf.if %p {
        affine.store %a, %B[%i, %j] : memref<6x20xf32>
      }
    }
  }
  return
}

func.func @upper_half(%A: memref<8x8xf32>, %B: memref<8x8xf32>) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.if affine_set<(d0, d1) : (d1 - d0 >= 0)>(%i, %j) {
        %a = affine.load %A[%i, %j] : memref<8x8xf32>
        affine.store %a, %B[%i, %j] : memref<8x8xf32>
      }
    }
  }
  return
}

// for i in [0,10), j in [i+1,10): A[j] -= A[i]; the distance components are coupled.
func.func @tri(%A: memref<10xf32>) {
  affine.for %i = 0 to 10 {
    affine.for %j = affine_map<(d0) -> (d0 + 1)>(%i) to 10 {
      %a = affine.load %A[%i] : memref<10xf32>
      %b = affine.load %A[%j] : memref<10xf32>
      %d = arith.subf %b, %a : f32
      affine.store %d, %A[%j] : memref<10xf32>
    }
  }
  return
}

// Semi-affine subscripts and maps: multiplication and division by symbols.
func.func @semi(%A: memref<?xf32>, %N: index, %B: memref<?xf32, affine_map<(d0)[s0] -> (d0 floordiv s0, d0 mod s0)>>) {
  %c2 = arith.constant 2 : index
  affine.for %i = 0 to 16 {
    %a = affine.load %A[%i * symbol(%N)] : memref<?xf32>
    affine.store %a, %A[%i * symbol(%N) + 1] : memref<?xf32>
    %b = affine.load %A[(%i + symbol(%N)) floordiv symbol(%c2)] : memref<?xf32>
    affine.store %b, %A[%i mod symbol(%N)] : memref<?xf32>
  }
  return
}

// floyd-warshall (PolyBench): all-pairs shortest paths on i32 weights (arith.minsi/addi).
// scale: 24=N
func.func @floyd_warshall(%path: memref<24x24xi32>) {
  affine.for %k = 0 to 24 {
    affine.for %i = 0 to 24 {
      affine.for %j = 0 to 24 {
        %ij = affine.load %path[%i, %j] : memref<24x24xi32>
        %ik = affine.load %path[%i, %k] : memref<24x24xi32>
        %kj = affine.load %path[%k, %j] : memref<24x24xi32>
        %s = arith.addi %ik, %kj : i32
        %m = arith.minsi %ij, %s : i32
        affine.store %m, %path[%i, %j] : memref<24x24xi32>
      }
    }
  }
  return
}

// nussinov (PolyBench): RNA secondary structure by dynamic programming on i32 scores,
// i running down (i = N-1-ii); a pair matches when seq[i] + seq[j] == 3. The guards
// j - 1 >= 0 and i + 1 < N of the original hold on every iteration and are left out.
// scale: 24=N 23=N-1 25=N+1
func.func @nussinov(%seq: memref<24xi32>, %table: memref<24x24xi32>) {
  %c1 = arith.constant 1 : i32
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  affine.for %ii = 0 to 24 {
    affine.for %j = affine_map<(d0) -> (-d0 + 24)>(%ii) to 24 {
      %t = affine.load %table[-%ii + 23, %j] : memref<24x24xi32>
      %l = affine.load %table[-%ii + 23, %j - 1] : memref<24x24xi32>
      %m1 = arith.maxsi %t, %l : i32
      affine.store %m1, %table[-%ii + 23, %j] : memref<24x24xi32>
      %t1 = affine.load %table[-%ii + 23, %j] : memref<24x24xi32>
      %d = affine.load %table[-%ii + 24, %j] : memref<24x24xi32>
      %m2 = arith.maxsi %t1, %d : i32
      affine.store %m2, %table[-%ii + 23, %j] : memref<24x24xi32>
      affine.if affine_set<(d0, d1) : (d0 + d1 - 25 >= 0)>(%ii, %j) {
        %t2 = affine.load %table[-%ii + 23, %j] : memref<24x24xi32>
        %dl = affine.load %table[-%ii + 24, %j - 1] : memref<24x24xi32>
        %si = affine.load %seq[-%ii + 23] : memref<24xi32>
        %sj = affine.load %seq[%j] : memref<24xi32>
        %sum = arith.addi %si, %sj : i32
        %is3 = arith.cmpi eq, %sum, %c3 : i32
        %match = arith.select %is3, %c1, %c0 : i32
        %v = arith.addi %dl, %match : i32
        %m3 = arith.maxsi %t2, %v : i32
        affine.store %m3, %table[-%ii + 23, %j] : memref<24x24xi32>
      } else {
        %t2 = affine.load %table[-%ii + 23, %j] : memref<24x24xi32>
        %dl = affine.load %table[-%ii + 24, %j - 1] : memref<24x24xi32>
        %m3 = arith.maxsi %t2, %dl : i32
        affine.store %m3, %table[-%ii + 23, %j] : memref<24x24xi32>
      }
      affine.for %k = affine_map<(d0) -> (-d0 + 24)>(%ii) to affine_map<(d0) -> (d0)>(%j) {
        %t3 = affine.load %table[-%ii + 23, %j] : memref<24x24xi32>
        %a = affine.load %table[-%ii + 23, %k] : memref<24x24xi32>
        %b = affine.load %table[%k + 1, %j] : memref<24x24xi32>
        %s = arith.addi %a, %b : i32
        %m4 = arith.maxsi %t3, %s : i32
        affine.store %m4, %table[-%ii + 23, %j] : memref<24x24xi32>
      }
    }
  }
  return
}

// A random nest (from the slice property test) whose producer slice is the lexicographic
// minimum of an earliest-use relation over many modulo subscripts: ISL does not finish it
// (minutes without a budget) at either depth; fusion says it cannot decide, within the
// slice budget, and leaves the nests apart.
func.func @nest(%A0: memref<5xi32>, %A1: memref<7x3xi32>, %A2: memref<4xi32>) {
  affine.for %i1 = 0 to 4 {
    affine.for %i2 = max affine_map<(d0) -> (2, d0 - 3)>(%i1) to 8 {
      affine.parallel (%p3) = (0) to (7) {
        %v4 = affine.load %A2[((%i1 * 3 + %i2 * -1 + %p3 + 9) floordiv 2) mod 4] : memref<4xi32>
        %v5 = affine.load %A2[((%i1 * 3 + %i2 * -1 + %p3 + 0) floordiv 3) mod 4] : memref<4xi32>
        %c6 = arith.constant 5 : i32
        %e7 = arith.muli %v4, %c6 : i32
        %v8 = affine.load %A0[(%i2 * -2 + %p3 * 3 + 7) mod 5] : memref<5xi32>
        %e9 = arith.subi %e7, %v8 : i32
        affine.store %e9, %A1[%p3, ((%i1 * 3 + %i2 * 2 + 5) floordiv 3) mod 3] : memref<7x3xi32>
      }
      %r11 = affine.parallel (%p10) = (0) to (7) reduce ("addi") -> (i32) {
        %v12 = affine.load %A2[((%i1 * -1 + %i2 * 2 + %p10 * -2 + 5) floordiv 2) mod 4] : memref<4xi32>
        affine.yield %v12 : i32
      }
      affine.store %r11, %A1[((%i1 * -1 + %i2 + 6) floordiv 3) mod 7, (%i1 * 2 + 3) mod 3] : memref<7x3xi32>
    }
    affine.for %i13 = 0 to 5 {
      %r15 = affine.parallel (%p14) = (0) to (4) reduce ("addi") -> (i32) {
        %v16 = affine.load %A1[(%i1 * -2 + %i13 * 3 + %p14 * 2 + 3) mod 7, (%i1 * 3 + %p14 * -1 + 0) mod 3] : memref<7x3xi32>
        %v17 = affine.load %A2[((%i1 + %i13 * -1 + %p14 * 3 + 7) floordiv 3) mod 4] : memref<4xi32>
        %e18 = arith.maxsi %v16, %v17 : i32
        %v19 = affine.load %A1[(%i1 * 2 + %i13 * -1 + %p14 * -1 + 7) mod 7, (%i1 * 2 + %i13 * -1 + %p14 + 5) mod 3] : memref<7x3xi32>
        %c20 = arith.constant 1 : i32
        %e21 = arith.muli %e18, %c20 : i32
        affine.yield %e21 : i32
      }
      affine.store %r15, %A2[(%i1 * 2 + %i13 * 2 + 9) mod 4] : memref<4xi32>
      affine.if affine_set<(d0, d1) : (d1 mod 2 == 0, d1 mod 2 == 0)>(%i1, %i13) {
        affine.if affine_set<(d0, d1) : (d0 mod 2 == 0, d0 - d0 + 0 >= 0)>(%i1, %i13) {
          affine.for %i22 = 2 to min affine_map<(d0) -> (3, d0 + 2)>(%i13) {
            %v23 = affine.load %A1[((%i1 + %i13 + %i22 * 3 + 7) floordiv 2) mod 7, (%i1 * -2 + %i13 * -2 + %i22 * 3 + 5) mod 3] : memref<7x3xi32>
            %v24 = affine.load %A1[(%i1 * -1 + %i22 * -2 + 3) mod 7, ((%i1 * -2 + %i13 * -2 + %i22 * -2 + 9) floordiv 3) mod 3] : memref<7x3xi32>
            %e25 = arith.addi %v23, %v24 : i32
            %v26 = affine.load %A2[((%i1 * -1 + %i22 * 2 + 7) floordiv 2) mod 4] : memref<4xi32>
            %e27 = arith.addi %e25, %v26 : i32
            affine.store %e27, %A0[((%i1 + %i13 * -1 + %i22 * -1 + 7) floordiv 2) mod 5] : memref<5xi32>
          }
        } else {
        }
      } else {
      }
    }
  }
  return
}

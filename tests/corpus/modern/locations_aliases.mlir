// Locations (trailing, on block arguments and loop induction variables, aliases defined
// after use) and attribute/type aliases, as mlir-opt --mlir-print-debuginfo prints them.
#loc1 = loc("input.mlir":3:14)
!vec = vector<4xf32>
#map = affine_map<(d0) -> (d0 + 1)>
module {
  func.func @f(%arg0: memref<8xf32> loc("input.mlir":3:20), %arg1: !vec loc(#loc1)) {
    affine.for %arg2 loc("input.mlir":4:19) = 0 to 7 {
      %0 = affine.load %arg0[%arg2 + 1] : memref<8xf32> loc(#loc4)
      %1 = affine.apply #map(%arg2) loc(fused["a.mlir":1:1, "b.mlir":2:2])
      affine.store %0, %arg0[%arg2] : memref<8xf32> loc(callsite("f"("x.c":1:1) at "y.c":2:2))
    } loc(#loc3)
    return loc(unknown)
  } loc(#loc2)
} loc(#loc)
#loc = loc("input.mlir":0:0)
#loc2 = loc("input.mlir":3:1)
#loc3 = loc("input.mlir":4:5)
#loc4 = loc("named"("input.mlir":5:12))

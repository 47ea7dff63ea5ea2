// mlir-opt --mlir-print-op-generic output of modern/affine_parallel.mlir, read as input.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<() -> (0, 0)>
#map2 = affine_map<() -> (100, 100)>
#map3 = affine_map<(d0) -> (d0)>
#map4 = affine_map<(d0) -> (d0 + 4)>
#map5 = affine_map<(d0) -> (0, d0)>
#map6 = affine_map<(d0) -> (d0, 100)>
#map7 = affine_map<(d0) -> (0, d0, 2)>
#map8 = affine_map<(d0) -> (d0 floordiv 2, 50, 100)>
"builtin.module"() ({
  "func.func"() <{function_type = (memref<100x100xf32>, index, index) -> (f32, f32), sym_name = "par"}> ({
  ^bb0(%arg0: memref<100x100xf32>, %arg1: index, %arg2: index):
    %0:2 = "affine.parallel"() <{lowerBoundsGroups = dense<1> : tensor<2xi32>, lowerBoundsMap = #map1, reductions = [0, 4], steps = [1, 1], upperBoundsGroups = dense<1> : tensor<2xi32>, upperBoundsMap = #map2}> ({
    ^bb0(%arg7: index, %arg8: index):
      %2 = "affine.load"(%arg0, %arg7, %arg8) <{map = #map}> : (memref<100x100xf32>, index, index) -> f32
      "affine.yield"(%2, %2) : (f32, f32) -> ()
    }) : () -> (f32, f32)
    "affine.parallel"(%arg1, %arg2) <{lowerBoundsGroups = dense<2> : tensor<1xi32>, lowerBoundsMap = #map5, reductions = [], steps = [4], upperBoundsGroups = dense<2> : tensor<1xi32>, upperBoundsMap = #map6}> ({
    ^bb0(%arg5: index):
      "affine.parallel"(%arg5, %arg5) <{lowerBoundsGroups = dense<1> : tensor<1xi32>, lowerBoundsMap = #map3, reductions = [], steps = [1], upperBoundsGroups = dense<1> : tensor<1xi32>, upperBoundsMap = #map4}> ({
      ^bb0(%arg6: index):
        %1 = "affine.load"(%arg0, %arg5, %arg6) <{map = #map}> : (memref<100x100xf32>, index, index) -> f32
        "affine.store"(%1, %arg0, %arg6, %arg5) <{map = #map}> : (f32, memref<100x100xf32>, index, index) -> ()
        "affine.yield"() : () -> ()
      }) : (index, index) -> ()
      "affine.yield"() : () -> ()
    }) : (index, index) -> ()
    "affine.parallel"(%arg1, %arg2) <{lowerBoundsGroups = dense<[1, 2]> : tensor<2xi32>, lowerBoundsMap = #map7, reductions = [], steps = [2, 5], upperBoundsGroups = dense<[2, 1]> : tensor<2xi32>, upperBoundsMap = #map8}> ({
    ^bb0(%arg3: index, %arg4: index):
      "affine.yield"() : () -> ()
    }) : (index, index) -> ()
    "func.return"(%0#0, %0#1) : (f32, f32) -> ()
  }) : () -> ()
}) : () -> ()


// Core operations of the seed specification: affine_apply, call, call_indirect, dim
// (seeds/002 "Core Operations").  Fixed: callees are declared so the calls verify.
#map10 = (d0, d1) -> (floordiv(d0,8) + floordiv(d1,128))

func @my_add(tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>

func @core(%s: index, %t: index, %n: index, %0: tensor<16xf32>, %1: tensor<16xf32>,
           %15: (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>, %A: tensor<4 x ? x f32>) {
  %r1 = affine_apply #map10 (%s, %t)

  // Inline example.
  %42 = constant 42 : index
  %r2 = affine_apply (i)[s0] -> (i+s0) (%42)[%n]

  // Calling the CFG function my_add.
  %31 = call @my_add(%0, %1) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>

  %32 = call_indirect %15(%0, %1)
        : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>

  // Always returns 4, can be constant folded:
  %x = dim %A, 0 : tensor<4 x ? x f32>

  // Returns the dynamic dimension of %A.
  %y = dim %A, 1 : tensor<4 x ? x f32>

  // Equivalent generic form:
  %gx = "dim"(%A){index: 0} : (tensor<4 x ? x f32>) -> index
  %gy = "std.dim"(%A){index: 1} : (tensor<4 x ? x f32>) -> index
  return
}

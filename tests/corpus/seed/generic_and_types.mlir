// Generic operations, dialect types, type aliases, tuples and multi-result calls
// (seeds/000 "Operations", "Type Aliases", "Tuple Type", "Dialect specific types").
// Fixed: `"foo"(%x) : vector<4 x f32> -> ()` needs a parenthesised function type; the
// llvm intrinsic returns two results, bound with `%x:2` (as seeds/000 writes it); the
// LLVM dialect now spells `!llvm<"i32*">` as `!llvm.ptr` (mlir-opt rejects the old form).
!avx.m128 = type vector<4 x f32>

func @multi_return() -> (f32, i32)

func @generic(%42: f32, %12: i32, %v1: vector<8x128xf32>, %v2: vector<8x128xf32>,
              %x: vector<4 x f32>, %a: i16, %b: i16,
              %p: !llvm.ptr, %s: !tf<"string">, %t0: tuple<>, %t1: tuple<f32>,
              %t2: tuple<i32, f32, tensor<i1>, i5>, %t1u: tensor<*xf32>) {
  // Call a function that returns two results.
  // The results of %call can be accessed via the <name> `#` <opNo> syntax.
  %call:2 = call @multi_return() : () -> (f32, i32)

  // Pretty form that defines a unique name for each result.
  %foo, %bar = call @multi_return() : () -> (f32, i32)

  // Invoke a TensorFlow function called tf.scramble with two inputs
  // and an attribute "fruit".
  %2 = "tf.scramble"(%call#0, %bar){fruit: "banana"} : (f32, i32) -> f32

  // Invoke the TPU specific add instruction that takes two vector register
  // as input and produces a vector register.
  %7 = "tpu.add"(%v1, %v2)
               : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xf32>

  // Using the original type.
  "foo"(%x) : (vector<4 x f32>) -> ()

  // Using the type alias.
  "foo"(%x) : (!avx.m128) -> ()

  // TPU vector add instruction
  %f = "tpu.vaddf32"(%v1, %v2)
             : (vector<8x128xf32>, vector<8x128xf32>) -> vector<8x128xf32>

  // LLVM: %x = call {i16, i1} @llvm.sadd.with.overflow.i16(i16 %a, i16 %b)
  %xo:2 = "llvm.sadd.with.overflow.i16"(%a, %b) : (i16, i16) -> (i16, i1)

  // TensorFlow Add operation.
  %ta = "tf.Add"(%t1u, %t1u) : (tensor<*xf32>,tensor<*xf32>) -> tensor<*xf32>

  // TensorFlow Conv2d operation.
  %y = "tf.Conv2d"(%t1u, %t1u)
          {strides: [1,1,2,1], padding: "SAME", dilations: [2,1,1,1]}
   : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return
}

// Arithmetic and tensor operations of the seed specification (seeds/002 "Arithmetic
// Operations", "'tensor_load'", "'tensor_store'", "'extract_element'").
// Fixed: the generic `cmpi` example misses a `)`; cast examples get defined operands.
func @arith(%b: i64, %c: i64, %g: vector<4xi32>, %h: vector<4xi32>, %y: tensor<4x?xi8>, %z: tensor<4x?xi8>,
            %bf: f64, %cf: f64, %gf: vector<4xf32>, %hf: vector<4xf32>, %yf: tensor<4x?xbf16>, %zf: tensor<4x?xbf16>,
            %lhs: i32, %rhs: i32, %vl: vector<4xi64>, %vr: vector<4xi64>, %m2: memref<4x?xf32>,
            %t1: tensor<*xf32>, %v: vector<4x4xi32>, %t: tensor<4x4xi32>,
            %8: tensor<4x?xf32>, %10: memref<4x?xf32>) {
  // Scalar addition.
  %a = addi %b, %c : i64
  // SIMD vector element-wise addition, e.g. for Intel SSE.
  %f = addi %g, %h : vector<4xi32>
  // Tensor element-wise addition, analogous to HLO's add operation.
  %x = addi %y, %z : tensor<4x?xi8>

  %af = addf %bf, %cf : f64
  %ff = addf %gf, %hf : vector<4xf32>
  %xf = addf %yf, %zf : tensor<4x?xbf16>

  // Custom form of scalar "signed less than" comparison.
  %x1 = cmpi "slt", %lhs, %rhs : i32
  // Generic form of the same operation.
  %x2 = "cmpi"(%lhs, %rhs){predicate: 2} : (i32, i32) -> i1
  // Custom form of vector equality comparison.
  %x3 = cmpi "eq", %vl, %vr : vector<4xi64>
  // Generic form of the same operation.
  %x4 = "std.cmpi"(%vl, %vr){predicate: 0} : (vector<4xi64>, vector<4xi64>) -> vector<4xi1>

  // Integer constant
  %1 = constant 42 : i32

  %da = divis %b, %c : i64
  %df = divis %g, %h : vector<4xi32>
  %dx = divis %y, %z : tensor<4x?xi8>
  %ua = diviu %b, %c : i64
  %ra = remis %b, %c : i64
  %rb = remiu %g, %h : vector<4xi32>

  // Discard static dimension information.
  %3 = memref_cast %m2 : memref<4x?xf32> to memref<?x?xf32>
  // Convert to a type with more known dimensions.
  %4 = memref_cast %3 : memref<?x?xf32> to memref<4x?xf32>

  %ma = mulf %bf, %cf : f64
  %mf = mulf %gf, %hf : vector<4xf32>
  %mx = mulf %yf, %zf : tensor<4x?xbf16>

  // Custom form of scalar selection.
  %s1 = select %x1, %lhs, %rhs : i32
  // Generic form of the same operation.
  %s2 = "select"(%x1, %lhs, %rhs) : (i1, i32, i32) -> i32

  // Convert from unknown rank to rank 2 with unknown dimension sizes.
  %2 = tensor_cast %t1 : tensor<*xf32> to tensor<?x?xf32>

  %c1i = constant 1 : index
  %e4 = extract_element %t[%c1i, %c1i] : tensor<4x4xi32>

  // Produces a value of tensor<4x?xf32> type.
  %12 = tensor_load %10 : memref<4x?xf32>
  tensor_store %8, %10 : memref<4x?xf32>
  return
}

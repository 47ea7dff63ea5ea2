// Constants of every float type, read and printed exactly: hexadecimal literals (NaN
// payloads, infinities, subnormals, largest values, f80's explicit integer bit), decimal
// literals rounded to the type (read as a double first, as mlir-opt reads them), dense
// elements and splats, dense arrays.
func.func @scalars() -> (f8E5M2, tf32, bf16, f16, f80) {
  %a = arith.constant 0x7E : f8E5M2
  %b = arith.constant 0x3F800 : tf32
  %c = arith.constant 0x3F80 : bf16
  %d = arith.constant 0x7C01 : f16
  %e = arith.constant 1.5 : f80
  %f = arith.constant 2.5 : f8E5M2
  %g = arith.constant 0x7FFFC000000000000001 : f80
  %h = arith.constant 2.5 : f8E4M3FN
  %i = arith.constant 480.0 : f8E4M3FN
  %j = arith.constant 1.0e10 : f16
  %k = arith.constant 0.1 : bf16
  %l = arith.constant 1.0e400 : f64
  %m = arith.constant -0.0 : f8E4M3FNUZ
  %n = arith.constant 3.0 : f8E8M0FNU
  %o = arith.constant 0.0 : f8E8M0FNU
  %p = arith.constant 1.0e10 : f6E2M3FN
  %q = arith.constant -1.0e10 : f4E2M1FN
  %r = arith.constant 0x1 : f6E3M2FN
  %s = arith.constant 0x80 : f8E5M2FNUZ
  %t = arith.constant 0x7F : f8E4M3B11FNUZ
  %u = arith.constant 0x70 : f8E3M4
  %v = arith.constant 0x7C : f8E4M3
  %w = arith.constant 0.1 : f128
  %x = arith.constant 0x7FFF0000000000000000000000000001 : f128
  %z = arith.constant 123456789.0 : f64
  return %a, %b, %c, %d, %e : f8E5M2, tf32, bf16, f16, f80
}
func.func @dense() {
  %0 = arith.constant dense<[0x7E, 2.5, -0.0, 0x7C]> : tensor<4xf8E5M2>
  %1 = arith.constant dense<[0x7E00, 0x7E00]> : tensor<2xf16>
  %2 = arith.constant dense<"0x00F80300F803"> : tensor<2xtf32>
  %3 = arith.constant dense<[[1.0, 0x7], [0x8, 0.5]]> : tensor<2x2xf4E2M1FN>
  %4 = arith.constant dense<(0x7FC1, 1.0)> : tensor<2xcomplex<bf16>>
  %5 = arith.constant dense<[0xFF, 0x0, 0x7F]> : vector<3xf8E8M0FNU>
  "test.op"() {a = array<f8E4M3FN: 0x7F, 448.0, 464.0>, b = array<f80: 1.5, 0xFFFF8000000000000000>, c = array<bf16>} : () -> ()
  return
}

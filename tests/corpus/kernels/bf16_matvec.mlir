// Mixed-precision matrix-vector product: bf16 A and x, products and sums in f32
// (arith.extf), y = A x rounded to bf16; then, in bf16 arithmetic, the largest
// |2 * y[i] - 1| (arith.mulf, arith.subf, math.absf, arith.maximumf from -inf).
// scale: 48=M 40=N
func.func @bf16_matvec(%A: memref<48x40xbf16>, %x: memref<40xbf16>, %y: memref<48xbf16>, %ymax: memref<1xbf16>) {
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : bf16
  %one = arith.constant 1.0 : bf16
  %ninf = arith.constant 0xFF80 : bf16
  affine.for %i = 0 to 48 {
    %s = affine.for %j = 0 to 40 iter_args(%acc = %zero) -> (f32) {
      %a = affine.load %A[%i, %j] : memref<48x40xbf16>
      %b = affine.load %x[%j] : memref<40xbf16>
      %ae = arith.extf %a : bf16 to f32
      %be = arith.extf %b : bf16 to f32
      %p = arith.mulf %ae, %be : f32
      %n = arith.addf %acc, %p : f32
      affine.yield %n : f32
    }
    %t = arith.truncf %s : f32 to bf16
    affine.store %t, %y[%i] : memref<48xbf16>
  }
  %m = affine.for %i = 0 to 48 iter_args(%acc = %ninf) -> (bf16) {
    %v = affine.load %y[%i] : memref<48xbf16>
    %d = arith.mulf %v, %two : bf16
    %w = arith.subf %d, %one : bf16
    %a = math.absf %w : bf16
    %n = arith.maximumf %acc, %a : bf16
    affine.yield %n : bf16
  }
  affine.store %m, %ymax[0] : memref<1xbf16>
  return
}

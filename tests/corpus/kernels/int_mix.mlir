// Integer semantics: wrap-around multiplication, signed and unsigned division, remainders,
// shifts, extensions, index casts, comparisons and select over i8 / i32 / i64 / i1.
// scale: 64=N
func.func @int_mix(%a: memref<64xi32>, %b: memref<64xi8>, %out: memref<64xi64>, %flags: memref<64xi1>) {
  %big = arith.constant 1000003 : i32
  %one = arith.constant 1 : i32
  %three = arith.constant 3 : i32
  %seven = arith.constant 7 : i32
  %zero = arith.constant 0 : i32
  affine.for %i = 0 to 64 {
    %x = affine.load %a[%i] : memref<64xi32>
    %y = affine.load %b[%i] : memref<64xi8>
    %ys = arith.extsi %y : i8 to i32
    %iv = arith.index_cast %i : index to i32
    %x1 = arith.addi %x, %iv : i32
    %z = arith.muli %x1, %big : i32
    %z2 = arith.muli %z, %z : i32
    %d = arith.addi %ys, %one : i32
    %q = arith.divsi %z2, %d : i32
    %qu = arith.divui %z2, %d : i32
    %r = arith.remsi %z2, %seven : i32
    %sh = arith.shli %x1, %three : i32
    %sr = arith.shrsi %z2, %three : i32
    %su = arith.shrui %z2, %three : i32
    %neg = arith.cmpi slt, %z2, %zero : i32
    %pick = arith.select %neg, %q, %qu : i32
    %mix1 = arith.xori %pick, %sh : i32
    %mix2 = arith.addi %mix1, %r : i32
    %mix3 = arith.subi %mix2, %sr : i32
    %mix4 = arith.andi %mix3, %su : i32
    %w = arith.extsi %mix4 : i32 to i64
    %wu = arith.extui %mix3 : i32 to i64
    %w2 = arith.muli %w, %wu : i64
    %yt = arith.trunci %z2 : i32 to i8
    %yy = arith.extui %yt : i8 to i64
    %res = arith.addi %w2, %yy : i64
    affine.store %res, %out[%i] : memref<64xi64>
    affine.store %neg, %flags[%i] : memref<64xi1>
  }
  return
}

// ERROR: 5:40: use of value '%12' expects different type than prior uses: 'index' vs 'i32'
// Original problem: seeds/002 'load': the indirect-load example feeds an i32 loaded value to affine_apply.
func @indirect(%A: memref<8x?xi32>, %i: index, %j: index) {
  %12 = load %A[%i, %j] : memref<8x?xi32>
  %3 = affine_apply (d0) -> (2*d0 + 1)(%12)
  return
}

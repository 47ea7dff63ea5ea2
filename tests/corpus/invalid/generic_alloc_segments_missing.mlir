// ERROR: 3:8: 'memref.alloc' op operand count (1) does not match with the total size (0) specified in attribute 'operandSegmentSizes'
func.func @f(%n: index) {
  %b = "memref.alloc"(%n) : (index) -> memref<?xf32>
  return
}

// ERROR: 3:8: 'memref.alloca' op requires an ancestor op with AutomaticAllocationScope trait
"test.region"() ({
  %0 = memref.alloca() : memref<4xf32>
  "test.end"() : () -> ()
}) : () -> ()

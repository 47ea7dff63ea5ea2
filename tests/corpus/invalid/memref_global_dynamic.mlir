// ERROR: 2:1: custom op 'memref.global' type should be static shaped memref, but got 'memref<?xi32>'
memref.global "private" @table : memref<?xi32>

// ERROR: 4:23: expected SSA operand
func.func @f(%n: index) {
  %0 = memref.alloc() : memref<1024xi8>
  %1 = memref.view %0[][%n] : memref<1024xi8> to memref<?xf32>
  return
}

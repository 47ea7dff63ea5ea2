// A call in the consumer, not given the intermediate %t: it cannot reach %t (a local
// allocation used only by loads and stores), so the nests fuse and %t contracts. A producer
// reading a function argument would not fuse: the call may write the argument.
func.func @count(%log: memref<1xf32>) {
  %one = arith.constant 1.0 : f32
  %c = affine.load %log[0] : memref<1xf32>
  %n = arith.addf %c, %one : f32
  affine.store %n, %log[0] : memref<1xf32>
  return
}
func.func @call_in_consumer(%in: memref<64xf32>, %out: memref<64xf32>, %log: memref<1xf32>) {
  %t = memref.alloc() : memref<64xf32>
  affine.for %i = 0 to 64 {
    %ii = arith.index_cast %i : index to i32
    %a = arith.sitofp %ii : i32 to f32
    %b = arith.mulf %a, %a : f32
    affine.store %b, %t[%i] : memref<64xf32>
  }
  affine.for %k = 0 to 64 {
    func.call @count(%log) : (memref<1xf32>) -> ()
    %v = affine.load %t[%k] : memref<64xf32>
    affine.store %v, %out[%k] : memref<64xf32>
  }
  memref.dealloc %t : memref<64xf32>
  return
}

// ERROR: 4:3: operation defines 2 results but was provided 1 to bind
// Original problem: seeds/002 'Target specific operations': one name is bound to the two results of llvm.sadd.with.overflow.
func @llvm(%a: i16, %b: i16) {
  %x = "llvm.sadd.with.overflow.i16"(%a, %b) : (i16, i16) -> (i16, i1)
  return
}

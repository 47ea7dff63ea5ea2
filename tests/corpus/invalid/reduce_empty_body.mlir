// ERROR: 4:5: empty block: expect at least a terminator
func.func @f(%lo: index, %x: i64) {
  %r = scf.parallel (%i) = (%lo) to (%lo) step (%lo) init (%x) -> i64 {
    scf.reduce(%x : i64) {
    ^bb0(%l: i64, %r: i64):
    }
  }
  return
}

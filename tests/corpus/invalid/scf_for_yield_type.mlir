// ERROR: 5:8: 'scf.for' op 0-th region iter_arg and 0-th yielded value have different type: 'i64' != 'i32'
func.func @f(%n: index, %acc: i64) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%s = %acc) -> (i64) {
    %t = arith.index_cast %i : index to i32
    scf.yield %t : i32
  }
  return %r : i64
}

// ERROR: 3:32: expected ':'
// Original problem: seeds/002 'if' example: `@reduced_domain_example(%A, %X, %N) : (...)` is not the function grammar.
func @reduced_domain_example(%A, %X, %N) : (memref<10xi32>, i32, i32) {
  return
}

// ERROR: 4:24: expected ')' in dimensional identifier list
// Original problem: seeds/002 'reshape': `(S -> floordiv(S,4))` writes a map without parenthesised dimensions.
func @reshape(%N: index) {
  %N4 = affine_apply (S -> floordiv(S,4)) (%N)
  return
}

// ERROR: 5:15: expected function type
// Original problem: seeds/002 'Type Aliases': `vector<4 x f32> -> ()` is not a function type (inputs need parentheses).
!avx.m128 = type vector<4 x f32>
func @alias(%x: vector<4 x f32>) {
  "foo"(%x) : vector<4 x f32> -> ()
  return
}

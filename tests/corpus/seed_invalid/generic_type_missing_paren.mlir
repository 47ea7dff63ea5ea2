// ERROR: 5:38: expected ')'
// Original problem: seeds/002 'cmpi': the generic vector example misses a `)` in its function type.
func @cmp(%lhs: vector<4xi64>, %rhs: vector<4xi64>) {
  %x = "std.cmpi"(%lhs, %rhs){predicate: 0}
      : (vector<4xi64>, vector<4xi64> -> vector<4xi1>
  return
}

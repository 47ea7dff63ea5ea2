// ERROR: 3:8: 'arith.select' op failed to verify that condition is signless i1 or has matching shape
func.func @f(%c: vector<2xi1>, %a: vector<4xf32>) -> vector<4xf32> {
  %r = "arith.select"(%c, %a, %a) : (vector<2xi1>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  return %r : vector<4xf32>
}

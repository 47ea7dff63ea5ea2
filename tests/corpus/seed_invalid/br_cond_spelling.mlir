// ERROR: 5:3: unknown operation 'br_cond' (the seed specification defines it as 'cond_br')
// Original problem: seeds/002 'Blocks': the example branches with `br_cond`, the op the spec defines is `cond_br`.
func @simple(i64, i1) -> i64 {
^bb0(%a: i64, %cond: i1):
  br_cond %cond, ^bb1, ^bb2
^bb1:
  return %a : i64
^bb2:
  return %a : i64
}

// ERROR: 3:3: 'scf.if' op expects region #0 to have 0 or 1 blocks
func.func @f(%c: i1) {
  "scf.if"(%c) ({
    scf.yield
  ^second:
    scf.yield
  }, {
  }) : (i1) -> ()
  return
}

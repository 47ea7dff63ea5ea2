// ERROR: 3:3: 'scf.for' op requires one region
func.func @f(%lo: index, %hi: index) {
  "scf.for"(%lo, %hi, %lo) : (index, index, index) -> ()
  return
}

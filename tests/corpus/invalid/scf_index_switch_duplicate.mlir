// ERROR: 3:3: 'scf.index_switch' op has duplicate case value: 1
func.func @f(%k: index) {
  scf.index_switch %k
  case 1 {
    scf.yield
  }
  case 1 {
    scf.yield
  }
  default {
  }
  return
}

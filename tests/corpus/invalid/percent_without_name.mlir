// ERROR: 3:11: invalid SSA name
func.func @f(%a: index) {
  "x.use"(% %a) : (index) -> ()
  return
}

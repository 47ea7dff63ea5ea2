// ERROR: 2:16: custom op 'func.func' 'sym_visibility' is an inferred attribute and should not be specified in the explicit attribute dictionary
func.func @f() attributes {sym_visibility = "public"} {
  return
}

// ERROR: 3:3: custom op 'return' is unknown (tried 'builtin.return' as well)
"func.func"() ({
  return
}) {function_type = () -> (), sym_name = "g"} : () -> ()

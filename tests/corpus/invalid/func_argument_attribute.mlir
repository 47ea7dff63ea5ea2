// ERROR: 2:1: 'func.func' op arguments may only have dialect attributes
func.func private @f(%a: i32 {name = 1}) -> (i32 {test.x})

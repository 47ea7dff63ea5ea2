// ERROR: 2:12: reference to an undefined block
"x.jump"()[^nowhere] : () -> ()

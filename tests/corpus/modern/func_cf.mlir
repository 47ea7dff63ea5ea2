// func: declarations with visibility, argument and result attributes, calls, indirect
// calls, function constants, discardable attributes; cf branches with block arguments.
module @funcs attributes {test.unit, foo.bar = "x"} {
  func.func private @ext(memref<4xf32>, index) -> f32
  func.func nested @nested_decl(i32) -> (i32, i32)
  func.func @attrs(%a: i32 {test.attr = 1 : i32}, %b: f32 {test.flag}) -> (i32 {test.res}, f32) attributes {llvm.emit_c_interface} {
    return %a, %b : i32, f32
  }
  func.func @calls(%m: memref<4xf32>, %i: index) -> f32 {
    %r = call @ext(%m, %i) : (memref<4xf32>, index) -> f32
    %f = func.constant @ext : (memref<4xf32>, index) -> f32
    %s = call_indirect %f(%m, %i) : (memref<4xf32>, index) -> f32
    return %s : f32
  }
  func.func @branches(%a: i32, %c: i1) -> i32 {
    cf.cond_br %c, ^bb1(%a : i32), ^bb2
  ^bb1(%x: i32):
    cf.br ^bb3(%x, %x : i32, i32)
  ^bb2:
    %b = arith.addi %a, %a : i32
    cf.br ^bb3(%b, %a : i32, i32)
  ^bb3(%p: i32, %q: i32):
    %r = arith.muli %p, %q : i32
    cf.cond_br %c, ^bb1(%r : i32), ^bb4
  ^bb4:
    return %r : i32
  }
}

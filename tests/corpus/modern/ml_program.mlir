// The ml_program dialect (seeds/003): globals, loads and stores (also in graph regions
// with token ordering), functions, subgraphs, tokens.
module {
  // Fixed: seeds/003 writes these globals without a visibility, which mlir-opt 22 rejects
  // ("expected 'public', 'private', or 'nested'").
  // Constant global.
  ml_program.global public @foobar(dense<4> : tensor<4xi32>) : tensor<?xi32>
  // Constant with external linkage.
  ml_program.global public mutable @foobar_ext(#ml_program.extern<tensor<4xi32>>) : tensor<?xi32>
  // Mutable global with an undefined initial value.
  ml_program.global private mutable @foobar_mut : tensor<?xi32>

  ml_program.func private @some_extern(i32) -> i32
  ml_program.func @compute(%arg0 : i32) -> i32 {
    %0 = ml_program.global_load @foobar_mut : tensor<?xi32>
    %1 = ml_program.global_load_const @foobar : tensor<?xi32>
    ml_program.global_store @foobar_mut = %0 : tensor<?xi32>
    ml_program.return %arg0 : i32
  }

  ml_program.subgraph private @some_extern_graph(i32) -> i32
  ml_program.subgraph @compute_graph(%arg0 : i32, %token : !ml_program.token) -> i32 {
    %t = ml_program.token
    %0, %cstr = ml_program.global_load_graph @foobar_mut
      ordering (%token -> !ml_program.token) : tensor<?xi32>
    %t2 = ml_program.global_store_graph @foobar_mut = %0
      ordering (%token, %t -> !ml_program.token) : tensor<?xi32>
    ml_program.output %arg0 : i32
  }
}

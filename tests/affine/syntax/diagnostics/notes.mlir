// RUN: poly-opt %s --allow-unregistered-dialect --split-input-file --verify-diagnostics

// The notes mlir-opt attaches to its errors (test_notes_are_mlir_opts runs mlir-opt on this file).

func.func @dominance_failure() {
^bb0:
  "foo"(%x) : (i32) -> ()    // expected-error {{operand #0 does not dominate this use}}
  cf.br ^bb1
^bb1:
  %x = "bar"() : () -> i32    // expected-note {{operand defined here (op in the same region)}}
  return
}

// -----

func.func @dominance_failure() {
^bb0:
  "foo"(%x) : (i32) -> ()    // expected-error {{operand #0 does not dominate this use}}
  %x = "bar"() : () -> i32    // expected-note {{operand defined here (op in the same block)}}
  cf.br ^bb1
^bb1:
  return
}

// -----

func.func @dominance_failure() {
  "foo"() ({
    "foo"(%x) : (i32) -> ()    // expected-error {{operand #0 does not dominate this use}}
  }) : () -> ()
  %x = "bar"() : () -> i32    // expected-note {{operand defined here (op in a parent region)}}
  return
}

// -----

func.func @dominance_failure() {  //  expected-note {{operand defined as a block argument (block #1 in the same region)}}
^bb0:
  cf.br ^bb1(%x : i32)    // expected-error {{operand #0 does not dominate this use}}
^bb1(%x : i32):
  return
}

// -----

func.func @dominance_failure() {  //  expected-note {{operand defined as a block argument (block #1 in a parent region)}}
^bb0:
  %f = "foo"() ({
    "foo"(%x) : (i32) -> ()    // expected-error {{operand #0 does not dominate this use}}
  }) : () -> (i32)
  cf.br ^bb1(%f : i32)
^bb1(%x : i32):
  return
}

// -----

func.func private @redef()  // expected-note {{see existing symbol definition here}}
func.func private @redef()  // expected-error {{redefinition of symbol named 'redef'}}

// -----

func.func @f() {
  %0 = arith.constant 0 : index // expected-note {{previously defined here}}
  %0 = arith.constant 1 : index // expected-error {{redefinition of SSA value '%0'}}
  return
}

// -----

func.func @f() {
  "test.use"(%x) : (index) -> () // expected-note {{previously used here with type 'index'}}
  %x = "test.def"() : () -> i32 // expected-error {{definition of SSA value '%x#0' has type 'i32'}}
  return
}

// -----

func.func @f() {
  "test.use"(%i) : (index) -> () // expected-note {{previously referenced here}}
  affine.for %i = 0 to 4 { // expected-error {{region entry argument '%i' is already in use}}
  }
  return
}

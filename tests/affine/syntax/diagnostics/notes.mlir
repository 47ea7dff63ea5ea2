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

// -----

func.func @f(%a: i32) { // expected-note {{prior use here}}
  %b = arith.addf %a, %a : f32 // expected-error {{use of value '%a' expects different type than prior uses: 'f32' vs 'i32'}}
  return
}

// -----

func.func @f(%c: i1, %x: i32) -> (i32, i32) {
  // expected-error @+1 {{'scf.if' op along control flow edge from Operation scf.yield to parent: region branch point has 1 operands, but region successor needs 2 inputs}}
  %a, %b = scf.if %c -> (i32, i32) {
    scf.yield %x, %x : i32, i32
  } else {
    scf.yield %x : i32 // expected-note {{region branch point}}
  }
  return %a, %b : i32, i32
}

// -----

func.func @f(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) { // expected-error {{'scf.parallel' op expects body to terminate with 'scf.reduce'}}
    scf.yield // expected-note {{terminator here}}
  }
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+2 {{custom op 'arith.addf' expected ::mlir::arith::FastMathFlags to be one of: none, reassoc, nnan, ninf, nsz, arcp, contract, afn, fast}}
  // expected-error @+1 {{custom op 'arith.addf' failed to parse Arith_FastMathAttr parameter 'value' which is to be a `::mlir::arith::FastMathFlags`}}
  %0 = arith.addf %x, %x fastmath<fast,quick> : f32
  return
}

// -----

func.func @f(%x: f32) {
  // expected-error @+2 {{expected ::mlir::vector::CombiningKind to be one of: add, mul, minui, minsi, minnumf, maxui, maxsi, maxnumf, and, or, xor, maximumf, minimumf}}
  // expected-error @+1 {{failed to parse Vector_CombiningKindAttr parameter 'value' which is to be a `::mlir::vector::CombiningKind`}}
  %0 = arith.addf %x, %x {tag = #vector.kind<sum>} : f32
  return
}

// -----

func.func @f(%x: f32, %m: memref<4xf32>, %i: index) {
  %0 = affine.load %m[%i] {map = affine_map<(d0) -> (d0)>} : memref<4xf32> // expected-error {{custom op 'affine.load' attribute 'map' occurs more than once in the attribute list}}
  return
}

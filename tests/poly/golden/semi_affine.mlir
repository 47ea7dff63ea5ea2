// RUN: poly-opt %s --test-memref-dependence-check --verify-diagnostics
// Semi-affine subscripts: with %n bound to a constant the product is affine and exact;
// with a symbolic %m the subscript is over-approximated (any element), never "false".
func.func @semi(%A: memref<64xf32>, %m: index, %c: f32) {
  %n = arith.constant 4 : index
  affine.for %i = 0 to 8 {
    affine.store %c, %A[%i * symbol(%n)] : memref<64xf32>
    // expected-remark@above {{dependence from 0 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 0 to 1 at depth 2 = false}}
    // expected-remark@above {{dependence from 0 to 2 at depth 1 = true}}
    // expected-note@above {{over-approximated (non-affine subscript 0): the dependence may not exist}}
    // expected-remark@above {{dependence from 0 to 3 at depth 1 = true}}
    // expected-note@above {{over-approximated (non-affine subscript 0): the dependence may not exist}}
    %v = affine.load %A[%i * symbol(%n) + 1] : memref<64xf32>
    // expected-remark@above {{dependence from 1 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 0 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 1 to 1 at depth 2 = false}}
    // expected-remark@above {{dependence from 1 to 2 at depth 1 = true}}
    // expected-note@above {{over-approximated (non-affine subscript 0): the dependence may not exist}}
    // expected-remark@above {{dependence from 1 to 3 at depth 1 = false}}
  }
  affine.for %i = 0 to 8 {
    affine.store %c, %A[%i * symbol(%m)] : memref<64xf32>
    // expected-remark@above {{dependence from 2 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 2 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 2 to 2 at depth 1 = [1, 7]}}
    // expected-note@above {{over-approximated (non-affine subscript 0): the dependence may not exist}}
    // expected-remark@above {{dependence from 2 to 2 at depth 2 = false}}
    // expected-remark@above {{dependence from 2 to 3 at depth 1 = [1, 7]}}
    // expected-note@above {{over-approximated (non-affine subscript 0): the dependence may not exist}}
    // expected-remark@above {{dependence from 2 to 3 at depth 2 = true}}
    // expected-note@above {{over-approximated (non-affine subscript 0): the dependence may not exist}}
    %w = affine.load %A[%i * symbol(%m) + 1] : memref<64xf32>
    // expected-remark@above {{dependence from 3 to 0 at depth 1 = false}}
    // expected-remark@above {{dependence from 3 to 1 at depth 1 = false}}
    // expected-remark@above {{dependence from 3 to 2 at depth 1 = [1, 7]}}
    // expected-note@above {{over-approximated (non-affine subscript 0): the dependence may not exist}}
    // expected-remark@above {{dependence from 3 to 2 at depth 2 = false}}
    // expected-remark@above {{dependence from 3 to 3 at depth 1 = false}}
    // expected-remark@above {{dependence from 3 to 3 at depth 2 = false}}
  }
  return
}

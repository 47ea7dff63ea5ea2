"""Small programs the schedule tests share (as MLIR text)."""

from __future__ import annotations

# Scalar code between loops, an iter_args reduction, an affine.if with an else block.
IMPERFECT = """\
func.func @f(%A: memref<16x16xf32>, %x: memref<16xf32>, %y: memref<16xf32>, %z: memref<16xf32>) {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 16 {
    affine.store %zero, %y[%i] : memref<16xf32>
    %sum = affine.for %j = 0 to 16 iter_args(%acc = %zero) -> (f32) {
      %a = affine.load %A[%i, %j] : memref<16x16xf32>
      %b = affine.load %x[%j] : memref<16xf32>
      %p = arith.mulf %a, %b : f32
      %s = arith.addf %acc, %p : f32
      affine.yield %s : f32
    }
    affine.store %sum, %y[%i] : memref<16xf32>
    affine.if affine_set<(d0) : (d0 - 8 >= 0)>(%i) {
      %c2 = arith.constant 2.0 : f32
      %v = affine.load %y[%i - 8] : memref<16xf32>
      %w = arith.mulf %v, %c2 : f32
      affine.store %w, %z[%i] : memref<16xf32>
    } else {
      affine.store %zero, %A[%i, %i] : memref<16x16xf32>
    }
  }
  return
}
"""

# A Gauss-Seidel-like sweep with symbolic sizes: distance (0, 1, -1) on (t, i, j).
STENCIL = """\
func.func @s(%A: memref<?x?xf32>, %N: index, %T: index, %S: index) {
  affine.for %t = 0 to %T {
    affine.for %i = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
      affine.for %j = 1 to affine_map<()[s0] -> (s0 - 1)>()[%N] {
        %a = affine.load %A[%i - 1, %j + 1] : memref<?x?xf32>
        %b = affine.load %A[%i, %j] : memref<?x?xf32>
        %c = arith.addf %a, %b : f32
        affine.store %c, %A[%i, %j] : memref<?x?xf32>
      }
    }
  }
  return
}
"""

# A call whose effects the dependence analysis cannot see.
CALL = """\
func.func private @g()
func.func @f(%A: memref<8xf32>) {
  %z = arith.constant 0.0 : f32
  affine.for %i = 0 to 8 {
    affine.store %z, %A[%i] : memref<8xf32>
    func.call @g() : () -> ()
  }
  return
}
"""

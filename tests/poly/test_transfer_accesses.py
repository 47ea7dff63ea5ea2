"""The elements a ``vector.transfer_read``/``transfer_write`` touches, as the model states
them, equal the lanes a brute-force run records: lane ``l`` of vector dimension ``m`` moves
along the memref dimension result ``m`` of the permutation map names (a broadcast result
moves along none), and lanes past the size of a dimension not marked ``in_bounds`` are
not accessed."""

from __future__ import annotations

import pytest
from dep_oracle import trace

import affine
from affine.ir.types import MemRefType
from poly.model import build_model
from poly.sets import points

# (what the transfer is, its line in the nest below)
CASES = [
    # along d1, 4 lanes from j: columns j..j+3, cut at column 9 for j = 8
    ("%v = vector.transfer_read %A[%i, %j], %p : memref<7x10xf32>, vector<4xf32>", "minor"),
    # along d0 (rows i..i+3, cut at row 6)
    (
        "%v = vector.transfer_read %A[%i, %j], %p {permutation_map = affine_map<(d0, d1) -> (d0)>}"
        " : memref<7x10xf32>, vector<4xf32>",
        "column",
    ),
    # vector dim 0 along d1 (2 lanes), dim 1 along d0 (3 lanes): a 3 x 2 block, cut at both edges
    (
        "%v = vector.transfer_read %A[%i, %j], %p {permutation_map = affine_map<(d0, d1) -> (d1, d0)>}"
        " : memref<7x10xf32>, vector<2x3xf32>",
        "transpose",
    ),
    # dim 0 a broadcast (every row the same elements), dim 1 along d1: columns j..j+2
    (
        "%v = vector.transfer_read %A[%i, %j], %p {permutation_map = affine_map<(d0, d1) -> (0, d1)>}"
        " : memref<7x10xf32>, vector<2x3xf32>",
        "broadcast",
    ),
    # in_bounds: no lane is cut (the loop keeps them inside)
    (
        "%v = vector.transfer_read %A[%i, %j], %p {in_bounds = [true]} : memref<7x10xf32>, vector<2xf32>",
        "in_bounds",
    ),
    # a write of 4 lanes along d1, cut at column 9
    (
        "vector.transfer_write %w, %A[%i, %j] : vector<4xf32>, memref<7x10xf32>",
        "write",
    ),
]

NEST = """
func.func @f(%A: memref<7x10xf32>, %w: vector<4xf32>) {
  %p = arith.constant 0.0 : f32
  affine.for %i = 0 to 7 {
    affine.for %j = 0 to 9 step 2 {
      TRANSFER
    }
  }
  return
}
"""


@pytest.mark.parametrize("transfer", [c[0] for c in CASES], ids=[c[1] for c in CASES])
def test_transfer_elements_are_the_lanes_a_run_touches(transfer: str) -> None:
    module = affine.parse(NEST.replace("TRANSFER", transfer))
    op = next(o for o in module.operation.walk() if o.name.startswith("vector.transfer"))
    t = op.operands[0 if op.name == "vector.transfer_read" else 1].type
    assert isinstance(t, MemRefType)
    width = 4  # bytes of f32: the brute force tells elements apart by their first byte
    (access,) = build_model(module).accesses_of(op)
    assert access.must and access.exact
    modelled = {
        (p[0], p[1], (p[2] * t.shape[1] + p[3]) * width) for p in points(access.relation.wrap())
    }
    run = {(x.ivs[0], x.ivs[1], x.element) for x in trace(module).instances if x.op is op}
    assert modelled == run


def test_a_masked_transfer_is_a_may_access_of_every_lane() -> None:
    text = NEST.replace(
        "TRANSFER",
        "%m = arith.constant dense<[true, false, true, true]> : vector<4xi1>\n"
        "      vector.transfer_write %w, %A[%i, %j], %m : vector<4xf32>, memref<7x10xf32>",
    )
    module = affine.parse(text)
    op = next(o for o in module.operation.walk() if o.name == "vector.transfer_write")
    (access,) = build_model(module).accesses_of(op)
    assert not access.must and access.reasons == ["masked lanes may not be accessed"]
    # every lane inside the row, the masked one included: 7 rows x (4+4+4+4+2) columns
    assert len(list(points(access.relation.wrap()))) == 7 * 18

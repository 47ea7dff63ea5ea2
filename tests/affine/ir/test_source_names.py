"""SSA values keep the names they were written with, so that reports read like the source."""

from __future__ import annotations

import affine


def _names(op: affine.Operation) -> list[str | None]:
    names: list[str | None] = [r.name for r in op.results]
    for region in op.regions:
        for block in region.blocks:
            names += [a.name for a in block.arguments]
            for nested in block.operations:
                names += _names(nested)
    return names


SOURCE = """\
func.func @f(%A: memref<10xf32>, %N: index) {
  affine.for %i = 0 to 10 {
    %v = affine.load %A[%i] : memref<10xf32>
    %x:2 = "t.pair"() : () -> (f32, f32)
    affine.store %v, %A[%i] : memref<10xf32>
  }
  return
}
"""


def test_values_keep_their_source_names() -> None:
    module = affine.parse(SOURCE)
    assert _names(module.operation) == ["%A", "%N", "%i", "%v", "%x#0", "%x#1"]


def test_clones_keep_source_names_and_made_values_have_none() -> None:
    module = affine.parse(SOURCE)
    assert _names(module.operation.clone()) == _names(module.operation)
    printed = affine.print_module(module)
    assert "%x" not in printed and "%A" not in printed  # the printer numbers values itself


def test_a_loop_is_labelled_by_its_iv_or_where_the_iv_has_no_name_by_its_op() -> None:
    from affine.analysis.loops import lower_bound, upper_bound
    from affine.ir.labels import loop_label
    from transforms.loop_utils import new_loop

    module = affine.parse(SOURCE, "f.mlir")
    (loop,) = [op for op in module.walk() if op.name == "affine.for"]
    assert loop_label(loop) == "%i at f.mlir:2:3"
    made = new_loop(lower_bound(loop), upper_bound(loop), like=loop)  # a loop a pass makes
    assert loop_label(made) == "affine.for at f.mlir:2:3"  # not "<argument #0> at ..."

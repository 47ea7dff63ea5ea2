"""The schedule explorer (transforms/explorer.py) on the stencil A[i][j] += A[i-1][j+1]:
a legal edit (skew, then tiles) gives code that computes what the original does, an
illegal one (interchange) is named with the dependence's source positions and drawn in red;
the widget's controls, set from Python, change the verdict, the picture and the code."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest

pytest.importorskip("matplotlib", reason="the test extra installs matplotlib")

from conftest import ROOT, corpus_kernel

import affine
from poly import ScheduleError
from transforms.explorer import Explorer
from transforms.loop_utils import innermost_loops

STENCIL = (ROOT / "examples" / "stencil.mlir").read_text(encoding="utf-8")
STORE = "affine.store %s, %A[%i, %j] at stencil.mlir:9:7"
LOAD = "affine.load %A[%i - 1, %j + 1] at stencil.mlir:6:12"
N = 13


def _inputs(n: int = N) -> list:
    return [np.random.default_rng(1).random((n, n), dtype=np.float32), n]


def _explorer() -> Explorer:
    return Explorer(affine.parse(STENCIL, "stencil.mlir"), params={"%N": 6}, inputs=_inputs())


def _shown(markup: str) -> str:
    """The text a browser shows for ``markup``."""
    return html.unescape(re.sub(r"<[^>]*>", "", markup))


def _violated(picture) -> dict[str, int]:
    """Arrows drawn per label ending in "violated"."""
    return {
        c.get_label(): len(c.U)
        for c in picture.axes[0].collections
        if c.get_label().endswith("violated")
    }


def test_a_legal_edit_computes_the_original_s_results() -> None:
    ex = _explorer()
    ex.skew("%j", {"%i": 1}).tile(["%i", "%j"], [4, 4])
    assert ex.verdict.legal
    assert ex.schedule.loops == ["%i.tile", "%j.tile", "%i.point", "%j.point"]
    text = ex.mlir()
    assert text.count("affine.for") == 4 and "step 4" in text
    reread = affine.parse(text, "explored.mlir")
    for backend in ("interp", "c"):
        assert affine.check_equivalent(ex.module, reread, *_inputs(), backend=backend)
    assert _violated(ex.picture()) == {}
    assert ex.module.functions()[0] is ex.function  # the module is untouched


def test_an_illegal_edit_names_the_dependence_and_draws_it_red() -> None:
    ex = _explorer()
    ex.interchange("%i", "%j")
    verdict = ex.verdict
    assert verdict.status == "illegal"
    assert f"RAW dependence from S0 ({STORE}) to S0 ({LOAD}) is reversed" in verdict.reason
    # N = 6: 5 x 5 instances, (i, j) -> (i + 1, j - 1) for 1 <= i <= 4, 1 <= j <= 4
    assert _violated(ex.picture()) == {"RAW %A @9→@6: violated": 16}
    assert "this code does not keep the dependences" in ex._repr_html_()
    with pytest.raises(ScheduleError, match="not measured: the schedule is illegal"):
        ex.measure()
    wrong = affine.parse(ex.mlir(), "wrong.mlir")
    assert not affine.check_equivalent(ex.module, wrong, *_inputs(), backend="interp")


def test_undo_set_schedule_and_parallel_marks() -> None:
    ex = _explorer()
    ex.parallel("%j")
    assert ex.verdict.legal
    ex.parallel("%i")
    assert "is carried by parallel loop %i" in ex.verdict.reason
    ex.undo().undo()
    assert ex.schedule is ex.original
    ex.undo()
    assert ex.schedule is ex.original
    ex.set_schedule("[N] -> { S0[i, j] -> [2i + j, i] }")
    assert ex.verdict.legal
    assert affine.check_equivalent(ex.module, ex.new_module(), *_inputs(), backend="interp")
    with pytest.raises(ScheduleError, match="cannot read the schedule"):
        ex.set_schedule("{ S0[i, j] -> ")
    assert len(ex.history) == 2  # the original and the schedule read; the bad text is no step


def test_measure_times_both_versions_on_the_same_inputs() -> None:
    ex = _explorer()
    ex.skew("%j", {"%i": 1})
    result = ex.measure(repeats=1)
    assert result.equivalent
    assert result.original.min > 0 and result.new.min > 0
    assert result.speedup == result.original.min / result.new.min
    assert "speedup" in str(result) and "results agree" in str(result)


def test_the_widget_s_controls_drive_the_explorer() -> None:
    pytest.importorskip("ipywidgets", reason="the notebook extra installs ipywidgets")
    ex = _explorer()
    controls = ex.widget()
    assert controls.nest.options == (("S0 in %i, %j", "S0"),)
    assert list(controls.order.options) == ["%i, %j", "%j, %i"]
    assert "legal" in controls.verdict.value
    first_picture, first_code = controls.image.value, controls.code.value
    controls.order.value = "%j, %i"
    assert "illegal" in controls.verdict.value and "stencil.mlir:9:7" in controls.verdict.value
    assert controls.image.value != first_picture
    assert ex.schedule.loops == ["%j", "%i"]
    controls.order.value = "%i, %j"
    controls.skews[("%j", "%i")].value = 1
    controls.tiles["%i"].value = 4
    controls.tiles["%j"].value = 4
    assert ex.schedule.loops == ["%i.tile", "%j.tile", "%i.point", "%j.point"]
    assert ex.verdict.legal and ">legal<" in controls.verdict.value
    assert controls.code.value != first_code and "step 4" in _shown(controls.code.value)
    assert controls.text.value == str(ex.schedule)
    controls.parallel["%i"].value = True
    assert "parallel loop %i.tile" in controls.verdict.value
    controls.parallel["%i"].value = False
    controls.text.value = "[N] -> { S0[i, j] -> [j, i] }"
    controls.apply_text.click()
    assert "illegal" in controls.verdict.value
    controls.tiles["%j"].value = 3  # a control again: the controls' schedule
    assert ex.verdict.legal
    controls.measure_button.click()
    assert "speedup" in controls.timing.value
    assert (controls.auto_button in controls.children[3].children) == (ex.auto_schedule_available())


def test_starting_from_the_auto_schedule() -> None:
    # mvt at corpus sizes: the auto-scheduler's choice (ISL's schedule or the source's) is
    # legal in the explorer and computes the original's results
    module = affine.parse((ROOT / "tests/corpus/kernels/mvt.mlir").read_text(), "mvt.mlir")
    ex = Explorer(module)
    assert ex.auto_schedule_available()
    ex.auto_schedule()
    assert ex.verdict.legal
    assert affine.check_equivalent(module, affine.parse(ex.mlir()), backend="interp", seed=2)


def test_the_auto_schedule_s_fused_sweeps_run_without_guards_in_the_explorer() -> None:
    # fdtd-2d at 200 x 240 against an L2 of 64 KiB: the auto-scheduler fuses its sweeps in
    # time tiles, whose code needs its loops split where the statements they run change
    module = corpus_kernel("fdtd_2d", {"TMAX": 4, "NX": 200, "NY": 240})
    ex = Explorer(module)
    ex.auto_schedule(l2=64)
    assert ex.split and ex.verdict.legal
    innermost = innermost_loops(ex.new_function())
    assert innermost and not any(o.name == "affine.if" for op in innermost for o in op.walk())
    assert affine.check_equivalent(module, ex.new_module(), backend="c")

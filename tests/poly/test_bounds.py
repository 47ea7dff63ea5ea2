"""``poly.bounds``: verdicts on hand-written kernels, and against brute-force enumeration of
generated nests on small instances (no access proven that is not; every witness real)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import affine
from affine.exec.elements import ExecutionError
from poly.bounds import OUT_OF_BOUNDS, PROVEN, UNKNOWN, check_bounds

KERNEL = """\
func.func @k(%A: memref<10xf32>, %B: memref<?x4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %B, %c0 : memref<?x4xf32>
  affine.for %i = 0 to 11 {
    %v = affine.load %A[%i] : memref<10xf32>
  }
  affine.for %i = 1 to 10 {
    %v = affine.load %A[%i - 1] : memref<10xf32>
  }
  affine.for %i = 0 to %m {
    affine.for %j = 0 to 4 step 2 {
      %w = affine.vector_load %B[%i, %j] : memref<?x4xf32>, vector<2xf32>
      %u = affine.vector_load %B[%i, %j + 1] : memref<?x4xf32>, vector<2xf32>
    }
  }
  affine.for %i = 0 to %n {
    affine.store %c0f, %A[%i] : memref<10xf32>
  }
  affine.for %i = 0 to 10 {
    %sq = arith.muli %i, %i : index
    %x = memref.load %A[%sq] : memref<10xf32>
  }
  return
}
"""


def test_verdicts_of_a_hand_written_kernel() -> None:
    text = KERNEL.replace("  %c0 = arith", "  %c0f = arith.constant 0.0 : f32\n  %c0 = arith")
    verdicts = check_bounds(affine.parse(text, "k.mlir"))
    assert [(str(v.loc), v.status) for v in verdicts] == [
        ("k.mlir:6:10", OUT_OF_BOUNDS),
        ("k.mlir:9:10", PROVEN),
        ("k.mlir:13:12", PROVEN),
        ("k.mlir:14:12", OUT_OF_BOUNDS),
        ("k.mlir:18:5", OUT_OF_BOUNDS),
        ("k.mlir:22:10", UNKNOWN),
    ]
    first, _, _, lanes, symbolic, square = verdicts
    assert first.witness == {"%i": 10} and first.index == (10,)
    assert first.describe() == (
        "'affine.load' of %A (memref<10xf32>): may be out of bounds, e.g. index [10] at %i = 10"
    )
    assert lanes.index[1] == 3  # the lanes 3 and 4 of a row of 4
    assert symbolic.witness["%n"] > 10 and symbolic.witness["%i"] >= 10
    assert square.reason == "subscript 0 is not affine"


# -- brute force on generated nests ----------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """A nest of one access: MLIR text and the same bounds and subscripts as Python code
    over the IVs ``i0, i1``, ``n`` (an index argument) and ``m`` (the ``?`` size 0)."""

    text: str
    lowers: tuple[str, ...]
    uppers: tuple[str, ...]
    steps: tuple[int, ...]
    subscripts: tuple[str, ...]
    shape: tuple[int | None, ...]  # None: dynamic (the parameter m for dim 0, r otherwise)
    lanes: int

    def instances(self, n: int, m: int) -> list[tuple[int, ...]]:
        found: list[tuple[int, ...]] = []

        def walk(prefix: tuple[int, ...]) -> None:
            k = len(prefix)
            if k == len(self.steps):
                found.append(prefix)
                return
            env = {**{f"i{j}": v for j, v in enumerate(prefix)}, "n": n, "m": m}
            lo, hi = eval(self.lowers[k], env), eval(self.uppers[k], env)
            for v in range(lo, hi, self.steps[k]):
                walk((*prefix, v))

        walk(())
        return found

    def index(self, ivs: tuple[int, ...], n: int, m: int) -> tuple[int, ...]:
        env = {**{f"i{j}": v for j, v in enumerate(ivs)}, "n": n, "m": m}
        return tuple(eval(s, env) for s in self.subscripts)

    def sizes(self, m: int, r: int = 5) -> tuple[int, ...]:
        return tuple((m if k == 0 else r) if s is None else s for k, s in enumerate(self.shape))

    def outside(self, ivs: tuple[int, ...], n: int, m: int, r: int = 5) -> bool:
        index = self.index(ivs, n, m)
        last = len(index) - 1
        return any(
            x < 0 or x + (self.lanes - 1 if k == last else 0) >= size
            for k, (x, size) in enumerate(zip(index, self.sizes(m, r)))
        )


SYMBOLS = {"s0": "n", "s1": "m"}


@st.composite
def terms(draw: st.DrawFn, names: list[str]) -> tuple[str, str]:
    """An affine expression over ``names`` (MLIR map names) in MLIR and in Python."""
    parts_mlir, parts_py = [], []
    for name in names:
        c = draw(st.integers(-1, 2))
        if c:
            py = SYMBOLS.get(name, "i" + name[1:])
            parts_mlir.append(f"{name} * {c}")
            parts_py.append(f"{py} * {c}")
    c = draw(st.integers(-2, 3))
    mlir = " + ".join([*parts_mlir, str(c)])
    py = " + ".join([*parts_py, str(c)])
    op = draw(st.sampled_from(["", "floordiv", "mod"]))
    if op:
        k = draw(st.integers(2, 3))
        mlir = f"({mlir}) {op} {k}"
        py = f"({py}) {'//' if op == 'floordiv' else '%'} {k}"
    return mlir, py


@st.composite
def cases(draw: st.DrawFn) -> Case:
    rank = draw(st.integers(1, 2))
    shape = tuple(draw(st.one_of(st.none(), st.integers(1, 6))) for _ in range(rank))
    depth = draw(st.integers(1, 2))
    symbols = ["s0", "s1"]
    lowers, uppers, steps, lines = [], [], [], []
    for k in range(depth):
        names = [f"d{j}" for j in range(k)] + symbols
        lo, hi = draw(terms(names)), draw(terms(names))
        step = draw(st.integers(1, 2))
        dims = ", ".join(f"%i{j}" for j in range(k))
        head = f"({', '.join(f'd{j}' for j in range(k))})[s0, s1]"
        lines.append(
            f"{'  ' * (k + 1)}affine.for %i{k} = affine_map<{head} -> ({lo[0]})>({dims})[%n, %m] "
            f"to affine_map<{head} -> ({hi[0]})>({dims})[%n, %m] step {step} {{"
        )
        lowers.append(lo[1])
        uppers.append(hi[1])
        steps.append(step)
    names = [f"d{j}" for j in range(depth)] + symbols
    subs = [draw(terms(names)) for _ in range(rank)]
    lanes = draw(st.sampled_from([1, 1, 2, 3]))
    type_text = "memref<" + "x".join("?" if s is None else str(s) for s in shape) + "xf32>"
    indent = "  " * (depth + 1)
    vector = f"vector<{lanes}xf32>"
    access = (
        f"{indent}%v = affine.vector_load %A[{_inline(subs, depth)}] : {type_text}, {vector}"
        if lanes > 1
        else f"{indent}%v = affine.load %A[{_inline(subs, depth)}] : {type_text}"
    )
    dim0 = (
        "%m = memref.dim %A, %c0 : " + type_text
        if shape[0] is None
        else "%m = arith.constant 3 : index"
    )
    text = "\n".join(
        [
            f"func.func @k(%A: {type_text}, %n: index) {{",
            "  %c0 = arith.constant 0 : index",
            f"  {dim0}",
            *lines,
            access,
            *("  " * (k + 1) + "}" for k in reversed(range(depth))),
            "  return",
            "}",
        ]
    )
    return Case(
        text,
        tuple(lowers),
        tuple(uppers),
        tuple(steps),
        tuple(s[1] for s in subs),
        shape,
        lanes,
    )


def _inline(subs: list[tuple[str, str]], depth: int) -> str:
    """Subscripts written with the SSA names (affine.load's custom syntax)."""
    out = []
    for mlir, _ in subs:
        text = mlir
        for j in reversed(range(depth)):
            text = text.replace(f"d{j}", f"%i{j}")
        out.append(text.replace("s0", "symbol(%n)").replace("s1", "symbol(%m)"))
    return ", ".join(out)


def _m_values(case: Case) -> range:
    return range(0, 6) if case.shape[0] is None else range(3, 4)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cases())
def test_verdicts_agree_with_enumeration(case: Case) -> None:
    module = affine.parse(case.text, "gen.mlir")
    (verdict,) = check_bounds(module)
    if verdict.status == PROVEN:
        r_values = range(0, 6) if len(case.shape) > 1 and case.shape[1] is None else [5]
        for n, m, r in itertools.product(range(-1, 8), _m_values(case), r_values):
            for ivs in case.instances(n, m):
                assert not case.outside(ivs, n, m, r), (case.text, n, m, r, ivs)
    elif verdict.status == OUT_OF_BOUNDS:
        w = verdict.witness
        n = w.get("%n", 0)
        m = w.get("%m", 3 if case.shape[0] is not None else 0)
        r = w.get("size 1 of %A", 5)
        ivs = tuple(w[f"%i{k}"] for k in range(len(case.steps)))
        assert ivs in case.instances(n, m), (case.text, w)
        assert case.outside(ivs, n, m, r), (case.text, w)
        assert verdict.index == case.index(ivs, n, m)


# -- run-time checks -----------------------------------------------------------------------------


@pytest.mark.parametrize("backend", ["interp", "c"])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=cases(), n=st.integers(0, 6), m=st.integers(1, 5))
def test_runs_fail_exactly_when_an_instance_is_outside(
    backend: str, case: Case, n: int, m: int
) -> None:
    module = affine.parse(case.text, "gen.mlir")
    sizes = case.sizes(m)
    A = np.ones(sizes, dtype=np.float32)
    m_value = m if case.shape[0] is None else 3
    expected = any(case.outside(ivs, n, m_value) for ivs in case.instances(n, m_value))
    try:
        affine.run(module, A, n, backend=backend)
        failed = False
    except ExecutionError as e:
        failed = True
        assert e.location is not None and e.location.line == 4 + len(case.steps)
        assert e.message.startswith("out-of-bounds load: index [")
    assert failed == expected

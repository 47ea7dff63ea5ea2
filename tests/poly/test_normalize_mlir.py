"""Normalisation against ``mlir-opt -normalize-memrefs`` (mlir-opt 22): the same new types
and the same subscripts (compared as functions of the loop indices and arguments), and
kernels that compute the same results when run before and after, for tiled, transposed,
offset, strided, skewed and permuted layouts."""

from __future__ import annotations

import random

import pytest
from conftest import run_mlir_opt

import transforms
from affine import parse, print_module
from affine.dialects.verifier import verify
from affine.ir.core import BlockArgument, Module, Operation, Value
from affine.ir.types import MemRefType
from transforms.memref_normalization import normalize_memrefs

pytestmark = pytest.mark.mlir

LAYOUTS = {
    # name: (shape, layout)
    "tiled": ((64, 64), "affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, d0 mod 16, d1 mod 16)>"),
    "tiled_partial": ((10, 10), "affine_map<(d0, d1) -> (d0 floordiv 4, d1 floordiv 4, d0 mod 4, d1 mod 4)>"),
    "transposed": ((8, 12), "affine_map<(d0, d1) -> (d1, d0)>"),
    "offset": ((8, 12), "affine_map<(d0, d1) -> (d0 + 2, d1 + 5)>"),
    "linear": ((4, 2), "affine_map<(d0, d1) -> (d0 * 2 + d1 + 5)>"),
    "strided": ((4, 8), "strided<[16, 2], offset: 3>"),
    "skewed": ((6, 6), "affine_map<(d0, d1) -> (d0, d0 + d1)>"),
    "permuted_3d": ((2, 3, 4), "affine_map<(d0, d1, d2) -> (d2, d0, d1)>"),
}  # fmt: skip


def _type(shape: tuple[int, ...], layout: str) -> str:
    return f"memref<{'x'.join(map(str, shape))}xf32, {layout}>"


def _accesses_module(shape: tuple[int, ...], layout: str) -> str:
    """A function argument and an alloc with the layout, accessed in loops through several
    subscripts (plain, permuted, shifted, constant), passed to and returned from calls."""
    t = _type(shape, layout)
    rank = len(shape)
    ivs = [f"%i{k}" for k in range(rank)]
    opens = "".join(f"{'  ' * k}    affine.for %i{k} = 0 to {shape[k]} {{\n" for k in range(rank))
    closes = "".join(f"{'  ' * k}    }}\n" for k in reversed(range(rank)))
    pad = "  " * rank + "    "
    reversed_ivs = ", ".join(f"{shape[k] - 1} - {ivs[k]}" for k in range(rank))
    constants = ", ".join(str(min(1, n - 1)) for n in shape)
    body = (
        f"{pad}%v = affine.load %a[{', '.join(ivs)}] : {t}\n"
        f"{pad}affine.store %v, %b[{reversed_ivs}] : {t}\n"
        f"{pad}%w = affine.load %b[{constants}] : {t}\n"
        f"{pad}%s = arith.addf %v, %w : f32\n"
        f"{pad}affine.store %s, %a[{', '.join(ivs)}] : {t}\n"
    )
    return f"""
func.func private @ext({t}) -> {t}
func.func @id(%m: {t}) -> {t} {{
  return %m : {t}
}}
func.func @k(%a: {t}) -> {t} {{
  %b = memref.alloc() : {t}
{opens}{body}{closes}  %r = call @id(%b) : ({t}) -> {t}
  %e = call @ext(%r) : ({t}) -> {t}
  memref.dealloc %b : {t}
  return %a : {t}
}}
"""


def _signatures(module: Module) -> list[str]:
    out = []
    for op in module.walk():
        if op.name == "func.func":
            out.append(str(op.properties["function_type"].value))  # type: ignore[attr-defined]
        elif op.name in ("memref.alloc", "memref.alloca", "func.call"):
            out += [str(r.type) for r in op.results]
    return out


def _value(v: Value, env: dict) -> int:
    """The integer value of an index operand: a function argument or loop index from
    ``env``, a constant, or an ``affine.apply`` of such values."""
    if isinstance(v, BlockArgument):
        owner = v.owner.parent_op
        assert owner is not None
        if owner.name == "func.func":
            return env[("arg", v.index)]
        depth = sum(1 for a in owner.ancestors() if a.name == "affine.for")
        return env[("iv", depth)]
    op = v.owner_op
    assert op is not None
    if op.name == "arith.constant":
        return op.properties["value"].value  # type: ignore[attr-defined]
    assert op.name == "affine.apply", op.name
    m = op.properties["map"].value  # type: ignore[attr-defined]
    values = [_value(x, env) for x in op.operands]
    return m.evaluate(values[: m.num_dims], values[m.num_dims :])[0]


def _subscripts(module: Module) -> list[tuple[Operation, list]]:
    """(access op, the map and operands) of every affine access to a memref, in order."""
    out = []
    for op in module.walk():
        if op.name in ("affine.load", "affine.store", "affine.vector_load", "affine.vector_store"):
            memref_index = 1 if "store" in op.name else 0
            out.append((op, [op.operands[memref_index + 1 :], op.properties["map"].value]))  # type: ignore[attr-defined]
    return out


def _evaluate(access: list, env: dict) -> list[int]:
    operands, m = access
    values = [_value(v, env) for v in operands]
    return m.evaluate(values[: m.num_dims], values[m.num_dims :])


def _mlir_normalized(mlir_opt: str, text: str) -> Module:
    out = run_mlir_opt(mlir_opt, text, "-normalize-memrefs")
    assert out.returncode == 0, out.stderr
    return parse(out.stdout)


def _assert_same_subscripts(
    ours: Module, theirs: Module, shape: tuple[int, ...], name: str
) -> None:
    """The same accesses in the same order, with subscripts equal at random loop indices."""
    ours_accesses, theirs_accesses = _subscripts(ours), _subscripts(theirs)
    assert [op.name for op, _ in ours_accesses] == [op.name for op, _ in theirs_accesses]
    rng = random.Random(name)
    for _ in range(60):
        env = {("iv", k): rng.randrange(n) for k, n in enumerate(shape)}
        for (_, a), (_, b) in zip(ours_accesses, theirs_accesses):
            assert _evaluate(a, env) == _evaluate(b, env)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_same_types_and_subscripts_as_mlir_opt(mlir_opt: str, name: str) -> None:
    shape, layout = LAYOUTS[name]
    text = _accesses_module(shape, layout)
    theirs = _mlir_normalized(mlir_opt, text)
    remarks: list[str] = []
    ours = normalize_memrefs(parse(text), remarks)
    verify(ours)
    assert remarks == []
    assert _signatures(ours) == _signatures(theirs)
    assert all(
        r.type.has_identity_layout
        for op in ours.walk()
        for r in op.results
        if isinstance(r.type, MemRefType)
    )
    _assert_same_subscripts(ours, theirs, shape, name)
    # Our output is accepted by mlir-opt and is a fixed point of its normalisation.
    again = run_mlir_opt(mlir_opt, print_module(ours), "-normalize-memrefs")
    assert again.returncode == 0, again.stderr
    assert _signatures(parse(again.stdout)) == _signatures(ours)


KERNEL = """
func.func @kernel(%in: memref<{shape}xf32>, %out: memref<{shape}xf32>) {{
  %t = memref.alloc() : {t}
{copy}
{use}
  memref.dealloc %t : {t}
  return
}}
"""


def _kernel(shape: tuple[int, ...], layout: str) -> str:
    t = _type(shape, layout)
    rank = len(shape)
    ivs = ", ".join(f"%i{k}" for k in range(rank))
    flipped = ", ".join(f"{shape[k] - 1} - %i{k}" for k in range(rank))

    def nest(body: str) -> str:
        opens = "".join(f"  {'  ' * k}affine.for %i{k} = 0 to {shape[k]} {{\n" for k in range(rank))
        closes = "".join(f"  {'  ' * k}}}\n" for k in reversed(range(rank)))
        pad = "  " + "  " * rank
        return opens + "".join(pad + line + "\n" for line in body.splitlines()) + closes

    plain = f"memref<{'x'.join(map(str, shape))}xf32>"
    copy = nest(f"%v = affine.load %in[{ivs}] : {plain}\naffine.store %v, %t[{flipped}] : {t}")
    use = nest(
        f"%a = affine.load %t[{ivs}] : {t}\n%b = affine.load %t[{flipped}] : {t}\n"
        f"%c = arith.mulf %a, %b : f32\n%d = arith.addf %c, %a : f32\n"
        f"affine.store %d, %out[{ivs}] : {plain}"
    )
    return KERNEL.format(shape="x".join(map(str, shape)), t=t, copy=copy, use=use)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_rewritten_kernels_compute_the_same_results(mlir_opt: str, name: str) -> None:
    from affine.exec.equivalence import check_equivalent

    shape, layout = LAYOUTS[name]
    original = parse(_kernel(shape, layout))
    ours = normalize_memrefs(original)
    theirs = _mlir_normalized(mlir_opt, _kernel(shape, layout))
    assert _signatures(ours) == _signatures(theirs)
    assert check_equivalent(original, ours, backend="interp", seed=1)
    assert check_equivalent(theirs, ours, backend="interp", seed=2)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["tiled", "transposed", "skewed"])
def test_rewritten_kernels_agree_under_mlir_runner(
    mlir_opt: str, mlir_runner: str, name: str
) -> None:
    """The compiled original and our rewrite print the same checksums (mlir-runner)."""
    from affine.exec.mlir_runner import run_mlir_runner

    shape, layout = LAYOUTS[name]
    original = parse(_kernel(shape, layout))
    ours = normalize_memrefs(original)
    first = run_mlir_runner(original.function("kernel"), mlir_opt, mlir_runner)
    second = run_mlir_runner(ours.function("kernel"), mlir_opt, mlir_runner)
    assert first.checksums == second.checksums


def test_negative_layout_values_are_refused_where_mlir_opt_goes_out_of_bounds(
    mlir_opt: str,
) -> None:
    # mlir-opt 22 turns memref<4xf32, (d0) -> (d0 - 2)> into memref<2xf32> and index i into
    # i - 2, which is negative for i < 2.  We leave it alone and say why.
    text = """
func.func @f(%i: index) -> f32 {
  %a = memref.alloc() : memref<4xf32, affine_map<(d0) -> (d0 - 2)>>
  %v = affine.load %a[%i] : memref<4xf32, affine_map<(d0) -> (d0 - 2)>>
  return %v : f32
}
"""
    theirs = _mlir_normalized(mlir_opt, text)
    assert "memref<2xf32>" in _signatures(theirs)
    ((_, access),) = _subscripts(theirs)
    assert _evaluate(access, {("arg", 0): 0}) == [-2]
    remarks: list[str] = []
    ours = normalize_memrefs(parse(text), remarks)
    assert "memref<4xf32, affine_map<(d0) -> (d0 - 2)>>" in _signatures(ours)
    assert remarks == [
        "@f is left alone: layout result 0 of memref<4xf32, affine_map<(d0) -> (d0 - 2)>> "
        "takes the negative value -2"
    ]


def test_memref_dim_keeps_the_old_size_where_mlir_opt_reads_the_new_one(mlir_opt: str) -> None:
    text = """
func.func @f() -> index {
  %a = memref.alloc() : memref<8x8xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)>>
  %c0 = arith.constant 0 : index
  %d = memref.dim %a, %c0 : memref<8x8xf32, affine_map<(d0, d1) -> (d0 floordiv 4, d1, d0 mod 4)>>
  return %d : index
}
"""
    from affine.exec.interp import Interpreter

    theirs = _mlir_normalized(mlir_opt, text)
    ours = normalize_memrefs(parse(text))
    assert Interpreter(parse(text)).call("f", []) == [8]
    assert Interpreter(ours).call("f", []) == [8]
    assert Interpreter(theirs).call("f", []) == [2]  # the size of the new first dimension
    assert _signatures(ours) == _signatures(theirs)


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_normalize_memrefs_pass_prints_what_mlir_opt_prints(mlir_opt: str, name: str) -> None:
    """``poly-opt --normalize-memrefs`` and ``mlir-opt -normalize-memrefs``: the same types
    and the same subscripts, and no remark."""
    shape, layout = LAYOUTS[name]
    text = _accesses_module(shape, layout)
    theirs = _mlir_normalized(mlir_opt, text)
    result = transforms.normalize_memrefs(parse(text))
    assert result.remarks == []
    ours = parse(print_module(result.module))
    assert _signatures(ours) == _signatures(theirs)
    _assert_same_subscripts(ours, theirs, shape, name)


def test_normalize_memrefs_pass_remarks_on_what_it_leaves_alone() -> None:
    text = """
func.func @f(%m: memref<8xf32, affine_map<(d0) -> (d0 floordiv 2)>>) {
  return
}
"""
    result = transforms.normalize_memrefs(parse(text))
    assert len(result.remarks) == 1
    assert "remark: memrefs not normalized: " in result.remarks[0]

"""Our construction rules for affine expressions equal mlir-opt 22's: on thousands of
random expressions, the map we print is the map mlir-opt prints."""

from __future__ import annotations

import random
import re

import pytest
from conftest import run_mlir_opt

from affine import parse_affine_map


def _random_expr(rng: random.Random, depth: int) -> str:
    if depth == 0 or rng.random() < 0.25:
        roll = rng.random()
        if roll < 0.4:
            return f"d{rng.randrange(3)}"
        if roll < 0.6:
            return f"s{rng.randrange(2)}"
        return str(rng.randint(-5, 9))
    op = rng.choice(["+", "-", "*", "floordiv", "ceildiv", "mod", "neg", "paren", "+", "*"])
    a = _random_expr(rng, depth - 1)
    if op == "neg":
        return f"-({a})"
    if op == "paren":
        return f"({a})"
    if op == "*":
        b = str(rng.randint(-4, 6)) if rng.random() < 0.8 else f"s{rng.randrange(2)}"
        return f"({a}) * {b}" if rng.random() < 0.5 else f"{b} * ({a})"
    if op in ("floordiv", "ceildiv", "mod"):
        # mostly positive divisors; negative ones fold differently (floordiv, ceildiv) or
        # not at all (mod) in MLIR 22, and zero is rejected
        b = (
            str(rng.choice([*range(1, 9), -1, -2, -3]))
            if rng.random() < 0.85
            else f"s{rng.randrange(2)}"
        )
        return f"({a}) {op} {b}"
    return f"{a} {op} {_random_expr(rng, depth - 1)}"


@pytest.mark.mlir
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_expressions_print_as_mlir_opt_prints_them(seed: int, mlir_opt: str) -> None:
    rng = random.Random(seed)
    exprs = [_random_expr(rng, rng.randint(1, 5)) for _ in range(1500)]
    header = "(d0, d1, d2)[s0, s1] -> "
    body = ",\n".join(f"a{i} = affine_map<{header}({e})>" for i, e in enumerate(exprs))
    result = run_mlir_opt(
        mlir_opt, '"test.op"() {' + body + "} : () -> ()\n", "--mlir-print-op-generic"
    )
    assert result.returncode == 0, result.stderr
    aliases = dict(re.findall(r"^#(\w+) = affine_map<(.*)>$", result.stdout, re.M))
    attrs = re.search(r"\{(a0 = .*)\}", result.stdout).group(1)
    reference = {
        int(k[1:]): aliases[v[1:]] for k, v in (kv.split(" = ") for kv in attrs.split(", "))
    }
    mismatches = [
        (e, reference[i], str(parse_affine_map(header + f"({e})")))
        for i, e in enumerate(exprs)
        if str(parse_affine_map(header + f"({e})")) != reference[i]
    ]
    assert mismatches == []


# Folds that leave int64, as mlir-opt 22 prints them: a constant-constant fold is not made
# (it would overflow), a reassociating fold ((e + c1) + c2, (e * c1) * c2, c1 * e + c2 * e)
# is made in int64 and wraps, and negating -2^63 in the printer's "-" form wraps too.
INT64_EDGES = [
    ("4611686018427387904 * 4", "4611686018427387904 * 4"),
    ("9223372036854775807 + 1", "9223372036854775807 + 1"),
    ("d0 * 4611686018427387904 * 4", "0"),
    ("(d0 * 3037000500) * 3037000500", "d0 * -9223372036709301616"),
    ("d0 * 3 + d0 * 9223372036854775807", "d0 * -9223372036854775806"),
    ("d0 + 9223372036854775807 + 1", "d0 - -9223372036854775808"),
    ("d1 + d0 * (-9223372036854775807 - 1)", "d1 - d0 * -9223372036854775808"),
    ("-9223372036854775807 - 1", "-9223372036854775808"),
    ("(4611686018427387904 * 2) floordiv 2", "4611686018427387904"),
    ("9223372036854775806 + 1", "9223372036854775807"),
]


@pytest.mark.parametrize(("written", "printed"), INT64_EDGES)
def test_folds_past_int64_are_mlir_opts(written: str, printed: str) -> None:
    assert str(parse_affine_map(f"(d0, d1) -> ({written})")) == f"(d0, d1) -> ({printed})"


@pytest.mark.mlir
def test_int64_edge_table_is_what_mlir_opt_prints(mlir_opt: str) -> None:
    body = ", ".join(
        f"a{i} = affine_map<(d0, d1) -> ({w})>" for i, (w, _) in enumerate(INT64_EDGES)
    )
    result = run_mlir_opt(mlir_opt, '"test.op"() {' + body + "} : () -> ()\n")
    assert result.returncode == 0, result.stderr
    aliases = dict(
        re.findall(r"^#(\w+) = affine_map<\(d0, d1\) -> \((.*)\)>$", result.stdout, re.M)
    )
    used = re.findall(r"a(\d+) = #(\w+)", result.stdout)
    assert {int(i): aliases[a] for i, a in used} == {i: p for i, (_, p) in enumerate(INT64_EDGES)}

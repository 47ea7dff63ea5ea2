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

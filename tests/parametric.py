"""Corpus kernels with their sizes as ``index`` arguments, for the tests of kernels of
unknown sizes."""

from __future__ import annotations

import re


def _size_name(form: str) -> str:
    """The size a ``// scale:`` formula is of (``NB+1`` -> ``NB``)."""
    return form.rstrip("+-/0123456789")


def parametric(text: str) -> tuple[str, list[int]]:
    """A corpus kernel with its sizes as ``index`` arguments (after the others): every
    memref extent ``?`` and every loop bound that is a literal of the ``// scale:`` header
    (``20=N 19=N-1``) that size's map (``()[s0] -> (s0 - 1)``); and the sizes' values at
    which the kernel computes what the original does (other literals are kept)."""
    header = next(line for line in text.splitlines() if line.startswith("// scale:"))
    forms: dict[str, str] = {}
    for pair in header.split(":", 1)[1].split():
        literal, form = pair.split("=")
        forms.setdefault(literal, form)
    names = list(dict.fromkeys(_size_name(f) for f in forms.values()))
    values = {f: int(literal) for literal, f in forms.items()}
    symbols = ", ".join(f"s{k}" for k in range(len(names)))
    operands = ", ".join(f"%{n}" for n in names)

    def bound(literal: str) -> str:
        if literal not in forms:
            return literal
        form = forms[literal]
        name = _size_name(form)
        expr = f"s{names.index(name)}"
        rest = form[len(name) :]
        if rest:
            expr += f" floordiv {rest[1:]}" if rest[0] == "/" else f" {rest[0]} {rest[1:]}"
        return f"affine_map<()[{symbols}] -> ({expr})>()[{operands}]"

    text = re.sub(
        r"memref<([0-9x]+)x(\w+)>",
        lambda m: "memref<" + "?x" * len(m.group(1).split("x")) + m.group(2) + ">",
        text,
    )
    text = re.sub(r"(affine\.for %\w+ = )(\d+)( to )", lambda m: m[1] + bound(m[2]) + m[3], text)
    text = re.sub(
        r"( to )(\d+)( step \d+)?( iter_args| \{)",
        lambda m: m[1] + bound(m[2]) + (m[3] or "") + m[4],
        text,
    )
    sizes = "".join(f", %{n}: index" for n in names)
    text = re.sub(r"(func\.func @\w+\([^)]*)\)", lambda m: m[1] + sizes + ")", text, count=1)
    return text, [values[n] for n in names]


# every loop bound a size: time tiles, register and cache tiles, triangular bands, tail
# jams, min/max bounds, fused statements; at the small caches that make tiles pay

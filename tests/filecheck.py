"""A small FileCheck: match ``// CHECK`` directives against a tool's output.

Supported, as in LLVM's FileCheck: ``CHECK``, ``CHECK-NEXT``, ``CHECK-SAME``, ``CHECK-NOT``,
``CHECK-LABEL``, ``CHECK-DAG``, ``CHECK-EMPTY``; ``{{regex}}`` inside a pattern;
``[[NAME:regex]]`` binds a variable and ``[[NAME]]`` uses it. Whitespace runs in a pattern
match any run of horizontal whitespace. A custom prefix (``--check-prefix``) is a parameter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_DIRECTIVE = re.compile(
    r"//\s*(?P<prefix>[A-Za-z0-9_-]+?)(?P<kind>-NEXT|-SAME|-NOT|-LABEL|-DAG|-EMPTY)?:(?P<body>.*)$"
)


class CheckFailure(AssertionError):
    """A directive did not match; the message names the directive and the output near it."""


@dataclass(frozen=True)
class Directive:
    kind: str  # "", "-NEXT", "-SAME", "-NOT", "-LABEL", "-DAG", "-EMPTY"
    pattern: str
    line: int  # 1-based line in the check file


def directives(check_text: str, prefix: str = "CHECK") -> list[Directive]:
    found = []
    for number, line in enumerate(check_text.splitlines(), 1):
        m = _DIRECTIVE.search(line)
        if m and m.group("prefix") == prefix:
            found.append(Directive(m.group("kind") or "", m.group("body").strip(), number))
    return found


def _compile(pattern: str, variables: dict[str, str]) -> tuple[re.Pattern[str], list[str]]:
    """The regex for one pattern, and the names it binds (in group order)."""
    pieces: list[str] = []
    binds: list[str] = []
    pos = 0
    token = re.compile(r"\{\{(.*?)\}\}|\[\[([A-Za-z_][A-Za-z0-9_]*)(?::(.*?))?\]\]")
    for m in token.finditer(pattern):
        pieces.append(_literal(pattern[pos : m.start()]))
        if m.group(1) is not None:
            pieces.append(f"(?:{m.group(1)})")
        elif m.group(3) is not None:
            binds.append(m.group(2))
            pieces.append(f"({m.group(3)})")
        else:
            name = m.group(2)
            if name not in variables:
                raise CheckFailure(f"undefined variable [[{name}]] in pattern {pattern!r}")
            pieces.append(re.escape(variables[name]))
        pos = m.end()
    pieces.append(_literal(pattern[pos:]))
    return re.compile("".join(pieces)), binds


def _literal(text: str) -> str:
    return r"[ \t]+".join(re.escape(part) for part in re.split(r"[ \t]+", text))


def filecheck(output: str, check_text: str, prefix: str = "CHECK") -> None:
    """Raise :class:`CheckFailure` unless ``output`` satisfies the directives in ``check_text``."""
    checks = directives(check_text, prefix)
    if not checks:
        raise CheckFailure(f"no {prefix}: directives found")
    lines = output.splitlines()
    variables: dict[str, str] = {}
    line = 0  # index of the line where the next search starts
    column = 0  # for CHECK-SAME: where on the previous match line to continue
    last = -1  # line of the previous positive match
    pending_not: list[Directive] = []
    pending_dag: list[Directive] = []

    def search(d: Directive, start: int, stop: int, start_column: int = 0):
        regex, binds = _compile(d.pattern, variables)
        for index in range(start, stop):
            m = regex.search(lines[index], start_column if index == start else 0)
            if m:
                return index, m, binds
        return None

    def bind(m: re.Match[str], binds: list[str]) -> None:
        for i, name in enumerate(binds, 1):
            variables[name] = m.group(i)

    def fail(d: Directive, message: str, at: int) -> CheckFailure:
        near = "\n".join(lines[max(0, at - 2) : at + 3])
        return CheckFailure(
            f"check line {d.line}: {prefix}{d.kind}: {d.pattern}\n{message}\nnear output:\n{near}"
        )

    def flush_dags(stop: int) -> int:
        """Match pending CHECK-DAGs in any order between ``line`` and ``stop``; return the furthest line."""
        furthest = line - 1
        used: set[tuple[int, int]] = set()
        for d in pending_dag:
            regex, binds = _compile(d.pattern, variables)
            hit = None
            for index in range(line, stop):
                for m in regex.finditer(lines[index]):
                    if (index, m.start()) not in used:
                        hit = (index, m)
                        break
                if hit:
                    break
            if hit is None:
                raise fail(d, "CHECK-DAG pattern not found", line)
            used.add((hit[0], hit[1].start()))
            bind(hit[1], binds)
            furthest = max(furthest, hit[0])
        pending_dag.clear()
        return furthest

    def flush_nots(end: tuple[int, int]) -> None:
        """Check the pending CHECK-NOTs between the previous match and ``end`` (line,
        column): nothing before the previous match's end counts, as in FileCheck."""
        start = (line, column if line == last else 0)
        for d in pending_not:
            regex, _ = _compile(d.pattern, variables)
            for index in range(start[0], min(end[0], len(lines) - 1) + 1):
                lo = start[1] if index == start[0] else 0
                hi = end[1] if index == end[0] else len(lines[index])
                if regex.search(lines[index], lo, max(lo, hi)):
                    raise fail(d, f"CHECK-NOT pattern found on output line {index + 1}", index)
        pending_not.clear()

    for d in checks:
        if d.kind == "-NOT":
            pending_not.append(d)
            continue
        if d.kind == "-DAG":
            pending_dag.append(d)
            continue
        if pending_dag:
            furthest = flush_dags(len(lines))
            flush_nots((furthest + 1, 0))
            last, line, column = furthest, furthest + 1, 0
        if d.kind in ("-NEXT", "-SAME", "-EMPTY"):
            if last < 0:
                raise fail(d, f"{prefix}{d.kind} cannot be the first directive", 0)
            if d.kind == "-SAME":
                hit = search(d, last, last + 1, column)
                if not hit:
                    raise fail(d, "not found on the same line", last)
            elif d.kind == "-EMPTY":
                if last + 1 >= len(lines) or lines[last + 1].strip():
                    raise fail(d, "next line is not empty", last + 1)
                flush_nots((last + 1, 0))
                last = line = last + 1
                column = 0
                continue
            else:
                hit = search(d, last + 1, min(last + 2, len(lines)))
                if not hit:
                    raise fail(d, "not found on the next line", last + 1)
            flush_nots((hit[0], hit[1].start()))
        else:
            hit = search(d, line, len(lines), column if line == last else 0)
            if not hit:
                raise fail(d, "pattern not found", line)
            flush_nots((hit[0], hit[1].start()))
        index, m, binds = hit
        bind(m, binds)
        last, column = index, m.end()
        line = index
    if pending_dag:
        furthest = flush_dags(len(lines))
        flush_nots((furthest + 1, 0))
        last, line, column = furthest, furthest + 1, 0
    flush_nots((len(lines), 0))

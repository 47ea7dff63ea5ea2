"""``--verify-diagnostics``: check reported diagnostics against ``expected-*`` comments.

The annotations are MLIR's: ``// expected-remark {{text}}`` expects a remark whose message
contains ``text`` on the same line; ``@above`` / ``@below`` / ``@+N`` / ``@-N`` move the
expected line relative to the comment's line, ``@unknown`` expects no location.
``expected-error-re {{... {{regex}} ...}}`` matches the ``{{...}}`` parts of the text as
regular expressions and the rest literally. Severities: ``error``, ``warning``,
``remark``, ``note``. Every produced diagnostic must be expected and every expectation met;
each problem is reported as an error at the expectation or at the diagnostic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from affine.ir.diagnostics import Diagnostic, Location, SourceFile

_EXPECTED = re.compile(  # MLIR's pattern: blanks allowed before ``@`` and ``{{``
    r"expected-(?P<severity>error|warning|remark|note)(?P<regex>-re)?"
    r" *(?:@(?P<where>above|below|unknown|[+-]\d+))? *\{\{(?P<text>.*)\}\}$"
)
_REGEX_PART = re.compile(r"\{\{(.*?)\}\}")


@dataclass
class Expectation:
    severity: str
    text: str
    line: int | None  # 1-based line the diagnostic must be reported on; None: @unknown
    location: Location  # of the annotation, for reporting
    pattern: re.Pattern[str] | None = None  # expected-*-re: literal text with {{regex}} parts
    matched: bool = False

    def matches(self, message: str) -> bool:
        if self.pattern is not None:
            return self.pattern.search(message) is not None
        return self.text in message


def _pattern(text: str) -> re.Pattern[str]:
    """An ``expected-*-re`` text as a regular expression: ``{{...}}`` parts as written,
    the rest literal."""
    parts = []
    last = 0
    for m in _REGEX_PART.finditer(text):
        parts += [re.escape(text[last : m.start()]), f"(?:{m.group(1)})"]
        last = m.end()
    return re.compile("".join([*parts, re.escape(text[last:])]))


def expectations(source: SourceFile) -> list[Expectation]:
    """The ``expected-*`` annotations of a buffer, with the line each one refers to.

    ``@above`` / ``@below`` skip lines that hold annotations themselves, so several
    annotations for one op can follow (or precede) it.
    """
    lines = source.text.splitlines(keepends=True)
    annotated = [bool(_EXPECTED.search(line)) for line in lines]
    found = []
    offset = 0
    for index, line in enumerate(lines):
        for m in _EXPECTED.finditer(line):
            where = m.group("where")
            target = index
            if where in ("above", "below"):
                step = -1 if where == "above" else 1
                target += step
                while 0 <= target < len(lines) and annotated[target]:
                    target += step
            elif where and where != "unknown":
                target += int(where)
            loc = Location(source, offset + m.start())
            line_number = None if where == "unknown" else target + 1 + source.line_offset
            text = m.group("text")
            pattern = _pattern(text) if m.group("regex") else None
            found.append(Expectation(m.group("severity"), text, line_number, loc, pattern))
        offset += len(line)
    return found


def verify(source: SourceFile, produced: list[Diagnostic]) -> list[Diagnostic]:
    """The errors of a ``--verify-diagnostics`` run (empty when everything matched)."""
    expected = expectations(source)
    problems: list[Diagnostic] = []
    for d in [d for diagnostic in produced for d in (diagnostic, *diagnostic.notes)]:
        line = d.location.line if d.location is not None else None
        match = next(
            (
                e
                for e in expected
                if not e.matched
                and e.severity == d.severity
                and e.line == line
                and e.matches(d.message)
            ),
            None,
        )
        if match is not None:
            match.matched = True
        else:
            problems.append(
                Diagnostic("error", f"unexpected {d.severity}: {d.message}", d.location)
            )
    for e in expected:
        if not e.matched:
            problems.append(
                Diagnostic(
                    "error", f'expected {e.severity} "{e.text}" was not produced', e.location
                )
            )
    return problems

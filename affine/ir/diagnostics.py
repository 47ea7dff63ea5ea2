"""Source files, locations and diagnostics.

Every error a user can trigger is reported as ``FILE:LINE:COL: error: message`` followed by
the source line and a caret, in the style of ``mlir-opt``.  Locations are kept as byte
offsets into a :class:`SourceFile` and turned into line/column pairs only when printed.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import TYPE_CHECKING

from affine.errors import PolyError

if TYPE_CHECKING:
    from collections.abc import Sequence


class SourceFile:
    """The text of one input buffer and the offsets of its line starts (computed lazily)."""

    __slots__ = ("_line_starts", "line_offset", "name", "text")

    def __init__(self, name: str, text: str, line_offset: int = 0) -> None:
        self.name = name
        self.text = text
        self.line_offset = line_offset  # lines before this buffer (``--split-input-file``)
        self._line_starts: list[int] | None = None

    def _starts(self) -> list[int]:
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            pos = find("\n")
            while pos >= 0:
                starts.append(pos + 1)
                pos = find("\n", pos + 1)
            self._line_starts = starts
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of ``offset`` (line counted in the whole original file)."""
        starts = self._starts()
        index = bisect.bisect_right(starts, offset) - 1
        return index + 1 + self.line_offset, offset - starts[index] + 1

    def line_text(self, offset: int) -> str:
        starts = self._starts()
        index = bisect.bisect_right(starts, offset) - 1
        end = self.text.find("\n", starts[index])
        return self.text[starts[index] : end if end >= 0 else len(self.text)]


class Location:
    """A point in a source file; ``str()`` gives ``FILE:LINE:COL``."""

    __slots__ = ("offset", "source")

    def __init__(self, source: SourceFile, offset: int) -> None:
        self.source = source
        self.offset = offset

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Location)
            and self.source is other.source
            and self.offset == other.offset
        )

    def __hash__(self) -> int:
        return hash((id(self.source), self.offset))

    def __repr__(self) -> str:
        return f"Location({self})"

    @property
    def line(self) -> int:
        return self.source.line_col(self.offset)[0]

    @property
    def column(self) -> int:
        return self.source.line_col(self.offset)[1]

    def __str__(self) -> str:
        line, col = self.source.line_col(self.offset)
        return f"{self.source.name}:{line}:{col}"


def render(location: Location | None, severity: str, message: str) -> str:
    """Format a diagnostic as mlir-opt does: header line, source line, caret line."""
    if location is None:
        return f"{severity}: {message}"
    line, col = location.source.line_col(location.offset)
    text = location.source.line_text(location.offset)
    caret = " " * (col - 1) + "^"
    return f"{location.source.name}:{line}:{col}: {severity}: {message}\n{text}\n{caret}"


@dataclass(slots=True, eq=False, repr=False)
class Diagnostic:
    """A message attached to a location: what a pass reports (remarks, warnings) or an error.

    ``op_text`` is the op the message is about, shown in a trailing "see current operation"
    note when the message is rendered with ``show_op``; ``notes`` follow it (mlir-opt's
    attached notes: "previously defined here").
    """

    severity: str
    message: str
    location: Location | None = None
    op_text: str | None = None
    filename: str | None = None  # shown when there is no location
    notes: tuple[Diagnostic, ...] = ()

    def render(self, show_op: bool = True) -> str:
        text = render(self.location, self.severity, self.message)
        if self.location is None and self.filename:
            text = f"{self.filename}: {text}"
        if show_op and self.op_text is not None:
            where = f"{self.location}: " if self.location is not None else ""
            text += f"\n{where}note: see current operation: {self.op_text}"
        for note in self.notes:
            text += "\n" + note.render(show_op)
        return text

    def __repr__(self) -> str:
        return f"Diagnostic({self.severity!r}, {self.message!r}, {self.location})"


class DiagnosticError(PolyError):
    """An error attached to a source location."""

    severity = "error"

    def __init__(
        self,
        message: str,
        location: Location | None = None,
        notes: Sequence[tuple[str, Location | None]] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.notes = tuple(notes)  # (message, location) of each attached note

    def render(self) -> str:
        return self.diagnostic().render()

    def diagnostic(self) -> Diagnostic:
        notes = tuple(Diagnostic("note", text, where) for text, where in self.notes)
        return Diagnostic(self.severity, self.message, self.location, notes=notes)

    def __str__(self) -> str:
        return self.render()


class ParseError(DiagnosticError):
    """Malformed MLIR text."""


class VerifyError(DiagnosticError):
    """Well-formed text describing invalid IR."""

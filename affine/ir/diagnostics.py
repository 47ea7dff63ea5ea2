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

    from affine.ir.core import Operation


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


def render(location: Location | None, severity: str, message: str, source_line: bool = True) -> str:
    """Format a diagnostic as mlir-opt does: header line, then (with ``source_line``) the
    source line and a caret line."""
    if location is None:
        return f"{severity}: {message}"
    line, col = location.source.line_col(location.offset)
    header = f"{location.source.name}:{line}:{col}: {severity}: {message}"
    if not source_line:
        return header
    text = location.source.line_text(location.offset)
    caret = " " * (col - 1) + "^"
    return f"{header}\n{text}\n{caret}"


def op_in_message(op_text: str) -> str:
    """An op's text as a diagnostic shows it: from a line of its own when it takes several
    (MLIR's ``Diagnostic::appendOp``)."""
    return "\n" + op_text if "\n" in op_text else op_text


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
            text += f"\n{where}note: see current operation: {op_in_message(self.op_text)}"
        previous = self.location
        for note in self.notes:
            # as mlir-opt: a note shows its source line where its location is not the last one
            shown = note.location is None or note.location != previous
            text += "\n" + render(note.location, note.severity, note.message, shown)
            previous = note.location
        return text

    def __repr__(self) -> str:
        return f"Diagnostic({self.severity!r}, {self.message!r}, {self.location})"


class DiagnosticError(PolyError):
    """An error attached to a source location; ``op_text`` is the op it is about, as the
    "see current operation" note shows it (set by whoever can print it); ``followed_by``
    are the errors mlir-opt reports right after it for the same cause (a custom op's
    attribute that fails to parse is reported by the attribute's parser, then by the op's)."""

    severity = "error"

    def __init__(
        self,
        message: str,
        location: Location | None = None,
        notes: Sequence[tuple[str, Location | None]] = (),
        followed_by: Sequence[tuple[str, Location | None]] = (),
    ) -> None:
        super().__init__(message)
        self.message = message
        self.location = location
        self.notes = tuple(notes)  # (message, location) of each attached note
        self.followed_by = tuple(followed_by)
        self.op_text: str | None = None

    def render(self) -> str:
        return "\n".join(d.render() for d in self.diagnostics())

    def diagnostic(self) -> Diagnostic:
        """The first error, with its notes."""
        notes = tuple(Diagnostic("note", text, where) for text, where in self.notes)
        return Diagnostic(self.severity, self.message, self.location, self.op_text, notes=notes)

    def diagnostics(self) -> list[Diagnostic]:
        """Every error reported, in order."""
        then = [Diagnostic(self.severity, text, where) for text, where in self.followed_by]
        return [self.diagnostic(), *then]

    def __str__(self) -> str:
        return self.render()


class ParseError(DiagnosticError):
    """Malformed MLIR text."""


class VerifyError(DiagnosticError):
    """Well-formed text describing invalid IR; ``op`` is the op at fault where the error
    is one of its own (MLIR's ``op->emitError``), which the verifier prints in the
    "see current operation" note."""

    def __init__(
        self,
        message: str,
        location: Location | None = None,
        notes: Sequence[tuple[str, Location | None]] = (),
        op: Operation | None = None,
    ) -> None:
        super().__init__(message, location, notes)
        self.op = op

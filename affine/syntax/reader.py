"""The token layer of the MLIR reader: a cursor over one source buffer with the error
reporting every section of the reader uses (mlir-opt's locations and wording).

Invariant: ``kind``, ``start`` and ``end`` describe the current token of ``text``; errors
are :class:`~affine.ir.diagnostics.ParseError` at a location in ``source``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NoReturn

from affine.ir.diagnostics import DiagnosticError, Location, ParseError, SourceFile
from affine.syntax.lexer import _TOKEN, lex

# mlir-opt's lexer words for a sigil that no name follows
_BARE_SIGIL_WORDS = {
    "!": "invalid type identifier",
    "%": "invalid SSA name",
    "#": "invalid attribute name",
    "^": "invalid block name",
}
_MAX_DEPTH = 200  # nesting depth of regions/attributes/types before we refuse the input


def int_value(text: str) -> int:
    """An integer literal: hexadecimal after ``0x``, else decimal (leading zeros allowed, and
    any number of digits: Python's str-to-int conversion refuses more than 4300)."""
    if text.startswith("0x"):
        return int(text, 16)
    digits = text.lstrip("0") or "0"
    value = 0
    for start in range(0, len(digits), 4000):
        chunk = digits[start : start + 4000]
        value = value * 10 ** len(chunk) + int(chunk)
    return value


class TokenReader:
    """Tokens, keywords and integers of one source buffer, and errors at their locations."""

    def __init__(self, text: str, name: str = "<input>", line_offset: int = 0) -> None:
        self.text = text
        self.source = SourceFile(name, text, line_offset)
        self.kind, self.start, self.end = lex(text, 0)
        self.depth = 0
        self.custom_op: str | None = None  # the custom op being read (outside its regions)
        self.custom_op_at = 0  # the offset of its name
        self.seed_functions = 0  # depth of seed-syntax `func @f` bodies being read

    # -- tokens -------------------------------------------------------------------------

    @property
    def tok(self) -> str:
        return self.text[self.start : self.end]

    def advance(self) -> None:
        # The common tokens are lexed inline (this is the hottest path of the reader).
        m = _TOKEN.match(self.text, self.end)
        if m is not None:
            group = m.lastgroup
            if group == "id" or group == "val":
                self.kind = "id" if group == "id" else "%"
                self.start = m.start(group)
                self.end = m.end()
                return
            if group == "punct":
                start = m.start(group)
                self.start = start
                self.end = end = m.end()
                self.kind = self.text[start:end]
                return
        self.kind, self.start, self.end = lex(self.text, self.end)

    def reset(self, pos: int) -> None:
        """Continue lexing at offset ``pos``."""
        self.kind, self.start, self.end = lex(self.text, pos)

    def save(self) -> tuple[str, int, int]:
        return (self.kind, self.start, self.end)

    def restore(self, state: tuple[str, int, int]) -> None:
        self.kind, self.start, self.end = state

    def loc(self, offset: int | None = None) -> Location:
        return Location(self.source, self.start if offset is None else offset)

    def error(
        self,
        message: str,
        offset: int | None = None,
        notes: Sequence[tuple[str, int]] = (),
        followed_by: Sequence[tuple[str, int]] = (),
    ) -> NoReturn:
        """``message`` at ``offset`` (the current token by default), with ``notes`` (text,
        offset) attached and the errors ``followed_by`` (text, offset) after it; but when
        the current token starts with a character that starts no token, mlir-opt's lexer
        has already reported that, so that is the error."""
        if self.kind == "bad":
            # The real problem is the character that starts no token (mlir-opt's lexer words).
            char = self.text[self.start]
            offset = self.start
            if char == '"':
                end = self.text.find("\n", self.start)
                message = "expected '\"' in string literal"
                offset = end if end >= 0 else len(self.text)
            elif char == "@":
                message = "@ identifier expected to start with letter or '_'"
                offset = self.start + 1
            elif char == ".":
                message = "expected three consecutive dots for an ellipsis"
                offset = self.start + 1
            elif char == "\\":
                message = "unknown escape in string literal"
            elif char in _BARE_SIGIL_WORDS:
                message = _BARE_SIGIL_WORDS[char]
            else:
                message = "unexpected character"
            notes = followed_by = ()
        raise ParseError(
            message,
            self.loc(offset),
            [(text, self.loc(at)) for text, at in notes],
            [(text, self.loc(at)) for text, at in followed_by],
        )

    def wrong_token_offset(self) -> int:
        """Where mlir-opt reports a missing token: right after the previous token (backing
        up over blanks, blank lines and ``//`` comments), not at the next token."""
        text = self.text
        pos = self.start
        if self.kind == "eof" and pos > 0:
            pos -= 1
        original = pos
        while True:
            while pos > 0 and text[pos - 1] in " \t":
                pos -= 1
            if pos == 0:
                return original
            if text[pos - 1] not in "\n\r":
                return pos
            pos -= 1  # drop the line break: report at the end of the previous line
            line_start = max(text.rfind("\n", 0, pos), text.rfind("\r", 0, pos)) + 1
            comment = text.find("//", line_start, pos)
            if comment >= 0:
                pos = comment

    def wrong_token(self, message: str) -> NoReturn:
        """``message`` at :meth:`wrong_token_offset` (mlir-opt's ``emitWrongTokenError``)."""
        if self.kind == "bad":
            self.error(message)
        raise ParseError(message, self.loc(self.wrong_token_offset()))

    def op_error(
        self, message: str, offset: int | None = None, followed_by: Sequence[tuple[str, int]] = ()
    ) -> NoReturn:
        """An error of the custom op being read, worded as mlir-opt's custom-op parsers
        report it: ``custom op 'affine.for' <message>`` (and so the errors ``followed_by``)."""
        prefix = self._op_prefix()
        self.error(
            prefix + message, offset, followed_by=[(prefix + m, at) for m, at in followed_by]
        )

    def _op_prefix(self) -> str:
        return "" if self.custom_op is None else f"custom op '{self.custom_op}' "

    def add_op_error(self, error: DiagnosticError, message: str) -> None:
        """Report ``message`` at the custom op's name after ``error`` (mlir-opt's custom
        parsers add such an error when a part they read fails)."""
        error.followed_by += ((self._op_prefix() + message, self.loc(self.custom_op_at)),)

    def expect_op_keyword(self, word: str, context: str = "") -> None:
        """A keyword of a custom op's syntax (an op error at the current token)."""
        if not self.accept_keyword(word):
            self.op_error(f"expected '{word}'{context}")

    def at(self, kind: str) -> bool:
        return self.kind == kind

    def accept(self, kind: str) -> bool:
        if self.kind == kind:
            self.advance()
            return True
        return False

    def expect(self, kind: str, context: str = "") -> None:
        if self.kind != kind:
            self.wrong_token(f"expected '{kind}'{context}")
        self.advance()

    def at_keyword(self, word: str) -> bool:
        return self.kind == "id" and self.text[self.start : self.end] == word

    def accept_keyword(self, word: str) -> bool:
        if self.kind == "id" and self.text[self.start : self.end] == word:
            self.advance()
            return True
        return False

    def expect_keyword(self, word: str, context: str = "") -> None:
        if not self.accept_keyword(word):
            self.error(f"expected '{word}'{context}")

    def parse_keyword(self) -> str:
        if self.kind != "id":
            self.error("expected keyword")
        word = self.tok
        self.advance()
        return word

    def _enter(self) -> None:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            self.error(f"nesting deeper than {_MAX_DEPTH} levels is not supported")

    def _leave(self) -> None:
        self.depth -= 1

    # -- integers -------------------------------------------------------------------------

    def parse_integer(self, what: str = "integer value") -> int:
        negative = self.accept("-")
        if self.kind != "int":
            self.error(f"expected {what}")
        value = int_value(self.tok)
        self.advance()
        return -value if negative else value

    def parse_op_integer(self) -> int:
        """An integer a custom op's parser reads (its error is the op's, as mlir-opt's
        ``OpAsmParser::parseInteger`` reports it)."""
        if self.kind != "int" and not (self.kind == "-" and lex(self.text, self.end)[0] == "int"):
            self.op_error("expected integer value")
        return self.parse_integer()

    def parse_optional_integer(self) -> int | None:
        if self.kind == "int" or (self.kind == "-" and lex(self.text, self.end)[0] == "int"):
            return self.parse_integer()
        return None

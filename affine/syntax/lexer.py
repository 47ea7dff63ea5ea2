"""Tokenizer for MLIR text (modern and 2018-19 seed syntax).

The lexer is position based: :meth:`Lexer.lex` returns the token that starts at or after
a byte offset.  The parser keeps one current token and may re-lex from any offset, which
is how context-sensitive pieces (``16x?xf32`` shapes, opaque ``<...>`` dialect bodies)
are read without a separate token stream.

Token kinds (the first element of a token tuple):

``id``     bare identifier or keyword (``affine.for``, ``f32``, ``d0``, ``floordiv``)
``int``    decimal or hexadecimal integer literal
``float``  floating point literal
``str``    string literal (text includes the quotes)
``%``      SSA value name (``%arg0``, ``%x#1``; the ``#N`` suffix is part of the token)
``^``      block name
``@``      symbol reference (``@foo`` or ``@"quoted"``)
``#``      attribute alias or dialect attribute name
``!``      type alias or dialect type name
punctuation: ``( ) [ ] { } < > , : = + - * ? ->  :: ... {-# #-}``
``eof``    end of input
``bad``    a character that starts no token (reported when the parser reaches it)
"""

from __future__ import annotations

import re

_TOKEN = re.compile(
    r"""(?:[ \t\r\n\f\v]+|//[^\n]*)*(?:
      (?P<id>[A-Za-z_][A-Za-z0-9_$.]*)
    | (?P<num>0x[0-9A-Fa-f]+|[0-9]+(?P<frac>\.[0-9]*(?:[eE][+-]?[0-9]+)?)?)
    | (?P<val>%(?:[0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*)(?:\#[0-9]+)?)
    | (?P<str>"(?:[^"\\\n]|\\.)*")
    | (?P<hash>\#-\}|[\#!](?:[A-Za-z_$.-][A-Za-z0-9_$.-]*|[0-9]+))
    | (?P<caret>\^(?:[0-9]+|[A-Za-z$._-][A-Za-z0-9$._-]*))
    | (?P<sym>@(?:[A-Za-z_][A-Za-z0-9_$.-]*|"(?:[^"\\\n]|\\.)*"))
    | (?P<punct>->|::|\.\.\.|\{-\#|[()\[\]{}<>,=+*?|:-])
    | (?P<eof>\Z)
    )""",
    re.VERBOSE,
)
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_ESCAPE = re.compile(r'\\(?:[nt"\\]|[0-9a-fA-F]{2})?')  # a lone backslash: unknown
_SKIP = re.compile(r"(?:[ \t\r\n\f\v]+|//[^\n]*)*")

Token = tuple[str, int, int]  # (kind, start, end)


def lex(text: str, pos: int) -> Token:
    """Return the first token at or after ``pos`` (skipping whitespace and comments)."""
    m = _TOKEN.match(text, pos)
    if m is None:
        skipped = _SKIP.match(text, pos)
        assert skipped is not None  # _SKIP matches the empty string
        start = skipped.end()
        return ("bad", start, start + 1)
    group = m.lastgroup
    assert group is not None  # every alternative of _TOKEN is a named group
    start = m.start(group)
    end = m.end()
    if group == "id":
        return ("id", start, end)
    if group == "num":
        return ("float" if m.start("frac") >= 0 else "int", start, end)
    if group == "val":
        return ("%", start, end)
    if group == "punct":
        return (text[start:end], start, end)
    if group == "hash":
        kind = text[start]
        return ("#-}" if text.startswith("#-}", start) else kind, start, end)
    if group == "str":
        for escape in _ESCAPE.finditer(text, start, end - 1):
            if escape.end() - escape.start() == 1:
                return ("bad", escape.start(), escape.start() + 1)
        return ("str", start, end)
    if group == "caret":
        return ("^", start, end)
    if group == "sym":
        return ("@", start, end)
    return ("eof", start, start)


_ESCAPES = {"n": 0x0A, "t": 0x09, '"': 0x22, "\\": 0x5C}


def unescape_string(literal: str) -> str:
    """Decode a quoted MLIR string literal (``\\n``, ``\\t``, ``\\"``, ``\\\\``, ``\\XX`` hex)."""
    body = literal[1:-1]
    if "\\" not in body:
        return body
    out = bytearray()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out += ch.encode("utf-8", errors="surrogateescape")
            i += 1
            continue
        nxt = body[i + 1]
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(int(body[i + 1 : i + 3], 16))
            i += 3
    return out.decode("utf-8", errors="surrogateescape")


def escape_string(value: str) -> str:
    """Quote ``value`` the way mlir-opt prints strings (``\\XX`` for quotes and non-printables)."""
    out = ['"']
    for byte in value.encode("utf-8", errors="surrogateescape"):
        if byte == 0x5C:
            out.append("\\\\")
        elif 0x20 <= byte < 0x7F and byte != 0x22:
            out.append(chr(byte))
        else:
            out.append("\\%02X" % byte)
    out.append('"')
    return "".join(out)


def balanced_end(text: str, pos: int) -> tuple[int, str]:
    """Given ``text[pos] == '<'``: the offset just past the matching ``>`` and ``""``; or
    -1 and the innermost bracket left open when a closer does not match or the text ends.

    Nested ``<>``, ``()``, ``[]``, ``{}`` and string literals are skipped; ``->`` does not
    close a bracket.
    """
    closers = {"<": ">", "(": ")", "[": "]", "{": "}"}
    stack: list[str] = []
    i = pos
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            m = _STRING.match(text, i)
            if not m:
                return -1, stack[-1] if stack else "<"
            i = m.end()
            continue
        if ch == "-" and i + 1 < n and text[i + 1] == ">":
            i += 2
            continue
        if ch in closers:
            stack.append(ch)
        elif ch in ">)]}":
            if not stack or closers[stack[-1]] != ch:
                return -1, stack[-1] if stack else "<"
            stack.pop()
            if not stack:
                return i + 1, ""
        i += 1
    return -1, stack[-1] if stack else "<"

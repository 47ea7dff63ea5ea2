"""MLIR text as HTML for notebooks: highlighted by the lexer's tokens, and diffs of two texts.

Invariant: the HTML shows exactly the text, every character escaped (``<``, ``>``, ``&``
and quotes), inside one ``<pre>``; colours are inline styles, so the HTML needs no
stylesheet and no script. Tokens are the lexer's (:mod:`affine.syntax.lexer`); what lies
between two tokens (spaces, comments) is shown as it is, comments in grey.
"""

from __future__ import annotations

import difflib
import html
import re

from affine.syntax.lexer import lex

PRE_STYLE = (
    "font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; "
    "line-height: 1.35; background: #f8f8f8; padding: 6px 8px; border-radius: 4px; "
    "overflow-x: auto; white-space: pre"
)
# token kind -> colour (kinds of affine.syntax.lexer; keywords are identifiers with a dot)
COLORS = {
    "op": "#0b5394",  # affine.for, arith.addf
    "%": "#7a3e9d",  # SSA values
    "@": "#b45f06",  # symbols
    "#": "#38761d",  # attribute aliases
    "!": "#38761d",  # type aliases
    "^": "#7a3e9d",  # block names
    "int": "#a61c00",
    "float": "#a61c00",
    "str": "#a61c00",
    "type": "#45818e",  # f32, index, memref, i64
    "comment": "#888888",
}
_TYPE = re.compile(r"(?:[fi][0-9]+|index|memref|vector|tensor|tuple|complex|none|[bt]f16|tf32)$")
_COMMENT = re.compile(r"//[^\n]*")


def _span(text: str, kind: str) -> str:
    escaped = html.escape(text)
    color = COLORS.get(kind)
    return f'<span style="color: {color}">{escaped}</span>' if color else escaped


def _between(text: str) -> str:
    """Whitespace and comments between tokens, comments coloured."""
    parts, last = [], 0
    for m in _COMMENT.finditer(text):
        parts += [html.escape(text[last : m.start()]), _span(m.group(), "comment")]
        last = m.end()
    parts.append(html.escape(text[last:]))
    return "".join(parts)


def _kind(text: str, token: str) -> str:
    if token != "id":
        return token
    if "." in text:
        return "op"
    return "type" if _TYPE.match(text) else "id"


def highlight(text: str) -> str:
    """The spans of ``text``: every token coloured by its kind (no ``<pre>`` around)."""
    parts, pos = [], 0
    while pos < len(text):
        kind, start, end = lex(text, pos)
        if kind == "eof":
            break
        end = max(end, start + 1)  # a character that starts no token is shown as it is
        parts += [_between(text[pos:start]), _span(text[start:end], _kind(text[start:end], kind))]
        pos = end
    parts.append(_between(text[pos:]))
    return "".join(parts)


def mlir_html(text: str) -> str:
    """``text`` highlighted in one ``<pre>`` (what a module shows in Jupyter)."""
    return f'<pre style="{PRE_STYLE}">{highlight(text)}</pre>'


DIFF_STYLES = {"+": "background: #e6ffec", "-": "background: #ffebe9", "@": "color: #888888"}


def mlir_diff_html(before: str, after: str, names: tuple[str, str] = ("before", "after")) -> str:
    """A unified diff of two MLIR texts (three lines of context), added lines green and
    removed ones red, each line highlighted; "no change" when they are equal."""
    lines = list(
        difflib.unified_diff(
            before.splitlines(), after.splitlines(), names[0], names[1], lineterm=""
        )
    )
    if not lines:
        return f'<pre style="{PRE_STYLE}">{html.escape("no change")}</pre>'
    rows = []
    for line in lines:
        mark = line[:1]
        if line.startswith(("---", "+++")):
            rows.append(f"<b>{html.escape(line)}</b>")
        elif mark in ("+", "-"):
            style = DIFF_STYLES[mark]
            rows.append(f'<span style="{style}">{html.escape(mark)}{highlight(line[1:])}</span>')
        elif mark == "@":
            rows.append(f'<span style="{DIFF_STYLES["@"]}">{html.escape(line)}</span>')
        else:
            rows.append(html.escape(line[:1]) + highlight(line[1:]))
    return f'<pre style="{PRE_STYLE}">' + "\n".join(rows) + "</pre>"

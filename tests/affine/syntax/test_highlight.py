"""MLIR as HTML: the highlighted text is the printed text, escaped, in one <pre>; a diff
shows exactly the lines that differ."""

from __future__ import annotations

import html
import re

from conftest import ROOT

import affine
from affine.syntax.highlight import mlir_diff_html, mlir_html

TAG = re.compile(r"<[^>]*>")


def _text(markup: str) -> str:
    """What a browser shows: the tags removed, the entities decoded."""
    return html.unescape(TAG.sub("", markup))


def test_the_html_of_a_module_is_its_print_escaped_and_coloured() -> None:
    module = affine.parse((ROOT / "examples" / "stencil.mlir").read_text(), "stencil.mlir")
    markup = module._repr_html_()
    printed = affine.print_module(module).rstrip("\n")
    assert markup.startswith("<pre") and markup.endswith("</pre>")
    assert _text(markup) == printed
    assert "&lt;?x?xf32&gt;" in markup  # memref<?x?xf32>, escaped
    assert '<span style="color: #0b5394">affine.for</span>' in markup
    assert '<span style="color: #7a3e9d">%arg0</span>' in markup
    function = module.functions()[0]
    assert _text(function._repr_html_()) == affine.print_operation(function).rstrip("\n")


def test_comments_strings_and_stray_characters_are_kept() -> None:
    text = '// a <comment> & more\n"quoted <x>" @f $ 1.5e3 %x#1'
    markup = mlir_html(text)
    assert _text(markup) == text
    assert "<comment>" not in markup and "&lt;comment&gt;" in markup
    assert '<span style="color: #888888">// a &lt;comment&gt; &amp; more</span>' in markup


def test_a_diff_shows_the_changed_lines_only() -> None:
    before = "a = 1\nb = 2\nc = 3\n"
    after = "a = 1\nb = <4>\nc = 3\n"
    markup = mlir_diff_html(before, after)
    removed = re.findall(r'<span style="background: #ffebe9">(.*?)</span>\n', markup)
    added = re.findall(r'<span style="background: #e6ffec">(.*?)</span>(?:\n|</pre>)', markup)
    assert [_text(r) for r in removed] == ["-b = 2"]
    assert [_text(a) for a in added] == ["+b = <4>"]
    assert _text(mlir_diff_html(before, before)) == "no change"

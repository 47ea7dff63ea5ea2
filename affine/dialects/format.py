"""Custom op syntax as data: an op's format in the notation of MLIR's declarative assembly
format (ODS ``assemblyFormat``), read by one parser and written by one printer.

Invariant: for an op defined by :func:`define_format`, the printer writes what mlir-opt
prints (MLIR's spacing rules, from OpFormatGen) and the parser reads it back into the same
op; operands are resolved in the order their groups are declared, after the whole op is
read, as generated parsers do.

The notation, a subset of ODS's:

* ```,```, ```to```: a literal, punctuation or keyword; ```` (empty) keeps the next
  element from being spaced;
* ``$name``: an operand group or a property, by its declared name;
* ``attr-dict``: the discardable attributes, and the properties no other element shows
  (left out while they hold their default);
* ``type($name)``: the types of an operand or result group; ``type(results)``: every
  result type; ``functional-type(operands, results)``;
* ``custom<DynamicIndexList>($operands, $property)``: a list of integers and operands
  (MLIR's static/dynamic index list);
* ``( ... )?``: an optional group, there when its anchor (the element marked ``^``) is: an
  operand group that is not empty, or a property that is set and not at its default; a
  group that starts with a literal is read when that literal comes next.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from affine.dialects.common import (
    create,
    parse_dynamic_index_list,
    parse_integer_attribute,
    print_dynamic_index_list,
    segment_sizes,
)
from affine.ir.attributes import AffineMapAttr, Attribute, DenseArrayAttr, IntegerAttr
from affine.ir.core import Operation, Value
from affine.ir.registry import define
from affine.ir.types import I64, FunctionType, Type, element_type_of
from affine.syntax.lexer import unescape_string
from affine.syntax.parser import Parser
from affine.syntax.printer import Printer, print_map

ONE, OPTIONAL, VARIADIC = "one", "optional", "variadic"

Known = Mapping[str, Sequence[Type]]  # the types of the groups read so far, by name
TypeRule = Callable[[Known], Type]


@dataclass(frozen=True)
class Group:
    """A named group of operands or results: one value, zero or one (``OPTIONAL``) or any
    number (``VARIADIC``). Its types are read by a type directive, else given by ``type``: a
    type for every value, or a rule computing it from the types read. ``kind`` is the class a
    type directive must read (and its mnemonic, for the error); ``constraint`` a predicate
    and its description that the type read must satisfy (ops that infer their result types
    check the operands they infer from while reading)."""

    name: str
    arity: str = ONE
    type: Type | TypeRule | None = None
    kind: tuple[builtins.type[Type], str] | None = None
    constraint: tuple[Callable[[Type], bool], str] | None = None


def element_of(group: str) -> TypeRule:
    """The element type of the (shaped) type of ``group``'s first value."""
    return lambda known: element_type_of(known[group][0])


def same_as(group: str) -> TypeRule:
    """The type of ``group``'s first value."""
    return lambda known: known[group][0]


@dataclass(frozen=True)
class AttrSyntax:
    """How a property shown by ``$name`` is written: read by ``parse``, written by ``show``."""

    parse: Callable[[Parser], Attribute]
    show: Callable[[Printer, Attribute], str]


def integer_syntax(t: Type) -> AttrSyntax:
    """A bare integer, an ``IntegerAttr`` of type ``t``."""
    return AttrSyntax(lambda p: parse_integer_attribute(p, t), lambda pr, a: str(_integer(a)))


def enum_syntax(cases: Sequence[str], what: str) -> AttrSyntax:
    """A keyword (or a string) among ``cases``, held as its index (an i64 ``IntegerAttr``)."""

    def parse(p: Parser) -> Attribute:
        offset = p.start
        word = None
        if p.at("id"):
            word = p.parse_keyword()
        elif p.at("str"):
            word = unescape_string(p.tok)
            p.advance()
        if word not in cases:
            p.op_error(
                "expected string or keyword containing one of the following enum values for "
                f"attribute '{what}' [{', '.join(cases)}]",
                offset,
            )
        return IntegerAttr(cases.index(word), I64)

    return AttrSyntax(parse, lambda pr, a: cases[_integer(a)])


def _parse_symbol_ref(p: Parser) -> Attribute:
    if not p.at("@"):
        p.wrong_token("expected attribute value")
    return p._parse_symbol_ref()


def _show_map(pr: Printer, a: Attribute) -> str:
    if not isinstance(a, AffineMapAttr):
        raise TypeError(f"expected an affine map attribute, got {a}")
    return print_map(a.value)


SYMBOL_REF = AttrSyntax(_parse_symbol_ref, lambda pr, a: pr.attr(a))  # ``@name``
AFFINE_MAP = AttrSyntax(lambda p: AffineMapAttr(p.parse_affine_map_body()), _show_map)  # bare


def _integer(a: Attribute) -> int:
    if not isinstance(a, IntegerAttr):
        raise TypeError(f"expected an integer attribute, got {a}")
    return a.value


# -- the elements of a format ---------------------------------------------------------------


@dataclass(frozen=True)
class _Literal:
    text: str


@dataclass(frozen=True)
class _Variable:
    name: str


@dataclass(frozen=True)
class _AttrDict:
    pass


@dataclass(frozen=True)
class _TypeOf:
    name: str  # a group, or "results"


@dataclass(frozen=True)
class _FunctionalType:
    pass


@dataclass(frozen=True)
class _IndexList:
    operands: str
    values: str  # the property holding the static values


@dataclass(frozen=True)
class _Optional:
    elements: tuple[Any, ...]
    anchor: str


_TOKEN = re.compile(
    r"\s*(?:`(?P<literal>[^`]*)`|\$(?P<variable>\w+)(?P<anchor>\^)?|(?P<attr_dict>attr-dict)"
    r"|type\(\s*(?P<type>\$\w+|results)\s*\)|(?P<functional>functional-type\(\s*operands\s*,"
    r"\s*results\s*\))|custom<DynamicIndexList>\(\s*\$(?P<list>\w+)\s*,\s*\$(?P<values>\w+)"
    r"\s*\)|(?P<open>\()|(?P<close>\)\?))"
)


def _compile(text: str) -> tuple[Any, ...]:
    """The elements of a format string (nested tuples for optional groups)."""
    stack: list[list[Any]] = [[]]
    anchors: list[str] = []
    position = 0
    while position < len(text.rstrip()):
        m = _TOKEN.match(text, position)
        if m is None:
            raise ValueError(f"cannot read the format {text!r} at {text[position:]!r}")
        position = m.end()
        if m["open"]:
            stack.append([])
            anchors.append("")
        elif m["close"]:
            elements = tuple(stack.pop())
            stack[-1].append(_Optional(elements, anchors.pop()))
        elif m["literal"] is not None:
            stack[-1].append(_Literal(m["literal"]))
        elif m["variable"]:
            stack[-1].append(_Variable(m["variable"]))
            if m["anchor"]:
                anchors[-1] = m["variable"]
        elif m["attr_dict"]:
            stack[-1].append(_AttrDict())
        elif m["type"]:
            stack[-1].append(_TypeOf(m["type"].lstrip("$")))
        elif m["functional"]:
            stack[-1].append(_FunctionalType())
        else:
            stack[-1].append(_IndexList(m["list"], m["values"]))
    if len(stack) != 1 or any(isinstance(e, _Optional) and not e.anchor for e in stack[0]):
        raise ValueError(f"unbalanced or unanchored optional group in {text!r}")
    return tuple(stack[0])


# -- the op's syntax ------------------------------------------------------------------------


@dataclass
class _Read:
    """What the parser has read of one op so far."""

    operands: dict[str, list[tuple[Value, int]]] = field(default_factory=dict)
    types: dict[str, list[Type]] = field(default_factory=dict)
    properties: dict[str, Attribute] = field(default_factory=dict)
    attributes: dict[str, Attribute] = field(default_factory=dict)


@dataclass(frozen=True)
class OpFormat:
    """The custom syntax of op ``name``: ``elements`` over its operand and result groups and
    the properties ``shown`` by ``$name``; ``in_attr_dict`` are the properties written in
    the attribute dictionary. A property holding its value in ``defaults`` (MLIR's
    DefaultValuedAttr: set to it when not written) or ``optional_defaults``
    (DefaultValuedOptionalAttr: absent when not written) is not written."""

    name: str
    elements: tuple[Any, ...]
    operands: tuple[Group, ...]
    results: tuple[Group, ...]
    shown: Mapping[str, AttrSyntax]
    in_attr_dict: tuple[str, ...]
    defaults: Mapping[str, Attribute]
    optional_defaults: Mapping[str, Attribute]
    segmented: bool  # operandSegmentSizes gives the operand groups' sizes
    properties: tuple[str, ...]  # every property (an attribute dictionary may set any)

    def _is_default(self, name: str, value: Attribute | None) -> bool:
        return value is None or value in (
            self.defaults.get(name),
            self.optional_defaults.get(name),
        )

    def group(self, name: str) -> Group:
        for g in self.operands + self.results:
            if g.name == name:
                return g
        raise KeyError(f"{self.name} has no operand or result group {name!r}")

    # -- reading ----------------------------------------------------------------------------

    def parse(self, p: Parser, offset: int) -> Operation:
        read = _Read()
        self._parse_elements(p, offset, self.elements, read)
        for name in self.properties:
            if name in read.attributes:  # as mlir-opt: the dictionary's value wins
                read.properties[name] = read.attributes.pop(name)
        for name, value in self.defaults.items():
            read.properties.setdefault(name, value)
        values: list[Value] = []
        for g in self.operands:
            types = self._types_of(g, read)
            operands = read.operands.get(g.name, [])
            if len(operands) != len(types) and g.name in read.types and operands:
                p.op_error(  # the types written for the group (MLIR's resolveOperands at it)
                    f"number of operands and types do not match: got {len(operands)} operands "
                    f"and {len(types)} types",
                    operands[0][1],
                )
            if len(operands) != len(types):
                p.op_error(f"{len(operands)} operands present, but expected {len(types)}")
            values += [p.resolve(o, t) for o, t in zip(operands, types)]
        if self.segmented:
            sizes = [len(read.operands.get(g.name, [])) for g in self.operands]
            read.properties["operandSegmentSizes"] = segment_sizes(*sizes)
        result_types = read.types.get("results") or [
            t for g in self.results for t in self._types_of(g, read)
        ]
        return create(p, self.name, offset, values, result_types, read.properties, read.attributes)

    def _types_of(self, g: Group, read: _Read) -> list[Type]:
        if g.name in read.types:
            return read.types[g.name]
        if g.type is None:
            if g in self.operands and not read.operands.get(g.name):
                return []  # an optional group left out: no operands, no types
            raise ValueError(f"{self.name}: no type for {g.name}")
        t = g.type if isinstance(g.type, Type) else g.type(read.types)
        count = len(read.operands.get(g.name, [])) if g in self.operands else 1
        read.types[g.name] = [t] * count
        return read.types[g.name]

    def _parse_elements(self, p: Parser, offset: int, elements: Sequence[Any], read: _Read) -> None:
        for element in elements:
            if isinstance(element, _Literal):
                _parse_literal(p, element.text)
            elif isinstance(element, _Variable):
                self._parse_variable(p, element.name, read)
            elif isinstance(element, _AttrDict):
                read.attributes = p.parse_optional_attr_dict()
            elif isinstance(element, _TypeOf):
                self._parse_types(p, offset, element.name, read)
            elif isinstance(element, _FunctionalType):
                self._parse_functional_type(p, offset, read)
            elif isinstance(element, _IndexList):
                static, dynamic = parse_dynamic_index_list(p)
                read.operands[element.operands] = dynamic
                read.properties[element.values] = DenseArrayAttr(I64, static)
            else:
                self._parse_optional(p, offset, element.elements, read)

    def _parse_optional(self, p: Parser, offset: int, elements: Sequence[Any], read: _Read) -> None:
        """An optional group: read when its first literal comes next (the rest follows), or
        when an operand comes next for a group that starts with one."""
        start = next(k for k, e in enumerate(elements) if e != _Literal(""))
        first = elements[start]
        if isinstance(first, _Literal):
            if _accept_literal(p, first.text):
                self._parse_elements(p, offset, elements[start + 1 :], read)
        elif p.at("%"):
            self._parse_elements(p, offset, elements, read)

    def _parse_variable(self, p: Parser, name: str, read: _Read) -> None:
        if name in self.shown:
            read.properties[name] = self.shown[name].parse(p)
            return
        arity = self.group(name).arity
        if arity == ONE:
            read.operands[name] = [p.parse_operand()]
        elif arity == OPTIONAL:
            read.operands[name] = [o for o in [p.parse_optional_operand()] if o is not None]
        else:
            read.operands[name] = p.parse_operand_list()

    def _parse_types(self, p: Parser, op_offset: int, name: str, read: _Read) -> None:
        if name == "results" or self.group(name).arity != ONE:
            read.types[name] = p.parse_type_list_no_parens()
            return
        kind = self.group(name).kind
        offset = p.start
        t = p.parse_type()
        if kind is not None and not isinstance(t, kind[0]):
            p.op_error(
                f"invalid kind of type specified: expected {kind[1]}, but found '{t}'", offset
            )
        constraint = self.group(name).constraint
        if constraint is not None and not constraint[0](t):
            p.op_error(f"'{name}' must be {constraint[1]}, but got '{t}'", op_offset)
        read.types[name] = [t]

    def _parse_functional_type(self, p: Parser, offset: int, read: _Read) -> None:
        ftype = p.parse_type_of(FunctionType, "builtin.function")
        operands = [(g, len(read.operands.get(g.name, []))) for g in self.operands]
        count = sum(n for _, n in operands)
        if count != len(ftype.inputs):
            p.op_error(
                "number of operands and types do not match: got "
                f"{count} operands and {len(ftype.inputs)} types",
                offset,
            )
        inputs = list(ftype.inputs)
        for g, n in operands:
            read.types[g.name], inputs = inputs[:n], inputs[n:]
        read.types["results"] = list(ftype.results)

    # -- writing ----------------------------------------------------------------------------

    def print(self, pr: Printer, op: Operation) -> None:
        groups = self._operand_groups(op)
        groups.update(_split(self.results, op.results))
        state = _Spacing()
        self._print_elements(pr, op, self.elements, groups, state)

    def _operand_groups(self, op: Operation) -> dict[str, Sequence[Value]]:
        if not self.segmented:
            return _split(self.operands, op.operands)
        sizes = op.properties["operandSegmentSizes"]
        assert isinstance(sizes, DenseArrayAttr)  # set by parse, checked by the verifier
        groups: dict[str, Sequence[Value]] = {}
        start = 0
        for g, size in zip(self.operands, sizes.values):
            groups[g.name], start = op.operands[start : start + size], start + size
        return groups

    def _print_elements(
        self,
        pr: Printer,
        op: Operation,
        elements: Sequence[Any],
        groups: Mapping[str, Sequence[Value]],
        state: _Spacing,
    ) -> None:
        for element in elements:
            if isinstance(element, _Literal):
                state.literal(pr, element.text)
            elif isinstance(element, _AttrDict):
                attrs = dict(op.attributes)
                for name in self.in_attr_dict:
                    value = op.properties.get(name)
                    if value is not None and not self._is_default(name, value):
                        attrs[name] = value
                pr.write(pr.attr_dict(attrs, self.shown))
                state.last_was_punctuation = False
            elif isinstance(element, _Optional):
                anchor = element.anchor
                if anchor in self.shown:
                    present = not self._is_default(anchor, op.properties.get(anchor))
                else:
                    present = bool(groups[anchor])
                if present:
                    self._print_elements(pr, op, element.elements, groups, state)
            else:
                state.element(pr, self._text(pr, op, element, groups))

    def _text(
        self, pr: Printer, op: Operation, element: Any, groups: Mapping[str, Sequence[Value]]
    ) -> str:
        if isinstance(element, _Variable):
            if element.name in self.shown:
                return self.shown[element.name].show(pr, op.properties[element.name])
            return pr.operands(groups[element.name])
        if isinstance(element, _TypeOf):
            values = op.results if element.name == "results" else groups[element.name]
            return pr.type_list(v.type for v in values)
        if isinstance(element, _FunctionalType):
            return pr.functional_type(op)
        static = op.properties[element.values]
        assert isinstance(static, DenseArrayAttr)  # set by parse, checked by the verifier
        return print_dynamic_index_list(pr, static.values, groups[element.operands])


def _split(groups: Sequence[Group], values: Sequence[Value]) -> dict[str, Sequence[Value]]:
    """``values`` cut into ``groups``: single values, and the rest to the one group that is
    optional or variadic."""
    rest = len(values) - sum(1 for g in groups if g.arity == ONE)
    split: dict[str, Sequence[Value]] = {}
    start = 0
    for g in groups:
        size = 1 if g.arity == ONE else rest
        split[g.name], start = values[start : start + size], start + size
    return split


def _is_keyword(text: str) -> bool:
    return text[0].isalpha() or text[0] == "_"


def _parse_literal(p: Parser, text: str) -> None:
    if not text:
        return
    if _is_keyword(text):
        p.expect_op_keyword(text)
    else:
        p.expect(text)


def _accept_literal(p: Parser, text: str) -> bool:
    return p.accept_keyword(text) if _is_keyword(text) else p.accept(text)


class _Spacing:
    """MLIR's generated printers' spacing: a space before each element, except around
    brackets and before commas (OpFormatGen's ``shouldEmitSpaceBefore``)."""

    def __init__(self) -> None:
        self.should_emit_space = True
        self.last_was_punctuation = False

    def literal(self, pr: Printer, text: str) -> None:
        if not text:
            self.should_emit_space, self.last_was_punctuation = False, True
            return
        if self.should_emit_space and _space_before(text, self.last_was_punctuation):
            pr.write(" ")
        pr.write(text)
        self.should_emit_space = len(text) != 1 or text not in "<({["
        self.last_was_punctuation = not _is_keyword(text)

    def element(self, pr: Printer, text: str) -> None:
        if self.should_emit_space or not self.last_was_punctuation:
            pr.write(" ")
        pr.write(text)
        self.should_emit_space, self.last_was_punctuation = True, False


def _space_before(text: str, last_was_punctuation: bool) -> bool:
    if len(text) != 1 and text != "->":
        return True
    if last_was_punctuation:
        return text[0] not in ">)}],"
    return text[0] not in "<>(){}[],"


def define_format(
    name: str,
    format: str,
    *,
    operands: Sequence[Group] = (),
    results: Sequence[Group] = (),
    shown: Mapping[str, AttrSyntax] | None = None,
    defaults: Mapping[str, Attribute] | None = None,
    optional_defaults: Mapping[str, Attribute] | None = None,
    properties: tuple[str, ...] = (),
    **definition: Any,
) -> OpFormat:
    """Register op ``name`` with the custom syntax ``format`` (see the module's notation);
    ``definition`` is passed on to :func:`affine.ir.registry.define` (verifier, traits,
    result names)."""
    shown = dict(shown or {})
    elements = _compile(format)
    listed = {e.values for e in _flatten(elements) if isinstance(e, _IndexList)}
    in_attr_dict = tuple(
        p for p in properties if p not in shown and p not in listed and p != "operandSegmentSizes"
    )
    syntax = OpFormat(
        name,
        elements,
        tuple(operands),
        tuple(results),
        shown,
        in_attr_dict,
        dict(defaults or {}),
        dict(optional_defaults or {}),
        "operandSegmentSizes" in properties,
        tuple(properties),
    )
    define(
        name,
        parse=syntax.parse,
        print=syntax.print,
        properties=properties,
        property_defaults=syntax.defaults,
        **definition,
    )
    return syntax


def define_return_like(name: str, **definition: Any) -> OpFormat:
    """Register terminator ``name`` that passes its operands on (``func.return``,
    ``scf.yield``, ...): ``{attrs} %a, %b : t1, t2``."""
    return define_format(
        name,
        "attr-dict ($operands^ `:` type($operands))?",
        operands=[Group("operands", VARIADIC)],
        **definition,
    )


def _flatten(elements: Sequence[Any]) -> list[Any]:
    flat: list[Any] = []
    for e in elements:
        flat += _flatten(e.elements) if isinstance(e, _Optional) else [e]
    return flat

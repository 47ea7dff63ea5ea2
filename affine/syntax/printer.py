"""Printer: IR to MLIR text that mlir-opt 22 reads, deterministic, in mlir-opt's own style.

The pretty form follows ``mlir-opt``'s printer: SSA values are numbered per region tree
(``%0``, ``%arg0``) with the result names ops suggest (``%c0``, ``%cst``, ``%alloc``),
sibling regions reuse numbers, affine maps and integer sets get ``#map``/``#set`` aliases
numbered in order of first use, and ops with custom syntax print it.  ``generic=True``
prints every op as ``"name"(operands) <{properties}> ({regions}) {attributes} : type``
with unique value numbers, like ``--mlir-print-op-generic``.

Aliases are emitted through placeholders (``\\x00N\\x00``) while printing and resolved in a
final substitution, so one pass produces the text.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Callable, Iterable, Sequence

from affine.ir.attributes import (
    UNIT,
    AffineMapAttr,
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseElementsAttr,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    IntegerSetAttr,
    LocationAttr,
    OpaqueAttr,
    SparseElementsAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from affine.ir.core import Block, Module, Operation, OpResult, Region, Value
from affine.ir.printing import install
from affine.ir.registry import ISOLATED, TERMINATOR, lookup
from affine.ir.types import (
    DYNAMIC,
    ComplexType,
    FloatType,
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneType,
    OpaqueType,
    StridedLayout,
    TensorType,
    TupleType,
    Type,
    UnrankedMemRefType,
    VectorType,
)
from affine.math.affine_map import AffineMap, print_map
from affine.math.expr import AffineExpr, print_expr
from affine.math.float_formats import SEMANTICS
from affine.math.integer_set import print_set
from affine.syntax.highlight import mlir_html
from affine.syntax.lexer import escape_string

_BARE_ID = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*$")
_PLACEHOLDER = re.compile("\x00([0-9]+)\x00")


# -- numbers --------------------------------------------------------------------------------


def format_float(bits: int, t: FloatType) -> str:
    """The encoding ``bits`` of ``t`` as mlir-opt prints it: APFloat's ``%e``-style text with
    6 digits when it reads back (in one rounding) to the same bits, else APFloat's default
    text when it has a '.', else the bits in hex (NaNs, infinities, integers too long to
    spell without an exponent)."""
    sem = SEMANTICS[t.name]
    if sem.is_finite(bits):
        text = sem.to_string(bits, 6, 0, False)
        if sem.from_decimal(text) == bits:
            return text
        text = sem.to_string(bits)
        if "." in text:
            return text
    return "0x%X" % bits


# -- stand-alone type/attribute printing (no aliases) ---------------------------------------


def type_to_str(t: Type) -> str:
    return _TypeAttrPrinter(None).type(t)


def attr_to_str(a: Attribute) -> str:
    return _TypeAttrPrinter(None).attr(a)


def strided_to_str(layout: StridedLayout) -> str:
    strides = ", ".join("?" if s == DYNAMIC else str(s) for s in layout.strides)
    if layout.offset == 0:
        return f"strided<[{strides}]>"
    offset = "?" if layout.offset == DYNAMIC else str(layout.offset)
    return f"strided<[{strides}], offset: {offset}>"


AliasableAttr = AffineMapAttr | IntegerSetAttr  # printed as #map / #set aliases


class _TypeAttrPrinter:
    """Types and attributes to text; ``alias`` (if given) maps aliasable attributes to a
    placeholder string."""

    def __init__(self, alias: Callable[[AliasableAttr], str] | None) -> None:
        self.alias = alias

    def type(self, t: Type) -> str:
        if isinstance(t, IntegerType):
            return {"": "i", "s": "si", "u": "ui"}[t.signedness] + str(t.width)
        if isinstance(t, FloatType):
            return t.name
        if isinstance(t, IndexType):
            return "index"
        if isinstance(t, MemRefType):
            return self._memref(t)
        if isinstance(t, VectorType):
            dims = "".join((f"[{d}]" if s else str(d)) + "x" for d, s in zip(t.shape, t.scalable))
            return f"vector<{dims}{self.type(t.element_type)}>"
        if isinstance(t, TensorType):
            if t.shape is None:
                dims = "*x"
            else:
                dims = "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in t.shape)
            enc = f", {self.attr(t.encoding)}" if t.encoding is not None else ""
            return f"tensor<{dims}{self.type(t.element_type)}{enc}>"
        if isinstance(t, FunctionType):
            inputs = ", ".join(self.type(x) for x in t.inputs)
            return f"({inputs}) -> {self.result_types(t.results)}"
        if isinstance(t, TupleType):
            return "tuple<" + ", ".join(self.type(x) for x in t.types) + ">"
        if isinstance(t, ComplexType):
            return f"complex<{self.type(t.element_type)}>"
        if isinstance(t, UnrankedMemRefType):
            space = f", {self.attr(t.memory_space, True)}" if t.memory_space is not None else ""
            return f"memref<*x{self.type(t.element_type)}{space}>"
        if isinstance(t, OpaqueType):
            return t.text
        if isinstance(t, NoneType):
            return "none"
        raise TypeError(f"cannot print type {t!r}")

    def result_types(self, results: Sequence[Type]) -> str:
        if len(results) == 1 and not isinstance(results[0], FunctionType):
            return self.type(results[0])
        return "(" + ", ".join(self.type(x) for x in results) + ")"

    def _memref(self, t: MemRefType) -> str:
        dims = "".join(("?" if d == DYNAMIC else str(d)) + "x" for d in t.shape)
        text = f"memref<{dims}{self.type(t.element_type)}"
        if isinstance(t.layout, StridedLayout):
            text += ", " + strided_to_str(t.layout)
        elif t.layout:
            layout = t.layout_map()
            if not layout.is_identity():
                text += ", " + self.attr(AffineMapAttr(layout))
        if t.memory_space is not None:
            text += ", " + self.attr(t.memory_space, True)
        return text + ">"

    def attr(self, a: Attribute, may_elide: bool = False) -> str:
        if isinstance(a, (AffineMapAttr, IntegerSetAttr)):
            if self.alias is not None:
                return self.alias(a)
            if isinstance(a, AffineMapAttr):
                return f"affine_map<{print_map(a.value)}>"
            return f"affine_set<{print_set(a.value)}>"
        if isinstance(a, IntegerAttr):
            t = a.type
            if isinstance(t, IntegerType) and t.width == 1 and not t.signedness:
                return "true" if a.value else "false"
            if may_elide and isinstance(t, IntegerType) and t.width == 64 and not t.signedness:
                return str(a.value)
            return f"{a.value} : {self.type(t)}"
        if isinstance(a, FloatAttr):
            text = format_float(a.bits, a.type)
            if may_elide and a.type.name == "f64" and not text.startswith("0x"):
                return text
            return f"{text} : {self.type(a.type)}"
        if isinstance(a, StringAttr):
            text = escape_string(a.value)
            return f"{text} : {self.type(a.type)}" if a.type is not None else text
        if isinstance(a, ArrayAttr):
            return "[" + ", ".join(self.attr(x, True) for x in a.elements) + "]"
        if isinstance(a, DictionaryAttr):
            return "{" + self.named_attrs(a.entries) + "}"
        if isinstance(a, UnitAttr):
            return "unit"
        if isinstance(a, TypeAttr):
            return self.type(a.value)
        if isinstance(a, SymbolRefAttr):
            return "".join([_symbol_text(a.root)] + ["::" + _symbol_text(n) for n in a.nested])
        if isinstance(a, DenseElementsAttr):
            return f"{self.dense_body(a)} : {self.type(a.type)}"
        if isinstance(a, DenseArrayAttr):
            return self._dense_array(a)
        if isinstance(a, SparseElementsAttr):
            body = ""
            if a.indices is not None and a.values is not None:
                body = f"{_elements_literal(a.indices)}, {_elements_literal(a.values)}"
            return f"sparse<{body}> : {self.type(a.type)}"
        if isinstance(a, OpaqueAttr):
            return a.text if a.type is None else f"{a.text} : {self.type(a.type)}"
        if isinstance(a, LocationAttr):
            return a.text
        raise TypeError(f"cannot print attribute {a!r}")

    def named_attrs(self, entries: Iterable[tuple[str, Attribute]]) -> str:
        parts = []
        for name, value in entries:
            key = name if _BARE_ID.match(name) else escape_string(name)
            parts.append(
                key
                if value is UNIT or isinstance(value, UnitAttr)
                else f"{key} = {self.attr(value)}"
            )
        return ", ".join(parts)

    def dense_body(self, a: DenseElementsAttr) -> str:
        return f"dense<{_elements_literal(a)}>"

    def _dense_array(self, a: DenseArrayAttr) -> str:
        head = f"array<{self.type(a.element_type)}"
        if not a.values:
            return head + ">"
        if a.bits is not None:
            element = a.element_type
            assert isinstance(element, FloatType)  # only float arrays keep encodings
            body = ", ".join(format_float(b, element) for b in a.bits)
        elif a.element_type == IntegerType(1):
            body = ", ".join("true" if v else "false" for v in a.values)
        else:
            body = ", ".join(str(v) for v in a.values)
        return f"{head}: {body}>"


def _symbol_text(name: str) -> str:
    if re.match(r"[A-Za-z_$.][A-Za-z0-9_$.-]*$", name):
        return "@" + name
    return "@" + escape_string(name)


def _elements_literal(a: DenseElementsAttr) -> str:
    """The elements as written between ``dense<`` and ``>`` (one value for a splat)."""
    if a.hex is not None:
        return escape_string(a.hex)
    element = a.type.element_type
    fmt = lambda v: _dense_element(v, element)  # noqa: E731
    entries = a.values if a.bits is None else a.bits
    if not entries:
        return ""
    shape = a.type.shape or ()
    if a.is_splat or not shape:
        return fmt(entries[0])
    return _nested(list(entries), list(shape), fmt)


def _dense_element(value, element: Type) -> str:
    """One entry of a dense literal: a float element's encoding, a value otherwise."""
    if isinstance(value, tuple):
        assert isinstance(element, ComplexType)  # entries are pairs for complex elements only
        inner = element.element_type
        return f"({_dense_element(value[0], inner)},{_dense_element(value[1], inner)})"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return escape_string(value)
    if isinstance(element, FloatType):
        return format_float(value, element)
    return str(value)


def _nested(values: list, shape: list[int], fmt) -> str:
    if len(shape) == 1:
        return "[" + ", ".join(fmt(v) for v in values) + "]"
    step = len(values) // shape[0] if shape[0] else 0
    return (
        "["
        + ", ".join(
            _nested(values[i * step : (i + 1) * step], shape[1:], fmt) for i in range(shape[0])
        )
        + "]"
    )


# -- SSA naming ------------------------------------------------------------------------------


class _Names:
    """mlir-opt's SSA and block naming for one printed op tree."""

    def __init__(self, generic: bool) -> None:
        self.generic = generic
        self.ids: dict[Value, str] = {}  # value -> printed name without '%'
        self.groups: dict[Operation, list[int]] = {}
        self.block_ids: dict[Block, int] = {}

    def number(self, root: Operation) -> None:
        used: set[str] = set()
        counters = [0, 0, 0]  # next value id, next argument id, next conflict id
        self._number_op(root, counters, used)
        stack: list[tuple[Region, list[int], set[str]]] = [
            (r, counters[:], used) for r in root.regions
        ]
        unique = self.generic
        while stack:
            region, counters_in, parent_used = stack.pop()
            if unique:
                counters_in = counters
                region_used = parent_used
            else:
                region_used = set(parent_used)
            self._number_region(region, counters_in, region_used)
            pushes = []
            for block in region.blocks:
                for op in block.operations:
                    for nested in op.regions:
                        pushes.append(
                            (nested, counters_in[:] if not unique else counters_in, region_used)
                        )
            stack.extend(pushes)

    def _number_region(self, region: Region, counters: list[int], used: set[str]) -> None:
        for index, block in enumerate(region.blocks):
            self.block_ids[block] = index
            entry = index == 0
            parent = region.parent
            names = None
            if entry and parent is not None and not self.generic:
                op_def = lookup(parent.name)
                if op_def is not None and op_def.block_arg_names is not None:
                    names = op_def.block_arg_names(parent)
            for i, arg in enumerate(block.arguments):
                name = names[i] if names is not None and i < len(names) else None
                if name:
                    self.ids[arg] = self._unique(name, counters, used)
                elif entry:
                    self.ids[arg] = self._unique(f"arg{counters[1]}", counters, used)
                    counters[1] += 1
                else:
                    self.ids[arg] = str(counters[0])
                    counters[0] += 1
            for op in block.operations:
                self._number_op(op, counters, used)

    def _number_op(self, op: Operation, counters: list[int], used: set[str]) -> None:
        results = op.results
        if not results:
            return
        groups = [0]
        if not self.generic:
            op_def = lookup(op.name)
            if op_def is not None and op_def.result_names is not None:
                for i, name in enumerate(op_def.result_names(op)):
                    if name:
                        self.ids[results[i]] = self._unique(name, counters, used)
                        if i:
                            groups.append(i)
        head = results[0]
        if head not in self.ids:
            self.ids[head] = str(counters[0])
            counters[0] += 1
        if len(groups) > 1:
            self.groups[op] = sorted(groups)

    @staticmethod
    def _unique(name: str, counters: list[int], used: set[str]) -> str:
        name = _sanitize(name)
        if name in used:
            base = name + "_"
            while True:
                probe = base + str(counters[2])
                counters[2] += 1
                if probe not in used:
                    name = probe
                    break
        used.add(name)
        return name

    def value(self, v: Value, with_result_number: bool = True) -> str:
        lookup_value = v
        result_no = None
        if isinstance(v, OpResult):
            owner = v.owner
            n = len(owner.results)
            if n != 1:
                groups = self.groups.get(owner)
                if groups is None:
                    result_no = v.index
                    lookup_value = owner.results[0]
                else:
                    start = 0
                    for g in groups:
                        if g <= v.index:
                            start = g
                    later = [g for g in groups if g > start]
                    size = (later[0] if later else n) - start
                    if size != 1:
                        result_no = v.index - start
                    lookup_value = owner.results[start]
        name = self.ids.get(lookup_value)
        if name is None:
            return "<<UNKNOWN SSA VALUE>>"
        if result_no is not None and with_result_number:
            return f"%{name}#{result_no}"
        return "%" + name


def _sanitize(name: str) -> str:
    """MLIR's sanitizeIdentifier: invalid characters become hex, a leading digit gets '_'."""

    def valid(ch: str) -> bool:
        return ch.isascii() and (ch.isalnum() or ch in "$._-")

    if name and not name[0].isdigit() and all(valid(ch) for ch in name):
        return name
    out = "".join(ch if valid(ch) else "_" if ch == " " else "%X" % ord(ch) for ch in name)
    return "_" + out if name and name[0].isdigit() else out


# -- the printer --------------------------------------------------------------------------------


class Printer:
    """Prints one op tree.  Custom-syntax printers call the methods below."""

    def __init__(self, generic: bool = False) -> None:
        self.generic = generic
        self.out: list[str] = []
        self.indent = 0
        self.names = _Names(generic)
        self.alias_index: dict[AliasableAttr, int] = {}
        self.alias_attrs: list[AliasableAttr] = []
        self.types = _TypeAttrPrinter(self._alias)
        self.default_dialects: list[str] = ["builtin"]

    # -- aliases ----------------------------------------------------------------------------

    def _alias(self, a: AliasableAttr) -> str:
        index = self.alias_index.get(a)
        if index is None:
            index = len(self.alias_attrs)
            self.alias_index[a] = index
            self.alias_attrs.append(a)
        return f"\x00{index}\x00"

    def _alias_table(self) -> tuple[list[str], dict[int, str]]:
        def prefix(a: AliasableAttr) -> str:
            return "map" if isinstance(a, AffineMapAttr) else "set"

        order = sorted(range(len(self.alias_attrs)), key=lambda i: prefix(self.alias_attrs[i]))
        counts: dict[str, int] = {}
        names: dict[int, str] = {}
        lines: list[str] = []
        for i in order:
            a = self.alias_attrs[i]
            p = prefix(a)
            n = counts.get(p, 0)
            counts[p] = n + 1
            name = f"#{p}{n if n else ''}"
            names[i] = name
            if isinstance(a, AffineMapAttr):
                lines.append(f"{name} = affine_map<{print_map(a.value)}>")
            else:
                lines.append(f"{name} = affine_set<{print_set(a.value)}>")
        return lines, names

    def finish(self, inline_aliases: bool = False) -> str:
        text = "".join(self.out)
        if not self.alias_attrs:
            return text
        if inline_aliases:
            inline = _TypeAttrPrinter(None).attr
            return _PLACEHOLDER.sub(lambda m: inline(self.alias_attrs[int(m.group(1))]), text)
        lines, names = self._alias_table()
        body = _PLACEHOLDER.sub(lambda m: names[int(m.group(1))], text)
        return "\n".join(lines) + "\n" + body

    # -- primitives used by custom printers ------------------------------------------------------

    def write(self, text: str) -> None:
        self.out.append(text)

    def newline(self) -> None:
        self.out.append("\n")

    def operand(self, v: Value) -> str:
        return self.names.value(v)

    def operands(self, values: Iterable[Value]) -> str:
        return ", ".join(self.names.value(v) for v in values)

    def type(self, t: Type) -> str:
        return self.types.type(t)

    def type_list(self, types: Iterable[Type]) -> str:
        return ", ".join(self.types.type(t) for t in types)

    def attr(self, a: Attribute) -> str:
        return self.types.attr(a)

    def functional_type(self, op: Operation) -> str:
        inputs = ", ".join(self.type(v.type) for v in op.operands)
        return f"({inputs}) -> {self.types.result_types([r.type for r in op.results])}"

    def arrow_types(self, types: Sequence[Type]) -> str:
        """`` -> type`` or `` -> (types)`` (empty when there are no types)."""
        if not types:
            return ""
        return " -> " + self.types.result_types(types)

    def attr_dict(
        self, attrs: dict[str, Attribute], elided: Iterable[str] = (), keyword: bool = False
    ) -> str:
        skip = set(elided)
        entries = sorted((k, v) for k, v in attrs.items() if k not in skip)
        if not entries:
            return ""
        return (" attributes" if keyword else "") + " {" + self.types.named_attrs(entries) + "}"

    def affine_map_of_ssa_ids(self, m: AffineMap, operands: Sequence[Value]) -> str:
        nd = m.num_dims

        def name(pos: int, is_symbol: bool) -> str:
            if is_symbol:
                return f"symbol({self.operand(operands[nd + pos])})"
            return self.operand(operands[pos])

        return ", ".join(print_expr(r, name) for r in m.results)

    def affine_expr_of_ssa_ids(
        self, e: AffineExpr, dims: Sequence[Value], syms: Sequence[Value]
    ) -> str:
        def name(pos: int, is_symbol: bool) -> str:
            if is_symbol:
                return f"symbol({self.operand(syms[pos])})"
            return self.operand(dims[pos])

        return print_expr(e, name)

    def dim_and_symbol_list(self, operands: Sequence[Value], num_dims: int) -> str:
        text = "(" + self.operands(operands[:num_dims]) + ")"
        if len(operands) > num_dims:
            text += "[" + self.operands(operands[num_dims:]) + "]"
        return text

    def block_name(self, block: Block) -> str:
        index = self.names.block_ids.get(block)
        return f"^bb{index}" if index is not None else "^INVALIDBLOCK"

    def region(
        self,
        region: Region,
        print_entry_args: bool = True,
        print_terminators: bool = True,
        print_empty_block: bool = False,
        default_dialect: str = "",
    ) -> None:
        self.write("{\n")
        if region.blocks:
            self.default_dialects.append(default_dialect)
            entry = region.blocks[0]
            header = (print_empty_block and not entry.operations) or (
                print_entry_args and bool(entry.arguments)
            )
            self._block(entry, header, print_terminators)
            for block in region.blocks[1:]:
                self._block(block, True, True)
            self.default_dialects.pop()
        self.write(" " * self.indent + "}")

    def _block(self, block: Block, header: bool, print_terminator: bool) -> None:
        if header:
            text = " " * self.indent + self.block_name(block)
            if block.arguments:
                text += (
                    "("
                    + ", ".join(f"{self.operand(a)}: {self.type(a.type)}" for a in block.arguments)
                    + ")"
                )
            text += ":"
            text += self._predecessor_comment(block)
            self.write(text + "\n")
        self.indent += 2
        ops = block.operations
        if ops and not print_terminator:
            last = ops[-1]
            d = lookup(last.name)
            if d is not None and d.has(TERMINATOR):
                ops = ops[:-1]
        for op in ops:
            self.write(" " * self.indent)
            self.full_op(op)
            self.write("\n")
        self.indent -= 2

    def _predecessor_comment(self, block: Block) -> str:
        region = block.parent
        if region is None:
            return "  // block is not in a region!"
        preds: list[Block] = []
        for other in region.blocks:
            term = other.terminator
            if term is not None:
                preds.extend(other for s in term.successors if s is block)
        if not preds:
            return "" if region.blocks[0] is block else "  // no predecessors"
        if len(preds) == 1:
            return f"  // pred: {self.block_name(preds[0])}"
        preds.sort(key=lambda b: self.names.block_ids.get(b, 0))
        return f"  // {len(preds)} preds: " + ", ".join(self.block_name(p) for p in preds)

    def successor(self, block: Block, args: Sequence[Value]) -> str:
        text = self.block_name(block)
        if args:
            text += "(" + self.operands(args) + " : " + self.type_list(a.type for a in args) + ")"
        return text

    # -- operations -----------------------------------------------------------------------------

    def full_op(self, op: Operation) -> None:
        results = op.results
        if results:
            groups = self.names.groups.get(op)
            if groups is None:
                head = self.names.value(results[0], False)
                self.write(head + (f":{len(results)}" if len(results) > 1 else "") + " = ")
            else:
                parts = []
                bounds = groups + [len(results)]
                for start, end in itertools.pairwise(bounds):
                    name = self.names.value(results[start], False)
                    parts.append(name + (f":{end - start}" if end - start > 1 else ""))
                self.write(", ".join(parts) + " = ")
        self.operation(op)

    def operation(self, op: Operation) -> None:
        op_def = lookup(op.name) if not self.generic else None
        if op_def is not None and op_def.print is not None:
            name = op.name
            default = self.default_dialects[-1]
            if default and name.count(".") == 1 and name.startswith(default + "."):
                name = name[len(default) + 1 :]
            self.write(name)
            op_def.print(self, op)
            return
        self.generic_op(op)

    def generic_op(self, op: Operation) -> None:
        # Visit regions, then types, then attributes (mlir-opt's alias order), then assemble.
        saved_out = self.out
        regions_text = ""
        if op.regions:
            self.out = []
            isolated_default = ""
            pieces = []
            for region in op.regions:
                self.out = []
                self.region(region, True, True, True, isolated_default)
                pieces.append("".join(self.out))
            regions_text = " (" + ", ".join(pieces) + ")"
        self.out = saved_out
        signature = self.functional_type(op)
        props = ""
        if op.properties:
            props = " <{" + self.types.named_attrs(sorted(op.properties.items())) + "}>"
        attrs = self.attr_dict(op.attributes)
        text = escape_string(op.name) + "(" + self.operands(op.operands) + ")"
        if op.successors:
            text += "[" + ", ".join(self.block_name(b) for b in op.successors) + "]"
        self.write(text + props + regions_text + attrs + " : " + signature)


def print_operation(op: Operation, generic: bool = False) -> str:
    """Text of one op (and its regions), numbering values from that op."""
    p = Printer(generic)
    p.names.number(op)
    p.full_op(op)
    return p.finish()


def print_operation_in_context(
    op: Operation, generic: bool = False, names: dict[tuple[int, bool], _Names] | None = None
) -> str:
    """Text of ``op`` with the value names it has in its function's print, attributes
    inline (no alias definitions): what mlir-opt shows in "see current operation" notes
    (generic form, as in its verifier's diagnostics, with ``generic``). ``names`` keeps the
    numbering of each function for the next op of it: valid while the IR does not change."""

    root = op
    while root.parent_op is not None:
        d = lookup(root.name)
        if d is not None and d.has(ISOLATED):
            break
        root = root.parent_op
    p = Printer(generic)
    known = None if names is None else names.get((id(root), generic))
    if known is None:
        p.names.number(root)
        if names is not None:
            names[(id(root), generic)] = p.names
    else:
        p.names = known
    p.full_op(op)
    return p.finish(inline_aliases=True)


def print_module(module: Module | Operation, generic: bool = False) -> str:
    """Text of a module as mlir-opt prints it (trailing newline included)."""
    op = module.operation if isinstance(module, Module) else module
    p = Printer(generic)
    p.names.number(op)
    p.full_op(op)
    p.write("\n\n")
    text = p.finish()
    metadata = module.file_metadata if isinstance(module, Module) else None
    if metadata:
        text += "\n" + metadata + "\n"
    return text


def to_html(obj: Module | Operation) -> str:
    """A module or op printed and highlighted as HTML (what Jupyter shows for it)."""
    text = print_module(obj) if isinstance(obj, Module) else print_operation(obj)
    return mlir_html(text.rstrip("\n"))


install(sys.modules[__name__])  # str() of IR objects prints through this module

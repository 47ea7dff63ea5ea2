"""Reader for MLIR text: modern MLIR (pretty and generic form, as mlir-opt 22 prints it) and
the 2018-19 syntax of the seed specification, recognised construct by construct.

Entry points: :func:`parse_module` (text to a :class:`~affine.ir.core.Module`) and
:func:`parse_type`, :func:`parse_attribute`, :func:`parse_affine_map`,
:func:`parse_integer_set` for single values.  Errors raise
:class:`~affine.ir.diagnostics.ParseError` with the location of the offending token.

The reader is layered by section: :mod:`affine.syntax.reader` (tokens, integers, errors),
:mod:`affine.syntax.affine_syntax` (affine expressions, maps and sets),
:mod:`affine.syntax.type_syntax` (types), :mod:`affine.syntax.attribute_syntax`
(attributes) and this module (SSA values, operations and regions, and the entry points).

Custom op syntax lives with each op in :mod:`affine.dialects`; the methods of
:class:`Parser` under "custom syntax helpers" are the vocabulary those parsers use
(operands, types, attribute dictionaries, affine maps of SSA ids, regions).
"""

from __future__ import annotations

import gc
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal, NoReturn, Protocol, TypeVar, overload

from affine.ir.attributes import (
    AffineMapAttr,
    Attribute,
    DictionaryAttr,
    IntegerSetAttr,
)
from affine.ir.core import Block, BlockArgument, Module, Operation, Region, Value
from affine.ir.diagnostics import ParseError
from affine.ir.hooks import Hook
from affine.ir.registry import ISOLATED, MLIR_OPT_DIALECTS, TERMINATOR, OpDef, lookup
from affine.ir.types import (
    FunctionType,
    Type,
)
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr, dim, symbol
from affine.math.integer_set import IntegerSet
from affine.syntax.affine_syntax import name_resolver
from affine.syntax.attribute_syntax import AttributeParser
from affine.syntax.lexer import lex, unescape_string
from affine.syntax.reader import int_value
from affine.syntax.type_syntax import INTEGER_TYPE

E = TypeVar("E")  # an element of a comma list
TypeClass = TypeVar("TypeClass", bound=Type)  # a class of types a custom syntax requires


class ForwardRef(Value):
    """A use of an SSA name before its definition; replaced when the name is defined."""

    __slots__ = ("offset", "ops")

    type: Type | None  # type: ignore[assignment]  # None until a use states it (Parser.resolve)

    def __init__(self, name: str, offset: int) -> None:
        self.type = None
        self.name = name
        self.offset = offset
        self.ops: list[Operation] = []

    @property
    def parent_block(self) -> None:
        return None


class _Isolated:
    """Name scope of one isolated-from-above region tree."""

    __slots__ = ("defined_at", "forward", "layers")

    def __init__(self) -> None:
        self.layers: list[dict[str, list[Value]]] = [{}]
        self.forward: dict[tuple[str, int], ForwardRef] = {}
        self.defined_at: dict[str, int] = {}  # offset of each name's latest definition


class _RegionBlocks:
    """Block names of one region being parsed."""

    __slots__ = ("defined", "forward")

    def __init__(self) -> None:
        self.defined: dict[str, Block] = {}
        self.forward: dict[str, tuple[Block, int]] = {}


# mlir-opt's note on a custom op of a dialect it cannot load
_AVAILABLE_DIALECTS = (
    f"Available dialects: {', '.join(sorted(MLIR_OPT_DIALECTS))} ; for more info on dialect "
    "registration see https://mlir.llvm.org/getting_started/Faq/"
    "#registered-loaded-dependent-whats-up-with-dialects-management"
)

_SSA_NAME = re.compile(r"%[A-Za-z0-9_$.\-]+")


class Parser(AttributeParser):
    """Recursive-descent reader over one source buffer: types, attributes and operations
    over the token and affine layers (:mod:`affine.syntax.reader`,
    :mod:`affine.syntax.affine_syntax`)."""

    def __init__(self, text: str, name: str = "<input>", line_offset: int = 0) -> None:
        super().__init__(text, name, line_offset)
        self.scopes: list[_Isolated] = []
        self.region_blocks: list[_RegionBlocks] = []
        self.default_dialects: list[str] = ["builtin"]
        self.pending_forward = 0
        self.undeclared: list[int] = []  # offsets of uses of names never defined
        self.seed_ops: list[Operation] = []  # ops read from seed syntax, rewritten afterwards
        self.pre_ops: list[Operation] = []  # ops a custom parser adds before the current op

    # -- SSA values ---------------------------------------------------------------------------

    def _push_isolated(self) -> None:
        self.scopes.append(_Isolated())

    def _pop_isolated(self) -> None:
        """Names used and never defined in the scope are reported when the whole buffer is
        read (mlir-opt's finalize): a parse error after them comes first."""
        scope = self.scopes.pop()
        self.undeclared += [ref.offset for ref in scope.forward.values()]

    def _push_layer(self) -> None:
        self.scopes[-1].layers.append({})

    def _pop_layer(self) -> None:
        self.scopes[-1].layers.pop()

    def _lookup_value(self, name: str, index: int, offset: int) -> Value:
        scope = self.scopes[-1]
        for layer in reversed(scope.layers):
            group = layer.get(name)
            if group is not None:
                if index >= len(group):
                    self.error("reference to invalid result number", offset)
                return group[index]
        key = (name, index)
        ref = scope.forward.get(key)
        if ref is None:
            ref = ForwardRef(name if index == 0 else f"{name}#{index}", offset)
            scope.forward[key] = ref
            self.pending_forward += 1
        return ref

    def define_values(self, name: str, values: Sequence[Value], offset: int) -> None:
        scope = self.scopes[-1]
        for layer in scope.layers:
            if name in layer:
                self.error(
                    f"redefinition of SSA value '%{name}'",
                    offset,
                    [("previously defined here", scope.defined_at[name])],
                )
        scope.layers[-1][name] = list(values)
        scope.defined_at[name] = offset
        for index, value in enumerate(values):
            value.name = f"%{name}" if len(values) == 1 else f"%{name}#{index}"
        if scope.forward:
            for index, value in enumerate(values):
                ref = scope.forward.pop((name, index), None)
                if ref is not None:
                    if ref.type is not None and ref.type != value.type:
                        self.error(
                            f"definition of SSA value '%{name}#{index}' has type '{value.type}'",
                            offset,
                            [(f"previously used here with type '{ref.type}'", ref.offset)],
                        )
                    self._resolve_forward(ref, value)

    def _resolve_forward(self, ref: ForwardRef, value: Value) -> None:
        for op in ref.ops:
            operands = op.operands
            for i, v in enumerate(operands):
                if v is ref:
                    operands[i] = value
        self.pending_forward -= 1

    def note_op_created(self, op: Operation) -> None:
        if self.pending_forward:
            for v in op.operands:
                if isinstance(v, ForwardRef):
                    v.ops.append(op)

    # -- custom syntax helpers ------------------------------------------------------------------

    def parse_operand(self) -> tuple[Value, int]:
        """``%name`` or ``%name#N``; returns the value (maybe a forward ref) and its offset."""
        if self.kind != "%":
            self.wrong_token("expected SSA operand")
        token = self.tok
        offset = self.start
        self.advance()
        name, _, number = token[1:].partition("#")
        if not number and self.kind == "#" and self.tok.startswith("#"):
            # as in mlir-opt, a '#...' after an SSA name is its result number, spaced or not
            number = self.tok[1:]
            if not number.isdigit():
                self.error("invalid SSA value result number")
            self.advance()
        return self._lookup_value(name, int(number) if number else 0, offset), offset

    def parse_optional_operand(self) -> tuple[Value, int] | None:
        return self.parse_operand() if self.kind == "%" else None

    def parse_comma_list(
        self, open_: str, parse_element: Callable[[], E], context: str = "", until: bool = False
    ) -> list[E]:
        """``[a, b]`` or ``(a, b)``, possibly empty, each element read by ``parse_element``
        (MLIR's parseCommaSeparatedList with a delimiter; ``context`` completes the message
        of a missing delimiter; with ``until``, the list's end is missing as in MLIR's
        parseCommaSeparatedListUntil: "expected ',' or ')'")."""
        close = {"[": "]", "(": ")", "<": ">", "{": "}"}[open_]
        self.expect(open_, context)
        elements: list[E] = []
        if self.accept(close):
            return elements
        while True:
            elements.append(parse_element())
            if not self.accept(","):
                break
        if until and not self.at(close):
            self.wrong_token(f"expected ',' or '{close}'")
        self.expect(close, context)
        return elements

    def parse_operand_list(
        self, delimiter: str | None = None, context: str = ""
    ) -> list[tuple[Value, int]]:
        """A comma list of operands, optionally in ``(`` ``)`` or ``[`` ``]``.

        ``delimiter`` is ``None`` (bare list, possibly empty), ``'('``, ``'['`` or
        ``'[?'`` (optional square brackets).  Without ``context`` a list not starting with
        an operand is empty (mlir-opt's ``parseOperandList``); with it, the list's elements
        are all operands and ``context`` ends the bracket errors (`` in operand list``).
        """
        close = None
        if delimiter == "(":
            self.expect("(", context)
            close = ")"
        elif delimiter == "[":
            self.expect("[", context)
            close = "]"
        elif delimiter == "[?":
            if not self.accept("["):
                return []
            close = "]"
        operands: list[tuple[Value, int]] = []
        if close is not None and self.accept(close):
            return operands
        if self.kind != "%" and (close is None or not context):
            if close is not None:
                self.expect(close, context)
            return operands
        while True:
            operands.append(self.parse_operand())
            if not self.accept(","):
                break
        if close is not None:
            self.expect(close, context)
        return operands

    def parse_operands(self, count: int) -> list[tuple[Value, int]]:
        """Exactly ``count`` operands, comma-separated (MLIR's parseOperandList with a
        required count)."""
        start = self.start
        if self.kind != "%":
            if self.kind in ("(", "["):
                self.op_error("unexpected delimiter", start)
            self.wrong_token("expected operand")
        operands = self.parse_operand_list()
        if len(operands) != count:
            self.op_error(f"expected {count} operands", start)
        return operands

    def resolve(self, operand: tuple[Value, int], type: Type) -> Value:
        """Check that ``operand`` has ``type`` (or give a forward reference that type)."""
        value, offset = operand
        if isinstance(value, ForwardRef):
            if value.type is None:
                value.type = type
                return value
            actual = value.type
        else:
            actual = value.type
        if actual != type:
            m = _SSA_NAME.match(self.text, offset)
            name = m.group(0) if m else self.text[offset:].split(None, 1)[0]
            if isinstance(value, ForwardRef):
                prior: int | None = value.offset
            else:
                prior = self.scopes[-1].defined_at.get(name[1:]) if self.scopes else None
            self.error(
                f"use of value '{name}' expects different type than prior uses: "
                f"'{type}' vs '{actual}'",
                offset,
                [] if prior is None else [("prior use here", prior)],
            )
        return value

    def resolve_all(
        self, operands: Sequence[tuple[Value, int]], types: Sequence[Type] | Type
    ) -> list[Value]:
        if isinstance(types, Type):
            return [self.resolve(o, types) for o in operands]
        return [self.resolve(o, t) for o, t in zip(operands, types)]

    def parse_colon_type(self) -> Type:
        self.expect(":")
        return self.parse_type()

    def parse_colon_type_of(
        self, cls: type[TypeClass], mnemonic: str, at_colon: bool = False
    ) -> TypeClass:
        """``: type`` where the type must be a ``cls`` (``builtin.memref``, ...); the error is
        at the colon for hand-written mlir-opt parsers, at the type for generated ones."""
        colon = self.start
        self.expect(":")
        return self.parse_type_of(cls, mnemonic, colon if at_colon else None)

    def parse_type_of(
        self, cls: type[TypeClass], mnemonic: str, error_offset: int | None = None
    ) -> TypeClass:
        """A type that must be a ``cls``, else mlir-opt's error at ``error_offset`` (by
        default the type's)."""
        type_offset = self.start
        t = self.parse_type()
        if not isinstance(t, cls):
            self.op_error(
                f"invalid kind of type specified: expected {mnemonic}, but found '{t}'",
                type_offset if error_offset is None else error_offset,
            )
        return t

    def parse_colon_type_list(self) -> list[Type]:
        self.expect(":")
        return self.parse_type_list_no_parens()

    def parse_type_list_parens(self) -> list[Type]:
        self.expect("(")
        if self.accept(")"):
            return []
        types = self.parse_type_list_no_parens()
        self.expect(")")
        return types

    def parse_arrow_type_list(self) -> list[Type]:
        self.expect("->")
        return self.parse_function_result_types()

    def parse_optional_arrow_type_list(self) -> list[Type]:
        if self.kind == "->":
            return self.parse_arrow_type_list()
        return []

    def parse_optional_attr_dict(self) -> dict[str, Attribute]:
        if self.kind == "{":
            return dict(self.parse_attr_dict().entries)
        return {}

    def parse_optional_attr_dict_with_keyword(self) -> dict[str, Attribute]:
        if self.accept_keyword("attributes"):
            return dict(self.parse_attr_dict().entries)
        return {}

    @overload
    def parse_argument(
        self, with_type: Literal[True], colon_context: str = ""
    ) -> tuple[str, int, Type, int]: ...

    @overload
    def parse_argument(
        self, with_type: Literal[False] = False, colon_context: str = ""
    ) -> tuple[str, int, None, int]: ...

    def parse_argument(
        self, with_type: bool = False, colon_context: str = ""
    ) -> tuple[str, int, Type | None, int]:
        """A region argument ``%name`` (``: type`` if asked, ``colon_context`` completing
        the missing-colon message) with an optional ``loc(...)``.

        Returns ``(name, offset, type, location offset)``."""
        if self.kind != "%":
            self.wrong_token("expected SSA operand")
        token = self.tok
        if "#" in token:
            self.error("result number not allowed in argument list", self.start + token.index("#"))
        offset = self.start
        self.advance()
        if self.kind == "#" and self.tok.startswith("#"):
            self.error("result number not allowed in argument list")
        arg_type = None
        if with_type:
            self.expect(":", colon_context)
            arg_type = self.parse_type()
        self.parse_optional_location()
        return token[1:], offset, arg_type, offset

    def ssa_lookup(
        self, names: dict[Value, AffineExpr], operands: list[tuple[Value, int]], counts: list[int]
    ):
        """Identifier resolver for affine expressions over SSA ids (``%x``, ``symbol(%x)``)."""

        by_name: dict[str, AffineExpr] = {}

        def ssa_id(p: Parser, is_symbol: bool) -> AffineExpr:
            # As in MLIR, an SSA name met again is the same identifier whatever its result
            # number, and a '#N' after it is left unread (so `%x#0, %x#1` is an error).
            name = p.tok[1:].partition("#")[0]
            hit = by_name.get(name)
            if hit is not None:
                p.reset(p.start + 1 + len(name))
                return hit
            expr = _ssa_expr(p.parse_operand(), is_symbol)
            by_name[name] = expr
            return expr

        def lookup_id(p: Parser) -> AffineExpr:
            if p.kind == "%":
                return ssa_id(p, False)
            if p.kind == "id" and p.tok == "symbol":
                p.advance()
                p.expect("(", " at start of SSA symbol")
                if p.kind != "%":
                    p.wrong_token("expected ssa identifier")
                expr = ssa_id(p, True)
                p.expect(")", " at end of SSA symbol")
                return expr
            if p.kind == "id":  # a name, but none is declared in this map
                p.wrong_token("use of undeclared identifier")
            p.error("expected bare identifier")

        dims: list[tuple[Value, int]] = []
        syms: list[tuple[Value, int]] = []
        seen: dict[int, AffineExpr] = {}

        def _ssa_expr(operand: tuple[Value, int], is_symbol: bool) -> AffineExpr:
            value = operand[0]
            hit = seen.get(id(value))
            if hit is not None:
                return hit
            if is_symbol:
                expr = symbol(len(syms))
                syms.append(operand)
            else:
                expr = dim(len(dims))
                dims.append(operand)
            seen[id(value)] = expr
            return expr

        return lookup_id, dims, syms

    def parse_affine_map_of_ssa_ids(
        self, delimiter: str = "["
    ) -> tuple[AffineMap, list[tuple[Value, int]]]:
        """``[%i - 1, %j + symbol(%n)]`` as a map and its operands (dims then symbols)."""
        close = "]" if delimiter == "[" else ")"
        self.expect(delimiter, " in affine map")
        lookup_id, dims, syms = self.ssa_lookup({}, [], [])
        exprs: list[AffineExpr] = []
        if not self.accept(close):
            while True:
                exprs.append(self.parse_affine_expr(lookup_id))
                if not self.accept(","):
                    break
            self.expect(close, " in affine map")
        return _ssa_map(exprs, len(dims), len(syms)), dims + syms

    def parse_affine_expr_of_ssa_ids(
        self,
    ) -> tuple[AffineExpr, list[tuple[Value, int]], list[tuple[Value, int]]]:
        lookup_id, dims, syms = self.ssa_lookup({}, [], [])
        expr = self.parse_affine_expr(lookup_id)
        return _ssa_map([expr], len(dims), len(syms)).results[0], dims, syms

    def parse_affine_map_attr(self) -> AffineMap:
        """``affine_map<...>``, a ``#alias`` of one, or a seed inline map."""
        if self.kind == "(":
            return self._parse_seed_map_or_set(want="map")
        offset = self.start
        attr = self.parse_attribute()
        if not isinstance(attr, AffineMapAttr):
            self.error("expected affine map", offset)
        return attr.value

    def parse_integer_set_attr(self) -> IntegerSet:
        offset = self.start
        if self.kind == "(":
            result = self._parse_seed_map_or_set(want="set")
        else:
            attr = self.parse_attribute()
            if not isinstance(attr, IntegerSetAttr):
                self.op_error("invalid kind of attribute specified", offset)
            result = attr.value
        if not isinstance(result, IntegerSet):
            self.error("expected integer set", offset)
        return result

    def parse_dim_and_symbol_list(self) -> tuple[list[tuple[Value, int]], int]:
        dims = self.parse_operand_list("(", " in operand list")
        syms = self.parse_operand_list("[?", " in operand list")
        return dims + syms, len(dims)

    def parse_region(
        self,
        entry_args: Sequence[tuple[str, int, Type]] = (),
        isolated: bool = False,
        default_dialect: str | None = None,
    ) -> Region:
        """``{ blocks }``; ``entry_args`` are (name, offset, type) defined in the entry block."""
        self._enter()
        self.expect("{", " to begin a region")
        saved_custom_op, self.custom_op = self.custom_op, None
        if isolated:
            self._push_isolated()
        else:
            self._push_layer()
        if default_dialect is not None:
            self.default_dialects.append(default_dialect)
        blocks_state = _RegionBlocks()
        self.region_blocks.append(blocks_state)
        region = Region()
        if self.kind != "}" or entry_args:
            entry = Block()
            scope = self.scopes[-1]
            for name, offset, arg_type in entry_args:
                ref = scope.forward.get((name, 0))
                if ref is not None or any(name in layer for layer in scope.layers):
                    previous = scope.defined_at[name] if ref is None else ref.offset
                    self.error(
                        f"region entry argument '%{name}' is already in use",
                        offset,
                        [("previously referenced here", previous)],
                    )
                arg = entry.add_argument(arg_type, self.loc(offset))
                self.define_values(name, [arg], offset)
            if self.kind == "^":  # the region starts with a labelled block
                if entry_args:
                    self.error("invalid block name in region with named arguments")
            else:
                region.add_block(entry)
                self._parse_block_body(entry)
            while self.kind == "^":
                self._parse_labelled_block(region, blocks_state)
        self.expect("}", " in region")
        if blocks_state.forward:
            _, offset = next(iter(blocks_state.forward.values()))
            self.error("reference to an undefined block", offset)
        self.region_blocks.pop()
        if default_dialect is not None:
            self.default_dialects.pop()
        if isolated:
            self._pop_isolated()
        else:
            self._pop_layer()
        self.custom_op = saved_custom_op
        self._leave()
        return region

    def _parse_labelled_block(self, region: Region, state: _RegionBlocks) -> None:
        name = self.tok[1:]
        offset = self.start
        self.advance()
        if name in state.defined:
            self.error(f"redefinition of block '^{name}'", offset)
        pending = state.forward.pop(name, None)
        block = pending[0] if pending is not None else Block()
        state.defined[name] = block
        region.add_block(block)
        if self.accept("("):
            if not self.accept(")"):
                while True:
                    arg_name, arg_offset, arg_type, _ = self.parse_argument(
                        with_type=True, colon_context=" and type for SSA operand"
                    )
                    arg = block.add_argument(arg_type, self.loc(arg_offset))
                    self.define_values(arg_name, [arg], arg_offset)
                    if not self.accept(","):
                        break
                self.expect(")")
        self.expect(":", " after block name")
        self._parse_block_body(block)

    def _parse_block_body(self, block: Block) -> None:
        ops = block.operations
        while self.kind not in ("}", "^"):
            op = self.parse_operation()
            if self.pre_ops:
                for extra in self.pre_ops:
                    extra.parent = block
                    ops.append(extra)
                self.pre_ops.clear()
            op.parent = block
            ops.append(op)

    def parse_successor(self) -> Block:
        if self.kind != "^":
            self.wrong_token("expected block name")
        name = self.tok[1:]
        offset = self.start
        self.advance()
        if not self.region_blocks:  # the top level has no blocks to branch to
            self.error("reference to an undefined block", offset)
        state = self.region_blocks[-1]
        block = state.defined.get(name)
        if block is None:
            pending = state.forward.get(name)
            if pending is None:
                block = Block()
                state.forward[name] = (block, offset)
            else:
                block = pending[0]
        return block

    # -- operations -------------------------------------------------------------------------------

    def parse_operation(self) -> Operation:
        results: list[tuple[str, int, int]] = []  # (name, count, offset)
        if self.kind == "%":
            while True:
                if self.kind != "%":
                    self.wrong_token("expected valid ssa identifier")
                token = self.tok
                offset = self.start
                if "#" in token:  # mlir-opt reads '%x' then finds no '=' after it
                    self.error("expected '=' after SSA name", offset + token.index("#"))
                self.advance()
                count = 1
                if self.accept(":"):
                    if self.kind != "int":
                        self.wrong_token("expected integer number of results")
                    count = int_value(self.tok)
                    if count < 1:
                        self.error("expected named operation to have at least 1 result")
                    self.advance()
                results.append((token[1:], count, offset))
                if not self.accept(","):
                    break
            self.expect("=", " after SSA name")
        name_offset = self.start
        if self.kind == "str":
            op = self._parse_generic_operation()
        elif self.kind == "id" and not INTEGER_TYPE.match(self.tok):  # `i32` starts no op
            op = self._parse_custom_operation(name_offset)
        else:
            self.wrong_token("expected operation name in quotes")
        if op.loc is None:
            op.loc = self.loc(name_offset)
        self.note_op_created(op)
        if results:
            expected = sum(c for _, c, _ in results)
            if not op.results:
                self.error("cannot name an operation with no results", results[0][2])
            if expected != len(op.results):
                self.error(
                    f"operation defines {len(op.results)} results but was provided "
                    f"{expected} to bind",
                    results[0][2],
                )
            index = 0
            for name, count, offset in results:
                self.define_values(name, op.results[index : index + count], offset)
                index += count
        self.parse_optional_location()
        return op

    def _parse_generic_operation(self) -> Operation:
        saved_custom_op, self.custom_op = self.custom_op, None
        try:
            return self._parse_generic_operation_body()
        finally:
            self.custom_op = saved_custom_op

    def _parse_generic_operation_body(self) -> Operation:
        name_offset = self.start
        name = unescape_string(self.tok)
        if not name:
            self.error("empty operation name is invalid")
        self.advance()
        self.expect("(", " to start operand list")
        operands = self.parse_operand_list() if self.kind != ")" else []
        self.expect(")", " to end operand list")
        successors: list[Block] = []
        old_style_args: list[tuple[Value, int]] = []
        old_style_types: list[Type] = []
        op_def = lookup(name)
        if self.at("[") and op_def is not None and not op_def.has(TERMINATOR):
            self.error("successors in non-terminator")
        if self.accept("["):
            while True:
                successors.append(self.parse_successor())
                if self.accept("("):  # seed syntax: successor operands inline
                    args = self.parse_operand_list()
                    self.expect(":")
                    types = self.parse_type_list_no_parens()
                    self.expect(")")
                    old_style_args.extend(args)
                    old_style_types.extend(types)
                if not self.accept(","):
                    break
            self.expect("]", " to end successor list")
        properties: dict[str, Attribute] = {}
        if self.accept("<"):  # properties: any attribute, a dictionary for registered ops
            attr = self.parse_attribute()
            self.expect(">", " to close properties")
            if not isinstance(attr, DictionaryAttr):
                if op_def is not None:
                    self.error(
                        f"invalid properties {attr} for op {name}: expected DictionaryAttr "
                        "to set properties",
                        name_offset,
                    )
                self.error("properties other than a dictionary are not supported", name_offset)
            properties = dict(attr.entries)
        regions: list[Region] = []
        isolated = op_def is not None and op_def.has(ISOLATED)
        if self.accept("("):  # a region list (each region must start with '{')
            while True:
                regions.append(self.parse_region(isolated=isolated))
                if not self.accept(","):
                    break
            self.expect(")", " to end region list")
        attributes: dict[str, Attribute] = {}
        if self.kind == "{":
            attributes = dict(self.parse_attr_dict().entries)
        self.expect(":", " followed by operation type")
        type_offset = self.start
        op_type = self.parse_type()
        if isinstance(op_type, FunctionType):
            input_types, result_types = op_type.inputs, op_type.results
        elif not operands and _seed().is_seed_generic_name(name):  # `"constant"(){value: 42} : i32`
            input_types, result_types = (), (op_type,)
        else:
            self.error("expected function type", type_offset)
        if len(input_types) != len(operands):
            self.error(
                f"expected {len(operands)} operand type{'s' if len(operands) != 1 else ''} "
                f"but had {len(input_types)}",
                type_offset,
            )
        values = [self.resolve(o, t) for o, t in zip(operands, input_types)]
        if old_style_args:
            values += [self.resolve(o, t) for o, t in zip(old_style_args, old_style_types)]
        if op_def is not None and op_def.properties:
            for key in list(attributes):
                if key in op_def.properties and key not in properties:
                    properties[key] = attributes.pop(key)
            for key, value in op_def.property_defaults.items():
                properties.setdefault(key, value)  # as the custom form sets them
        op = Operation.create(
            name,
            values,
            result_types,
            properties,
            attributes,
            regions,
            successors,
            self.loc(name_offset),
        )
        if _seed().is_seed_generic_name(name):
            self.seed_ops.append(op)
        return op

    def resolve_op_name(self, word: str) -> str:
        """The full name of a custom op written ``word`` (default dialect applied)."""
        if "." in word:
            return word
        if self.default_dialects:
            candidate = f"{self.default_dialects[-1]}.{word}"
            if lookup(candidate) is not None:
                return candidate
        if lookup(f"builtin.{word}") is not None:
            return f"builtin.{word}"
        return word

    def _parse_custom_operation(self, name_offset: int) -> Operation:
        word = self.text[self.start : self.end]
        if "." in word:
            op_def: OpDef | None = lookup(word)
            seed_parser = None
        else:
            op_def = lookup(self.resolve_op_name(word))
            seed_parser = _seed().SEED_PARSERS.get(word)
        seed_constant = word == "constant" and (self.seed_functions or op_def is None)
        if seed_parser is not None and (op_def is None or seed_constant):
            self.advance()
            op = seed_parser(self, name_offset)
            self.seed_ops.append(op)
            return op
        if op_def is None or op_def.parse is None:
            self.advance()  # mlir-opt has read the next token (a lexer error there comes first)
            self._unknown_custom_op(word, name_offset)
        self.advance()
        saved = self.custom_op, self.custom_op_at
        self.custom_op, self.custom_op_at = op_def.name, name_offset
        self.default_dialects.append(op_def.default_dialect or "")  # for its regions
        op = op_def.parse(self, name_offset)
        self.default_dialects.pop()
        self.custom_op, self.custom_op_at = saved
        return op

    def _unknown_custom_op(self, word: str, offset: int) -> NoReturn:
        """mlir-opt's words: a name without a dialect (or ending in '.') is tried in the
        default dialect; a dialect mlir-opt cannot load is 'not found'."""
        rest = word.partition(".")[2]
        name = word if rest else f"{self.default_dialects[-1]}.{word}"
        dialect = name.partition(".")[0]
        tried = f" (tried '{name}' as well)" if name != word else ""
        if dialect not in MLIR_OPT_DIALECTS:
            self.error(
                f"Dialect `{dialect}' not found for custom op '{word}' {tried}",
                offset,
                [(_AVAILABLE_DIALECTS, offset)],
            )
        self.error(f"custom op '{word}' is unknown{tried}", offset)

    # -- top level ----------------------------------------------------------------------------------

    def parse_top_level(self) -> Module:
        """The whole buffer: alias definitions, then ops (wrapped in a module if needed)."""
        self._push_isolated()
        top = Block()
        metadata: str | None = None
        while self.kind != "eof":
            if self.kind == "#" or self.kind == "!":
                self._parse_alias_definition()
                continue
            if self.kind == "{-#":
                metadata = self._parse_file_metadata()
                continue
            if self.at_keyword("func") and lex(self.text, self.end)[0] == "@":
                op = _seed().parse_seed_function(self)
                top.append(op)
                continue
            op = self.parse_operation()
            for extra in self.pre_ops:
                top.append(extra)
            self.pre_ops.clear()
            top.append(op)
        self._pop_isolated()
        if self.undeclared:
            first, *rest = sorted(self.undeclared)
            message = "use of undeclared SSA value name"
            self.error(message, first, followed_by=[(message, at) for at in rest])
        for name, offset in self.deferred_aliases.items():
            if name not in self.attr_aliases:
                self.error(f"undefined symbol alias id '{name}'", offset)
        implicit = not (len(top.operations) == 1 and top.operations[0].name == "builtin.module")
        if not implicit:
            module_op = top.operations[0]
            module_op.parent = None
        else:
            module_op = Operation.create("builtin.module", regions=1, loc=self.loc(0))
            module_op.regions[0].add_block(top)
        if self.seed_ops:
            _seed().modernize(module_op, self.seed_ops)
        return Module(module_op, self.source, metadata, implicit)

    def _parse_alias_definition(self) -> None:
        sigil = self.kind
        name = self.tok[1:]
        what = "type" if sigil == "!" else "attribute"
        if name in (self.type_aliases if sigil == "!" else self.attr_aliases):
            self.error(f"redefinition of {what} alias id '{name}'")
        if "." in name and not self._seed_type_alias_follows():
            self.error(f"{what} names with a '.' are reserved for dialect-defined names")
        self.advance()
        self.expect("=", f" in {what} alias definition")
        if sigil == "!":
            self.accept_keyword("type")  # seed syntax: `!name = type <type>`
            self.type_aliases[name] = self.parse_type()
            return
        if self.kind == "(":
            value = self._parse_seed_map_or_set()
            attr: Attribute = (
                AffineMapAttr(value) if isinstance(value, AffineMap) else IntegerSetAttr(value)
            )
        else:
            attr = self.parse_attribute()
        self.attr_aliases[name] = attr

    def _seed_type_alias_follows(self) -> bool:
        """``!name = type <type>``: the seed syntax, where alias names may have dots."""
        state = self.save()
        self.advance()
        seed = self.accept("=") and self.at_keyword("type")
        self.restore(state)
        return seed

    def _parse_file_metadata(self) -> str:
        start = self.start
        end = self.text.find("#-}", self.end)
        if end < 0:
            self.error("expected '#-}' to end file metadata")
        self.reset(end + 3)
        return self.text[start : end + 3]


class SeedSyntax(Protocol):
    """The 2018-19 seed syntax of the standard ops (the module :mod:`affine.dialects.seed`,
    which builds them from the dialects and installs itself here when it is imported)."""

    SEED_PARSERS: Mapping[str, Callable[[Parser, int], Operation]]

    def parse_seed_function(self, p: Parser) -> Operation: ...

    def is_seed_generic_name(self, name: str) -> bool: ...

    def modernize(self, module: Operation, seed_ops: list[Operation]) -> None: ...


_SEED_SYNTAX: Hook[SeedSyntax] = Hook("seed syntax")

install_seed_syntax = _SEED_SYNTAX.install  # called by affine.dialects.seed when imported
_seed = _SEED_SYNTAX.get


def _ssa_map(exprs: list[AffineExpr], num_dims: int, num_symbols: int) -> AffineMap:
    return AffineMap.get(num_dims, num_symbols, exprs)


# -- public entry points -----------------------------------------------------------------------


def parse_module(text: str, filename: str = "<input>", line_offset: int = 0) -> Module:
    """Read MLIR text (modern or seed syntax) into a module.

    The cyclic garbage collector is paused while reading: the reader allocates many
    long-lived objects and no garbage cycles, and collections triggered by those
    allocations would otherwise take about 40% of the time.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return Parser(text, filename, line_offset).parse_top_level()
    finally:
        if was_enabled:
            gc.enable()


def _parse_single(text: str, fn: Callable[[Parser], object], what: str):
    p = Parser(text, f"<{what}>")
    value = fn(p)
    if p.kind != "eof":
        p.error(f"unexpected text after {what}")
    return value


def parse_type(text: str) -> Type:
    return _parse_single(text, Parser.parse_type, "type")


def parse_attribute(text: str) -> Attribute:
    return _parse_single(text, Parser.parse_attribute, "attribute")


def _parse_map_or_set(
    text: str,
    keyword: str,
    attr_class: type[AffineMapAttr] | type[IntegerSetAttr],
    what: str,
    kind: str,
) -> Any:
    """``keyword<...>`` read as an attribute of ``attr_class``, or just the body."""
    stripped = text.strip()
    if stripped.startswith(keyword):
        attr = parse_attribute(stripped)
        if not isinstance(attr, attr_class):
            raise ParseError(f"expected {what}")
        return attr.value
    return _parse_single(stripped, lambda p: p._parse_map_or_set_body(kind), what)


def parse_affine_map(text: str) -> AffineMap:
    """``affine_map<...>``, or just the ``(d0)[s0] -> (...)`` body (seed ``size`` allowed)."""
    return _parse_map_or_set(text, "affine_map", AffineMapAttr, "affine map", "map")


def parse_integer_set(text: str) -> IntegerSet:
    """``affine_set<...>``, or just the ``(d0)[s0] : (...)`` body."""
    return _parse_map_or_set(text, "affine_set", IntegerSetAttr, "integer set", "set")


def parse_affine_expr(text: str, num_dims: int = 0, num_symbols: int = 0) -> AffineExpr:
    """An expression over ``d0..``, ``s0..`` (e.g. ``"d0 floordiv 4 + s0"``)."""
    names = {f"d{i}": dim(i) for i in range(num_dims)}
    names.update({f"s{i}": symbol(i) for i in range(num_symbols)})
    return _parse_single(
        text, lambda p: p.parse_affine_expr(name_resolver(names)), "affine expression"
    )


__all__ = [
    "BlockArgument",
    "ForwardRef",
    "Parser",
    "parse_affine_expr",
    "parse_affine_map",
    "parse_attribute",
    "parse_integer_set",
    "parse_module",
    "parse_type",
]

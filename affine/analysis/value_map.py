"""Affine maps applied to SSA operands, in the canonical forms MLIR 22 gives them.

Invariant: every function returns a map and operands that compute the same values as its
input, spelled exactly as MLIR's affine utilities spell them, so that loops built by the
rewrites in this package print as ``mlir-opt``'s.  The algorithms are MLIR's:

* :func:`simplify_affine_expr` / :func:`simplify_affine_map`: ``simplifyAffineExpr`` (the
  ``SimpleAffineExprFlattener`` of mlir/lib/IR/AffineExpr.cpp, then
  ``getAffineExprFromFlatForm``).  Semi-affine expressions are returned unchanged.
* :func:`canonicalize`: ``canonicalizeMapAndOperands`` / ``canonicalizeSetAndOperands``
  (mlir/lib/Dialect/Affine/IR/AffineOps.cpp): dimensions that are valid symbols become
  symbols, unused operands go, duplicates merge, constant symbols fold.
* :func:`compose` / :func:`fully_compose`: ``composeAffineMapAndOperands`` /
  ``fullyComposeAffineMapAndOperands``: operands produced by ``affine.apply`` are replaced
  by the apply's map.
* :func:`difference`: ``AffineValueMap`` arithmetic (trip counts, built on it, are in
  :mod:`affine.analysis.loops`).

:func:`substitute` (an operand replaced by an expression), :func:`concat` (results of
several value maps over merged operands) and :func:`as_read_back` serve rewrites that have
no MLIR counterpart; they return the form the printed text reads back to.
:func:`map_slots` / :func:`set_map_slots` give uniform access to the maps (and integer
sets) of every affine op together with the operands each one applies to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from math import gcd
from typing import TypeVar

from affine.dialects.affine_dialect import ForOp, is_valid_symbol
from affine.dialects.common import segment_sizes
from affine.ir.attributes import AffineMapAttr, IntegerAttr, IntegerSetAttr
from affine.ir.core import Operation, Value
from affine.ir.registry import CONSTANT
from affine.math.affine_map import AffineMap
from affine.math.expr import (
    ADD,
    BINARY_KINDS,
    CEILDIV,
    CONST,
    DIM,
    MOD,
    MUL,
    SYMBOL,
    AffineExpr,
    constant,
    dim,
    symbol,
)
from affine.math.integer_set import IntegerSet
from affine.syntax.parser import parse_affine_map, parse_integer_set

MapOrSet = TypeVar("MapOrSet", AffineMap, IntegerSet)


@dataclass(frozen=True)
class ValueMap:
    """``map`` applied to ``operands`` (its dimension operands, then its symbol operands):
    MLIR's ``AffineValueMap``."""

    map: AffineMap
    operands: tuple[Value, ...]

    def __post_init__(self) -> None:
        if len(self.operands) != self.map.num_inputs:
            raise ValueError(
                f"{self.map} takes {self.map.num_inputs} operands, got {len(self.operands)}"
            )

    @property
    def dim_operands(self) -> tuple[Value, ...]:
        return self.operands[: self.map.num_dims]

    @property
    def symbol_operands(self) -> tuple[Value, ...]:
        return self.operands[self.map.num_dims :]

    def result(self, index: int) -> ValueMap:
        """The single-result value map of result ``index``."""
        return ValueMap(self.map.sub_map([index]), self.operands)


def constant_value(value: Value) -> int | None:
    """The integer held by a constant op defining ``value`` (MLIR's ``m_Constant``)."""
    op = value.owner_op
    if op is None:
        return None
    op_def = op.op_def
    if op_def is None or not op_def.has(CONSTANT):
        return None
    attr = op.properties.get("value")
    return attr.value if isinstance(attr, IntegerAttr) else None


# -- simplifyAffineExpr --------------------------------------------------------------------------


class _Flattener:
    """MLIR's ``SimpleAffineExprFlattener``: an expression as one row of coefficients over
    ``[dims, symbols, locals, 1]``, each local being a ``floordiv``/``ceildiv`` expression."""

    def __init__(self, num_dims: int, num_symbols: int) -> None:
        self.num_dims = num_dims
        self.num_symbols = num_symbols
        self.locals: list[AffineExpr] = []
        self.stack: list[list[int]] = []

    @property
    def local_start(self) -> int:
        return self.num_dims + self.num_symbols

    def row(self) -> list[int]:
        return [0] * (self.local_start + len(self.locals) + 1)

    def expr(self, row: Sequence[int]) -> AffineExpr:
        """``getAffineExprFromFlatForm``: dims, symbols, locals, then the constant."""
        result = constant(0)
        for j in range(self.local_start):
            if row[j]:
                leaf = dim(j) if j < self.num_dims else symbol(j - self.num_dims)
                result = result + leaf * row[j]
        for j, local in enumerate(self.locals):
            coefficient = row[self.local_start + j]
            if coefficient:
                result = result + local * coefficient
        if row[-1]:
            result = result + row[-1]
        return result

    def walk(self, e: AffineExpr) -> bool:
        """Flatten ``e`` onto the stack (post-order); False for a division by <= 0."""
        kind = e.kind
        if kind not in BINARY_KINDS:
            row = self.row()
            if kind == CONST:
                row[-1] = e.value
            else:
                row[e.value if kind == DIM else self.num_dims + e.value] = 1
            self.stack.append(row)
            return True
        if not (self.walk(e.lhs) and self.walk(e.rhs)):
            return False
        rhs = self.stack.pop()
        lhs = self.stack[-1]
        if kind == ADD:
            for i, c in enumerate(rhs):
                lhs[i] += c
            return True
        if e.rhs.kind != CONST:  # semi-affine: not flattened here
            return False
        c = rhs[-1]
        if kind == MUL:
            for i in range(len(lhs)):
                lhs[i] *= c
            return True
        if c <= 0:
            return False
        if kind == MOD:
            return self._mod(lhs, c)
        return self._div(lhs, c, kind == CEILDIV)

    def _add_local(self, local: AffineExpr) -> None:
        position = self.local_start + len(self.locals)
        for row in self.stack:
            row.insert(position, 0)
        self.locals.append(local)

    def _local_position(self, local: AffineExpr) -> int:
        for i, e in enumerate(self.locals):
            if e is local:
                return i
        self._add_local(local)
        return len(self.locals) - 1

    def _mod(self, lhs: list[int], c: int) -> bool:
        if all(x % c == 0 for x in lhs):
            lhs[:] = [0] * len(lhs)
            return True
        g = c
        for x in lhs:
            g = gcd(g, abs(x))
        quotient = self.expr([x // g for x in lhs]).floordiv(c // g)
        position = self._local_position(quotient)
        lhs[self.local_start + position] = -c
        return True

    def _div(self, lhs: list[int], c: int, ceil: bool) -> bool:
        g = c
        for x in lhs:
            g = gcd(g, abs(x))
        if g != 1:
            lhs[:] = [x // g for x in lhs]
        divisor = c // g
        if divisor == 1:
            return True
        numerator = self.expr(lhs)
        quotient = numerator.ceildiv(divisor) if ceil else numerator.floordiv(divisor)
        position = self._local_position(quotient)
        lhs[:] = [0] * len(lhs)
        lhs[self.local_start + position] = 1
        return True


def simplify_affine_expr(expr: AffineExpr, num_dims: int, num_symbols: int) -> AffineExpr:
    """MLIR's ``simplifyAffineExpr`` for pure affine expressions (flatten, then rebuild);
    semi-affine expressions and divisions by non-positive constants are returned as they are."""
    if not expr.is_pure_affine():
        return expr
    flattener = _Flattener(num_dims, num_symbols)
    if not flattener.walk(expr):
        return expr
    return flattener.expr(flattener.stack[-1])


def simplify_affine_map(m: AffineMap) -> AffineMap:
    """MLIR's ``simplifyAffineMap``: :func:`simplify_affine_expr` on every result."""
    return AffineMap.get(
        m.num_dims,
        m.num_symbols,
        [simplify_affine_expr(r, m.num_dims, m.num_symbols) for r in m.results],
    )


def in_order_of_appearance(m: MapOrSet, operands: Sequence[Value]) -> tuple[MapOrSet, list[Value]]:
    """``m`` and ``operands`` with dims, and symbols, numbered in the order they first occur
    in the printed results (how an op printing its map inline, ``%A[%j + %i]``, reads back)."""
    dims: list[int] = []
    syms: list[int] = []
    for e in _exprs_of(m):
        for leaf in e.walk():
            order = dims if leaf.kind == DIM else syms if leaf.kind == SYMBOL else None
            if order is not None and leaf.value not in order:
                order.append(leaf.value)
    dims += [i for i in range(m.num_dims) if i not in dims]
    syms += [i for i in range(m.num_symbols) if i not in syms]
    dim_remap = [dim(0)] * m.num_dims
    for new, old in enumerate(dims):
        dim_remap[old] = dim(new)
    sym_remap = [symbol(0)] * m.num_symbols
    for new, old in enumerate(syms):
        sym_remap[old] = symbol(new)
    reordered = m.replace(dim_remap, sym_remap, m.num_dims, m.num_symbols)
    return reordered, [operands[i] for i in dims] + [operands[m.num_dims + i] for i in syms]


def as_read_back(m: MapOrSet) -> MapOrSet:
    """``m`` as its printed form reads back.  MLIR's construction rules admit trees such as
    ``d1 + ((d0 floordiv 2) + 3)`` that print like their left-nested twin and read back as
    it (then possibly simplifying further, ``(d1 + e + 3) mod 3`` to ``(d1 + e) mod 3``);
    rewrites that build new expressions return this form, so their output reads back to
    itself."""
    for _ in range(4):
        text = str(m)
        again = parse_affine_map(text) if isinstance(m, AffineMap) else parse_integer_set(text)
        if again is m:
            break
        m = again
    return m


def remove_duplicate_results(m: AffineMap) -> AffineMap:
    """MLIR's ``removeDuplicateExprs``: drop a result equal to the one before it."""
    results = [r for i, r in enumerate(m.results) if i == 0 or r is not m.results[i - 1]]
    return AffineMap.get(m.num_dims, m.num_symbols, results)


# -- canonicalizeMapAndOperands ------------------------------------------------------------------


def _exprs_of(m: AffineMap | IntegerSet) -> tuple[AffineExpr, ...]:
    return m.results if isinstance(m, AffineMap) else m.constraints


def _promote_symbols(m: MapOrSet, operands: list[Value]) -> tuple[MapOrSet, list[Value]]:
    """Dimension operands that are valid symbols become trailing symbols."""
    dims_kept: list[Value] = []
    promoted: list[Value] = []
    remap: list[AffineExpr] = []
    for v in operands[: m.num_dims]:
        if is_valid_symbol(v):
            remap.append(symbol(m.num_symbols + len(promoted)))
            promoted.append(v)
        else:
            remap.append(dim(len(dims_kept)))
            dims_kept.append(v)
    new = m.replace(remap, None, len(dims_kept), m.num_symbols + len(promoted))
    return new, dims_kept + list(operands[m.num_dims :]) + promoted


def canonicalize(
    m: MapOrSet, operands: Sequence[Value], promote_symbols: bool = True
) -> tuple[MapOrSet, list[Value]]:
    """MLIR's ``canonicalizeMapAndOperands`` (or ``...SetAndOperands``): promote dimension
    operands that are valid symbols (unless ``promote_symbols`` is False), drop unused
    operands, merge duplicates, fold constant symbols."""
    operands = list(operands)
    if not operands:
        return m, operands
    if promote_symbols:
        m, operands = _promote_symbols(m, operands)
    used_dims: set[int] = set()
    used_symbols: set[int] = set()
    for e in _exprs_of(m):
        used_dims |= e.used_dims()
        used_symbols |= e.used_symbols()
    result: list[Value] = []
    dim_remap: list[AffineExpr] = []
    seen: dict[Value, AffineExpr] = {}
    for i in range(m.num_dims):
        v = operands[i]
        if i not in used_dims:
            dim_remap.append(constant(0))
        elif v in seen:
            dim_remap.append(seen[v])
        else:
            seen[v] = dim(len(result))
            dim_remap.append(seen[v])
            result.append(v)
    num_dims = len(result)
    symbol_remap: list[AffineExpr] = []
    seen = {}
    for i in range(m.num_symbols):
        v = operands[m.num_dims + i]
        value = constant_value(v)
        if i not in used_symbols:
            symbol_remap.append(constant(0))
        elif value is not None:
            symbol_remap.append(constant(value))
        elif v in seen:
            symbol_remap.append(seen[v])
        else:
            seen[v] = symbol(len(result) - num_dims)
            symbol_remap.append(seen[v])
            result.append(v)
    new = m.replace(dim_remap, symbol_remap, num_dims, len(result) - num_dims)
    return new, result


def canonicalize_value_map(vm: ValueMap, promote_symbols: bool = True) -> ValueMap:
    m, operands = canonicalize(vm.map, vm.operands, promote_symbols)
    return ValueMap(m, tuple(operands))


# -- composition with affine.apply ----------------------------------------------------------------


def _apply_of(value: Value | None) -> Operation | None:
    op = value.owner_op if value is not None else None
    return op if op is not None and op.name == "affine.apply" else None


def compose(vm: ValueMap) -> ValueMap:
    """MLIR's ``composeAffineMapAndOperands``: substitute the map of every ``affine.apply``
    producing an operand (repeatedly), then canonicalize and simplify."""
    m = vm.map
    if m.num_results == 0:
        m, kept = canonicalize(m, vm.operands)
        return ValueMap(simplify_affine_map(m), tuple(kept))
    dims: list[Value | None] = list(vm.operands[: m.num_dims])
    syms: list[Value | None] = list(vm.operands[m.num_dims :])
    changed = True
    while changed:
        changed = False
        for position in range(len(dims) + len(syms)):
            is_dim = position < len(dims)
            slots = dims if is_dim else syms
            index = position if is_dim else position - len(dims)
            apply = _apply_of(slots[index])
            if apply is None:
                continue
            slots[index] = None
            inner, inner_operands = canonicalize(apply.properties["map"].value, apply.operands)  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
            replacement = inner.shift_dims(len(dims)).shift_symbols(len(syms)).results[0]
            dims.extend(inner_operands[: inner.num_dims])
            syms.extend(inner_operands[inner.num_dims :])
            dim_subst = [dim(i) for i in range(m.num_dims)]
            sym_subst = [symbol(i) for i in range(m.num_symbols)]
            (dim_subst if is_dim else sym_subst)[index] = replacement
            m = m.replace(dim_subst, sym_subst, len(dims), len(syms))
            changed = True
            break
    operands: list[Value] = []
    dim_remap: list[AffineExpr] = []
    for v in dims:
        dim_remap.append(constant(0) if v is None else dim(len(operands)))
        if v is not None:
            operands.append(v)
    num_dims = len(operands)
    sym_remap: list[AffineExpr] = []
    for v in syms:
        sym_remap.append(constant(0) if v is None else symbol(len(operands) - num_dims))
        if v is not None:
            operands.append(v)
    m = m.replace(dim_remap, sym_remap, num_dims, len(operands) - num_dims)
    m, operands = canonicalize(m, operands)
    return ValueMap(simplify_affine_map(m), tuple(operands))


def fully_compose(vm: ValueMap) -> ValueMap:
    """MLIR's ``fullyComposeAffineMapAndOperands``: :func:`compose` until no operand is
    produced by an ``affine.apply``."""
    while any(_apply_of(v) is not None for v in vm.operands):
        vm = compose(vm)
    return vm


def combine_maps(
    a: ValueMap, b: ValueMap, result: Callable[[AffineExpr, AffineExpr], AffineExpr]
) -> ValueMap:
    """``result(x, y)`` for each pair of results of ``a`` and ``b`` over the operands of
    both, composed, canonicalized and simplified."""
    if a.map.num_results != b.map.num_results:
        raise ValueError("combining value maps with different result counts")
    operands = a.dim_operands + b.dim_operands + a.symbol_operands + b.symbol_operands
    b_map = b.map.shift_dims(a.map.num_dims).shift_symbols(a.map.num_symbols)
    combined = AffineMap.get(
        b_map.num_dims,
        b_map.num_symbols,
        [result(x, y) for x, y in zip(a.map.results, b_map.results)],
    )
    composed = fully_compose(ValueMap(combined, operands))
    m, ops = canonicalize(composed.map, composed.operands)
    return ValueMap(simplify_affine_map(m), tuple(ops))


def difference(a: ValueMap, b: ValueMap) -> ValueMap:
    """``a - b`` result by result (MLIR's ``AffineValueMap::difference``)."""
    return combine_maps(a, b, lambda x, y: x - y)


def substitute(
    m: MapOrSet, operands: Sequence[Value], value: Value, replacement: ValueMap
) -> tuple[MapOrSet, list[Value]]:
    """``m`` applied to ``operands`` with every input bound to ``value`` replaced by the
    single result of ``replacement`` (whose dims and symbols are appended), canonicalized
    without promoting dimensions to symbols, and simplified.  Raises AffineExprError when
    the result is not (semi-)affine."""
    r = replacement.map
    nd: int = m.num_dims
    ns: int = m.num_symbols
    expr = r.results[0].shift_dims(r.num_dims, nd).shift_symbols(r.num_symbols, ns)
    dims: list[AffineExpr] = [dim(i) for i in range(nd)]
    syms: list[AffineExpr] = [symbol(i) for i in range(ns)]
    for i, v in enumerate(operands):
        if v is value:
            if i < nd:
                dims[i] = expr
            else:
                syms[i - nd] = expr
    new = m.replace(dims, syms, nd + r.num_dims, ns + r.num_symbols)
    new_operands = [
        *operands[:nd],
        *replacement.dim_operands,
        *operands[nd:],
        *replacement.symbol_operands,
    ]
    new, new_operands = canonicalize(new, new_operands, promote_symbols=False)
    if isinstance(new, AffineMap):
        simplified = simplify_affine_map(new)
    else:
        constraints = [
            simplify_affine_expr(c, new.num_dims, new.num_symbols) for c in new.constraints
        ]
        simplified = IntegerSet.get(new.num_dims, new.num_symbols, constraints, new.eq_flags)
    ordered, new_operands = in_order_of_appearance(simplified, new_operands)
    return as_read_back(ordered), new_operands


def substitute_value(vm: ValueMap, value: Value, replacement: ValueMap) -> ValueMap:
    """:func:`substitute` on a value map."""
    m, operands = substitute(vm.map, vm.operands, value, replacement)
    return ValueMap(m, tuple(operands))


def concat(parts: Sequence[ValueMap]) -> ValueMap:
    """One value map with the results of all ``parts`` (dims, then symbols, merged and
    canonicalized; results simplified, repeated results dropped)."""
    dims: list[Value] = []
    syms: list[Value] = []
    results: list[AffineExpr] = []
    for p in parts:
        m = p.map
        results.extend(
            r.shift_dims(m.num_dims, len(dims)).shift_symbols(m.num_symbols, len(syms))
            for r in m.results
        )
        dims.extend(p.dim_operands)
        syms.extend(p.symbol_operands)
    m, operands = canonicalize(AffineMap.get(len(dims), len(syms), results), [*dims, *syms])
    m = simplify_affine_map(m)
    unique = list(dict.fromkeys(m.results))
    return ValueMap(as_read_back(AffineMap.get(m.num_dims, m.num_symbols, unique)), tuple(operands))


# -- the maps of affine ops ------------------------------------------------------------------------

# Operand layout of each affine op with maps: an int is a run of that many operands that are
# not map operands (-1: all remaining ones); a string names the map (or set) attribute whose
# inputs come next.  Maps of dma ops are discardable attributes, the others are properties.
_LAYOUTS: dict[str, tuple[int | str, ...]] = {
    "affine.load": (1, "map"),
    "affine.vector_load": (1, "map"),
    "affine.prefetch": (1, "map"),
    "affine.store": (2, "map"),
    "affine.vector_store": (2, "map"),
    "affine.apply": ("map",),
    "affine.min": ("map",),
    "affine.max": ("map",),
    "affine.if": ("condition",),
    "affine.for": ("lowerBoundMap", "upperBoundMap", -1),
    "affine.parallel": ("lowerBoundsMap", "upperBoundsMap"),
    "affine.dma_start": (1, "src_map", 1, "dst_map", 1, "tag_map", -1),
    "affine.dma_wait": (1, "tag_map", 1),
}


@dataclass(frozen=True)
class MapSlot:
    """One map (or integer set) of an affine op and the operands it applies to."""

    name: str
    map: AffineMap | IntegerSet
    operands: tuple[Value, ...]


def _attrs_holding(op: Operation) -> dict:
    return op.attributes if op.name.startswith("affine.dma_") else op.properties


def _segments(op: Operation) -> Iterator[tuple[str | None, int, int]]:
    """``(map attribute name or None, first operand, operand count)`` along the operands."""
    start = 0
    attrs = _attrs_holding(op)
    for entry in _LAYOUTS.get(op.name, ()):
        if isinstance(entry, int):
            count = len(op.operands) - start if entry < 0 else entry
            yield None, start, count
        else:
            count = attrs[entry].value.num_inputs
            yield entry, start, count
        start += count


def map_slots(op: Operation) -> list[MapSlot]:
    """The maps of an affine op with their operands, in operand order ([] for other ops)."""
    attrs = _attrs_holding(op)
    return [
        MapSlot(name, attrs[name].value, tuple(op.operands[start : start + count]))
        for name, start, count in _segments(op)
        if name is not None
    ]


def access_map(op: Operation) -> ValueMap:
    """The subscripts of a load or store (``affine.load``, ``affine.store`` and their
    vector forms) as one value map, ``affine.apply`` composed in."""
    (slot,) = map_slots(op)
    return fully_compose(ValueMap(slot.map, slot.operands))  # type: ignore[arg-type]  # a load's or store's slot holds a map


def map_operand_positions(op: Operation) -> set[int]:
    """Positions of the operands of ``op`` that are inputs of its maps."""
    return {
        i
        for name, start, count in _segments(op)
        if name is not None
        for i in range(start, start + count)
    }


def set_map_slots(op: Operation, slots: Sequence[MapSlot]) -> None:
    """Store ``slots`` (as returned by :func:`map_slots`, maps and operands replaced) back
    into ``op``, keeping its other operands and its operand segment sizes consistent."""
    by_name = {s.name: s for s in slots}
    attrs = _attrs_holding(op)
    operands: list[Value] = []
    for name, start, count in list(_segments(op)):
        if name is None:
            operands.extend(op.operands[start : start + count])
            continue
        slot = by_name[name]
        if len(slot.operands) != slot.map.num_inputs:
            raise ValueError(f"{slot.map} takes {slot.map.num_inputs} operands")
        attrs[name] = (
            IntegerSetAttr(slot.map)
            if isinstance(slot.map, IntegerSet)
            else AffineMapAttr(slot.map)
        )
        operands.extend(slot.operands)
    op.operands = operands
    if op.name == "affine.for":
        f = ForOp(op)
        op.properties["operandSegmentSizes"] = segment_sizes(
            f.lower_bound_map.num_inputs, f.upper_bound_map.num_inputs, len(op.results)
        )


def canonicalize_affine_ops(root: Operation) -> None:
    """Canonicalize every map of every affine op under ``root`` (MLIR's canonicalization of
    maps and operands: constants folded, unused operands dropped, duplicates merged), e.g.
    after a single-iteration loop was promoted and its IV became a constant."""
    for op in root.walk():
        slots = map_slots(op)
        if not slots:
            continue
        new = []
        changed = False
        for slot in slots:
            canonical: tuple[AffineMap | IntegerSet, list[Value]]
            # One call per kind: the generic canonicalize takes a map or a set, not a union.
            if isinstance(slot.map, AffineMap):
                canonical = canonicalize(slot.map, slot.operands)
            else:
                canonical = canonicalize(slot.map, slot.operands)
            m, operands = canonical
            changed |= m != slot.map or tuple(operands) != slot.operands
            new.append(MapSlot(slot.name, m, tuple(operands)))
        if changed:
            set_map_slots(op, new)

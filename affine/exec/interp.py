"""Reference interpreter: runs functions of the IR on numpy buffers, op by op as MLIR defines them.

Each function is compiled once into Python closures (one per op, specialised to its
operand slots, types and maps; affine maps become generated expressions), so running a
loop nest does no dispatch on op names.  Values live in a per-call frame list: index
values are unbounded Python ints, integers are Python ints wrapped to their width
(canonically signed for signless and ``siN`` types, so ``i1`` true is -1; unsigned for
``uiN``), floats are numpy scalars of the element type (so f32 is computed in float32, f80
in numpy.longdouble), memrefs are :class:`affine.exec.memory.MemRef` values.  Types with a
:class:`~affine.exec.elements.FloatFormat` (bf16, tf32, f8/f6/f4) are ml_dtypes scalars (tf32:
float32 on the tf32 grid) and every op computes in f32 and rounds its result to the type
(:class:`FloatOps`), which for add, sub, mul, div and sqrt is the correctly rounded result
and is what MLIR's LLVM lowering does.

Accesses are checked against the logical shape and reported with the op's location, never
wrapped; so are division by zero and ops without execution semantics (before running).
DMA starts are copies (``dma_wait`` only checks its tag index); ``memref.alloc`` is
zero-filled.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from affine.dialects.affine_dialect import DmaStartOp, ForOp, IfOp, ParallelOp, index_op_maps
from affine.dialects.arith import CMPF_PREDICATES, CMPI_PREDICATES
from affine.dialects.common import segments
from affine.dialects.memref import MemRefDmaStart
from affine.dialects.vector import (
    in_bounds,
    shuffle_mask,
    transfer_dims,
    transfer_parts,
    transfer_vector_type,
)
from affine.exec.elements import (
    ARITH_CASTS,
    F32,
    F64,
    ElementInfo,
    ExecutionError,
    element_info,
    encode_f32,
    float_attr_value,
    float_bits,
    float_from_bits,
    float_values,
)
from affine.exec.inputs import function_name
from affine.exec.memory import (
    MemRef,
    bound_strided_form,
    cast_layout_values,
    num_layout_symbols,
    offset_map,
    offset_symbol_values,
    physical_strides,
    static_physical_strides,
    strided_view_values,
    view_operands,
)
from affine.exec.op_table import OpTable
from affine.exec.semantics import (
    FLOAT_BINARY_OPS,
    FLOAT_IDENTITIES,
    INT_BINARY_OPS,
    IntOps,
    broadcast_sources,
    combining_op,
    dense_lane_values,
    integer_identity,
    lane_offsets,
    position_in_range,
    position_lanes,
    reduction_start,
    strided_side_is_source,
    transfer_lanes,
)
from affine.ir.attributes import DenseElementsAttr, FloatAttr, IntegerAttr, SymbolRefAttr
from affine.ir.core import Block, Module, Operation, Region, Value
from affine.ir.diagnostics import Location
from affine.ir.registry import TERMINATOR
from affine.ir.types import (
    DYNAMIC,
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    Type,
    VectorType,
)
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr
from affine.math.integer_set import IntegerSet

Env = list
Closure = Callable[[Env], Any]


class _Jump:
    """Outcome of a branch terminator: the successor block index and its arguments."""

    __slots__ = ("args", "target")

    def __init__(self, target: int, args: tuple) -> None:
        self.target = target
        self.args = args


class Interpreter:
    """Runs the functions of one module; functions are compiled on first call."""

    def __init__(
        self, module: Operation | Module, unchecked: frozenset[Operation] = frozenset()
    ) -> None:
        """``unchecked``: loads and stores run without a bounds check (proven in bounds)."""
        self.module = module.operation if isinstance(module, Module) else module
        self.unchecked = unchecked
        self._functions: dict[str, _Function] = {}
        self._counter = [0]

    @property
    def iterations(self) -> int:
        """Loop iterations executed so far (every loop body execution counts one)."""
        return self._counter[0]

    def function(self, name: str) -> _Function:
        compiled = self._functions.get(name)
        if compiled is None:
            func = None
            for op in self.module.walk():
                if op.name == "func.func" and function_name(op) == name:
                    func = op
                    break
            if func is None:
                raise ExecutionError(f"no function named @{name} in the module")
            if not func.regions[0].blocks:
                raise ExecutionError(
                    f"@{name} is an external declaration with no body to run", func.loc
                )
            compiled = self._functions[name] = _Function(func, self)
        return compiled

    def call(self, name: str, args: Sequence[Any]) -> list[Any]:
        """Run ``@name`` on run-time values (MemRef, int, numpy scalar); returns its results."""
        function = self.function(name)
        if len(args) != len(function.arg_slots):
            raise ExecutionError(
                f"@{name} takes {len(function.arg_slots)} arguments, {len(args)} given"
            )
        with np.errstate(all="ignore"):
            return list(function(args))


class _Function:
    """A compiled function: frame size, argument slots and the body runner."""

    __slots__ = ("arg_slots", "nslots", "run")

    def __init__(self, func: Operation, interp: Interpreter) -> None:
        compiler = _Compiler(interp)
        entry = func.regions[0].blocks[0]
        self.arg_slots = [compiler.slot(a) for a in entry.arguments]
        self.run = compiler.region(func.regions[0])
        self.nslots = len(compiler.slots)

    def __call__(self, args: Sequence[Any]) -> tuple:
        env: Env = [None] * self.nslots
        for s, v in zip(self.arg_slots, args):
            env[s] = v
        return self.run(env)


# -- integer and float semantics ----------------------------------------------------------------------


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _trunc_rem(a: int, b: int) -> int:
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def int_binary(name: str, ops: IntOps, loc: Location | None) -> Callable[[int, int], int]:
    """``arith.<name>`` on canonical values of one integer type."""
    canon, to_s, to_u, width = ops.canon, ops.to_s, ops.to_u, ops.width

    def nonzero(b: int) -> int:
        if b == 0:
            raise ExecutionError(f"'arith.{name}': division by zero", loc)
        return b

    def shift(b: int) -> int | None:
        b = to_u(b)
        return b if b < width else None

    table: dict[str, Callable[[int, int], int]] = {
        "addi": lambda a, b: canon(a + b),
        "subi": lambda a, b: canon(a - b),
        "muli": lambda a, b: canon(a * b),
        "andi": lambda a, b: canon(a & b),
        "ori": lambda a, b: canon(a | b),
        "xori": lambda a, b: canon(a ^ b),
        "divsi": lambda a, b: canon(_trunc_div(to_s(a), nonzero(to_s(b)))),
        "divui": lambda a, b: canon(to_u(a) // nonzero(to_u(b))),
        "remsi": lambda a, b: canon(_trunc_rem(to_s(a), nonzero(to_s(b)))),
        "remui": lambda a, b: canon(to_u(a) % nonzero(to_u(b))),
        "ceildivsi": lambda a, b: canon(-(-to_s(a) // nonzero(to_s(b)))),
        "ceildivui": lambda a, b: canon(-(-to_u(a) // nonzero(to_u(b)))),
        "floordivsi": lambda a, b: canon(to_s(a) // nonzero(to_s(b))),
        "maxsi": lambda a, b: a if to_s(a) >= to_s(b) else b,
        "minsi": lambda a, b: a if to_s(a) <= to_s(b) else b,
        "maxui": lambda a, b: a if to_u(a) >= to_u(b) else b,
        "minui": lambda a, b: a if to_u(a) <= to_u(b) else b,
        "shli": lambda a, b: 0 if (s := shift(b)) is None else canon(a << s),
        "shrsi": lambda a, b: 0 if (s := shift(b)) is None else canon(to_s(a) >> s),
        "shrui": lambda a, b: 0 if (s := shift(b)) is None else canon(to_u(a) >> s),
    }
    return table[name]


def _is_nan(x: Any) -> bool:
    return x != x


def maximumf(a: Any, b: Any) -> Any:
    """IEEE 754-2019 maximum: NaN if either is NaN, +0 above -0."""
    if _is_nan(a):
        return a
    if _is_nan(b):
        return b
    if a == b:
        return b if np.signbit(a) else a
    return a if a > b else b


def minimumf(a: Any, b: Any) -> Any:
    """IEEE 754-2019 minimum, the mirror of :func:`maximumf` (negation is exact)."""
    return -maximumf(-a, -b)


def maxnumf(a: Any, b: Any) -> Any:
    """IEEE maxNum: a NaN operand is ignored."""
    if _is_nan(a):
        return b
    if _is_nan(b):
        return a
    return a if a >= b else b


def minnumf(a: Any, b: Any) -> Any:
    """IEEE minNum, the mirror of :func:`maxnumf`."""
    return -maxnumf(-a, -b)


FLOAT_BINARY: dict[str, Callable[[Any, Any], Any]] = {
    "addf": lambda a, b: a + b,
    "subf": lambda a, b: a - b,
    "mulf": lambda a, b: a * b,
    "divf": lambda a, b: a / b,
    "remf": np.fmod,
    "maximumf": maximumf,
    "minimumf": minimumf,
    "maxnumf": maxnumf,
    "minnumf": minnumf,
    "powf": np.power,
    "atan2": np.arctan2,
    "copysign": np.copysign,
}


def _round_half_away(x: Any) -> Any:
    r = np.trunc(x)
    if abs(x - r) >= 0.5:
        r = r + np.copysign(type(x)(1), x)
    return r


def _via_double(fn: Callable[[float], float]) -> Callable[[Any], Any]:
    def apply(x: Any) -> Any:
        try:
            return type(x)(fn(float(x)))
        except (ValueError, OverflowError):
            return type(x)(np.nan)

    return apply


FLOAT_UNARY: dict[str, Callable[[Any], Any]] = {
    "sqrt": np.sqrt,
    "rsqrt": lambda x: type(x)(1) / np.sqrt(x),
    "cbrt": np.cbrt,
    "exp": np.exp,
    "exp2": np.exp2,
    "expm1": np.expm1,
    "log": np.log,
    "log2": np.log2,
    "log10": np.log10,
    "log1p": np.log1p,
    "sin": np.sin,
    "cos": np.cos,
    "tan": np.tan,
    "asin": np.arcsin,
    "acos": np.arccos,
    "atan": np.arctan,
    "sinh": np.sinh,
    "cosh": np.cosh,
    "tanh": np.tanh,
    "asinh": np.arcsinh,
    "acosh": np.arccosh,
    "atanh": np.arctanh,
    "absf": np.fabs,  # np.abs flips the sign of a longdouble NaN
    "ceil": np.ceil,
    "floor": np.floor,
    "round": _round_half_away,
    "roundeven": np.rint,
    "trunc": np.trunc,
    "erf": _via_double(__import__("math").erf),
    "erfc": _via_double(__import__("math").erfc),
    "negf": lambda x: -x,
}


# significand bits and smallest normal exponent of the types numpy computes in
_PRECISION = {"f16": (11, -14), "f32": (24, -126), "f64": (53, -1022), "f80": (64, -16382)}


def round_rational(q: Fraction, info: ElementInfo) -> Any:
    """The value of the numpy float type ``info`` (f16, f32, f64 or f80) nearest to ``q``:
    ties to even, subnormals kept, infinity past the largest finite value."""
    t = np.dtype(info.numpy).type
    if q == 0:
        return t(0.0)
    precision, emin = _PRECISION[info.name]
    n, d = abs(q.numerator), q.denominator
    e = n.bit_length() - d.bit_length()  # floor(log2 |q|) is e or e - 1
    if (n < d << e) if e >= 0 else (n << -e < d):
        e -= 1
    ulp = max(e, emin) - (precision - 1)
    num, den = (n, d << ulp) if ulp >= 0 else (n << -ulp, d)
    m, r = divmod(num, den)
    if 2 * r > den or (2 * r == den and m & 1):
        m += 1
    with np.errstate(over="ignore"):
        value = np.ldexp(t(m), ulp)
    return -value if q < 0 else value


def _ratio(x: Any) -> Fraction:
    return Fraction(*x.as_integer_ratio())


class FloatOps:
    """How the interpreter computes with one float type (the C backend does the same).

    Ops work on :meth:`value` (the stored value itself, or its f32 value for types with a
    :class:`~affine.exec.elements.FloatFormat`) and :meth:`finish` rounds their result back to
    the type.  Types narrower than f32 (``via_f32``: those and f16, which numpy computes in
    f32 itself) also take integer conversions through f32, and fused multiply-adds through
    ``fma_info``: f32, except f16 (f64), as LLVM legalises them on x86."""

    __slots__ = ("_compute", "_result", "fma_info", "info", "tiny", "type", "via_f32")

    def __init__(self, info: ElementInfo) -> None:
        self.info = info
        self.type = np.dtype(info.numpy).type
        self.via_f32 = info.width < 32
        self.fma_info = F64 if info.name == "f16" else F32 if self.via_f32 else info
        self._compute: Callable[[Any], Any] | None = None
        self._result: Callable[[Any], Any] | None = None
        fmt = info.format
        if fmt is None:
            self.tiny = np.finfo(self.type).tiny
            return
        self.tiny = np.float32(2.0 ** (1 - fmt.bias - (fmt.special == "e8m0")))
        if fmt.shift:  # tf32: float32 values on the tf32 grid
            self._result = lambda y: encode_f32(np.asarray(y, dtype=np.float32), info)[()]
        else:  # ml_dtypes scalars; their constructor rounds an f32 as astype does
            self._compute = lambda x: np.float32(float(x))
            self._result = self.type

    def value(self, x: Any) -> Any:
        """``x`` in the type ops compute in (exact)."""
        return x if self._compute is None else self._compute(x)

    def finish(self, y: Any) -> Any:
        """An op's result (in the compute type) rounded to the type."""
        return y if self._result is None else self._result(y)

    def from_f32(self, y: Any) -> Any:
        """An f32 value rounded to the type."""
        return self.type(y) if self._result is None else self._result(y)

    def convert(self, x: Any) -> Any:
        """A numpy float of another float type converted as ``arith.extf`` / ``truncf`` do:
        through f32 for encoded types (as LLVM converts to bf16), else rounded once."""
        if self.info.format is not None:
            return self.from_f32(np.float32(x))
        if self.info.name == "f16" and isinstance(x, np.longdouble) and np.isfinite(x):
            return round_rational(_ratio(x), self.info)  # numpy would go through f64
        return self.type(x)

    def from_rational(self, q: Fraction) -> Any:
        """The exact value ``q`` rounded to the type (through f32 when ``via_f32``)."""
        if self.via_f32:
            return self.from_f32(round_rational(q, F32))
        return round_rational(q, self.info)

    def from_int(self, v: int) -> Any:
        """An integer converted as ``arith.sitofp`` / ``uitofp`` do."""
        if -(1 << 24) <= v <= 1 << 24:  # exact in f32 and every wider type
            return self.from_f32(np.float32(v)) if self.via_f32 else self.type(v)
        return self.from_rational(Fraction(v))

    def unary(self, fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
        compute, result = self._compute, self._result
        if result is None:
            return fn
        if compute is None:
            return lambda x: result(fn(x))
        return lambda x: result(fn(compute(x)))

    def binary(self, fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        compute, result = self._compute, self._result
        if result is None:
            return fn
        if compute is None:
            return lambda a, b: result(fn(a, b))
        return lambda a, b: result(fn(compute(a), compute(b)))

    def fma(self, a: Any, b: Any, c: Any) -> Any:
        """``a * b + c`` rounded once to ``fma_info``'s type, then to this type."""
        x, y, z = self.value(a), self.value(b), self.value(c)
        if not (np.isfinite(x) and np.isfinite(y) and np.isfinite(z)):
            return self.finish(x * y + z)
        exact = _ratio(x) * _ratio(y) + _ratio(z)
        if exact == 0:  # the sign of zero follows IEEE addition
            return self.finish(x * y + z)
        wide = round_rational(exact, self.fma_info)
        if self.fma_info is self.info:
            return wide
        return self.from_f32(wide) if self.fma_info is F32 else self.type(wide)


def cmpf(predicate: str) -> Callable[[Any, Any], bool]:
    unordered = predicate.startswith("u")
    base = predicate[1:] if predicate[0] in "ou" else predicate
    compare: dict[str, Callable[[Any, Any], bool]] = {
        "eq": lambda a, b: a == b,
        "ne": lambda a, b: a != b,
        "lt": lambda a, b: a < b,
        "le": lambda a, b: a <= b,
        "gt": lambda a, b: a > b,
        "ge": lambda a, b: a >= b,
    }
    if predicate == "false":
        return lambda a, b: False
    if predicate == "true":
        return lambda a, b: True
    if predicate == "ord":
        return lambda a, b: not (_is_nan(a) or _is_nan(b))
    if predicate == "uno":
        return lambda a, b: _is_nan(a) or _is_nan(b)
    fn = compare[base]
    if unordered:
        return lambda a, b: _is_nan(a) or _is_nan(b) or bool(fn(a, b))
    return lambda a, b: not (_is_nan(a) or _is_nan(b)) and bool(fn(a, b))


def cmpi(predicate: str, ops: IntOps) -> Callable[[int, int], bool]:
    to_s, to_u = ops.to_s, ops.to_u
    table: dict[str, Callable[[int, int], bool]] = {
        "eq": lambda a, b: a == b,
        "ne": lambda a, b: a != b,
        "slt": lambda a, b: to_s(a) < to_s(b),
        "sle": lambda a, b: to_s(a) <= to_s(b),
        "sgt": lambda a, b: to_s(a) > to_s(b),
        "sge": lambda a, b: to_s(a) >= to_s(b),
        "ult": lambda a, b: to_u(a) < to_u(b),
        "ule": lambda a, b: to_u(a) <= to_u(b),
        "ugt": lambda a, b: to_u(a) > to_u(b),
        "uge": lambda a, b: to_u(a) >= to_u(b),
    }
    return table[predicate]


def float_to_int(x: Any, ops: IntOps, signed: bool) -> int:
    """Saturating conversion toward zero (NaN gives 0), as LLVM's ``fptosi.sat``; ``x`` is a
    numpy float (see :meth:`FloatOps.value`)."""
    if _is_nan(x):
        return 0
    if signed:
        lo, hi = -(1 << (ops.width - 1)), (1 << (ops.width - 1)) - 1
    else:
        lo, hi = 0, (1 << ops.width) - 1
    if np.isinf(x):
        value = hi if x > 0 else lo
    else:
        value = max(lo, min(hi, int(x)))
    return ops.canon(value)


def reduction_identity(kind: str, t: Type) -> Any:
    """The neutral element MLIR starts an ``affine.parallel`` reduction from."""
    info = element_info(t)
    if info.kind == "float":
        return float_values(FLOAT_IDENTITIES[kind], info)
    return IntOps(info).canon(integer_identity(kind, info.width))


def reduction_combiner(kind: str, t: Type, loc: Location | None) -> Callable[[Any, Any], Any]:
    """Combine an accumulator with one yielded value; the same functions as the arith ops."""
    info = element_info(t, loc)
    if kind == "assign":
        raise ExecutionError(
            "'affine.parallel' reduction \"assign\" has no neutral element and cannot be run", loc
        )
    if info.kind == "float":
        return FloatOps(info).binary(FLOAT_BINARY[kind])
    arith_name = {"maxs": "maxsi", "mins": "minsi", "maxu": "maxui", "minu": "minui"}.get(
        kind, kind
    )
    return int_binary(arith_name, IntOps(info), loc)


# -- affine maps as generated Python ----------------------------------------------------------------


def _positive_divisor(value: int, loc: Location | None) -> int:
    if value <= 0:
        raise ExecutionError(f"affine division by the non-positive symbol value {value}", loc)
    return value


def expr_source(e: AffineExpr, names: Sequence[str], num_dims: int) -> str:
    """Python source evaluating ``e`` with MLIR semantics; ``names`` are the dims then symbols."""
    kind = e.kind
    if kind == "const":
        return str(e.value)
    if kind == "dim":
        return names[e.value]
    if kind == "symbol":
        return names[num_dims + e.value]
    a = expr_source(e.lhs, names, num_dims)
    b = expr_source(e.rhs, names, num_dims)
    if kind == "+":
        return f"({a} + {b})"
    if kind == "*":
        return f"({a} * {b})"
    if e.rhs.kind != "const":
        b = f"_positive({b}, _loc)"
    if kind == "floordiv":
        return f"({a} // {b})"
    if kind == "ceildiv":
        return f"(-((-{a}) // {b}))"
    return f"({a} % {b})"


_HELPERS: dict[str, Any] = {"_positive": _positive_divisor}


def _build(source: str, name: str, namespace: dict[str, Any]) -> Any:
    scope = dict(_HELPERS)
    scope.update(namespace)
    exec(compile(source, f"<interp {name}>", "exec"), scope)
    return scope[name]


# -- the compiler ---------------------------------------------------------------------------------------


OpCompiler = Callable[["_Compiler", Operation], Closure]
_OPS: OpTable[OpCompiler] = OpTable()
_op = _OPS.register


class _Compiler:
    """Compiles one function: assigns frame slots to values and closures to ops."""

    def __init__(self, interp: Interpreter) -> None:
        self.interp = interp
        self.slots: dict[Value, int] = {}
        self.counter = interp._counter

    def slot(self, value: Value) -> int:
        s = self.slots.get(value)
        if s is None:
            s = self.slots[value] = len(self.slots)
        return s

    # -- regions and blocks

    def region(self, region: Region) -> Closure:
        """A runner returning the terminator's outcome (a tuple of values) for the region."""
        if len(region.blocks) == 1:
            return self.block(region.blocks[0])
        for block in region.blocks:
            for a in block.arguments:
                self.slot(a)
        index = {id(b): i for i, b in enumerate(region.blocks)}
        runners = [self.block(b, index) for b in region.blocks]
        arg_slots = [[self.slots[a] for a in b.arguments] for b in region.blocks]

        def run_cfg(env: Env) -> Any:
            current = 0
            while True:
                outcome = runners[current](env)
                if type(outcome) is not _Jump:
                    return outcome
                for s, v in zip(arg_slots[outcome.target], outcome.args):
                    env[s] = v
                current = outcome.target

        return run_cfg

    def block(self, block: Block, successors: dict[int, int] | None = None) -> Closure:
        for a in block.arguments:
            self.slot(a)
        ops = block.operations
        body = ops[:-1] if ops and _is_terminator(ops[-1]) else ops
        terminator = ops[-1] if len(body) != len(ops) else None
        closures = [self.op(op) for op in body]
        term = self.terminator(terminator, successors) if terminator is not None else None
        lines = ["def run(env):"]
        lines += [f"    f{i}(env)" for i in range(len(closures))]
        lines.append("    return term(env)" if term is not None else "    return ()")
        namespace: dict[str, Any] = {f"f{i}": c for i, c in enumerate(closures)}
        namespace["term"] = term
        return _build("\n".join(lines) + "\n", "run", namespace)

    def terminator(self, op: Operation, successors: dict[int, int] | None) -> Closure:
        if op.name in ("cf.br", "cf.cond_br"):
            if successors is None:
                raise ExecutionError(f"'{op.name}' outside a multi-block region", op.loc)
            return self.branch(op, successors)
        if op.name == "scf.condition":
            cond = self.slot(op.operands[0])
            rest = [self.slot(v) for v in op.operands[1:]]
            return lambda env: (env[cond], tuple(env[s] for s in rest))
        if op.name in ("func.return", "affine.yield", "scf.yield"):
            slots = [self.slot(v) for v in op.operands]
            if not slots:
                return lambda env: ()
            if len(slots) == 1:
                only = slots[0]
                return lambda env: (env[only],)
            return lambda env: tuple(env[s] for s in slots)
        raise ExecutionError(f"the interpreter cannot run the terminator '{op.name}'", op.loc)

    def branch(self, op: Operation, successors: dict[int, int]) -> Closure:
        if op.name == "cf.br":
            target = successors[id(op.successors[0])]
            slots = [self.slot(v) for v in op.operands]
            return lambda env: _Jump(target, tuple(env[s] for s in slots))
        cond = self.slot(op.operands[0])
        true_target = successors[id(op.successors[0])]
        false_target = successors[id(op.successors[1])]
        true_slots = [self.slot(v) for v in segments(op, 1)]
        false_slots = [self.slot(v) for v in segments(op, 2)]

        def cond_br(env: Env) -> _Jump:
            if env[cond]:
                return _Jump(true_target, tuple(env[s] for s in true_slots))
            return _Jump(false_target, tuple(env[s] for s in false_slots))

        return cond_br

    def op(self, op: Operation) -> Closure:
        compile_op = _OPS.get(op.name)
        if compile_op is None:
            raise ExecutionError(
                f"the interpreter cannot run '{op.name}': it has no execution semantics here",
                op.loc,
            )
        return compile_op(self, op)

    # -- helpers for op compilers

    def map_source(self, m: AffineMap, operands: Sequence[Value]) -> list[str]:
        names = [f"env[{self.slot(v)}]" for v in operands]
        return [expr_source(r, names, m.num_dims) for r in m.results]

    def map_function(
        self, m: AffineMap, operands: Sequence[Value], combine: str, loc: Location | None
    ) -> Closure:
        """A closure computing the map's single result, or ``max``/``min`` of its results."""
        sources = self.map_source(m, operands)
        body = sources[0] if len(sources) == 1 else f"{combine}({', '.join(sources)})"
        return _build(f"def value(env):\n    return {body}\n", "value", {"_loc": loc})

    def results(self, op: Operation) -> list[int]:
        return [self.slot(r) for r in op.results]


def _is_terminator(op: Operation) -> bool:
    d = op.op_def
    return d is not None and d.has(TERMINATOR)


# -- memory access ----------------------------------------------------------------------------------------


def _oob(kind: str, memref: MemRef, index: tuple, loc: Location | None) -> None:
    raise ExecutionError(
        f"out-of-bounds {kind}: index {list(index)} is outside '{memref.type}' (sizes {list(memref.sizes)})",
        loc,
    )


def access_code(
    t: MemRefType,
    memref: str,
    indices: Sequence[str],
    kind: str,
    lanes: Sequence[int] = (),
    checked: bool = True,
) -> tuple[list[str], str]:
    """Lines binding and (when ``checked``) bounds-checking the logical indices, and the
    physical position expression (``offset_map`` of the type).  A vector access of shape
    ``lanes`` spans the trailing dims: the position is that of lane ``(l0, l1, ...)``, added
    to those dims' indices, and every lane is checked to be in bounds."""
    rank = len(t.shape)
    first_lane = rank - len(lanes)
    lines = [f"    x{k} = {src}" for k, src in enumerate(indices)]
    checks = []
    for k, size in enumerate(t.shape):
        bound = str(size) if size != DYNAMIC else f"{memref}.sizes[{k}]"
        if k >= first_lane:
            checks.append(f"0 <= x{k} and x{k} + {lanes[k - first_lane] - 1} < {bound}")
        else:
            checks.append(f"0 <= x{k} < {bound}")
    if checks and checked:
        xs = ", ".join(f"x{k}" for k in range(len(indices)))
        lines.append(f"    if not ({' and '.join(checks)}):")
        lines.append(f"        _oob({kind!r}, {memref}, ({xs},), _loc)")
    om = offset_map(t)
    n_layout = num_layout_symbols(t)
    dynamic = [k for k, s in enumerate(static_physical_strides(t)) if s is None]
    names = [f"x{k}" if k < first_lane else f"(x{k} + l{k - first_lane})" for k in range(rank)]
    names += [f"{memref}.symbols[{j}]" for j in range(n_layout)]
    names += [f"{memref}.pstrides[{k}]" for k in dynamic]
    return lines, expr_source(om.results[0], names, om.num_dims)


def _load_store(
    c: _Compiler, op: Operation, memref: Value, indices: list[str], value: Value | None
) -> Closure:
    """A scalar or vector load (``value`` None) or store of ``value``."""
    t = memref.type
    assert isinstance(t, MemRefType)
    info = element_info(t.element_type, op.loc)
    vector = value.type if value is not None else op.results[0].type
    lanes = vector.shape if isinstance(vector, VectorType) else ()
    if len(lanes) > len(t.shape):
        raise ExecutionError(f"'{op.name}' of '{vector}' from the lower-rank '{t}'", op.loc)
    m = c.slot(memref)
    kind = "store" if value is not None else "load"
    checked = op not in c.interp.unchecked
    lines, position = access_code(t, "m", indices, kind, lanes, checked)
    element = _element_source(info, position)
    lane_names = "".join(f"l{j}, " for j in range(len(lanes)))
    if value is not None and lanes:
        body = f"    for ({lane_names}), v in zip(_lanes, env[{c.slot(value)}]):\n"
        body += f"        m.data[{position}] = v"
    elif value is not None:
        body = f"    m.data[{position}] = env[{c.slot(value)}]"
    elif lanes:
        body = f"    env[{c.slot(op.results[0])}] = tuple({element} for ({lane_names}) in _lanes)"
    else:
        body = f"    env[{c.slot(op.results[0])}] = {element}"
    source = "\n".join(["def access(env):", f"    m = env[{m}]", *lines, body]) + "\n"
    namespace = {"_loc": op.loc, "_oob": _oob, "_lanes": lane_offsets(tuple(lanes))}
    return _build(source, "access", namespace)


def _element_source(info: ElementInfo, position: str) -> str:
    """The element at ``position`` of the memref ``m`` as a run-time value."""
    if info.kind == "float":
        return f"m.data[{position}]"
    if info.width == 1:
        return f"-m.data.item({position})"
    return f"m.data.item({position})"


@_op("vector.transfer_read", "vector.transfer_write")
def _transfer(c: _Compiler, op: Operation) -> Closure:
    """Lane by lane: a lane runs along the memref dimension its permutation map result
    names (a broadcast lane stays at the indices); a lane masked off, or past the size of a
    dimension not marked ``in_bounds``, reads the padding and is not written; any other
    lane outside the memref is an out-of-bounds access."""
    memref, indices, padding, mask = transfer_parts(op)
    t = memref.type
    vector = transfer_vector_type(op)
    assert isinstance(t, MemRefType) and isinstance(vector, VectorType)
    info = element_info(t.element_type, op.loc)
    if vector.element_type != t.element_type:
        raise ExecutionError(f"'{op.name}' of '{vector}' from '{t}': element types differ", op.loc)
    rank = len(t.shape)
    dims = transfer_dims(op)
    soft = sorted({d for d, inside in zip(dims, in_bounds(op)) if d is not None and not inside})
    table = transfer_lanes(dims, vector.shape, rank)
    kind = "load" if op.name == "vector.transfer_read" else "store"
    lines, position = access_code(
        t, "m", [f"y{k}" for k in range(rank)], kind, (), op not in c.interp.unchecked
    )
    deltas_names = "".join(f"d{k}, " for k in range(rank))
    skipped = [f"y{d} >= {t.shape[d] if t.shape[d] != DYNAMIC else f'm.sizes[{d}]'}" for d in soft]
    if mask is not None:
        skipped.insert(0, "not mk[mask_lane]")
    body = ["def access(env):", f"    m = env[{c.slot(memref)}]"]
    body += [f"    b{k} = env[{c.slot(v)}]" for k, v in enumerate(indices)]
    if mask is not None:
        body.append(f"    mk = env[{c.slot(mask)}]")
    if kind == "load":
        body += [f"    pad = env[{c.slot(padding)}]", "    out = []"]  # type: ignore[arg-type]  # a read has padding
    else:
        body.append(f"    stored = env[{c.slot(op.operands[0])}]")
    body.append(f"    for lane, (({deltas_names}), mask_lane) in enumerate(_table):")
    body += [f"        y{k} = b{k} + d{k}" for k in range(rank)]
    inner = "            " if skipped else "        "
    if skipped:
        body.append(f"        if {' or '.join(skipped)}:")
        body.append("            out.append(pad)" if kind == "load" else "            continue")
        body.append("        else:")
    body += [
        inner + line.strip() if not line.startswith("        ") else inner + "    " + line.strip()
        for line in lines
    ]
    if kind == "load":
        body.append(inner + f"out.append({_element_source(info, position)})")
        body.append(f"    env[{c.slot(op.results[0])}] = tuple(out)")
    else:
        body.append(inner + f"m.data[{position}] = stored[lane]")
    namespace = {"_loc": op.loc, "_oob": _oob, "_table": table}
    return _build("\n".join(body) + "\n", "access", namespace)


@_op("ub.poison")
def _poison(c: _Compiler, op: Operation) -> Closure:
    """A value the program must not depend on: NaN for floats (so a result that does shows
    it), 0 for integers."""
    t = op.results[0].type
    element = t.element_type if isinstance(t, VectorType) else t
    if isinstance(element, MemRefType) or not isinstance(
        element, (FloatType, IntegerType, IndexType)
    ):
        raise ExecutionError(f"cannot run 'ub.poison' of type '{t}'", op.loc)
    value: Any = 0
    if isinstance(element, FloatType):
        value = float_values(np.array([np.nan]), element_info(element, op.loc))[0]
    if isinstance(t, VectorType):
        value = (value,) * len(lane_offsets(t.shape))
    result = c.slot(op.results[0])

    def poison(env: Env) -> None:
        env[result] = value

    return poison


@_op("affine.load", "affine.vector_load")
def _affine_load(c: _Compiler, op: Operation) -> Closure:
    m = op.properties["map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    return _load_store(c, op, op.operands[0], c.map_source(m, op.operands[1:]), None)


@_op("affine.store", "affine.vector_store")
def _affine_store(c: _Compiler, op: Operation) -> Closure:
    m = op.properties["map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    return _load_store(c, op, op.operands[1], c.map_source(m, op.operands[2:]), op.operands[0])


@_op("memref.load")
def _memref_load(c: _Compiler, op: Operation) -> Closure:
    return _load_store(c, op, op.operands[0], [f"env[{c.slot(v)}]" for v in op.operands[1:]], None)


@_op("memref.store")
def _memref_store(c: _Compiler, op: Operation) -> Closure:
    return _load_store(
        c, op, op.operands[1], [f"env[{c.slot(v)}]" for v in op.operands[2:]], op.operands[0]
    )


@_op("memref.alloc", "memref.alloca")
def _alloc(c: _Compiler, op: Operation) -> Closure:
    t = op.results[0].type
    assert isinstance(t, MemRefType)
    element_info(t.element_type, op.loc)
    dynamic = [c.slot(v) for v in segments(op, 0)]
    symbols = [c.slot(v) for v in segments(op, 1)]
    shape = list(t.shape)
    positions = [k for k, s in enumerate(shape) if s == DYNAMIC]
    result = c.slot(op.results[0])
    loc = op.loc
    if len(symbols) != num_layout_symbols(t):
        raise ExecutionError(
            f"cannot allocate '{t}': its layout has '?' entries no operand gives", loc
        )

    def alloc(env: Env) -> None:
        sizes = list(shape)
        for k, s in zip(positions, dynamic):
            sizes[k] = env[s]
        env[result] = MemRef.allocate(t, sizes, tuple(env[s] for s in symbols), loc)

    return alloc


@_op("memref.dealloc", "affine.prefetch")
def _no_effect(c: _Compiler, op: Operation) -> Closure:
    return lambda env: None


@_op("memref.dim")
def _dim(c: _Compiler, op: Operation) -> Closure:
    m, k, r = c.slot(op.operands[0]), c.slot(op.operands[1]), c.slot(op.results[0])
    loc = op.loc

    def dim(env: Env) -> None:
        sizes = env[m].sizes
        index = env[k]
        if not 0 <= index < len(sizes):
            raise ExecutionError(
                f"'memref.dim' index {index} is outside the rank {len(sizes)}", loc
            )
        env[r] = sizes[index]

    return dim


def cast_memref(memref: MemRef, target: MemRefType, loc: Location | None) -> MemRef:
    """The same buffer seen through ``target`` (a ``memref.cast``)."""
    for k, (want, have) in enumerate(zip(target.shape, memref.sizes)):
        if want != DYNAMIC and want != have:
            raise ExecutionError(
                f"'memref.cast': size {have} of dimension {k} does not match '{target}'", loc
            )
    try:
        offset, symbols, pstrides = cast_layout_values(
            memref.type, target, memref.symbols, memref.pstrides
        )
    except ExecutionError as e:
        raise ExecutionError(e.message, loc) from None
    return _view(memref.data, target, offset, symbols, pstrides, memref.sizes, "memref.cast", loc)


def _view(
    data: np.ndarray,
    target: MemRefType,
    offset: int,
    symbols: tuple,
    pstrides: tuple,
    sizes: tuple[int, ...],
    op_name: str,
    loc: Location | None,
) -> MemRef:
    for k, (want, have) in enumerate(zip(target.shape, sizes)):
        if want != DYNAMIC and want != have:
            raise ExecutionError(
                f"'{op_name}': size {have} of dimension {k} does not match '{target}'", loc
            )
    if target.has_identity_layout and sizes and pstrides != physical_strides(target, sizes):
        raise ExecutionError(
            f"'{op_name}': strides {list(pstrides)} are not those of '{target}'", loc
        )
    return MemRef(target, data[offset:] if offset else data, sizes, symbols, pstrides)


def _strided_view(
    data: np.ndarray,
    target: MemRefType,
    offset: int,
    strides: Sequence[int],
    sizes: tuple[int, ...],
    op_name: str,
    loc: Location | None,
) -> MemRef:
    """A view of ``data`` (checked to lie inside it) through a strided or identity type."""
    if all(sizes):
        lo = offset + sum((n - 1) * st for n, st in zip(sizes, strides) if st < 0)
        hi = offset + sum((n - 1) * st for n, st in zip(sizes, strides) if st > 0)
        if lo < 0 or hi >= data.size:
            raise ExecutionError(
                f"'{op_name}': the view reaches elements {lo}..{hi} of a buffer of {data.size}", loc
            )
    try:
        start, symbols, pstrides = strided_view_values(target, offset, strides, op_name)
    except ExecutionError as e:
        raise ExecutionError(e.message, loc) from None
    return _view(data, target, start, symbols, pstrides, sizes, op_name, loc)


def _view_op(
    c: _Compiler, op: Operation
) -> tuple[int, MemRefType, Callable[[Env], tuple[list, list, list]]]:
    target = op.results[0].type
    if not isinstance(target, MemRefType):
        raise ExecutionError(f"'{op.name}' to '{target}' cannot be run", op.loc)
    lists = view_operands(op)
    slots = [
        [(v, None) if isinstance(v, int) else (None, c.slot(v)) for v in values] for values in lists
    ]

    def numbers(env: Env) -> tuple[list, list, list]:
        return tuple([v if s is None else env[s] for v, s in values] for values in slots)  # type: ignore[return-value]  # a tuple of three lists, built by a generator mypy types as tuple[list, ...]

    return c.slot(op.operands[0]), target, numbers


@_op("memref.subview")
def _subview(c: _Compiler, op: Operation) -> Closure:
    source_slot, target, numbers = _view_op(c, op)
    source = op.operands[0].type
    assert isinstance(source, MemRefType)
    if len(target.shape) != len(source.shape):
        raise ExecutionError("rank-reducing 'memref.subview' cannot be run", op.loc)
    r, loc = c.slot(op.results[0]), op.loc

    def subview(env: Env) -> None:
        memref = env[source_slot]
        offsets, sizes, steps = numbers(env)
        form = bound_strided_form(memref.type, memref.symbols, memref.pstrides)
        if form is None:
            raise ExecutionError(
                f"'memref.subview' of '{memref.type}' cannot be run (only strided sources)", loc
            )
        for k, (o, n, st, dim) in enumerate(zip(offsets, sizes, steps, memref.sizes)):
            if n and (o < 0 or o + (n - 1) * st >= dim or o + (n - 1) * st < 0):
                raise ExecutionError(
                    f"out-of-bounds subview: dimension {k} takes {n} elements from {o} by {st} of {dim}",
                    loc,
                )
        base, strides = form
        offset = base + sum(o * st for o, st in zip(offsets, strides))
        new_strides = [st * step for st, step in zip(strides, steps)]
        env[r] = _strided_view(
            memref.data, target, offset, new_strides, tuple(sizes), "memref.subview", loc
        )

    return subview


@_op("memref.reinterpret_cast")
def _reinterpret_cast(c: _Compiler, op: Operation) -> Closure:
    source_slot, target, numbers = _view_op(c, op)
    r, loc = c.slot(op.results[0]), op.loc

    def reinterpret(env: Env) -> None:
        (offset,), sizes, strides = numbers(env)
        env[r] = _strided_view(
            env[source_slot].data,
            target,
            offset,
            strides,
            tuple(sizes),
            "memref.reinterpret_cast",
            loc,
        )

    return reinterpret


@_op("memref.cast")
def _cast(c: _Compiler, op: Operation) -> Closure:
    s, r = c.slot(op.operands[0]), c.slot(op.results[0])
    target = op.results[0].type
    loc = op.loc
    if not isinstance(target, MemRefType):
        raise ExecutionError("'memref.cast' to an unranked memref cannot be run", loc)

    def cast(env: Env) -> None:
        env[r] = cast_memref(env[s], target, loc)

    return cast


def positions_of_linear(memref: MemRef, linear: np.ndarray) -> np.ndarray:
    indices = []
    rest = linear
    for size in reversed(memref.sizes):
        indices.append(rest % size if size else rest)
        rest = rest // size if size else rest
    indices.reverse()
    om = offset_map(memref.type)
    values = offset_symbol_values(memref.type, memref.symbols, memref.pstrides)
    result = om.results[0].evaluate(indices, values)  # type: ignore[arg-type]  # index arrays: evaluated elementwise by numpy's operators
    return np.broadcast_to(np.asarray(result, dtype=np.int64), linear.shape)


def linear_index(memref: MemRef, index: Sequence[int], what: str, loc: Location | None) -> int:
    """Row-major logical number of ``index`` (checked against the sizes)."""
    if len(index) != len(memref.sizes) or any(not 0 <= i < s for i, s in zip(index, memref.sizes)):
        raise ExecutionError(
            f"out-of-bounds {what} index {list(index)} for '{memref.type}' (sizes {list(memref.sizes)})",
            loc,
        )
    n = 0
    for i, s in zip(index, memref.sizes):
        n = n * s + i
    return n


def dma_copy(
    src: MemRef,
    src_index: Sequence[int],
    dst: MemRef,
    dst_index: Sequence[int],
    tag: MemRef,
    tag_index: Sequence[int],
    count: int,
    stride: int | None,
    per_stride: int | None,
    loc: Location | None,
) -> None:
    """A DMA as a copy of ``count`` elements in logical row-major order; with a stride, the
    side in the lower memory space moves ``per_stride`` elements every ``stride`` elements."""
    linear_index(tag, tag_index, "tag", loc)
    s0 = linear_index(src, src_index, "source", loc)
    d0 = linear_index(dst, dst_index, "destination", loc)
    if count < 0:
        raise ExecutionError(f"DMA of a negative number of elements ({count})", loc)
    k = np.arange(count, dtype=np.int64)
    src_linear = s0 + k
    dst_linear = d0 + k
    if stride is not None and per_stride is not None:
        if per_stride <= 0 or stride < per_stride:
            raise ExecutionError(f"DMA with {per_stride} elements every {stride} elements", loc)
        blocked = k // per_stride * stride + k % per_stride
        if strided_side_is_source(src.type, dst.type):
            src_linear = s0 + blocked
        else:
            dst_linear = d0 + blocked
    for memref, linear, what in ((src, src_linear, "source"), (dst, dst_linear, "destination")):
        if count and (linear[-1] >= memref.num_elements):
            raise ExecutionError(
                f"out-of-bounds DMA {what}: element {int(linear[-1])} of '{memref.type}' (which has "
                f"{memref.num_elements} elements)",
                loc,
            )
    dst.data[positions_of_linear(dst, dst_linear)] = src.data[positions_of_linear(src, src_linear)]


def _dma(
    c: _Compiler,
    op: Operation,
    src: Value,
    src_idx: list[str],
    dst: Value,
    dst_idx: list[str],
    tag: Value,
    tag_idx: list[str],
    num: Value,
    stride: Value | None,
    per: Value | None,
) -> Closure:
    slots = {"src": c.slot(src), "dst": c.slot(dst), "tag": c.slot(tag), "num": c.slot(num)}
    extra = ""
    if stride is not None and per is not None:
        extra = f"env[{c.slot(stride)}], env[{c.slot(per)}]"
    else:
        extra = "None, None"
    source = (
        "def dma(env):\n"
        f"    _copy(env[{slots['src']}], ({''.join(i + ', ' for i in src_idx)}), env[{slots['dst']}], "
        f"({''.join(i + ', ' for i in dst_idx)}), env[{slots['tag']}], ({''.join(i + ', ' for i in tag_idx)}), "
        f"env[{slots['num']}], {extra}, _loc)\n"
    )
    return _build(source, "dma", {"_copy": dma_copy, "_loc": op.loc})


@_op("affine.dma_start")
def _affine_dma(c: _Compiler, op: Operation) -> Closure:
    d = DmaStartOp(op)
    return _dma(
        c,
        op,
        d.src,
        c.map_source(d.src_map, d.src_indices),
        d.dst,
        c.map_source(d.dst_map, d.dst_indices),
        d.tag,
        c.map_source(d.tag_map, d.tag_indices),
        d.num_elements,
        d.stride,
        d.elements_per_stride,
    )


@_op("memref.dma_start")
def _memref_dma(c: _Compiler, op: Operation) -> Closure:
    d = MemRefDmaStart(op)

    def names(values: list[Value]) -> list[str]:
        return [f"env[{c.slot(v)}]" for v in values]

    return _dma(
        c,
        op,
        d.src,
        names(d.src_indices),
        d.dst,
        names(d.dst_indices),
        d.tag,
        names(d.tag_indices),
        d.num_elements,
        d.stride,
        d.elements_per_stride,
    )


def _dma_wait(c: _Compiler, op: Operation, indices: list[str]) -> Closure:
    source = f"def wait(env):\n    _check(env[{c.slot(op.operands[0])}], ({''.join(i + ', ' for i in indices)}), 'tag', _loc)\n"
    return _build(source, "wait", {"_check": linear_index, "_loc": op.loc})


@_op("affine.dma_wait")
def _affine_dma_wait(c: _Compiler, op: Operation) -> Closure:
    m = op.attributes["tag_map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    return _dma_wait(c, op, c.map_source(m, op.operands[1:-1]))


@_op("memref.dma_wait")
def _memref_dma_wait(c: _Compiler, op: Operation) -> Closure:
    return _dma_wait(c, op, [f"env[{c.slot(v)}]" for v in op.operands[1:-1]])


@_op("memref.copy")
def _copy(c: _Compiler, op: Operation) -> Closure:
    s, d = c.slot(op.operands[0]), c.slot(op.operands[1])
    loc = op.loc

    def copy(env: Env) -> None:
        src, dst = env[s], env[d]
        if src.sizes != dst.sizes:
            raise ExecutionError(
                f"'memref.copy' between shapes {list(src.sizes)} and {list(dst.sizes)}", loc
            )
        dst.data[dst.offsets()] = src.data[src.offsets()]

    return copy


# -- affine control flow and index arithmetic ------------------------------------------------------------


@_op("affine.apply", "affine.min", "affine.max")
def _apply(c: _Compiler, op: Operation) -> Closure:
    m = op.properties["map"].value  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    combine = "min" if op.name == "affine.min" else "max"
    value = c.map_function(m, op.operands, combine, op.loc)
    r = c.slot(op.results[0])

    def apply(env: Env) -> None:
        env[r] = value(env)

    return apply


@_op("affine.delinearize_index", "affine.linearize_index")
def _index_op(c: _Compiler, op: Operation) -> Closure:
    maps, operands = index_op_maps(op)
    values = [c.map_function(m, operands, "min", op.loc) for m in maps]
    slots = c.results(op)

    def index(env: Env) -> None:
        for slot, value in zip(slots, values, strict=True):
            env[slot] = value(env)

    return index


@_op("affine.for")
def _affine_for(c: _Compiler, op: Operation) -> Closure:
    f = ForOp(op)
    lower = c.map_function(f.lower_bound_map, f.lower_bound_operands, "max", op.loc)
    upper = c.map_function(f.upper_bound_map, f.upper_bound_operands, "min", op.loc)
    step = f.step
    return _counted_loop(c, op, lower, upper, lambda env: step, f.body, f.inits)


def _counted_loop(
    c: _Compiler,
    op: Operation,
    lower: Closure,
    upper: Closure,
    step_of: Closure,
    body: Block,
    inits: Sequence[Value],
) -> Closure:
    """A loop over ``range(lower, upper, step)`` carrying ``inits`` through the body's yield."""
    iv = c.slot(body.arguments[0])
    args = [c.slot(a) for a in body.arguments[1:]]
    init_slots = [c.slot(v) for v in inits]
    results = c.results(op)
    run = c.block(body)
    counter = c.counter
    loc = op.loc

    def steps(env: Env) -> range:
        step = step_of(env)
        if step <= 0:
            raise ExecutionError(f"loop step {step} is not positive", loc)
        r = range(lower(env), upper(env), step)
        counter[0] += len(r)
        return r

    if not args:

        def loop(env: Env) -> None:
            for i in steps(env):
                env[iv] = i
                run(env)

        return loop

    if len(args) == 1:
        (arg,), (init,), (res,) = args, init_slots, results

        def loop1(env: Env) -> None:
            env[arg] = env[init]
            for i in steps(env):
                env[iv] = i
                env[arg] = run(env)[0]
            env[res] = env[arg]

        return loop1

    def loop_n(env: Env) -> None:
        for a, s in zip(args, init_slots):
            env[a] = env[s]
        for i in steps(env):
            env[iv] = i
            for a, v in zip(args, run(env)):
                env[a] = v
        for r, a in zip(results, args):
            env[r] = env[a]

    return loop_n


def set_source(s: IntegerSet, names: list[str]) -> str:
    parts = []
    for e, eq in zip(s.constraints, s.eq_flags):
        parts.append(f"{expr_source(e, names, s.num_dims)} {'==' if eq else '>='} 0")
    return " and ".join(parts) or "True"


@_op("affine.if")
def _affine_if(c: _Compiler, op: Operation) -> Closure:
    view = IfOp(op)
    names = [f"env[{c.slot(v)}]" for v in op.operands]
    cond = _build(
        f"def cond(env):\n    return {set_source(view.condition, names)}\n",
        "cond",
        {"_loc": op.loc},
    )
    return _conditional(c, op, cond, view.then_block, view.else_block)


def _conditional(
    c: _Compiler, op: Operation, cond: Closure, then_block: Block, else_block: Block | None
) -> Closure:
    then_run = c.block(then_block)
    else_run = c.block(else_block) if else_block is not None else None
    results = c.results(op)

    def branch(env: Env) -> None:
        if cond(env):
            values = then_run(env)
        elif else_run is not None:
            values = else_run(env)
        else:
            return
        for r, v in zip(results, values):
            env[r] = v

    return branch


@_op("affine.parallel")
def _affine_parallel(c: _Compiler, op: Operation) -> Closure:
    par = ParallelOp(op)
    loc = op.loc
    bounds = []
    lstart = ustart = 0
    lm, um = par.lower_bounds_map, par.upper_bounds_map
    for lsize, usize, step in zip(par.lower_bounds_groups, par.upper_bounds_groups, par.steps):
        lsub = AffineMap.get(lm.num_dims, lm.num_symbols, lm.results[lstart : lstart + lsize])
        usub = AffineMap.get(um.num_dims, um.num_symbols, um.results[ustart : ustart + usize])
        bounds.append(
            (
                c.map_function(lsub, par.lower_bounds_operands, "max", loc),
                c.map_function(usub, par.upper_bounds_operands, "min", loc),
                step,
            )
        )
        lstart += lsize
        ustart += usize
    ivs = [c.slot(a) for a in par.induction_vars]
    run = c.block(par.body)
    results = c.results(op)
    kinds = par.reductions
    identities = [
        reduction_identity(k, r.type) if k != "assign" else None for k, r in zip(kinds, op.results)
    ]
    combiners = [reduction_combiner(k, r.type, loc) for k, r in zip(kinds, op.results)]
    counter = c.counter

    def parallel(env: Env) -> None:
        ranges = [range(lo(env), hi(env), step) for lo, hi, step in bounds]
        total = 1
        for iv_range in ranges:
            total *= len(iv_range)
        counter[0] += total
        accumulators = list(identities)
        for point in itertools.product(*ranges):
            for s, v in zip(ivs, point):
                env[s] = v
            values = run(env)
            for k, v in enumerate(values):
                accumulators[k] = combiners[k](accumulators[k], v)
        for r, accumulated in zip(results, accumulators):
            env[r] = accumulated

    return parallel


# -- scf -------------------------------------------------------------------------------------------------------


@_op("scf.for")
def _scf_for(c: _Compiler, op: Operation) -> Closure:
    lb, ub, step = (c.slot(v) for v in op.operands[:3])
    body = op.regions[0].blocks[0]
    unsigned = "unsignedCmp" in op.attributes or "unsignedCmp" in op.properties
    if unsigned:
        info = element_info(op.operands[0].type, op.loc)
        to_u = IntOps(info).to_u
        return _counted_loop(
            c,
            op,
            lambda env: to_u(env[lb]),
            lambda env: to_u(env[ub]),
            lambda env: env[step],
            body,
            op.operands[3:],
        )
    return _counted_loop(
        c,
        op,
        lambda env: env[lb],
        lambda env: env[ub],
        lambda env: env[step],
        body,
        op.operands[3:],
    )


@_op("scf.if")
def _scf_if(c: _Compiler, op: Operation) -> Closure:
    cond = c.slot(op.operands[0])
    else_block = op.regions[1].blocks[0] if op.regions[1].blocks else None
    return _conditional(c, op, lambda env: env[cond], op.regions[0].blocks[0], else_block)


@_op("scf.while")
def _scf_while(c: _Compiler, op: Operation) -> Closure:
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    before_args = [c.slot(a) for a in before.arguments]
    after_args = [c.slot(a) for a in after.arguments]
    inits = [c.slot(v) for v in op.operands]
    results = c.results(op)
    run_before, run_after = c.block(before), c.block(after)
    counter = c.counter

    def loop(env: Env) -> None:
        values = tuple(env[s] for s in inits)
        while True:
            for s, v in zip(before_args, values):
                env[s] = v
            cond, carried = run_before(env)
            if not cond:
                break
            counter[0] += 1
            for s, v in zip(after_args, carried):
                env[s] = v
            values = run_after(env)
        for r, v in zip(results, carried):
            env[r] = v

    return loop


@_op("scf.execute_region")
def _scf_execute_region(c: _Compiler, op: Operation) -> Closure:
    """The region once (its blocks as a CFG); its ``scf.yield`` gives the results."""
    run_region = c.region(op.regions[0])
    results = c.results(op)

    def execute(env: Env) -> None:
        for r, v in zip(results, run_region(env)):
            env[r] = v

    return execute


# -- func ------------------------------------------------------------------------------------------------------


@_op("func.call")
def _call(c: _Compiler, op: Operation) -> Closure:
    callee = op.properties["callee"]
    assert isinstance(callee, SymbolRefAttr)
    name = callee.leaf
    interp = c.interp
    target = None
    for candidate in interp.module.walk():
        if candidate.name == "func.func" and function_name(candidate) == name:
            target = candidate
            break
    if target is None or not target.regions[0].blocks:
        raise ExecutionError(f"'func.call' to @{name}, which has no body to run", op.loc)
    args = [c.slot(v) for v in op.operands]
    results = c.results(op)

    def call(env: Env) -> None:
        values = interp.function(name)([env[s] for s in args])
        for r, v in zip(results, values):
            env[r] = v

    return call


# -- arith and math --------------------------------------------------------------------------------------------


def scalar_constant(attr: Any, t: Type, loc: Location | None) -> Any:
    """The run-time value of a scalar ``arith.constant``."""
    info = element_info(t, loc)
    if isinstance(attr, FloatAttr):
        return float_attr_value(attr, info)
    if isinstance(attr, IntegerAttr):
        return IntOps(info).canon(attr.value)
    raise ExecutionError(f"constants of type '{t}' cannot be run", loc)


@_op("arith.constant")
def _constant(c: _Compiler, op: Operation) -> Closure:
    attr = op.properties["value"]
    if isinstance(attr, DenseElementsAttr):
        value: Any = tuple(dense_lane_values(attr, op.loc))
    else:
        value = scalar_constant(attr, op.results[0].type, op.loc)
    r = c.slot(op.results[0])

    def const(env: Env) -> None:
        env[r] = value

    return const


def scalar_type(t: Type) -> Type:
    """The type of one lane (``t`` itself for scalars)."""
    return t.element_type if isinstance(t, VectorType) else t


def lanewise(op: Operation, fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` applied lane by lane when ``op`` computes a vector (element-wise ops)."""
    if not isinstance(op.results[0].type, VectorType):
        return fn
    return lambda *lanes: tuple(map(fn, *lanes))


def _binary(c: _Compiler, op: Operation, fn: Callable[[Any, Any], Any]) -> Closure:
    a, b, r = c.slot(op.operands[0]), c.slot(op.operands[1]), c.slot(op.results[0])
    fn = lanewise(op, fn)

    def binary(env: Env) -> None:
        env[r] = fn(env[a], env[b])

    return binary


def _unary(c: _Compiler, op: Operation, fn: Callable[[Any], Any]) -> Closure:
    a, r = c.slot(op.operands[0]), c.slot(op.results[0])
    fn = lanewise(op, fn)

    def unary(env: Env) -> None:
        env[r] = fn(env[a])

    return unary


def _int_ops_of(op: Operation, value: Value) -> IntOps:
    return IntOps(element_info(scalar_type(value.type), op.loc))


def _float_ops_of(op: Operation, value: Value) -> FloatOps:
    return FloatOps(element_info(scalar_type(value.type), op.loc))


@_op(*(f"arith.{n}" for n in INT_BINARY_OPS))
def _arith_int(c: _Compiler, op: Operation) -> Closure:
    ops = _int_ops_of(op, op.operands[0])
    return _binary(c, op, int_binary(op.name[6:], ops, op.loc))


@_op(*(f"arith.{n}" for n in FLOAT_BINARY_OPS))
@_op("math.powf", "math.atan2", "math.copysign")
def _arith_float(c: _Compiler, op: Operation) -> Closure:
    fops = _float_ops_of(op, op.operands[0])
    return _binary(c, op, fops.binary(FLOAT_BINARY[op.name.split(".", 1)[1]]))


@_op("arith.negf", *(f"math.{n}" for n in FLOAT_UNARY if n != "negf"))
def _float_unary(c: _Compiler, op: Operation) -> Closure:
    fops = _float_ops_of(op, op.operands[0])
    return _unary(c, op, fops.unary(FLOAT_UNARY[op.name.split(".", 1)[1]]))


@_op("math.fma", "vector.fma")
def _math_fma(c: _Compiler, op: Operation) -> Closure:
    a, b, d = (c.slot(v) for v in op.operands)
    r = c.slot(op.results[0])
    fma_of = lanewise(op, _float_ops_of(op, op.operands[0]).fma)

    def fma(env: Env) -> None:
        env[r] = fma_of(env[a], env[b], env[d])

    return fma


@_op("math.isnan", "math.isinf", "math.isfinite", "math.isnormal")
def _float_class(c: _Compiler, op: Operation) -> Closure:
    fops = _float_ops_of(op, op.operands[0])
    value, tiny = fops.value, fops.tiny
    tests: dict[str, Callable[[Any], bool]] = {
        "isnan": lambda x: bool(np.isnan(x)),
        "isinf": lambda x: bool(np.isinf(x)),
        "isfinite": lambda x: bool(np.isfinite(x)),
        "isnormal": lambda x: bool(np.isfinite(x)) and abs(x) >= tiny,
    }
    test = tests[op.name[5:]]
    return _unary(c, op, lambda x: -1 if test(value(x)) else 0)


@_op("math.absi", "math.ctlz", "math.cttz", "math.ctpop")
def _int_unary(c: _Compiler, op: Operation) -> Closure:
    ops = _int_ops_of(op, op.operands[0])
    width, canon, to_s, to_u = ops.width, ops.canon, ops.to_s, ops.to_u

    def ctlz(x: int) -> int:
        return width - to_u(x).bit_length()

    def cttz(x: int) -> int:
        u = to_u(x)
        return width if u == 0 else (u & -u).bit_length() - 1

    fns: dict[str, Callable[[int], int]] = {
        "absi": lambda x: canon(abs(to_s(x))),
        "ctlz": lambda x: canon(ctlz(x)),
        "cttz": lambda x: canon(cttz(x)),
        "ctpop": lambda x: canon(bin(to_u(x)).count("1")),
    }
    return _unary(c, op, fns[op.name[5:]])


@_op("math.ipowi")
def _ipowi(c: _Compiler, op: Operation) -> Closure:
    ops = _int_ops_of(op, op.operands[0])
    canon, to_s = ops.canon, ops.to_s
    mask = (1 << ops.width) - 1

    def ipowi(a: int, b: int) -> int:
        b = to_s(b)
        if b < 0:
            a = to_s(a)
            if a == 0:
                raise ExecutionError("'math.ipowi': zero to a negative power", op.loc)
            return canon(a if a == 1 else (a if b % 2 else 1) if a == -1 else 0)
        return canon(pow(a, b, mask + 1))

    return _binary(c, op, ipowi)


@_op("math.fpowi")
def _fpowi(c: _Compiler, op: Operation) -> Closure:
    fops = _float_ops_of(op, op.operands[0])
    value, finish = fops.value, fops.finish
    to_s = _int_ops_of(op, op.operands[1]).to_s

    def fpowi(a: Any, b: int) -> Any:
        x = value(a)
        return finish(np.power(x, type(x)(to_s(b))))

    return _binary(c, op, fpowi)


@_op("arith.cmpi")
def _cmpi(c: _Compiler, op: Operation) -> Closure:
    pred = CMPI_PREDICATES[op.properties["predicate"].value]  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    test = cmpi(pred, _int_ops_of(op, op.operands[0]))
    return _binary(c, op, lambda a, b: -1 if test(a, b) else 0)


@_op("arith.cmpf")
def _cmpf(c: _Compiler, op: Operation) -> Closure:
    value = _float_ops_of(op, op.operands[0]).value
    pred = CMPF_PREDICATES[op.properties["predicate"].value]  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    test = cmpf(pred)
    return _binary(c, op, lambda a, b: -1 if test(value(a), value(b)) else 0)


@_op("arith.select")
def _select(c: _Compiler, op: Operation) -> Closure:
    cond, a, b = (c.slot(v) for v in op.operands)
    r = c.slot(op.results[0])
    if isinstance(op.operands[0].type, VectorType):  # a mask: one choice per lane
        choose = lanewise(op, lambda m, x, y: x if m else y)

        def select_lanes(env: Env) -> None:
            env[r] = choose(env[cond], env[a], env[b])

        return select_lanes

    def select(env: Env) -> None:
        env[r] = env[a] if env[cond] else env[b]

    return select


def cast_function(
    name: str, source: Type, target: Type, loc: Location | None
) -> Callable[[Any], Any]:
    """The value conversion of ``arith.<name>`` from ``source`` to ``target``."""
    src, dst = element_info(source, loc), element_info(target, loc)
    if name == "bitcast":
        if src.width != dst.width or src.width == 1 or "index" in (src.kind, dst.kind):
            raise ExecutionError(
                f"'arith.bitcast' from '{source}' to '{target}' cannot be run", loc
            )
        if src.kind == "float":
            to_bits: Callable[[Any], int] = lambda x: float_bits(x, src)  # noqa: E731
        else:
            to_bits = IntOps(src).to_u
        if dst.kind == "float":
            return lambda x: float_from_bits(to_bits(x), dst)
        canon = IntOps(dst).canon
        return lambda x: canon(to_bits(x))
    if dst.kind == "float":
        dst_float = FloatOps(dst)
        if src.kind == "float":
            value, convert = FloatOps(src).value, dst_float.convert
            return lambda x: convert(value(x))
        ops = IntOps(src)
        view = ops.to_u if name == "uitofp" else ops.to_s
        from_int = dst_float.from_int
        return lambda x: from_int(view(x))
    dst_ops = IntOps(dst)
    if src.kind == "float":
        signed = name == "fptosi"
        value = FloatOps(src).value
        return lambda x: float_to_int(value(x), dst_ops, signed)
    src_ops = IntOps(src)
    canon = dst_ops.canon
    if name in ("extui", "index_castui"):
        to_u = src_ops.to_u
        return lambda x: canon(to_u(x))
    to_s = src_ops.to_s
    return lambda x: canon(to_s(x))


@_op(*(f"arith.{n}" for n in ARITH_CASTS))
def _cast_scalar(c: _Compiler, op: Operation) -> Closure:
    source, target = scalar_type(op.operands[0].type), scalar_type(op.results[0].type)
    return _unary(c, op, cast_function(op.name[6:], source, target, op.loc))


# -- vector ----------------------------------------------------------------------------------------------


@_op("vector.broadcast")
def _broadcast(c: _Compiler, op: Operation) -> Closure:
    source = op.operands[0].type
    shape = source.shape if isinstance(source, VectorType) else ()
    picked = broadcast_sources(tuple(shape), tuple(op.results[0].type.shape))  # type: ignore[attr-defined]  # the verifier checked that the result is a vector
    a, r = c.slot(op.operands[0]), c.slot(op.results[0])
    count = len(picked)

    def splat(env: Env) -> None:
        env[r] = (env[a],) * count

    def broadcast(env: Env) -> None:
        lanes = env[a]
        env[r] = tuple(lanes[k] for k in picked)

    return broadcast if shape else splat


@_op("vector.shuffle")
def _shuffle(c: _Compiler, op: Operation) -> Closure:
    mask = [max(k, 0) for k in shuffle_mask(op)]  # a poison lane (-1) may hold any lane
    a, b, r = c.slot(op.operands[0]), c.slot(op.operands[1]), c.slot(op.results[0])

    def shuffle(env: Env) -> None:
        lanes = env[a] + env[b]
        env[r] = tuple(lanes[k] for k in mask)

    return shuffle


@_op("vector.reduction")
def _reduction(c: _Compiler, op: Operation) -> Closure:
    kind = op.properties["kind"].body  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    info = element_info(op.results[0].type, op.loc)
    name = combining_op(kind, info.kind == "float")
    if info.kind == "float":
        combine = FloatOps(info).binary(FLOAT_BINARY[name])
    else:
        combine = int_binary(name, IntOps(info), op.loc)
    v, r = c.slot(op.operands[0]), c.slot(op.results[0])
    acc = c.slot(op.operands[1]) if len(op.operands) > 1 else None
    start = reduction_start(kind, info.kind == "float")
    zero = float_values(start, info) if start is not None else None

    def reduce(env: Env) -> None:
        lanes = env[v]
        initial = env[acc] if acc is not None else zero
        result = lanes[0] if initial is None else combine(initial, lanes[0])
        for x in lanes[1:]:
            result = combine(result, x)
        env[r] = result

    return reduce


def _position(c: _Compiler, op: Operation) -> Callable[[Env], tuple]:
    """The op's full or partial position at run time, checked against the vector's shape."""
    static = op.properties["static_position"].values  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    vector = op.operands[0 if op.name == "vector.extract" else 1].type
    shape = tuple(vector.shape)  # type: ignore[attr-defined]  # the verifier checked that it is a vector
    dynamic = iter(op.operands[1 if op.name == "vector.extract" else 2 :])
    parts = [(None, p) if p != DYNAMIC else (c.slot(next(dynamic)), 0) for p in static]
    loc = op.loc

    def position(env: Env) -> tuple:
        at = tuple(p if s is None else env[s] for s, p in parts)
        if not position_in_range(shape, at):
            raise ExecutionError(f"'{op.name}' position {list(at)} is outside '{vector}'", loc)
        return at

    return position


@_op("vector.extract")
def _extract(c: _Compiler, op: Operation) -> Closure:
    position = _position(c, op)
    shape = tuple(op.operands[0].type.shape)  # type: ignore[attr-defined]  # the verifier checked that it is a vector
    v, r = c.slot(op.operands[0]), c.slot(op.results[0])
    whole = isinstance(op.results[0].type, VectorType)

    def extract(env: Env) -> None:
        first, count = position_lanes(shape, position(env))
        lanes = env[v][first : first + count]
        env[r] = lanes if whole else lanes[0]

    return extract


@_op("vector.insert")
def _insert(c: _Compiler, op: Operation) -> Closure:
    position = _position(c, op)
    shape = tuple(op.results[0].type.shape)  # type: ignore[attr-defined]  # the verifier checked that it is a vector
    a, v, r = c.slot(op.operands[0]), c.slot(op.operands[1]), c.slot(op.results[0])
    whole = isinstance(op.operands[0].type, VectorType)

    def insert(env: Env) -> None:
        first, count = position_lanes(shape, position(env))
        lanes = env[a] if whole else (env[a],)
        env[r] = env[v][:first] + tuple(lanes) + env[v][first + count :]

    return insert


__all__ = ["Interpreter", "cast_memref", "dma_copy", "int_binary"]

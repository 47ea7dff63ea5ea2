"""The C emitter: a program (functions emitted once, callees first, with the helpers they
need) and one function's emitter (names of values, memrefs, lines, nesting), plus the table
of op emitters the modules :mod:`~affine.exec.c_memory`, :mod:`~affine.exec.c_control` and
:mod:`~affine.exec.c_arith` fill.

Invariant: a value is bound to one C name when its op is emitted; memrefs are
:class:`CMem` (data pointer and run-time numbers), per the memory model of
:mod:`affine.exec.memory`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from affine.dialects.common import segments
from affine.dialects.func import function_type_of
from affine.exec.c_scalar import (
    PRELUDE,
    affine_c,
    binary_c,
    codec_c,
    is_nonneg,
    reduction_identity_c,
    value_ctype,
)
from affine.exec.elements import (
    ElementInfo,
    ExecutionError,
    element_info,
)
from affine.exec.inputs import function_name
from affine.exec.memory import (
    num_layout_symbols,
    offset_map,
    offset_symbol_values,
    static_physical_strides,
)
from affine.exec.op_table import OpTable
from affine.exec.safety import BOUNDS_CHECKED_OPS
from affine.exec.semantics import REDUCTION_OPS
from affine.ir.core import Block, Operation, Region, Value
from affine.ir.diagnostics import Location
from affine.ir.types import DYNAMIC, FloatType, MemRefType, Type, VectorType
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr


@dataclass
class CMem:
    """A memref value in C: data pointer expression, size / layout symbol / physical stride
    expressions (ints where the type fixes them)."""

    type: MemRefType
    data: str
    sizes: list[Any]
    symbols: list[Any]
    pstrides: list[Any]


class ProgramEmitter:
    """Emits the C functions of one program (functions are emitted once, callees first)."""

    def __init__(
        self,
        module: Operation,
        restrict: bool,
        openmp: bool,
        checks: bool,
        unchecked: frozenset[Operation] = frozenset(),
    ) -> None:
        self.module = module
        self.restrict = restrict
        self.openmp = openmp
        self.checks = checks
        self.unchecked = unchecked
        self.functions: dict[str, str] = {}
        self.order: list[str] = []
        self.locations: list[tuple[Location | None, str]] = []
        self.declared_reductions: dict[tuple[str, str], str] = {}
        self.reduction_decls: list[str] = []
        self.bitcasts: dict[tuple[str, str], str] = {}
        self.prototypes: dict[str, str] = {}
        self.used_openmp = False
        self.no_restrict: set[str] = set()
        self.floats = float_types(module)
        self.vector_types: dict[tuple[str, int], str] = {}

    def checked(self, op: Operation) -> bool:
        """Whether the loads and stores of ``op`` are bounds-checked."""
        return self.checks and op not in self.unchecked

    def checks_inside(self, op: Operation) -> bool:
        """Whether a bounds check under ``op`` may leave the kernel (``longjmp``, which must
        not cross an OpenMP region)."""
        return any(inner.name in BOUNDS_CHECKED_OPS and self.checked(inner) for inner in op.walk())

    def error_code(self, op: Operation, message: str) -> int:
        self.locations.append((op.loc, message))
        return len(self.locations)

    def lookup(self, name: str, loc: Location | None) -> Operation:
        for op in self.module.walk():
            if op.name == "func.func" and function_name(op) == name:
                if not op.regions[0].blocks:
                    raise ExecutionError(
                        f"@{name} is an external declaration with no body to compile", loc
                    )
                return op
        raise ExecutionError(f"no function named @{name} in the module", loc)

    def function(self, func: Operation) -> str:
        """The C name of ``func``, emitting it (and its callees) on first use."""
        name = function_name(func)
        cname = "f_" + "".join(ch if ch.isalnum() else "_" for ch in name)
        if name not in self.functions:
            self.functions[name] = ""
            self.functions[name] = FunctionEmitter(self, func, cname).emit()
            self.order.append(name)
        return cname

    def reduction(self, kind: str, t: Type, loc: Location | None) -> str:
        """An ``omp declare reduction`` identifier for ``kind`` over values of type ``t``."""
        info = element_info(t, loc)
        ctype = value_ctype(info)
        ident = f"pa_{kind}_{info.name if info.format is not None else ctype.replace(' ', '_')}"
        key = (kind, ident)
        if key not in self.declared_reductions:
            combine = binary_c(REDUCTION_OPS[kind], "omp_out", "omp_in", info, 0)
            init = reduction_identity_c(kind, info)
            self.reduction_decls.append(
                f"#pragma omp declare reduction({ident} : {ctype} : omp_out = {combine}) initializer(omp_priv = {init})"
            )
            self.declared_reductions[key] = ident
        return self.declared_reductions[key]

    def vector_type(self, info: ElementInfo, lanes: int) -> str:
        """The C type of a vector of ``lanes`` values of ``info``: a struct holding an array
        (passed and assigned by value, any number of lanes)."""
        ctype = value_ctype(info)
        key = (ctype, lanes)
        if key not in self.vector_types:
            self.vector_types[key] = f"pa_v{lanes}_{ctype.replace(' ', '_')}"
        return self.vector_types[key]

    def bitcast(self, src: ElementInfo, dst: ElementInfo) -> str:
        key = (value_ctype(src), value_ctype(dst))
        if key not in self.bitcasts:
            name = f"pa_bitcast_{len(self.bitcasts)}"
            self.bitcasts[key] = name
        return self.bitcasts[key]

    def source(self, entries: dict[str, str]) -> str:
        parts = [PRELUDE]
        if "f80" in self.floats:
            parts.append("typedef char pa_f80_is_x87_extended[LDBL_MANT_DIG == 64 ? 1 : -1];\n")
        parts.extend(codec_c(info) for info in self.floats.values() if info.format is not None)
        for (ctype, lanes), name in self.vector_types.items():
            parts.append(f"typedef struct {{ {ctype} v[{lanes}]; }} {name};\n")
        for (src, dst), name in self.bitcasts.items():
            parts.append(
                f"static inline {dst} {name}({src} x) {{ {dst} r; memcpy(&r, &x, sizeof r); return r; }}\n"
            )
        parts.extend(d + "\n" for d in self.reduction_decls)
        parts.append("".join(p + ";\n" for p in self.prototypes.values()))
        for name in self.order:
            parts.append(self.functions[name])
        parts.extend(entries.values())
        return "\n".join(parts)


def float_types(module: Operation) -> dict[str, ElementInfo]:
    """The runnable float types of the values in ``module`` (memref elements included), by
    name; others are refused where a function that is compiled uses them."""
    found: dict[str, ElementInfo] = {}
    for op in module.walk():
        values = [*op.operands, *op.results]
        values += [a for region in op.regions for block in region.blocks for a in block.arguments]
        for v in values:
            t = v.type.element_type if isinstance(v.type, (MemRefType, VectorType)) else v.type
            if isinstance(t, FloatType) and t.name not in found:
                try:
                    found[t.name] = element_info(t, op.loc)
                except ExecutionError:
                    continue
    return dict(sorted(found.items()))


def lane_count(t: VectorType) -> int:
    count = 1
    for size in t.shape:
        count *= size
    return count


def is_elementwise(op: Operation) -> bool:
    """An arith or math op (or ``vector.fma``) on vectors: its C is its scalar C per lane."""
    return (
        bool(op.results)
        and isinstance(op.results[0].type, VectorType)
        and (op.name.startswith(("arith.", "math.")) or op.name == "vector.fma")
        and op.name != "arith.constant"
    )


CEmit = Callable[["FunctionEmitter", Operation], None]
C_OPS: OpTable[CEmit] = OpTable()
c_op = C_OPS.register


class FunctionEmitter:
    """Emits one ``func.func`` as a static C function."""

    def __init__(self, program: ProgramEmitter, func: Operation, cname: str) -> None:
        self.program = program
        self.func = func
        self.cname = cname
        self.names: dict[Value, str] = {}
        self.mems: dict[Value, CMem] = {}
        self.nonneg: set[Value] = set()
        self.lines: list[str] = []
        self.depth = 1
        self.counter = 0
        self.uses_arena = False
        self.parallel_depth = 0
        self.multi_block = len(func.regions[0].blocks) > 1
        self.hoisted: list[str] = []
        self.results: list[str] = []
        self.lane: str | None = None  # the lane variable while an element-wise op is emitted

    # -- output helpers

    def line(self, text: str) -> None:
        self.lines.append("  " * self.depth + text)

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def info(self, value: Value, loc: Location | None = None) -> ElementInfo:
        """The element type of ``value`` (of each lane, for a vector)."""
        t = value.type
        return element_info(t.element_type if isinstance(t, VectorType) else t, loc)

    def ctype_of(self, t: Type, loc: Location | None = None) -> str:
        """The C type holding a value of type ``t``."""
        if isinstance(t, VectorType):
            return self.program.vector_type(element_info(t.element_type, loc), lane_count(t))
        return value_ctype(element_info(t, loc))

    def local(self, expr: str, ctype: str = "int64_t", prefix: str = "x") -> str:
        """A new variable initialised with ``expr`` (declared at the top of a function of
        several blocks, which jumps between them)."""
        name = self.fresh(prefix)
        if self.multi_block:
            self.hoisted.append(f"{ctype} {name};")
            self.line(f"{name} = {expr};")
        else:
            self.line(f"const {ctype} {name} = {expr};")
        return name

    def define(self, value: Value, expr: str, loc: Location | None = None) -> str:
        """Bind ``value`` to a new variable initialised with ``expr``; a vector in lane mode
        (:meth:`lanes`) gets ``expr`` for each lane."""
        ctype = self.ctype_of(value.type, loc)
        if isinstance(value.type, VectorType) and self.lane is not None:
            name = self.fresh()
            lane = self.lane
            self.declare_name(name, ctype)
            self.line(
                f"for (int64_t {lane} = 0; {lane} < {lane_count(value.type)}; ++{lane}) "
                f"{name}.v[{lane}] = {expr};"
            )
        else:
            name = self.local(expr, ctype, "v")
        self.names[value] = name
        return name

    def declare_name(self, name: str, ctype: str) -> None:
        """A mutable variable ``name`` (hoisted to the top in a function of many blocks)."""
        if self.multi_block:
            self.hoisted.append(f"{ctype} {name};")
        else:
            self.line(f"{ctype} {name};")

    @contextmanager
    def lanes(self) -> Iterator[str]:
        """Lane mode: :meth:`v` of a vector names one lane and :meth:`define` of a vector
        loops over the lanes (element-wise ops reuse their scalar C this way)."""
        outer = self.lane
        self.lane = self.fresh("l")
        try:
            yield self.lane
        finally:
            self.lane = outer

    def declare(self, value: Value, init: str | None = None, loc: Location | None = None) -> str:
        """A mutable variable for ``value`` (loop-carried values, results of regions)."""
        name = self.fresh()
        ctype = self.ctype_of(value.type, loc)
        if self.multi_block:
            self.hoisted.append(f"{ctype} {name};")
            if init is not None:
                self.line(f"{name} = {init};")
        else:
            self.line(f"{ctype} {name}" + (f" = {init};" if init is not None else ";"))
        self.names[value] = name
        return name

    def v(self, value: Value) -> str:
        """The C name of ``value`` (of its current lane in lane mode)."""
        name = self.names[value]
        if self.lane is not None and isinstance(value.type, VectorType):
            return f"{name}.v[{self.lane}]"
        return name

    def mem(self, value: Value) -> CMem:
        return self.mems[value]

    # -- function

    def emit(self) -> str:
        func = self.func

        result_types = list(function_type_of(func).results)
        params = []
        entry = func.regions[0].blocks[0]
        restrict = (
            "restrict "
            if self.program.restrict and function_name(func) not in self.program.no_restrict
            else ""
        )
        for k, arg in enumerate(entry.arguments):
            t = arg.type
            if isinstance(t, MemRefType):
                info = element_info(t.element_type, func.loc)
                data = f"a{k}"
                params.append(f"{info.c} *{restrict}{data}")
                sizes: list[Any] = []
                for d, s in enumerate(t.shape):
                    if s == DYNAMIC:
                        params.append(f"int64_t a{k}_d{d}")
                        sizes.append(f"a{k}_d{d}")
                    else:
                        sizes.append(s)
                symbols: list[Any] = []
                for j in range(num_layout_symbols(t)):
                    params.append(f"int64_t a{k}_s{j}")
                    symbols.append(f"a{k}_s{j}")
                pstrides: list[Any] = []
                for j, p in enumerate(static_physical_strides(t)):
                    if p is None:
                        params.append(f"int64_t a{k}_p{j}")
                        pstrides.append(f"a{k}_p{j}")
                    else:
                        pstrides.append(p)
                self.mems[arg] = CMem(t, data, sizes, symbols, pstrides)
            else:
                params.append(f"{self.ctype_of(t, func.loc)} a{k}")
                self.names[arg] = f"a{k}"
        for k, t in enumerate(result_types):
            if isinstance(t, MemRefType):
                raise ExecutionError(
                    f"@{function_name(func)} returns a memref; the C backend only returns scalars",
                    func.loc,
                )
            params.append(f"{self.ctype_of(t, func.loc)} *r{k}")
            self.results.append(f"r{k}")
        self.body_region(func.regions[0])
        if self.multi_block:
            self.lines.append("pa_done:;")
            if self.uses_arena:
                self.line("pa_release(&arena);")
        self.program.prototypes[self.cname] = (
            f"static void {self.cname}({', '.join(params) or 'void'})"
        )
        prologue = ["  pa_arena arena = {0, 0, 0};"] if self.uses_arena else []
        prologue += ["  " + h for h in self.hoisted]
        return (
            "\n".join([self.program.prototypes[self.cname] + " {", *prologue, *self.lines, "}"])
            + "\n"
        )

    def body_region(self, region: Region) -> None:
        blocks = region.blocks
        if not self.multi_block:
            self.ops(blocks[0])
            return
        labels = {id(b): f"bb{i}" for i, b in enumerate(blocks)}
        for block in blocks[1:]:
            for a in block.arguments:
                self.declare(a)
        for block in blocks:
            self.lines.append(f"{labels[id(block)]}:;")
            self.ops(block, labels)

    def ops(self, block: Block, labels: dict[int, str] | None = None) -> None:
        for op in block.operations:
            if op.name in ("affine.yield", "scf.yield", "scf.condition"):
                continue
            if op.name == "func.return":
                for r, v in zip(self.results, op.operands):
                    self.line(f"*{r} = {self.v(v)};")
                if self.multi_block:
                    self.line("goto pa_done;")
                elif self.uses_arena:
                    self.line("pa_release(&arena);")
                continue
            if op.name in ("cf.br", "cf.cond_br"):
                self.branch(op, labels or {})
                continue
            emit = C_OPS.get(op.name)
            if emit is None:
                raise ExecutionError(
                    f"the C backend cannot compile '{op.name}': it has no execution semantics here",
                    op.loc,
                )
            if is_elementwise(op):
                with self.lanes():
                    emit(self, op)
            else:
                emit(self, op)

    def branch(self, op: Operation, labels: dict[int, str]) -> None:
        def jump(target: Block, args: Sequence[Value]) -> str:
            temps = []
            for a, v in zip(target.arguments, args):
                t = self.fresh("t")
                self.line(f"{self.ctype_of(a.type)} {t} = {self.v(v)};")
                temps.append((a, t))
            for a, t in temps:
                self.line(f"{self.v(a)} = {t};")
            return f"goto {labels[id(target)]};"

        if op.name == "cf.br":
            self.line("{")
            self.depth += 1
            self.line(jump(op.successors[0], op.operands))
            self.depth -= 1
            self.line("}")
            return
        self.line(f"if ({self.v(op.operands[0])}) {{")
        self.depth += 1
        self.line(jump(op.successors[0], segments(op, 1)))
        self.depth -= 1
        self.line("} else {")
        self.depth += 1
        self.line(jump(op.successors[1], segments(op, 2)))
        self.depth -= 1
        self.line("}")

    def block_body(self, block: Block, yield_to: Sequence[str] = ()) -> None:
        """Emit ``block``'s ops and assign its yielded values to ``yield_to``."""
        self.ops(block)
        self.block_yield(block, yield_to)

    def block_yield(self, block: Block, yield_to: Sequence[str]) -> None:
        """Assign the values ``block``'s terminator yields to ``yield_to``."""
        terminator = block.operations[-1] if block.operations else None
        if yield_to and terminator is not None:
            self.assign(
                yield_to,
                [self.v(v) for v in terminator.operands],
                [self.ctype_of(v.type) for v in terminator.operands],
            )

    def assign(self, targets: Sequence[str], values: Sequence[str], ctypes: Sequence[str]) -> None:
        """``targets = values`` at once (through temporaries of C types ``ctypes``)."""
        if len(targets) == 1:
            self.line(f"{targets[0]} = {values[0]};")
            return
        temps = []
        for value, ctype in zip(values, ctypes):
            t = self.fresh("t")
            self.line(f"const {ctype} {t} = {value};")
            temps.append(t)
        for target, t in zip(targets, temps):
            self.line(f"{target} = {t};")

    # -- affine helpers

    def affine(self, e: AffineExpr, operands: Sequence[Value], num_dims: int, code: int) -> str:
        names = [self.v(v) for v in operands]
        flags = [v in self.nonneg for v in operands]
        return affine_c(e, names, flags, num_dims, code)

    def bound(self, m: AffineMap, operands: Sequence[Value], combine: str, op: Operation) -> str:
        code = self.program.error_code(op, "affine division by a non-positive symbol value")
        exprs = [self.affine(r, operands, m.num_dims, code) for r in m.results]
        result = exprs[0]
        for e in exprs[1:]:
            result = f"pa_{combine}({result}, {e})"
        return result

    def map_nonneg(self, m: AffineMap, operands: Sequence[Value], any_result: bool) -> bool:
        flags = [v in self.nonneg for v in operands]
        checks = [is_nonneg(r, flags, m.num_dims) for r in m.results]
        return any(checks) if any_result else all(checks)

    def position(self, mem: CMem, indices: Sequence[str]) -> str:
        """C for the physical position of logical ``indices`` (assumed in bounds)."""
        om = offset_map(mem.type)
        values = offset_symbol_values(mem.type, mem.symbols, mem.pstrides)
        names = [f"({i})" for i in indices] + [str(v) for v in values]
        flags = [True] * len(indices) + [False] * len(values)
        return affine_c(om.results[0], names, flags, om.num_dims, 0)

    def sizes_c(self, mem: CMem) -> list[str]:
        return [str(s) for s in mem.sizes]

    def check_bounds(self, op: Operation, mem: CMem, indices: Sequence[str], what: str) -> None:
        """Leave the kernel (``pa_oob``: the index and the sizes are kept for the report)
        before an access outside the memref's shape, unless ``op`` is not checked."""
        if not self.program.checked(op) or not indices:
            return
        code = self.program.error_code(op, f"out-of-bounds {what}: '{mem.type}'")
        sizes = self.sizes_c(mem)
        conds = [f"({i}) < 0 || ({i}) >= {s}" for i, s in zip(indices, sizes)]
        index_list = ", ".join(f"(int64_t)({i})" for i in indices)
        size_list = ", ".join(f"(int64_t)({s})" for s in sizes)
        self.line(
            f"if ({' || '.join(conds)}) {{ pa_oob({code}, {len(indices)}, "
            f"(const int64_t[]){{{index_list}}}, (const int64_t[]){{{size_list}}}); }}"
        )

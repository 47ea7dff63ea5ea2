"""C backend: emits C99 for functions of the IR, compiles them into a shared library and calls
them on numpy buffers through ctypes.  This module holds the entry wrappers (one exported
``pa_entry_<name>(void **args)`` per function called from Python) and the calls; the C for
ops is emitted by :mod:`~affine.exec.c_emitter` with the op emitters of
:mod:`~affine.exec.c_memory`, :mod:`~affine.exec.c_control` and :mod:`~affine.exec.c_arith`,
from the scalar semantics of :mod:`~affine.exec.c_scalar`; :mod:`~affine.exec.toolchain`
compiles.

Semantics follow the interpreter (:mod:`affine.exec.interp`): index values are int64; integers
are held canonically (signed for signless, unsigned for ``uiN``) and wrap at their width;
floats are computed in their own precision (``-std=c99`` rounds ``_Float16`` per operation,
``-ffp-contract=off`` forbids fused multiply-adds the IR does not ask for; f80 is ``long
double``, checked to be the x87 format); types with a :class:`~affine.exec.elements.FloatFormat`
(bf16, tf32, f8/f6/f4) are held as their stored words (``uint8_t``/``uint16_t``; tf32 as the
``uint32_t`` of its f32) and every op decodes to float, computes and rounds back with the
emitted ``pa_dec_<type>`` / ``pa_enc_<type>`` (ml_dtypes' conversion, bit for bit); floordiv,
ceildiv and mod round as MLIR does for negative values; division by zero is reported (at
the op's location) instead of trapping.  Memory is the model of :mod:`affine.exec.memory`: a
memref is a data pointer plus its dynamic sizes, layout symbols and physical strides, and
every access goes through the type's :func:`~affine.exec.memory.offset_map`.  Loads and stores
are not bounds-checked unless ``checks=True`` (a failed check leaves the kernel through
``longjmp`` before the access, so no OpenMP region holds a checked access); DMA and copies
always are.

The outermost dimension of an ``affine.parallel`` (not nested in another) becomes
``#pragma omp parallel for``, with declared reductions, when the compiler supports OpenMP
(detected once); inner dimensions stay plain loops.  Compiled libraries are cached by a
hash of the source, compiler and flags in ``$POLYAFFINE_CACHE_DIR`` (default
``$XDG_CACHE_HOME/polyaffine`` or ``~/.cache/polyaffine``).  ``$CC`` chooses the compiler.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from affine.dialects.func import function_type_of
from affine.exec import c_arith, c_control, c_memory, c_vector  # noqa: F401  (they register the op emitters)
from affine.exec.c_emitter import ProgramEmitter
from affine.exec.c_scalar import (
    value_ctype,
    value_dtype,
)
from affine.exec.elements import (
    ExecutionError,
    element_info,
)
from affine.exec.inputs import function_name, module_of, resolve_function
from affine.exec.memory import (
    MemRef,
    num_layout_symbols,
    static_physical_strides,
)
from affine.exec.toolchain import build_library, find_compiler, load_library, openmp_supported
from affine.ir.core import Module, Operation
from affine.ir.diagnostics import Location
from affine.ir.types import DYNAMIC, MemRefType


@dataclass
class Param:
    """One slot of an entry wrapper's ``void **args``: ``kind`` is ``data`` (a memref's
    buffer), ``int`` (an int64 memref number: ``what`` is ``size``/``symbol``/``pstride``
    and ``index`` its position), ``scalar`` (pointer to an argument value) or ``result``."""

    kind: str
    arg: int
    what: str = ""
    index: int = 0
    dtype: str = "int64"


@dataclass
class CProgram:
    """C source for a set of functions with one exported wrapper per entry.

    ``pa_entry_<name>(void **args)`` returns 0, or the 1-based index into ``locations``
    of the op that failed (division by zero, an out-of-bounds transfer...); -1 when memory
    ran out."""

    source: str
    entries: dict[str, list[Param]]
    locations: list[tuple[Location | None, str]]
    uses_openmp: bool


def _entry_wrapper(func: Operation, cname: str) -> tuple[str, list[Param]]:
    """``int pa_entry_<name>(void **args)`` unpacking each argument slot."""

    name = function_name(func)
    params: list[Param] = []
    call_args = []
    for k, arg in enumerate(func.regions[0].blocks[0].arguments):
        t = arg.type
        if isinstance(t, MemRefType):
            info = element_info(t.element_type)
            params.append(Param("data", k))
            call_args.append(f"({info.c} *)args[{len(params) - 1}]")
            for d, s in enumerate(t.shape):
                if s == DYNAMIC:
                    params.append(Param("int", k, "size", d))
                    call_args.append(f"*(int64_t *)args[{len(params) - 1}]")
            for j in range(num_layout_symbols(t)):
                params.append(Param("int", k, "symbol", j))
                call_args.append(f"*(int64_t *)args[{len(params) - 1}]")
            for j, p in enumerate(static_physical_strides(t)):
                if p is None:
                    params.append(Param("int", k, "pstride", j))
                    call_args.append(f"*(int64_t *)args[{len(params) - 1}]")
        else:
            info = element_info(t)
            params.append(Param("scalar", k, dtype=value_dtype(info)))
            call_args.append(f"*({value_ctype(info)} *)args[{len(params) - 1}]")
    for k, t in enumerate(function_type_of(func).results):
        info = element_info(t)
        params.append(Param("result", k, dtype=value_dtype(info)))
        call_args.append(f"({value_ctype(info)} *)args[{len(params) - 1}]")
    symbol = "pa_entry_" + "".join(ch if ch.isalnum() else "_" for ch in name)
    source = (
        f"int {symbol}(void **args) {{\n"
        "  pa_err = 0;\n"
        "  pa_oob_rank = 0;\n"
        "  if (setjmp(pa_jmp)) return pa_err;\n"
        f"  {cname}({', '.join(call_args)});\n"
        "  return pa_err;\n"
        "}\n"
    )
    return source, params


_VIEWS = (
    "memref.cast",
    "memref.subview",
    "memref.reinterpret_cast",
    "memref.view",
    "memref.expand_shape",
    "memref.collapse_shape",
)


def aliased_callees(module: Operation) -> set[str]:
    """Functions some call passes one buffer twice (their parameters cannot be ``restrict``)."""
    names: set[str] = set()
    for op in module.walk():
        if op.name != "func.call":
            continue
        roots = []
        for v in op.operands:
            if not isinstance(v.type, MemRefType):
                continue
            while v.owner_op is not None and v.owner_op.name in _VIEWS:
                v = v.owner_op.operands[0]
            roots.append(v)
        if len(set(roots)) != len(roots):
            names.add(op.properties["callee"].leaf)  # type: ignore[attr-defined]  # the op's definition fixes this attribute's class
    return names


def emit_program(
    target: Operation | Module,
    entries: Sequence[str] | None = None,
    *,
    restrict: bool = True,
    openmp: bool = True,
    checks: bool = False,
    unchecked: frozenset[Operation] = frozenset(),
) -> CProgram:
    """C for the functions named ``entries`` (default: every public function with a body)
    and their callees, with an exported ``pa_entry_<name>`` wrapper for each entry.  With
    ``checks``, every load and store but those in ``unchecked`` is bounds-checked."""
    module = target.operation if isinstance(target, Module) else target
    if module.name == "func.func":
        entries = [function_name(module)] if entries is None else entries

        module = module_of(module)
    if entries is None:
        entries = [
            function_name(f)
            for f in module.walk()
            if f.name == "func.func"
            and f.regions[0].blocks
            and getattr(f.properties.get("sym_visibility"), "value", "public") != "private"
        ]
    emitter = ProgramEmitter(module, restrict, openmp, checks, unchecked)
    emitter.no_restrict = aliased_callees(module)
    wrappers: dict[str, str] = {}
    params: dict[str, list[Param]] = {}
    for name in entries:
        func = emitter.lookup(name, None)
        wrappers[name], params[name] = _entry_wrapper(func, emitter.function(func))
    source = emitter.source(wrappers)
    return CProgram(source, params, emitter.locations, emitter.used_openmp)


def emit_c(target: Operation | Module, entries: Sequence[str] | None = None, **options: Any) -> str:
    """The C99 source of :func:`emit_program` (what ``poly-opt --emit=c`` prints)."""
    return emit_program(target, entries, **options).source


@dataclass
class CompiledFunction:
    """A compiled entry function; call it with run-time values (MemRef, int, numpy scalar).

    Two variants are built on demand: with ``restrict`` memref parameters, and without
    (used when arguments share memory)."""

    func: Operation
    opt: str = "-O3"
    openmp: bool | None = None
    checks: bool = False
    unchecked: frozenset[Operation] = frozenset()
    _variants: dict[bool, tuple[Any, CProgram]] = field(default_factory=dict)

    def variant(self, restrict: bool) -> tuple[Any, CProgram]:
        if restrict not in self._variants:
            compiler = find_compiler()
            openmp = openmp_supported(compiler) if self.openmp is None else self.openmp
            program = emit_program(
                self.func,
                restrict=restrict,
                openmp=openmp,
                checks=self.checks,
                unchecked=self.unchecked,
            )
            library = load_library(
                build_library(program.source, opt=self.opt, openmp=openmp and program.uses_openmp)
            )
            self._variants[restrict] = (library, program)
        return self._variants[restrict]

    @property
    def source(self) -> str:
        return self.variant(True)[1].source

    def __call__(self, values: Sequence[Any]) -> list[Any]:
        import ctypes

        import numpy as np

        memrefs = [v for v in values if isinstance(v, MemRef)]
        aliased = any(
            np.may_share_memory(a.data, b.data)
            for i, a in enumerate(memrefs)
            for b in memrefs[i + 1 :]
        )
        library, program = self.variant(not aliased)
        name = function_name(self.func)
        params = program.entries[name]
        keep: list[Any] = []
        slots = (ctypes.c_void_p * max(1, len(params)))()
        results: list[Any] = []
        for i, p in enumerate(params):
            if p.kind == "data":
                data = values[p.arg].data
                keep.append(data)
                slots[i] = data.ctypes.data
                continue
            if p.kind == "int":
                memref = values[p.arg]
                number = {
                    "size": memref.sizes,
                    "symbol": memref.symbols,
                    "pstride": memref.pstrides,
                }[p.what][p.index]
                cell = np.array(number, dtype=np.int64)
            elif p.kind == "scalar":
                cell = np.array(values[p.arg], dtype=p.dtype)
            else:
                cell = np.zeros((), dtype=p.dtype)
                results.append(cell)
            keep.append(cell)
            slots[i] = cell.ctypes.data
        entry = getattr(library, "pa_entry_" + "".join(ch if ch.isalnum() else "_" for ch in name))
        entry.restype = ctypes.c_int
        entry.argtypes = [ctypes.POINTER(ctypes.c_void_p)]
        status = entry(slots)
        if status:
            if status < 0:
                raise ExecutionError(f"@{name}: out of memory")
            loc, message = program.locations[status - 1]
            raise ExecutionError(_with_oob_detail(library, message), loc)
        return [_result_value(cell) for cell in results]


def _with_oob_detail(library: Any, message: str) -> str:
    """``message`` of a failed bounds check with the index and sizes the kernel kept:
    ``out-of-bounds load: index [10] is outside 'memref<10xf32>' (sizes [10])``."""
    import ctypes

    import numpy as np

    index = np.zeros(16, dtype=np.int64)
    sizes = np.zeros(16, dtype=np.int64)
    detail = library.pa_oob_detail
    detail.restype = ctypes.c_int
    rank = detail(index.ctypes.data_as(ctypes.c_void_p), sizes.ctypes.data_as(ctypes.c_void_p))
    what, colon, memref_type = message.partition(": ")
    if not rank or not message.startswith("out-of-bounds") or not colon:
        return message
    return (
        f"{what}: index {index[:rank].tolist()} is outside {memref_type} "
        f"(sizes {sizes[:rank].tolist()})"
    )


def _result_value(cell: Any) -> Any:
    value = cell[()]
    if cell.dtype.kind in "iub":
        return int(value)
    return value


def compile_function(
    target: Operation | Module,
    entry: str | None = None,
    *,
    opt: str = "-O3",
    openmp: bool | None = None,
    checks: bool = False,
    unchecked: frozenset[Operation] = frozenset(),
) -> CompiledFunction:
    """Compile ``target`` (a ``func.func``, or a module and an ``entry`` name) for calls
    from Python.  With ``checks``, loads and stores (but those in ``unchecked``) leave the
    kernel with an error before touching memory outside their memref's shape.  Emission
    errors (unsupported ops) and compiler errors are raised now."""
    func = resolve_function(target, entry)
    compiled = CompiledFunction(func, opt, openmp, checks, unchecked)
    compiled.variant(True)
    return compiled


__all__ = [
    "CProgram",
    "CompiledFunction",
    "compile_function",
    "emit_c",
    "emit_program",
]

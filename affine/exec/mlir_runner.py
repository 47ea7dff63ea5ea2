"""The mlir-runner bridge: the same kernel lowered by mlir-opt and run under the MLIR JIT
(``mlir_harness`` writes the harness, ``run_mlir_runner`` runs it) for cross-checks."""

from __future__ import annotations

import itertools
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass

from affine.exec.elements import F64, FLOAT_TYPES, ElementInfo, ExecutionError, element_info
from affine.exec.inputs import function_name, module_of, signature
from affine.exec.memory import default_layout_symbols, physical_extents
from affine.ir.attributes import ArrayAttr, StringAttr
from affine.ir.core import Module, Operation
from affine.ir.types import (
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    StridedLayout,
)
from affine.syntax.printer import print_module

LLVM_BIN = "/usr/lib/llvm-22/bin"


def find_tool(name: str) -> str | None:
    """``name`` (``mlir-opt``, ``mlir-runner``, ``clang``...) from ``$POLY_MLIR_BIN``, the
    llvm-22 bin folder, or PATH (as ``NAME-22``, then ``NAME``); None when it is nowhere."""
    env = os.environ.get("POLY_MLIR_BIN")
    for folder in ([env] if env else []) + [LLVM_BIN]:
        candidate = os.path.join(folder, name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return shutil.which(f"{name}-22") or shutil.which(name)


MLIR_LOWERING = (
    "-normalize-memrefs",
    "-lower-affine",
    "-convert-vector-to-scf",
    "-lower-affine",  # the affine.apply ops -convert-vector-to-scf writes for n-d transfers
    "-convert-scf-to-cf",
    "-convert-math-to-funcs",
    "-convert-math-to-llvm",
    "-convert-math-to-libm",
    "-convert-vector-to-llvm",
    "-finalize-memref-to-llvm",
    "-convert-arith-to-llvm",
    "-convert-ub-to-llvm",
    "-convert-cf-to-llvm",
    "-convert-func-to-llvm",
    "-reconcile-unrealized-casts",
)


def mlir_harness(func: Operation, repeats: int = 1) -> str:
    """The module of ``func`` plus a ``@main`` that, ``repeats`` times, fills every memref
    argument with the deterministic inputs and times one call of ``func`` with ``rtclock``
    (printing each time), then prints the :func:`checksums` of every argument and then of
    every scalar result (stored by each call into a 0-d memref of its own).

    Every number is printed with ``vector.print`` as the i64 bit pattern of an f64.  The
    kernel gets ``passthrough = ["noinline"]`` so that the timed call stays a call."""

    name = function_name(func)
    inputs, results = signature(func)
    for r, t in enumerate(results):
        if not isinstance(t, (FloatType, IntegerType, IndexType)):
            raise ExecutionError(
                f"result #{r} of @{name} has type '{t}'; the harness keeps scalar results only"
            )
    dma = next((op for op in module_of(func).walk() if op.name.endswith(".dma_start")), None)
    if dma is not None:
        raise ExecutionError(
            f"mlir-runner cannot run '{dma.name}': MLIR 22 has no LLVM lowering for DMA ops",
            dma.loc,
        )
    module = Module(module_of(func)).clone()
    target = module.function(name)
    target.attributes["passthrough"] = ArrayAttr([StringAttr("noinline")])
    lines = ["func.func private @rtclock() -> f64", "func.func @main() {"]
    body = _HarnessWriter(lines)
    args = []
    memrefs: list[MemRefType] = []
    for a, t in enumerate(inputs):
        if not isinstance(t, MemRefType) or not t.has_static_shape:
            raise ExecutionError(
                f"argument #{a} of @{name} has type '{t}'; the harness needs memrefs of static shape"
            )
        memrefs.append(t)
        args.append(body.allocate(t))
    cells = [MemRefType((), t) for t in results]
    held = [body.allocate(t) for t in cells]
    body.emit("%c0 = arith.constant 0 : index")
    body.emit("%c1 = arith.constant 1 : index")
    body.emit(f"%repeats = arith.constant {repeats} : index")
    body.emit("scf.for %rep = %c0 to %repeats step %c1 {")
    for a, (t, v) in enumerate(zip(memrefs, args)):
        body.fill(v, t, a)
    types = ", ".join(str(t) for t in inputs)
    returned = f"({', '.join(str(t) for t in results)})"
    call = f"func.call @{name}({', '.join(args)}) : ({types}) -> {returned}"
    body.emit("%t0 = func.call @rtclock() : () -> f64")
    body.emit(f"%r:{len(results)} = {call}" if results else call)
    body.emit("%t1 = func.call @rtclock() : () -> f64")
    for k, (t, v) in enumerate(zip(cells, held)):
        body.emit(f"memref.store %r#{k}, {v}[] : {t}")
    body.emit("%dt = arith.subf %t1, %t0 : f64")
    body.print_f64("%dt")
    body.emit("}")
    for t, v in zip([*memrefs, *cells], [*args, *held]):
        body.checksum(v, t)
    lines.append("  return")
    lines.append("}")
    text = print_module(module).rstrip()
    if not text.endswith("}"):
        raise ExecutionError("unexpected module text")
    return text[:-1] + "\n".join("  " + line for line in lines) + "\n}\n"


class _HarnessWriter:
    """Writes the body of the harness ``@main`` (fresh SSA names, nested loops)."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.count = 0
        self.depth = 1

    def fresh(self) -> str:
        self.count += 1
        return f"%h{self.count}"

    def emit(self, text: str) -> None:
        if text.startswith("}"):
            self.depth -= 1
        self.lines.append("  " * self.depth + text)
        if text.endswith("{"):
            self.depth += 1

    def allocate(self, t: MemRefType) -> str:
        v = self.fresh()
        if isinstance(t.layout, StridedLayout):
            symbols = default_layout_symbols(t, t.shape) or ()
            extents = physical_extents(t, t.shape, symbols)
            buffer = self.fresh()
            self.emit(f"{buffer} = memref.alloc() : memref<{extents[0]}x{t.element_type}>")
            offset, strides = t.layout.offset, t.layout.strides
            self.emit(
                f"{v} = memref.reinterpret_cast {buffer} to offset: [{offset}], sizes: [{', '.join(map(str, t.shape))}], "
                f"strides: [{', '.join(map(str, strides))}] : memref<{extents[0]}x{t.element_type}> to {t}"
            )
        else:
            self.emit(f"{v} = memref.alloc() : {t}")
        return v

    def nest(self, t: MemRefType) -> tuple[list[str], str]:
        """Open loops over the logical index space; returns the ivs and the linear index."""
        ivs = []
        for size in t.shape:
            iv = self.fresh()
            self.emit(f"affine.for {iv} = 0 to {size} {{")
            ivs.append(iv)
        linear = self.fresh()
        expr = "0"
        for k, size in enumerate(t.shape):
            expr = f"({expr}) * {size} + d{k}" if k else f"d{k}"
        dims = ", ".join(f"d{k}" for k in range(len(ivs)))
        self.emit(f"{linear} = affine.apply affine_map<({dims}) -> ({expr})>({', '.join(ivs)})")
        return ivs, linear

    def fill(self, v: str, t: MemRefType, arg: int) -> None:
        info = element_info(t.element_type)
        ivs, linear = self.nest(t)
        raw = self.fresh()
        self.emit(
            f"{raw} = affine.apply affine_map<(d0) -> ((d0 * 7 + {13 * arg}) mod 17)>({linear})"
        )
        value = raw
        if info.kind != "index":
            as_i64 = self.fresh()
            self.emit(f"{as_i64} = arith.index_cast {raw} : index to i64")
            value = as_i64
            if info.kind == "float":
                as_f64, seventeen, scaled = self.fresh(), self.fresh(), self.fresh()
                self.emit(f"{as_f64} = arith.sitofp {as_i64} : i64 to f64")
                self.emit(f"{seventeen} = arith.constant 17.0 : f64")
                self.emit(f"{scaled} = arith.divf {as_f64}, {seventeen} : f64")
                value = self.convert_float(scaled, "f64", info)
            elif info.width != 64:
                value = self.fresh()
                self.emit(f"{value} = arith.trunci {as_i64} : i64 to {t.element_type}")
        self.emit(f"affine.store {value}, {v}[{', '.join(ivs)}] : {t}")
        for _ in ivs:
            self.emit("}")

    def checksum(self, v: str, t: MemRefType) -> None:
        info = element_info(t.element_type)
        zero = self.fresh()
        self.emit(f"{zero} = arith.constant 0.0 : f64")
        outer: list[str] = []
        sums = (zero, zero)
        ivs = []
        for size in t.shape:
            iv, a, b, result = self.fresh(), self.fresh(), self.fresh(), self.fresh()
            self.emit(
                f"{result}:2 = affine.for {iv} = 0 to {size} iter_args({a} = {sums[0]}, {b} = {sums[1]}) -> (f64, f64) {{"
            )
            outer.append(result)
            ivs.append(iv)
            sums = (a, b)
        linear = self.fresh()
        expr = "0"
        for k, size in enumerate(t.shape):
            expr = f"({expr}) * {size} + d{k}" if k else f"d{k}"
        dims = ", ".join(f"d{k}" for k in range(len(ivs)))
        self.emit(
            f"{linear} = affine.apply affine_map<({dims}) -> (({expr}) mod 7 + 1)>({', '.join(ivs)})"
            if ivs
            else f"{linear} = arith.constant 1 : index"
        )
        element = self.fresh()
        self.emit(f"{element} = affine.load {v}[{', '.join(ivs)}] : {t}")
        x = element
        if info.kind == "float":
            x = self.convert_float(element, info.name, F64)
        else:
            as_int = element
            if info.kind == "index":
                as_int = self.fresh()
                self.emit(f"{as_int} = arith.index_cast {element} : index to i64")
            x = self.fresh()
            unsigned = info.kind == "uint" or info.width == 1
            self.emit(
                f"{x} = arith.{'uitofp' if unsigned else 'sitofp'} {as_int} : {'i64' if info.kind == 'index' else t.element_type} to f64"
            )
        w_int, w = self.fresh(), self.fresh()
        self.emit(f"{w_int} = arith.index_cast {linear} : index to i64")
        self.emit(f"{w} = arith.sitofp {w_int} : i64 to f64")
        s1, p, s2 = self.fresh(), self.fresh(), self.fresh()
        self.emit(f"{s1} = arith.addf {sums[0]}, {x} : f64")
        self.emit(f"{p} = arith.mulf {x}, {w} : f64")
        self.emit(f"{s2} = arith.addf {sums[1]}, {p} : f64")
        if not ivs:
            self.print_f64(s1)
            self.print_f64(s2)
            return
        self.emit(f"affine.yield {s1}, {s2} : f64, f64")
        for k in range(len(ivs) - 1, 0, -1):
            self.emit("}")
            self.emit(f"affine.yield {outer[k]}#0, {outer[k]}#1 : f64, f64")
        self.emit("}")
        self.print_f64(f"{outer[0]}#0")
        self.print_f64(f"{outer[0]}#1")

    def convert_float(self, value: str, source: str, target: ElementInfo) -> str:
        """``value`` of float type ``source`` converted to ``target`` as the backends do
        (types with a :class:`FloatFormat` through f32)."""
        steps = [source]
        if target.format is not None or FLOAT_TYPES[source].format is not None:
            steps.append("f32")
        steps.append(target.name)
        for a, b in itertools.pairwise(steps):
            if a != b:
                wider = FLOAT_TYPES[b].width > FLOAT_TYPES[a].width
                converted = self.fresh()
                self.emit(
                    f"{converted} = arith.{'extf' if wider else 'truncf'} {value} : {a} to {b}"
                )
                value = converted
        return value

    def print_f64(self, value: str) -> None:
        bits = self.fresh()
        self.emit(f"{bits} = arith.bitcast {value} : f64 to i64")
        self.emit(f"vector.print {bits} : i64")


@dataclass(frozen=True)
class MlirRun:
    """What the mlir-runner harness printed: kernel times (s) and the checksums of each
    memref argument, then of each scalar result."""

    times: tuple[float, ...]
    checksums: tuple[tuple[float, float], ...]


def run_mlir_runner(
    func: Operation,
    mlir_opt: str,
    mlir_runner: str,
    repeats: int = 1,
    opt_level: str = "-O3",
    timeout: float = 600,
    lowering: Sequence[str] = MLIR_LOWERING,
) -> MlirRun:
    """Lower :func:`mlir_harness` with ``lowering`` (mlir-opt flags, :data:`MLIR_LOWERING` by
    default) and run it with mlir-runner (runtime libraries next to the tools, in ``../lib``)."""
    import glob
    import os
    import struct
    import subprocess

    def run(command: list[str], what: str, given: str) -> subprocess.CompletedProcess[str]:
        try:
            return subprocess.run(
                command, input=given, capture_output=True, text=True, timeout=timeout
            )
        except subprocess.TimeoutExpired:
            raise ExecutionError(
                f"{what} on @{function_name(func)} ran past the {timeout:g} s time limit"
            ) from None

    lowered = run([mlir_opt, *lowering, "-"], "mlir-opt", mlir_harness(func, repeats))
    if lowered.returncode != 0:
        raise ExecutionError(
            f"mlir-opt could not lower the harness of @{function_name(func)}:\n{lowered.stderr.strip()}"
        )
    libdir = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(mlir_runner))), "lib")
    libraries = sorted(glob.glob(os.path.join(libdir, "libmlir_c_runner_utils.so*")))
    if not libraries:
        raise ExecutionError(f"libmlir_c_runner_utils.so not found in {libdir}")
    command = [
        mlir_runner,
        opt_level,
        "-e",
        "main",
        "-entry-point-result=void",
        f"-shared-libs={libraries[0]}",
    ]
    ran = run(command, "mlir-runner", lowered.stdout)
    if ran.returncode != 0:
        raise ExecutionError(f"mlir-runner failed on @{function_name(func)}:\n{ran.stderr.strip()}")
    numbers = [struct.unpack("<d", struct.pack("<q", int(line)))[0] for line in ran.stdout.split()]
    times = tuple(numbers[:repeats])
    rest = numbers[repeats:]
    return MlirRun(times, tuple((rest[k], rest[k + 1]) for k in range(0, len(rest), 2)))

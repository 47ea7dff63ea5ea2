"""poly-opt actions that execute code: ``--emit=c`` and ``--run``.

``--emit=c`` prints, instead of the module, the C99 source the C backend compiles for every
public function of the module (and the functions they call).

``--run[=OPTIONS]`` runs one function on deterministic inputs and prints, instead of the
module, one line per memref argument the function may write (its checksums) and one line
with the kernel time.  OPTIONS use mlir-opt's option syntax::

    --run                                 the only public function, C backend
    --run=gemm                            short for --run="entry=gemm"
    --run="entry=gemm backend=interp repeats=5"

With ``--mlir-disable-threading`` both compile ``affine.parallel`` without OpenMP (one
thread). ``backend`` is ``c`` (default) or ``interp``; ``repeats`` (default 3) is the number of timed
calls, each on fresh inputs after one untimed call.  Element ``i`` (row-major) of memref
argument ``a`` is ``((7*i + 13*a) mod 17) / 17`` for float element types and
``(7*i + 13*a) mod 17`` (wrapped) for integer ones.  A checksum line reads::

    @gemm arg0 memref<20x24xf32>: sum=4742.615061 weighted=18885.48035

where ``sum`` adds the elements in row-major order in float64 and ``weighted`` weighs
element ``i`` by ``1 + i mod 7``; the time line gives the minimum and median.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from affine.errors import PolyError
from affine.ir.core import Module
from transforms.registry import PassContext, PassOptionError, PassOptions, option, parse_options


@dataclass
class RunOptions(PassOptions):
    """Options of ``--run`` (parsed and checked like a pass's options)."""

    name: ClassVar[str] = "run"
    entry: str = ""
    backend: str = option("c", choices=("c", "interp"))
    repeats: int = option(3, minimum=1)


def emit(module: Module, value: str, context: PassContext) -> str:
    """``--emit=c``: the C source of the module's public functions."""
    if value != "c":
        raise PassOptionError(f"unknown output format '--emit={value}' (known: c)")
    from affine.exec.c_backend import emit_c  # lazy: start-up cost (numpy)

    return emit_c(module, openmp=context.multithreading)


def parse_run_options(value: str) -> RunOptions:
    """``NAME`` or mlir-opt style ``entry=NAME backend=... repeats=N``."""
    text = value.strip()
    if text and "=" not in text and " " not in text:
        text = f"entry={text}"
    return parse_options(RunOptions, text)


def run(module: Module, value: str, context: PassContext) -> str:
    """``--run``: checksums of the written memref arguments and the kernel time."""
    from affine.exec.elements import ExecutionError  # lazy: start-up cost (numpy)

    try:
        return _run(module, parse_run_options(value), context.multithreading)
    except ExecutionError as e:
        if e.location is None:  # poly-opt then names the file
            raise PolyError(e.message) from None
        raise


def _run(module: Module, options: RunOptions, multithreading: bool) -> str:
    # lazy: start-up cost (numpy)
    from affine.exec.inputs import (
        checksums,
        deterministic_inputs,
        function_name,
        resolve_function,
        signature,
        written_arguments,
    )
    from affine.exec.running import time_kernel  # lazy: start-up cost (numpy)

    func = resolve_function(module, options.entry or None)
    name = function_name(func)
    arrays = deterministic_inputs(func)
    # --mlir-disable-threading: compiled without OpenMP (the interpreter takes no options)
    compile_options: dict[str, Any] = (
        {"openmp": False} if options.backend == "c" and not multithreading else {}
    )
    timing = time_kernel(
        func, *arrays, backend=options.backend, repeats=options.repeats, **compile_options
    )
    inputs, _ = signature(func)
    shown = written_arguments(func) or list(range(len(arrays)))
    lines = [f"// poly-opt --run: @{name} on deterministic inputs, backend {options.backend}"]
    for a in shown:
        total, weighted = checksums(arrays[a])
        lines.append(f"@{name} arg{a} {inputs[a]}: sum={total:.10g} weighted={weighted:.10g}")
    lines.append(f"@{name} time: {timing}")
    return "\n".join(lines) + "\n"

"""poly-opt actions that execute code: ``--emit=c`` and ``--run``.

``--emit=c`` prints, instead of the module, the C99 source the C backend compiles for every
public function of the module (and the functions they call).

``--run[=OPTIONS]`` runs one function and prints, instead of the module, one line per
memref argument the function may write (its checksums) and one line with the kernel time.
OPTIONS use mlir-opt's option syntax (space-separated ``key=value``)::

    --run                                 the only public function, C backend
    --run=gemm                            short for --run="entry=gemm"
    --run="entry=gemm backend=interp repeats=5 timeout=10"
    --run="sizes=A=40x30,B=30x20,C=40x20"     shapes of memref arguments with ? sizes
    --run="sizes=n=100,alpha=1.5"             values of scalar arguments
    --run="inputs=A=a.npy,B=b.npy save=out"   read inputs, write outputs as out/C.npy

With ``--mlir-disable-threading`` both compile ``affine.parallel`` without OpenMP (one
thread).  ``backend`` is ``c`` (default) or ``interp``; ``repeats`` (default 3) is the number of timed
calls, each on fresh inputs after one untimed call; ``timeout`` (seconds, default none) stops
the run (the child process running it is killed) with an error.  Arguments are named as in
the source (``A`` or ``%A``) or by position (``arg0``).  ``sizes`` gives each memref argument
with ``?`` sizes its shape (``40x30``; its static sizes must match) and each scalar
argument its value; ``inputs`` reads memref arguments from ``.npy`` files (their shape gives
the ``?`` sizes; the element type must match the memref's).  Other memref arguments are
generated: element ``i`` (row-major) of argument ``a`` is ``1 + ((7*i + 13*a) mod 17) / 17``
(in [1, 2), never 0) for float element types and ``1 + (7*i + 13*a) mod 17`` for integer
ones.  ``save=DIR`` writes every memref argument the function may write to ``DIR/NAME.npy``
(the directory is created; an existing file is an error unless ``overwrite`` is given, and
an input file is never overwritten).  A checksum line reads::

    @gemm arg0 memref<20x24xf32>: sum=4742.615061 weighted=18885.48035

where ``sum`` adds the elements in row-major order in float64 and ``weighted`` weighs
element ``i`` by ``1 + i mod 7``.  Each returned value gets a line (``@sum result0 f32:
23.41176224``: floats to 10 digits, integers exactly, ``i1`` as ``true``/``false``, a memref
by its checksums); the time line gives the minimum and median.  An output
holding NaN or Inf gets one warning line.  Accesses :mod:`poly.bounds` cannot prove in
bounds are checked while the kernel runs: an access outside its memref is an error at its
location, as is a loop whose step is not positive (before anything runs).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from affine.errors import PolyError
from affine.ir.core import Module, Operation
from affine.ir.diagnostics import Diagnostic
from affine.ir.types import DYNAMIC, MemRefType
from transforms.registry import PassContext, PassOptionError, PassOptions, option, parse_options

if TYPE_CHECKING:
    import numpy as np


@dataclass
class RunOptions(PassOptions):
    """Options of ``--run`` (parsed and checked like a pass's options)."""

    name: ClassVar[str] = "run"
    entry: str = ""
    backend: str = option("c", choices=("c", "interp"))
    repeats: int = option(3, minimum=1)
    timeout: float = 0.0
    sizes: str = ""
    inputs: str = ""
    save: str = ""
    overwrite: bool = False


@dataclass
class RunResult:
    """What a run prints, the warnings it gives, and the files it wrote."""

    text: str
    warnings: list[str] = field(default_factory=list)


def emit(module: Module, value: str, context: PassContext) -> str:
    """``--emit=c``: the C source of the module's public functions."""
    if value != "c":
        raise PassOptionError(f"unknown output format '--emit={value}' (known: c)")
    from affine.exec.c_backend import emit_c  # lazy: start-up cost (numpy)

    return emit_c(module, openmp=context.multithreading)


def parse_run_options(value: str) -> RunOptions:
    """``NAME`` or mlir-opt style ``entry=NAME backend=... repeats=N ...``."""
    text = value.strip()
    if text and "=" not in text and " " not in text:
        text = f"entry={text}"
    options = parse_options(RunOptions, text)
    if options.timeout < 0:
        raise PassOptionError("option 'timeout' of '--run' must be a number of seconds >= 0")
    return options


def named_list(text: str, option_name: str) -> dict[str, str]:
    """``NAME=VALUE,NAME=VALUE`` as a dict (names without a leading ``%``)."""
    result: dict[str, str] = {}
    for item in filter(None, text.split(",")):
        name, equals, value = item.partition("=")
        if not equals or not name or not value:
            raise PassOptionError(
                f"invalid item '{item}' in option '{option_name}' of '--run' (expected NAME=VALUE)"
            )
        result[name.removeprefix("%")] = value
    return result


def run(module: Module, value: str, context: PassContext) -> str:
    """``--run``: checksums of the written memref arguments and the kernel time."""
    options = parse_run_options(value)
    if options.timeout:
        result = _run_with_timeout(module, options, context.multithreading)
    else:
        result = _run(module, options, context.multithreading)
    for warning in result.warnings:
        context.diagnostics.append(Diagnostic("warning", warning, filename=context.filename))
    return result.text


def _run_with_timeout(module: Module, options: RunOptions, multithreading: bool) -> RunResult:
    """:func:`_run` in a forked child, killed after ``options.timeout`` seconds."""
    import multiprocessing  # lazy: start-up cost (only runs with a time limit fork)

    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)

    def child() -> None:
        try:
            sender.send(("ok", _run(module, options, multithreading)))
        except PolyError as e:
            sender.send(("error", _portable_error(e)))

    process = context.Process(target=child, daemon=True)
    process.start()
    sender.close()
    try:
        if not receiver.poll(options.timeout):
            process.kill()
            raise PolyError(
                f"--run stopped after the time limit of {options.timeout:g} s "
                "(timeout=SECONDS of --run)"
            )
        try:
            kind, payload = receiver.recv()
        except EOFError:
            process.join()
            raise PolyError(f"--run ended abnormally (exit status {process.exitcode})") from None
    finally:
        process.join()
        receiver.close()
    if kind == "error":
        raise payload
    return payload


def _portable_error(error: PolyError) -> PolyError:
    """``error`` if it survives pickling (to cross the pipe), else a plain PolyError."""
    import pickle  # lazy: start-up cost (only runs with a time limit)

    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return PolyError(str(error))
    return error


def _run(module: Module, options: RunOptions, multithreading: bool) -> RunResult:
    """Run ``options.entry`` on its arguments; raises PolyError with a located message for
    what the user can fix (missing sizes, a bad file, an out-of-bounds access).  Without
    ``multithreading`` (``--mlir-disable-threading``) the C backend compiles without
    OpenMP (the interpreter takes no options)."""
    import numpy as np  # lazy: start-up cost (numpy)

    import poly.bounds  # noqa: F401  # lazy: start-up cost (islpy); runs skip proven checks
    from affine.exec.elements import ExecutionError  # lazy: start-up cost (numpy)
    from affine.exec.inputs import (  # lazy: start-up cost (numpy)
        checksums,
        function_name,
        resolve_function,
        signature,
        written_arguments,
    )
    from affine.exec.running import time_kernel  # lazy: start-up cost (numpy)

    try:
        func = resolve_function(module, options.entry or None)
        arguments = ArgumentNames(func)
        files = {
            arguments.index(name, "inputs"): path
            for name, path in named_list(options.inputs, "inputs").items()
        }
        given = {
            arguments.index(name, "sizes"): value
            for name, value in named_list(options.sizes, "sizes").items()
        }
        values = build_arguments(func, arguments, given, files)
        written = written_arguments(func)
        targets = _save_targets(options, arguments, written, files)
        name = function_name(func)
        with np.errstate(all="ignore"):
            compile_options: dict[str, Any] = (
                {"openmp": False} if options.backend == "c" and not multithreading else {}
            )
            timing = time_kernel(
                func, *values, backend=options.backend, repeats=options.repeats, **compile_options
            )
    except ExecutionError as e:
        if e.location is None:  # poly-opt then names the file
            raise PolyError(e.message) from None
        raise
    inputs, outputs = signature(func)
    shown = written or [a for a, t in enumerate(inputs) if isinstance(t, MemRefType)]
    source = "deterministic inputs" + "".join(
        f", {arguments.label(a)} from {p}" for a, p in files.items()
    )
    lines = [f"// poly-opt --run: @{name} on {source}, backend {options.backend}"]
    with np.errstate(all="ignore"):
        for a in shown:
            total, weighted = checksums(values[a])
            lines.append(f"@{name} arg{a} {inputs[a]}: sum={total:.10g} weighted={weighted:.10g}")
        for r, value in enumerate(timing.results):
            lines.append(f"@{name} result{r} {outputs[r]}: {_shown_result(value, checksums)}")
    lines.append(f"@{name} time: {timing}")
    not_finite = [arguments.label(a) for a in written if not np.all(np.isfinite(values[a]))]
    warnings = []
    if not_finite:
        warnings.append(f"@{name}: output {', '.join(not_finite)} holds NaN or Inf")
    for a, path in targets.items():
        np.save(path, values[a], allow_pickle=False)
    return RunResult("\n".join(lines) + "\n", warnings)


def _shown_result(value: Any, checksums: Any) -> str:
    """A returned value as ``--run`` prints it: memrefs by their checksums, ``true``/``false``
    for ``i1``, integers exactly, floats to 10 significant digits."""
    import numpy as np  # lazy: start-up cost (numpy)

    if isinstance(value, np.ndarray):
        total, weighted = checksums(value)
        return f"sum={total:.10g} weighted={weighted:.10g}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return f"{float(value):.10g}"


class ArgumentNames:
    """The arguments of a function by their names in the source (``A`` for ``%A``) and by
    position (``arg0``)."""

    def __init__(self, func: Operation) -> None:
        self.args = func.regions[0].blocks[0].arguments
        self.by_name: dict[str, int] = {}
        for k, arg in enumerate(self.args):
            self.by_name[f"arg{k}"] = k
            if arg.name:
                self.by_name[arg.name.removeprefix("%")] = k

    def index(self, name: str, option: str) -> int:
        if name not in self.by_name:
            known = ", ".join(self.label(k) for k in range(len(self.args)))
            raise PassOptionError(
                f"option '{option}' of '--run' names no argument '{name}' (arguments: {known})"
            )
        return self.by_name[name]

    def label(self, k: int) -> str:
        """``A`` for ``%A``, else ``arg<k>``."""
        name = self.args[k].name
        return name.removeprefix("%") if name and not name[1:].isdigit() else f"arg{k}"


def build_arguments(
    func: Operation, names: ArgumentNames, given: dict[int, str], files: dict[int, str]
) -> list[Any]:
    """One value per argument: arrays from ``files``, shapes and scalars from ``given``,
    generated arrays and floats (in [1, 2)) for the rest; missing sizes and integer values
    are one error with a hint that runs."""
    from affine.exec.elements import element_info  # lazy: start-up cost (numpy)
    from affine.exec.inputs import (  # lazy: start-up cost (numpy)
        deterministic_values,
        function_name,
    )
    from affine.exec.running import scalar_argument  # lazy: start-up cost (numpy)

    inputs = [a.type for a in func.regions[0].blocks[0].arguments]
    values: list[Any] = []
    missing: list[int] = []
    for a, t in enumerate(inputs):
        if a in files:
            values.append(_load_array(files[a], t, names.label(a)))
        elif isinstance(t, MemRefType):
            shape = _shape(t, given.get(a), names.label(a))
            if shape is None:
                missing.append(a)
                values.append(None)
                continue
            count = 1
            for s in shape:
                count *= s
            values.append(deterministic_values(t.element_type, count, a, True).reshape(shape))
        elif a in given:
            values.append(scalar_argument(t, _number(given[a], names.label(a)), a))
        elif element_info(t).kind == "float":
            values.append(deterministic_values(t, 1, a, True)[0].item())
        else:
            missing.append(a)
            values.append(None)
    if missing:
        hint = ",".join(f"{names.label(a)}={_example(inputs[a])}" for a in missing)
        what = " and ".join(
            f"{kind} of {', '.join(f'{names.label(a)} ({inputs[a]})' for a in group)}"
            for kind, group in _by_kind(missing, inputs)
        )
        raise PolyError(
            f'@{function_name(func)}: give the {what} to run it, e.g. --run="sizes={hint}"'
        )
    return values


def _by_kind(missing: list[int], inputs: list[Any]) -> list[tuple[str, list[int]]]:
    """The missing arguments split into arrays (sizes) and integer scalars (values)."""
    arrays = [a for a in missing if isinstance(inputs[a], MemRefType)]
    scalars = [a for a in missing if not isinstance(inputs[a], MemRefType)]
    return [(kind, group) for kind, group in (("sizes", arrays), ("values", scalars)) if group]


def _example(t: Any) -> str:
    if isinstance(t, MemRefType):
        return "x".join("8" if s == DYNAMIC else str(s) for s in t.shape)
    return "8"


def _number(text: str, label: str) -> int | float:
    try:
        return int(text, 0)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        raise PassOptionError(f"invalid value '{text}' for argument {label} in 'sizes'") from None


def _shape(t: MemRefType, text: str | None, label: str) -> tuple[int, ...] | None:
    """The shape of memref argument ``label``: static, or ``text`` (``40x30``); None when
    it has ``?`` sizes and none are given."""
    if text is None:
        return tuple(t.shape) if t.has_static_shape else None
    try:
        shape = tuple(int(s) for s in text.split("x")) if text else ()
    except ValueError:
        shape = (-1,)
    if len(shape) != len(t.shape) or any(s < 0 for s in shape):
        raise PassOptionError(
            f"invalid shape '{text}' for argument {label} of type '{t}' in 'sizes' "
            f"(expected {len(t.shape)} sizes joined by 'x')"
        )
    for k, (s, static) in enumerate(zip(shape, t.shape)):
        if static != DYNAMIC and s != static:
            raise PassOptionError(
                f"size {k} of argument {label} is {static} in its type '{t}', not {s}"
            )
    return shape


def _load_array(path: str, t: Any, label: str) -> np.ndarray:
    """The ``.npy`` file at ``path`` as a value of memref type ``t``."""
    import numpy as np  # lazy: start-up cost (numpy)

    from affine.exec.elements import element_info  # lazy: start-up cost (numpy)

    if not isinstance(t, MemRefType):
        raise PassOptionError(f"argument {label} of type '{t}' is not a memref; give it in 'sizes'")
    try:
        array = np.load(path, allow_pickle=False)
    except (OSError, ValueError) as e:
        raise PolyError(f"cannot read the input '{path}' for argument {label}: {e}") from None
    info = element_info(t.element_type)
    if array.dtype != np.dtype(info.numpy):
        raise PolyError(
            f"the input '{path}' holds {array.dtype}, argument {label} of type '{t}' "
            f"needs {np.dtype(info.numpy)}"
        )
    _shape(t, "x".join(str(s) for s in array.shape), label)
    return np.ascontiguousarray(array)


def _save_targets(
    options: RunOptions, names: ArgumentNames, written: list[int], files: dict[int, str]
) -> dict[int, str]:
    """Where ``save=DIR`` writes each written argument; refused before the run when that
    would overwrite an input, or an existing file without ``overwrite``."""
    if not options.save:
        return {}
    targets = {a: os.path.join(options.save, f"{names.label(a)}.npy") for a in written}
    inputs = {os.path.realpath(p) for p in files.values()}
    for path in targets.values():
        if os.path.realpath(path) in inputs:
            raise PolyError(f"save={options.save} would overwrite the input file '{path}'")
        if os.path.exists(path) and not options.overwrite:
            raise PolyError(
                f"save={options.save}: '{path}' exists (give 'overwrite' to replace it)"
            )
    try:
        os.makedirs(options.save, exist_ok=True)
    except OSError as e:
        raise PolyError(f"cannot create the directory '{options.save}': {e.strerror}") from None
    return targets

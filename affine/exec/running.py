"""Running kernels on either backend: ``run``, ``load_kernel`` and ``time_kernel``.

Before anything runs, loops whose step is not positive are errors at their location
(:func:`affine.exec.safety.check_steps`).  ``checks`` says which loads and stores are
bounds-checked: ``"auto"`` (default) all but those the installed prover (:mod:`poly.bounds`)
proved in bounds, ``True`` all, ``False`` none (for code known to be safe).  A failed check
is an :class:`ExecutionError` at the access's location with the index and the shape; the
access is never made.

``run`` takes numpy arrays of the *logical* shape and updates them in place; arrays whose
type has a non-identity layout are packed into a physical buffer and unpacked after the
call.  Layout symbols of function arguments are bound by the caller
(``layout_symbols={arg: (values...)}``); unbound ``?`` strides of a strided layout default
to the row-major strides of the logical shape and an unbound ``?`` offset to 0.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from affine.exec.c_backend import compile_function
from affine.exec.elements import ExecutionError, element_info, float_values
from affine.exec.inputs import function_name, module_of, resolve_function, signature, wrap_array
from affine.exec.interp import Interpreter
from affine.exec.memory import MemRef, memref_from_array
from affine.exec.safety import check_steps, proven_accesses
from affine.ir.core import Module, Operation
from affine.ir.types import (
    IntegerType,
    MemRefType,
    Type,
)

if TYPE_CHECKING:
    pass


BACKENDS = ("c", "interp")


@dataclass
class Prepared:
    """Arguments converted for a backend: memrefs, scalars, and how to copy results back."""

    values: list[Any]
    write_back: list[tuple[MemRef, Any]] = field(default_factory=list)

    def finish(self) -> None:
        for memref, array in self.write_back:
            array[...] = memref.to_array()


def prepare_arguments(
    func: Operation, args: Sequence[Any], layout_symbols: dict[int, Sequence[int]] | None = None
) -> Prepared:
    """Check ``args`` against the signature of ``func`` and build the run-time values."""
    import numpy as np

    inputs, _ = signature(func)
    if len(args) != len(inputs):
        raise ExecutionError(
            f"@{function_name(func)} takes {len(inputs)} arguments, {len(args)} given"
        )
    prepared = Prepared([])
    for a, (t, value) in enumerate(zip(inputs, args)):
        if isinstance(t, MemRefType):
            if isinstance(value, MemRef):
                prepared.values.append(value)
                continue
            memref = memref_from_array(t, value, (layout_symbols or {}).get(a), a)
            prepared.values.append(memref)
            if not np.may_share_memory(memref.data, value):  # a packed copy
                prepared.write_back.append((memref, value))
        else:
            prepared.values.append(scalar_argument(t, value, a))
    return prepared


def scalar_argument(t: Type, value: Any, arg: int = 0) -> Any:
    """A Python scalar as the backends hold values of type ``t``."""
    import numpy as np

    info = element_info(t)
    if info.kind == "float":
        return float_values(value, info)
    if isinstance(value, (bool, np.bool_)):
        value = int(value)
    if not isinstance(value, (int, np.integer)):
        raise ExecutionError(
            f"argument #{arg} of type '{t}' must be an integer, got {type(value).__name__}"
        )
    return int(wrap_array(np.int64(value), info)) if info.kind != "index" else int(value)


def run(
    func: Operation | Module,
    *args: Any,
    backend: str = "c",
    entry: str | None = None,
    layout_symbols: dict[int, Sequence[int]] | None = None,
    checks: bool | str = "auto",
    **options: Any,
) -> Any:
    """Run ``func`` on ``args`` (numpy arrays for memrefs, updated in place; Python numbers
    for scalars) and return its results (None, one value, or a tuple).

    ``backend`` is ``"c"`` (compiled, see :mod:`affine.exec.c_backend`; ``options`` go to
    :func:`affine.exec.c_backend.compile_function`) or ``"interp"`` (:mod:`affine.exec.interp`);
    ``checks`` as in the module's documentation.
    """
    kernel = load_kernel(func, backend, entry, checks=checks, **options)
    return kernel(*args, layout_symbols=layout_symbols)


def load_kernel(
    func: Operation | Module,
    backend: str = "c",
    entry: str | None = None,
    checks: bool | str = "auto",
    **options: Any,
) -> Kernel:
    """A :class:`Kernel` for repeated runs (compiled once)."""
    return Kernel(resolve_function(func, entry), backend, checks, **options)


class Kernel:
    """A function ready to run on one backend: ``kernel(*args, layout_symbols=None)``.

    A call converts the arguments (:meth:`prepare`), runs the backend on the run-time
    values (:meth:`invoke`) and writes packed arrays back.  ``interpreter`` (interp) or
    ``compiled`` (c) is the backend object."""

    def __init__(
        self, func: Operation, backend: str = "c", checks: bool | str = "auto", **options: Any
    ) -> None:
        self.func = func
        self.backend = backend
        self.interpreter = None
        self.compiled = None
        if backend not in BACKENDS:
            raise ExecutionError(f"unknown backend '{backend}' (choose from {', '.join(BACKENDS)})")
        if checks not in ("auto", True, False):
            raise ExecutionError(f"checks must be 'auto', True or False, got {checks!r}")
        check_steps(func)
        unchecked = proven_accesses(func) if checks == "auto" else frozenset()
        if backend == "interp":
            if options:
                raise ExecutionError(
                    f"the interpreter takes no options ({', '.join(options)} given)"
                )
            everything = frozenset(func.walk()) if checks is False else unchecked
            self.interpreter = Interpreter(module_of(func), everything)
            self.interpreter.function(function_name(func))
        else:
            self.compiled = compile_function(
                func, checks=checks is not False, unchecked=unchecked, **options
            )

    def prepare(
        self, args: Sequence[Any], layout_symbols: dict[int, Sequence[int]] | None = None
    ) -> Prepared:
        return prepare_arguments(self.func, args, layout_symbols)

    def invoke(self, values: Sequence[Any]) -> list[Any]:
        """Run on run-time values (MemRef, int, numpy scalar); returns the raw results."""
        if self.interpreter is not None:
            return self.interpreter.call(function_name(self.func), values)
        assert self.compiled is not None
        return self.compiled(values)

    def __call__(self, *args: Any, layout_symbols: dict[int, Sequence[int]] | None = None) -> Any:
        prepared = self.prepare(args, layout_symbols)
        results = self.invoke(prepared.values)
        prepared.finish()
        return _pack_results(self.func, results)


def _result_values(func: Operation, results: Sequence[Any], arrays: bool = False) -> list[Any]:
    """``i1`` results as bools, memrefs as arrays if ``arrays``, other values as they are."""
    types = signature(func)[1]
    return [
        bool(v)
        if isinstance(t, IntegerType) and t.width == 1
        else v.to_array()
        if arrays and isinstance(v, MemRef)
        else v
        for t, v in zip(types, results)
    ]


def _pack_results(func: Operation, results: Sequence[Any]) -> Any:
    """None, one value or a tuple; ``i1`` results become bools."""
    values = _result_values(func, results)
    if not values:
        return None
    if len(values) == 1:
        return values[0]
    return tuple(values)


@dataclass(frozen=True)
class Timing:
    """Wall-clock times of repeated kernel calls, in seconds (inputs reset before each)."""

    times: tuple[float, ...]
    results: tuple[Any, ...] = ()  # of the last call: scalars, bools for i1, arrays for memrefs

    @property
    def min(self) -> float:
        return min(self.times)

    @property
    def median(self) -> float:
        return statistics.median(self.times)

    def __str__(self) -> str:
        return f"min {format_seconds(self.min)}, median {format_seconds(self.median)} over {len(self.times)} runs"


def format_seconds(seconds: float) -> str:
    if seconds >= 1.0:
        return f"{seconds:.3f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds * 1e6:.1f} us"


def time_kernel(
    func: Operation | Module,
    *args: Any,
    backend: str = "c",
    repeats: int = 5,
    warmup: int = 1,
    entry: str | None = None,
    layout_symbols: dict[int, Sequence[int]] | None = None,
    checks: bool | str = "auto",
    **options: Any,
) -> Timing:
    """Time ``repeats`` calls of the kernel itself (after ``warmup`` untimed ones), each on
    the given inputs: arguments are converted once, and the buffers are restored before
    each call outside the timed region.  The arrays hold the result of one call afterwards."""
    import numpy as np

    if repeats < 1:
        raise ExecutionError("time_kernel needs at least one repeat")
    kernel = load_kernel(func, backend, entry, checks, **options)
    prepared = kernel.prepare(args, layout_symbols)
    buffers = [v.data for v in prepared.values if isinstance(v, MemRef)]
    originals = [b.copy() for b in buffers]
    times = []
    results: list[Any] = []
    for i in range(warmup + repeats):
        for buffer, original in zip(buffers, originals):
            np.copyto(buffer, original)
        start = time.perf_counter()
        results = kernel.invoke(prepared.values)
        elapsed = time.perf_counter() - start
        if i >= warmup:
            times.append(elapsed)
    prepared.finish()
    return Timing(tuple(times), tuple(_result_values(kernel.func, results, arrays=True)))


# -- equivalence -------------------------------------------------------------------------------------

"""The C toolchain: the system compiler, OpenMP support, and shared libraries built from C
source and cached by content.

Invariant: a library is built once per (source, compiler, version, flags) and reused from the
cache folder ($POLY_CACHE_DIR, else a folder in the system temp dir); a compiler that is
missing or rejects the source is a :class:`CompilerError` with its diagnostics.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from affine.errors import PolyError


class CompilerError(PolyError):
    """The C compiler is missing or rejected the generated source."""


def cache_dir() -> Path:
    """``$POLYAFFINE_CACHE_DIR``, else ``$XDG_CACHE_HOME/polyaffine``, else ``~/.cache/polyaffine``."""
    explicit = os.environ.get("POLYAFFINE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "polyaffine"


@dataclass(frozen=True)
class Compiler:
    """A C compiler command and its identity (for cache keys)."""

    command: tuple[str, ...]
    version: str


_COMPILERS: dict[str, Compiler] = {}
_OPENMP: dict[Compiler, bool] = {}


def find_compiler() -> Compiler:
    """``$CC`` or the first of cc, gcc, clang on PATH; :class:`CompilerError` if none runs."""
    env = os.environ.get("CC", "")
    key = env or "<default>"
    if key in _COMPILERS:
        return _COMPILERS[key]
    candidates = [shlex.split(env)] if env else [[name] for name in ("cc", "gcc", "clang")]
    for command in candidates:
        path = shutil.which(command[0]) if command else None
        if path is None:
            continue
        try:
            out = subprocess.run(
                [path, *command[1:], "--version"], capture_output=True, text=True, timeout=30
            )
        except (OSError, subprocess.SubprocessError):
            continue
        if out.returncode == 0:
            compiler = Compiler(
                (path, *command[1:]), out.stdout.splitlines()[0] if out.stdout else path
            )
            _COMPILERS[key] = compiler
            return compiler
    wanted = f"'{env}' (from $CC)" if env else "cc, gcc or clang"
    raise CompilerError(
        f"no C compiler found: looked for {wanted}; install one or set $CC (the interpreter backend needs none)"
    )


BASE_FLAGS = (
    "-std=c99",
    "-fPIC",
    "-shared",
    "-march=native",
    "-ffp-contract=off",
    "-fno-math-errno",
)

# gcc's loop vectorizer (12.2, from -O2 on) performs a group of interleaved loads where the
# first of them stands, even above a store that a later load of the group depends on: in
#     for (long i = 0; i < 32; i++) { a[4 * i + 7] = a[4 * i + 2]; a[4 * i + 8] = a[4 * i + 3]; }
# iteration i + 1 reads a[4 * i + 7] before iteration i has written it. Strided accesses meet
# this (stencils whose loops step by 2); clang computes them right and rejects the flag.
# Its loop distribution (12.2, -O3) takes a copy between two `restrict` arrays out of a loop
# that also writes the elements the copy reads, in later iterations: the copy then reads the
# new values (a skewed band whose row `a1[j] = a0[r][j + 1]` sits beside `a0[r][j] = ...`).
# Its SLP vectorizer (12.2, -O3 with -march=native) pairs two rows' sums of products into one
# vector and emits vfmaddsub132pd for them, despite -ffp-contract=off: one rounding where the
# source rounds twice (a sum of x[j + 2] * x[j + 3] - A[2i][j + 1] beside one of
# (A[2i + 1][j + 2] + x[j]) * x[j + 2] came out one ulp off).
GCC_FLAGS = (
    "-fno-tree-loop-vectorize",
    "-fno-tree-loop-distribution",
    "-fno-tree-loop-distribute-patterns",
    "-fno-tree-slp-vectorize",
)


def compiler_flags(compiler: Compiler) -> tuple[str, ...]:
    """The flags every library is built with: :data:`BASE_FLAGS`, and :data:`GCC_FLAGS` for gcc
    (any compiler that does not say it is clang)."""
    return BASE_FLAGS if "clang" in compiler.version else (*BASE_FLAGS, *GCC_FLAGS)


def openmp_supported(compiler: Compiler) -> bool:
    """Whether ``compiler`` builds and links ``-fopenmp`` code (tried once, then cached)."""
    if compiler in _OPENMP:
        return _OPENMP[compiler]
    directory = cache_dir()
    marker = directory / f"openmp-{_digest(repr(compiler))}.txt"
    if marker.exists():
        _OPENMP[compiler] = marker.read_text().strip() == "yes"
        return _OPENMP[compiler]
    source = "#include <omp.h>\nint pa_probe(void) { int n = 0;\n#pragma omp parallel reduction(+:n)\n n += 1;\n return n + omp_get_max_threads(); }\n"
    with tempfile.TemporaryDirectory() as tmp:
        c_file = Path(tmp) / "probe.c"
        c_file.write_text(source)
        out = subprocess.run(
            [
                *compiler.command,
                "-fPIC",
                "-shared",
                "-fopenmp",
                str(c_file),
                "-o",
                str(Path(tmp) / "probe.so"),
            ],
            capture_output=True,
            text=True,
        )
        ok = out.returncode == 0
    _OPENMP[compiler] = ok
    try:
        directory.mkdir(parents=True, exist_ok=True)
        _write_atomically(marker, "yes\n" if ok else "no\n")
    except OSError:
        pass
    return ok


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def build_library(source: str, *, opt: str = "-O3", openmp: bool = False) -> Path:
    """Compile ``source`` into a shared library in the cache (keyed by source, compiler and
    flags) and return its path; :class:`CompilerError` with the diagnostics on failure."""
    compiler = find_compiler()
    flags = [opt, *compiler_flags(compiler)] + (["-fopenmp"] if openmp else [])
    key = _digest("\0".join([source, *compiler.command, compiler.version, *flags]))
    directory = cache_dir()
    library = directory / f"{key}.so"
    if library.exists():
        return library
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise CompilerError(
            f"cannot create the cache directory '{directory}': {e.strerror or e}"
        ) from None
    c_file = directory / f"{key}.c"
    _write_atomically(c_file, source)
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{key}-", suffix=".so")
    os.close(fd)
    try:
        out = subprocess.run(
            [*compiler.command, *flags, str(c_file), "-o", tmp, "-lm"],
            capture_output=True,
            text=True,
            timeout=600,
        )
        if out.returncode != 0:
            lines = out.stderr.strip().splitlines()
            shown = "\n".join(lines[:20]) + ("\n..." if len(lines) > 20 else "")
            raise CompilerError(
                f"the C compiler failed on {c_file} (exit status {out.returncode}):\n{shown}"
            )
        os.replace(tmp, library)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return library


def _write_atomically(path: Path, text: str) -> None:
    """``path`` holds ``text`` whole: written beside it, then renamed (processes that build
    the same library at once never read each other's half-written source)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=path.suffix)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


_LOADED: dict[Path, Any] = {}


def load_library(path: Path) -> Any:
    import ctypes

    if path not in _LOADED:
        _LOADED[path] = ctypes.CDLL(str(path))
    return _LOADED[path]

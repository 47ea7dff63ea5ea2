"""PolyBench kernels of the corpus at LARGE sizes: the original against every scheduler we
compare with, side by side in one run.

Usage::

    python benchmarks/auto_schedule.py [--kernels gemm,lu] [--rounds 2] [--repeats 2] [--no-polly]

Every kernel in :data:`POLYBENCH` is scaled to its size (PolyBench/C 4.2 LARGE, or close
to it where LARGE runs for far less than 0.1 s or far more than 2 s; gramschmidt keeps
M >= N so that its columns stay independent) and timed, single thread, in these versions
(the kernels of :data:`OTHERS`, a transpose and a convolution, not PolyBench's, only when
``--kernels`` names them):

- ``original``, ``mlir-tile`` (mlir-opt 22 ``-affine-loop-tile``, read back),
  ``tile`` (our ``--affine-loop-tile``), ``regtile`` (our ``--affine-register-tile``
  alone), ``tile+regtile`` (our ``--affine-loop-tile`` then ``--affine-register-tile``) and
  ``auto`` (our ``--affine-auto-schedule``):
  each lowered with :data:`LOWERING` (the
  pipeline of issue 14) and run by ``mlir-runner -O3`` in the harness of
  ``affine.exec.mlir_runner.mlir_harness``, which times the kernel call itself with ``rtclock``;
- ``polly``: the C our backend emits for the original, compiled by ``clang-22 -O3 -mllvm
  -polly`` and timed against the same C compiled by ``clang-22 -O3`` (``polly/clang``).

Times are the minimum over ``--rounds`` rounds, each of which runs every version in turn
(``--repeats`` calls each), so that a burst of load on the shared machine hits all versions
alike. Every version's checksums are compared
with the original's (f32 and narrower within 1e-4 relative, else 1e-9; a version that
disagrees prints ``WRONG`` and is never counted as a speedup). Ratios are the original's
time over the version's (above 1 is faster). GFLOP/s are given where the kernel's flop
count is standard. The machine (CPU model, caches, vector width) and its load average
before and after the run are printed with the table: the machine is shared, and only
ratios measured in the same run compare.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

# this checkout's packages, not an installed copy
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernels import KERNELS, find_tool, scaled_text

# The lowering of issue 14 (vector ops included); run by mlir-runner -O3.
LOWERING = (
    "-normalize-memrefs",
    "-lower-affine",
    "-convert-vector-to-scf",
    "-convert-scf-to-cf",
    "-convert-vector-to-llvm",
    "-convert-math-to-llvm",
    "-expand-strided-metadata",
    "-finalize-memref-to-llvm",
    "-convert-arith-to-llvm",
    "-convert-index-to-llvm",
    "-convert-ub-to-llvm",
    "-convert-func-to-llvm",
    "-convert-cf-to-llvm",
    "-reconcile-unrealized-casts",
)

Sizes = dict[str, int]


@dataclass(frozen=True)
class Benchmark:
    sizes: Sizes
    flops: Callable[[Sizes], float] | None = None  # the kernel's standard flop count


def _cubic(s: Sizes) -> float:
    return s["N"] ** 3


POLYBENCH: dict[str, Benchmark] = {
    # linear algebra: BLAS-like and kernels
    "gemm": Benchmark(
        {"NI": 1000, "NJ": 1100, "NK": 1200}, lambda s: 2.0 * s["NI"] * s["NJ"] * s["NK"]
    ),
    "two_mm": Benchmark(
        {"NI": 800, "NJ": 900, "NK": 1100, "NL": 1200},
        lambda s: 2.0 * s["NI"] * s["NJ"] * s["NK"] + 2.0 * s["NI"] * s["NL"] * s["NJ"],
    ),
    "three_mm": Benchmark(
        {"NI": 800, "NJ": 900, "NK": 1000, "NL": 1100, "NM": 1200},
        lambda s: (
            2.0
            * (
                s["NI"] * s["NJ"] * s["NK"]
                + s["NJ"] * s["NL"] * s["NM"]
                + s["NI"] * s["NL"] * s["NJ"]
            )
        ),
    ),
    "symm": Benchmark({"M": 1000, "N": 1200}, lambda s: 2.0 * s["M"] * s["M"] * s["N"]),
    "syrk": Benchmark({"M": 1000, "N": 1200}, lambda s: 1.0 * s["N"] * (s["N"] + 1) * s["M"]),
    "syr2k": Benchmark({"M": 1000, "N": 1200}, lambda s: 2.0 * s["N"] * (s["N"] + 1) * s["M"]),
    "trmm": Benchmark({"M": 1000, "N": 1200}, lambda s: 1.0 * s["M"] * (s["M"] - 1) * s["N"]),
    "doitgen": Benchmark(
        {"NR": 150, "NQ": 140, "NP": 160}, lambda s: 2.0 * s["NR"] * s["NQ"] * s["NP"] ** 2
    ),
    # matrix-vector kernels: EXTRALARGE-like sizes (LARGE runs for a few milliseconds)
    "atax": Benchmark({"M": 8500, "N": 9400}),
    "bicg": Benchmark({"M": 8500, "N": 9400}),
    "mvt": Benchmark({"N": 9000}),
    "gesummv": Benchmark({"N": 9000}),
    "gemver": Benchmark({"N": 8000}),
    # solvers and factorisations
    "lu": Benchmark({"N": 1500}, lambda s: 2.0 * _cubic(s) / 3),
    "ludcmp": Benchmark({"N": 1500}, lambda s: 2.0 * _cubic(s) / 3),
    "cholesky": Benchmark({"N": 2000}, lambda s: _cubic(s) / 3),
    "trisolv": Benchmark({"N": 6000}),
    "durbin": Benchmark({"N": 8000}),
    "gramschmidt": Benchmark({"M": 900, "N": 800}, lambda s: 2.0 * s["M"] * s["N"] ** 2),
    # data mining
    "covariance": Benchmark({"M": 1200, "N": 1400}, lambda s: 1.0 * s["N"] * s["M"] * (s["M"] + 1)),
    "correlation": Benchmark(
        {"M": 1200, "N": 1400}, lambda s: 1.0 * s["N"] * s["M"] * (s["M"] + 1)
    ),
    # stencils with a time loop
    "jacobi_1d": Benchmark({"N": 2_000_000, "T": 500}),
    "jacobi_2d": Benchmark({"N": 1300, "T": 500}),
    "heat_3d": Benchmark({"N": 120, "T": 500}),
    "fdtd_2d": Benchmark({"TMAX": 500, "NX": 1000, "NY": 1200}),
    "seidel_2d": Benchmark({"N": 1000, "T": 100}),
    "adi": Benchmark({"N": 1000, "T": 50}),
    # medley
    "floyd_warshall": Benchmark({"N": 1500}),
    "nussinov": Benchmark({"N": 1500}),
    "deriche": Benchmark({"W": 4096, "H": 2160}),
}

# other kernels of the corpus, timed when named (--kernels transpose): not in the table
OTHERS: dict[str, Benchmark] = {
    "transpose": Benchmark({"N": 4096, "M": 4000}),
    "conv2d": Benchmark(
        {"H": 4100, "W": 4098, "OH": 4096, "OW": 4096}, lambda s: 2.0 * 15 * s["OH"] * s["OW"]
    ),
}
KNOWN = {**POLYBENCH, **OTHERS}

VERSIONS = ("original", "mlir-tile", "tile", "regtile", "tile+regtile", "auto")


@dataclass(frozen=True)
class Outcome:
    """One version's time (s) and whether its checksums agree with the original's; or why
    it has none (``note``: "not available", "error", "not installed", ...)."""

    time: float | None = None
    correct: bool = True
    note: str = ""

    def cell(self, baseline: float | None) -> str:
        if self.time is None:
            return self.note
        if not self.correct:
            return "WRONG"
        if baseline is None or self.time <= 0:  # a timer too coarse for the call
            return f"{self.time * 1e3:.1f}"
        return f"{self.time * 1e3:.1f} ({baseline / self.time:.2f}x)"


def machine_lines() -> list[str]:
    from transforms.machine import detect

    model = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return [
        f"machine: {model}, {os.cpu_count()} CPUs; {detect().describe()}",
        f"load average (1, 5, 15 min): {load}",
    ]


def tolerance(func) -> float:
    from affine.exec.elements import element_info
    from affine.exec.inputs import signature
    from affine.ir.types import MemRefType

    widths = [
        element_info(t.element_type).width
        for t in signature(func)[0]
        if isinstance(t, MemRefType) and element_info(t.element_type).kind == "float"
    ]
    return 1e-4 if widths and min(widths) <= 32 else 1e-9


def agree(
    expected: list[tuple[float, float]], actual: list[tuple[float, float]], rtol: float
) -> bool:
    def close(a: float, b: float) -> bool:
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return abs(a - b) <= rtol * max(1.0, abs(a), abs(b))

    return len(expected) == len(actual) and all(
        close(a, b) and close(c, d) for (a, c), (b, d) in zip(expected, actual)
    )


class Runner:
    """Runs the versions of one kernel; the original's checksums are the reference."""

    def __init__(self, mlir_opt: str, mlir_runner: str, repeats: int) -> None:
        self.mlir_opt, self.mlir_runner, self.repeats = mlir_opt, mlir_runner, repeats

    def jit(self, module, reference: list | None, rtol: float) -> tuple[Outcome, list]:
        from affine.exec.elements import ExecutionError
        from affine.exec.inputs import resolve_function
        from affine.exec.mlir_runner import run_mlir_runner

        try:
            result = run_mlir_runner(
                resolve_function(module),
                self.mlir_opt,
                self.mlir_runner,
                self.repeats,
                lowering=LOWERING,
            )
        except ExecutionError as e:
            return Outcome(note="error: " + e.message.splitlines()[0][:60]), []
        sums = list(result.checksums)
        correct = reference is None or agree(reference, sums, rtol)
        return Outcome(min(result.times), correct), sums

    def mlir_pass(self, text: str, name: str, *flags: str):
        """``text`` run through mlir-opt with ``flags`` (its pass options) and read back."""
        import affine

        out = subprocess.run(
            [self.mlir_opt, *flags, "-"], input=text, capture_output=True, text=True
        )
        if out.returncode != 0:
            raise RuntimeError(out.stderr.strip().splitlines()[0])
        return affine.parse(out.stdout, f"{name}.mlir-opt{''.join(flags)}")


def our_pipeline(*names: str):
    """The registered passes ``names`` run in turn, as a function of a module, or None when
    one of them is not registered."""
    from transforms import registry
    from transforms.registry import PassContext

    entries = [registry.lookup(name) for name in names]
    if any(entry is None for entry in entries):
        return None
    configured = [registry.parse_options(entry.load(), "") for entry in entries]  # type: ignore[union-attr]  # checked above

    def run(module):
        for one in configured:
            module = one.run(module, PassContext(print_op_on_diagnostic=False))
        return module

    return run


def polly_compilers() -> tuple[str, str] | None:
    """``CC`` values for clang-22 -O3 and clang-22 -O3 with Polly, or None when missing."""
    clang = shutil.which("clang-22")
    if clang is None:
        return None
    probe = subprocess.run(
        [clang, "-O3", "-mllvm", "-polly", "-x", "c", "-c", "-", "-o", os.devnull],
        input="int f(int *a) { for (int i = 0; i < 64; i++) a[i] += 1; return a[0]; }\n",
        capture_output=True,
        text=True,
    )
    if probe.returncode != 0:
        return None
    return clang, f"{clang} -mllvm -polly"


def time_c(func, compiler: str, repeats: int, reference: list, rtol: float) -> Outcome:
    """The C backend's kernel time with ``$CC=compiler`` (inputs reset before every call)."""
    from affine.exec.inputs import checksums, deterministic_inputs
    from affine.exec.running import time_kernel

    saved = os.environ.get("CC")
    os.environ["CC"] = compiler
    try:
        arrays = deterministic_inputs(func)
        timing = time_kernel(func, *arrays, repeats=repeats, warmup=0)
    finally:
        if saved is None:
            del os.environ["CC"]
        else:
            os.environ["CC"] = saved
    return Outcome(timing.min, agree(reference, [checksums(a) for a in arrays], rtol))


def fastest(a: Outcome | None, b: Outcome) -> Outcome:
    """The faster of two measurements of one version (a wrong one stays wrong)."""
    if a is None or a.time is None or b.time is None:
        return b if a is None or a.time is None else a
    return Outcome(min(a.time, b.time), a.correct and b.correct)


def build_versions(
    name: str, text: str, original, runner: Runner, passes: dict, skipped: set[str]
) -> dict:
    """Each version's module, or the :class:`Outcome` that says why it has none."""
    built: dict = {"original": original}
    for version in VERSIONS[1:]:
        transform = passes.get(version)
        if version in skipped:
            built[version] = Outcome(note="skipped")
            continue
        if version != "mlir-tile" and transform is None:
            built[version] = Outcome(note="not available")
            continue
        try:
            built[version] = (
                runner.mlir_pass(text, name, "-affine-loop-tile")
                if transform is None
                else transform(original)
            )
        except Exception as e:  # a tool's refusal or crash is a result, not an abort
            built[version] = Outcome(note=f"error: {str(e).splitlines()[0][:40]}")
    return built


def kernel_text(name: str, float_type: str = "f32") -> str:
    """Kernel ``name`` of the corpus at its LARGE sizes, its f32 values as ``float_type``
    (the corpus is written in f32; PolyBench's default is double)."""
    text = scaled_text((KERNELS / f"{name}.mlir").read_text(), KNOWN[name].sizes)
    return text if float_type == "f32" else text.replace("f32", float_type)


def measure(
    name: str, args, runner: Runner, passes: dict, skipped: set[str], compilers
) -> dict[str, Outcome]:
    """Every version of kernel ``name``, the best of ``args.rounds`` rounds that each run
    all versions in turn (so that a burst of load on the shared machine hits them alike)."""
    import affine
    from affine.exec.inputs import resolve_function

    text = kernel_text(name, args.type)
    original = affine.parse(text, f"{name}.mlir")
    func = resolve_function(original)
    rtol = tolerance(func)
    built = build_versions(name, text, original, runner, passes, skipped)
    results: dict[str, Outcome] = {v: m for v, m in built.items() if isinstance(m, Outcome)}
    note = "skipped" if args.no_polly else "not installed"
    results["clang"] = results["polly"] = Outcome(note=note)
    reference: list = []
    for _ in range(args.rounds):
        for version, module in built.items():
            if isinstance(module, Outcome) or (version in results and results[version].note):
                continue
            outcome, sums = runner.jit(module, reference or None, rtol)
            if version == "original":
                reference = reference or sums
            results[version] = fastest(results.get(version), outcome)
        if compilers is not None and reference:
            for version, compiler in zip(("clang", "polly"), compilers):
                outcome = time_c(func, compiler, args.repeats, reference, rtol)
                results[version] = fastest(results[version], outcome)
        if not reference:  # the original itself did not run
            break
    return results


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def timing_parser(doc: str, what: str) -> argparse.ArgumentParser:
    """The command line of a timing script: ``--<what>s`` (names to time), ``--repeats``
    and ``--rounds``."""
    parser = argparse.ArgumentParser(
        description=doc.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(f"--{what}s", help=f"comma-separated {what} names (default: all)")
    parser.add_argument("--repeats", type=int, default=2, help="kernel calls per round")
    parser.add_argument("--rounds", type=int, default=2, help="rounds over all versions")
    return parser


def selected(
    parser: argparse.ArgumentParser, value: str | None, known, what: str, default=None
) -> list[str]:
    """The names a ``--<what>s`` value gives (all of ``default``, else of ``known``, without
    one); an unknown name is a usage error."""
    names = value.split(",") if value else list(known if default is None else default)
    unknown = [n for n in names if n not in known]
    if unknown:
        parser.error(f"unknown {what}(s): {', '.join(unknown)}; known: {', '.join(known)}")
    return names


def timing_runner(repeats: int) -> Runner | None:
    """A :class:`Runner` (single-threaded runs), or None (said on stderr) without the tools."""
    os.environ["OMP_NUM_THREADS"] = "1"
    mlir_opt, mlir_runner = find_tool("mlir-opt"), find_tool("mlir-runner")
    if mlir_opt is None or mlir_runner is None:
        print("mlir-opt / mlir-runner 22 not found: nothing to time", file=sys.stderr)
        return None
    return Runner(mlir_opt, mlir_runner, repeats)


def table_header(args, legend: str, versions: tuple[str, tuple[str, ...], int], last: str) -> str:
    """Print what the times are (``legend`` added), the header (the first columns, each
    version right-aligned in its width, the last columns) and a rule; return the header."""
    print(
        f"times in ms, best of {args.rounds} rounds x {args.repeats} calls; "
        f"(Nx) = original / version; {legend}"
    )
    first, names, width = versions
    header = first + " ".join(f"{v:>{width}}" for v in names) + last
    print(header)
    print("-" * len(header))
    return header


def main(argv: list[str] | None = None) -> int:
    parser = timing_parser(__doc__, "kernel")
    parser.add_argument("--no-polly", action="store_true", help="skip the Polly columns")
    parser.add_argument(
        "--type",
        choices=("f32", "f64"),
        default="f32",
        help="the kernels' float type (the corpus's f32, or PolyBench's default double)",
    )
    parser.add_argument(
        "--versions",
        help=f"comma-separated versions to time (default: all of {', '.join(VERSIONS)})",
    )
    args = parser.parse_args(argv)
    names = selected(parser, args.kernels, KNOWN, "kernel", POLYBENCH)
    runner = timing_runner(args.repeats)
    if runner is None:
        return 1
    versions = selected(parser, args.versions, VERSIONS, "version")
    pipelines = {
        "tile": ("affine-loop-tile",),
        "regtile": ("affine-register-tile",),
        "tile+regtile": ("affine-loop-tile", "affine-register-tile"),
        "auto": ("affine-auto-schedule",),
    }
    passes = {v: our_pipeline(*names) for v, names in pipelines.items()}
    skipped = {v for v in VERSIONS[1:] if v not in versions}
    compilers = None if args.no_polly else polly_compilers()

    for line in machine_lines():
        print(line)
    header = table_header(
        args,
        "polly/clang = clang -O3 / Polly on our C",
        (f"{'kernel':<15}{'GF/s':>6} {'original':>10} ", VERSIONS[1:], 17),
        f" {'best GF/s':>10} {'clang -O3':>10} {'polly':>10} {'polly/clang':>12}",
    )
    ratios: dict[str, list[float]] = {v: [] for v in (*VERSIONS[1:], "polly")}
    wrong: dict[str, list[str]] = {v: [] for v in ratios}
    for name in names:
        results = measure(name, args, runner, passes, skipped, compilers)
        base, clang, polly = results["original"], results["clang"], results["polly"]
        for version in VERSIONS[1:]:
            o = results[version]
            if o.time is not None and base.time is not None:
                if o.correct:
                    ratios[version].append(base.time / o.time)
                else:
                    wrong[version].append(name)
        polly_ratio = ""
        if polly.time is not None and clang.time is not None:
            if polly.correct and clang.correct:
                ratios["polly"].append(clang.time / polly.time)
                polly_ratio = f"{clang.time / polly.time:.2f}x"
            else:
                wrong["polly"].append(name)
                polly_ratio = "WRONG"
        rate, best_rate = "", ""
        flops = KNOWN[name].flops
        if flops is not None and base.time is not None:
            count = flops(KNOWN[name].sizes)
            best = min(results[v].time for v in VERSIONS if results[v].time and results[v].correct)
            rate, best_rate = f"{count / base.time / 1e9:.1f}", f"{count / best / 1e9:.1f}"
        print(
            f"{name:<15}{rate:>6} {base.cell(None):>10} "
            + " ".join(f"{results[v].cell(base.time):>17}" for v in VERSIONS[1:])
            + f" {best_rate:>10} {clang.cell(None):>10} {polly.cell(None):>10} {polly_ratio:>12}",
            flush=True,
        )
    print("-" * len(header))
    for version, values in ratios.items():
        against = "clang -O3" if version == "polly" else "the original"
        mean = f"{geomean(values):.2f}x" if values else "-"
        text = f"{version:<10} geometric mean over {len(values)} kernels: {mean} {against}"
        if wrong[version]:
            text += f"; WRONG on {', '.join(wrong[version])}"
        print(text)
    print(machine_lines()[1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

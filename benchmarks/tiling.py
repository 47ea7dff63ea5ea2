"""Kernel time of the original, our default tiling and mlir-opt's default tiling, with and
without a loop interchange first.

For matmul-like and stencil kernels of the corpus, at the sizes of ``CASES`` (the times
the originals take on this machine are listed there), this prints side by side, measured
in one run with the same C backend (``-O3 -march=native``, and for gcc
``affine.exec.toolchain.GCC_FLAGS``; minimum over ``--repeats`` calls on the same inputs):

- the original kernel;
- ``poly-opt --affine-loop-tile`` (the cache model of poly/tile_model.py, which also orders
  the loops inside a tile; a band whose tiling would be illegal is left alone);
- ``mlir-opt -affine-loop-tile`` (its own default sizes), read back and compiled the same
  way;
- our reordering without tiles, then ``mlir-opt -affine-loop-tile``: the imperfect nests
  distributed as our tiling pass distributes them, then ``poly-opt
  --affine-loop-interchange`` (contiguous innermost accesses, where legal), so that
  mlir-opt's tiling gets the loop order ours has inside its tiles;

and whether each result equals the original's bit for bit (a legal tiling keeps the order
of every element's operations; mlir-opt tiles some stencils illegally: a ``DIFF`` there is
its miscompile). ``mlir/ours`` credits our tiling with its loop order, ``xchg/ours`` only
with what is left once mlir-opt's tiling gets the interchange too. Target: our tiling at
least 1.3x faster than mlir-opt's on the matmul-like kernels (geometric mean of
``mlir/ours``) and never slower than either mlir-opt version on any kernel.

On this shared machine the ratios move between runs. In the run of the times above
``mlir/ours`` was 3.65 (meets 1.3) but ``xchg/ours`` 1.36: most of the gain on two_mm and
trmm is the loop order. Ours was slower than mlir-opt after the interchange on two_mm (0.68)
and syrk (0.90), and than both mlir-opt versions on jacobi_2d (0.42, 0.31), whose band the
cache model leaves untiled because one iteration of the time loop touches more than the
cache budget. A run under heavier load (originals 2-4x slower) gave 3.67 and 1.00, slower
than mlir-opt after the interchange on gemm (0.95) and syrk (0.89) only.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernels import KERNELS, find_tool, scaled_text

NOISE = 1.05  # timings within 5% of each other count as equal (the machine is shared)

# (kernel, sizes, matmul-like?), each with the time its original took in one run on this
# machine (2 shared cores, -O3 -march=native, best of 3).
CASES = [
    ("gemm", {"NI": 1024, "NJ": 1024, "NK": 1024}, True),  # 77 ms
    ("two_mm", {"NI": 768, "NJ": 800, "NK": 832, "NL": 864}, True),  # 73 ms
    ("syrk", {"N": 1200, "M": 1000}, True),  # 406 ms
    ("trmm", {"M": 1000, "N": 1100}, True),  # 862 ms
    ("jacobi_2d", {"N": 1600, "T": 60}, False),  # 221 ms
    ("heat_3d", {"N": 140, "T": 40}, False),  # 107 ms
    ("seidel_2d", {"N": 1000, "T": 20}, False),  # 537 ms
]


def same_arrays(expected: list, actual: list) -> str:
    """``ok`` when every output is bit for bit the original's: a legal tiling runs each
    element's operations in the same order, so nothing may differ at all."""
    import numpy as np

    equal = all(np.array_equal(e, a, equal_nan=True) for e, a in zip(expected, actual))
    return "ok" if equal else "DIFF"


def mlir_opt_tiled(mlir_opt: str, text: str, name: str):
    """mlir-opt's default tiling of ``text``, read back (None when mlir-opt fails)."""
    import affine

    result = subprocess.run(
        [mlir_opt, "-affine-loop-tile", "-"], input=text, capture_output=True, text=True
    )
    return affine.parse(result.stdout, name) if result.returncode == 0 else None


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--kernels", help="comma-separated kernel names (default: all)")
    args = parser.parse_args()
    os.environ.setdefault("OMP_NUM_THREADS", "1")

    import affine
    from affine.exec.inputs import deterministic_inputs, resolve_function
    from affine.exec.running import run, time_kernel
    from affine.syntax.printer import print_module
    from transforms import registry
    from transforms.distribute import distribute_for_tiling
    from transforms.registry import PassContext

    mlir_opt = find_tool("mlir-opt")
    if mlir_opt is None:
        print("mlir-opt 22 not found: mlir-opt's tiling is not timed", file=sys.stderr)
    wanted = set(args.kernels.split(",")) if args.kernels else None
    tile = registry.parse_options(registry.lookup("affine-loop-tile").load(), "")
    interchange = registry.parse_options(registry.lookup("affine-loop-interchange").load(), "")
    header = (
        f"{'kernel':<11} {'original':>9} {'ours':>8} {'mlir-opt':>9} {'xchg+mlir':>10} "
        f"{'ours/orig':>10} {'mlir/ours':>10} {'xchg/ours':>10} {'ours':>5} {'mlir':>5} {'xchg':>5}"
    )
    print(header + "\n" + "(times in ms)".rjust(len(header)))
    print("-" * len(header))
    credits: dict[str, list[float]] = {"mlir": [], "xchg": []}
    slower = []
    for name, sizes, matmul_like in CASES:
        if wanted and name not in wanted:
            continue
        text = scaled_text((KERNELS / f"{name}.mlir").read_text(), sizes)
        original = affine.parse(text, f"{name}.mlir")
        context = PassContext(print_op_on_diagnostic=False)
        versions = {"original": original, "ours": tile.run(original, context)}
        if mlir_opt:
            reordered = original.clone()
            for function in reordered.functions():
                distribute_for_tiling(function)
            interchanged = print_module(interchange.run(reordered, PassContext()))
            for label, source in (("mlir", text), ("xchg", interchanged)):
                tiled = mlir_opt_tiled(mlir_opt, source, f"{name}-{label}.mlir")
                if tiled is not None:
                    versions[label] = tiled
        times, outputs = {}, {}
        for label, module in versions.items():
            func = resolve_function(module)
            times[label] = time_kernel(func, *deterministic_inputs(func), repeats=args.repeats).min
            fresh = deterministic_inputs(func)
            run(func, *fresh, backend="c")
            outputs[label] = fresh
        verdicts = {label: same_arrays(outputs["original"], outputs[label]) for label in outputs}
        ratios = {
            label: times[label] / times["ours"] for label in ("mlir", "xchg") if label in times
        }
        for label, ratio in ratios.items():
            if matmul_like:
                credits[label].append(ratio)
            if verdicts[label] == "ok" and ratio < 1 / NOISE:
                slower.append(f"{name} ({label})")
        cells = [
            f"{times.get(k, math.nan) * 1e3:>{w}.1f}"
            for k, w in (("original", 9), ("ours", 8), ("mlir", 9), ("xchg", 10))
        ]
        print(
            " ".join([f"{name:<11}", *cells])
            + f" {times['ours'] / times['original']:>10.2f} {ratios.get('mlir', math.nan):>10.2f}"
            f" {ratios.get('xchg', math.nan):>10.2f} {verdicts['ours']:>5}"
            f" {verdicts.get('mlir', 'n/a'):>5} {verdicts.get('xchg', 'n/a'):>5}",
            flush=True,
        )
        for d in context.diagnostics:
            print(f"    ours: {d.message}")
    print("-" * len(header))
    if credits["mlir"]:
        mean = geometric_mean(credits["mlir"])
        verdict = "meets" if mean >= 1.3 else "misses"
        print(
            f"matmul-like: ours {mean:.2f}x faster than mlir-opt's tiling (geometric mean; "
            f"{verdict} 1.3x)"
        )
    if credits["xchg"]:
        print(
            f"matmul-like: ours {geometric_mean(credits['xchg']):.2f}x faster than mlir-opt's "
            "tiling after our interchange (geometric mean): what the tiling itself earns"
        )
    print(
        f"more than {round((NOISE - 1) * 100)}% slower than a correct mlir-opt tiling on: "
        + (", ".join(slower) if slower else "none")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

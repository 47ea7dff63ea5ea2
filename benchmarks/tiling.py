"""Kernel time of the original, our default tiling and mlir-opt's default tiling.

For matmul-like and stencil kernels of the corpus, scaled so that the original runs for
about a second, this prints side by side, measured in one run with the same C backend
(``-O3 -march=native``, and for gcc ``affine.exec.toolchain.GCC_FLAGS``; minimum over
``--repeats`` calls on the same inputs):

- the original kernel;
- ``poly-opt --affine-loop-tile`` (the cache model of poly/tile_model.py; a band whose
  tiling would be illegal is left alone);
- ``mlir-opt -affine-loop-tile`` (its own default sizes), read back and compiled the same
  way;

and whether each result equals the original's bit for bit (a legal tiling keeps the order
of every element's operations; mlir-opt tiles some stencils illegally: a ``DIFF`` there is
its miscompile). Target: our tiling at least 1.3x faster than
mlir-opt's on the matmul-like kernels (geometric mean) and never slower on any kernel.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernels import KERNELS, find_tool, scaled_text

NOISE = 1.05  # timings within 5% of each other count as equal (the machine is shared)

# (kernel, sizes, matmul-like?) with sizes where the original runs for about a second.
CASES = [
    ("gemm", {"NI": 1024, "NJ": 1024, "NK": 1024}, True),
    ("two_mm", {"NI": 768, "NJ": 800, "NK": 832, "NL": 864}, True),
    ("syrk", {"N": 1200, "M": 1000}, True),
    ("trmm", {"M": 1000, "N": 1100}, True),
    ("jacobi_2d", {"N": 1600, "T": 60}, False),
    ("heat_3d", {"N": 140, "T": 40}, False),
    ("seidel_2d", {"N": 1000, "T": 20}, False),
]


def same_arrays(expected: list, actual: list) -> str:
    """``ok`` when every output is bit for bit the original's: a legal tiling runs each
    element's operations in the same order, so nothing may differ at all."""
    import numpy as np

    equal = all(np.array_equal(e, a, equal_nan=True) for e, a in zip(expected, actual))
    return "ok" if equal else "DIFF"


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
    from transforms import registry
    from transforms.registry import PassContext

    mlir_opt = find_tool("mlir-opt")
    if mlir_opt is None:
        print("mlir-opt 22 not found: mlir-opt's tiling is not timed", file=sys.stderr)
    wanted = set(args.kernels.split(",")) if args.kernels else None
    tile = registry.parse_options(registry.lookup("affine-loop-tile").load(), "")
    header = (
        f"{'kernel':<11} {'original ms':>12} {'ours ms':>9} {'mlir-opt ms':>12} "
        f"{'ours/orig':>10} {'mlir/ours':>10} {'ours':>5} {'mlir':>5}"
    )
    print(header)
    print("-" * len(header))
    speedups_matmul, slower = [], []
    for name, sizes, matmul_like in CASES:
        if wanted and name not in wanted:
            continue
        text = scaled_text((KERNELS / f"{name}.mlir").read_text(), sizes)
        original = affine.parse(text, f"{name}.mlir")
        context = PassContext(print_op_on_diagnostic=False)
        ours = tile.run(original, context)
        versions = {"original": original, "ours": ours}
        if mlir_opt:
            result = subprocess.run(
                [mlir_opt, "-affine-loop-tile", "-"], input=text, capture_output=True, text=True
            )
            if result.returncode == 0:
                versions["mlir"] = affine.parse(result.stdout, f"{name}.mlir-tiled")
        times, outputs = {}, {}
        for label, module in versions.items():
            func = resolve_function(module)
            times[label] = time_kernel(func, *deterministic_inputs(func), repeats=args.repeats).min
            fresh = deterministic_inputs(func)
            run(func, *fresh, backend="c")
            outputs[label] = fresh
        verdicts = {label: same_arrays(outputs["original"], outputs[label]) for label in outputs}
        mlir_time = times.get("mlir")
        ratio = mlir_time / times["ours"] if mlir_time else math.nan
        if mlir_time and matmul_like:
            speedups_matmul.append(ratio)
        if mlir_time and verdicts.get("mlir", "n/a") == "ok" and ratio < 1 / NOISE:
            slower.append(name)
        print(
            f"{name:<11} {times['original'] * 1e3:>12.1f} {times['ours'] * 1e3:>9.1f} "
            f"{(mlir_time or math.nan) * 1e3:>12.1f} {times['ours'] / times['original']:>10.2f} "
            f"{ratio:>10.2f} {verdicts['ours']:>5} {verdicts.get('mlir', 'n/a'):>5}",
            flush=True,
        )
        for d in context.diagnostics:
            print(f"    ours: {d.message}")
    print("-" * len(header))
    if speedups_matmul:
        mean = math.exp(sum(math.log(r) for r in speedups_matmul) / len(speedups_matmul))
        verdict = "meets" if mean >= 1.3 else "misses"
        print(
            f"matmul-like: ours {mean:.2f}x faster than mlir-opt's tiling (geometric mean; {verdict} 1.3x)"
        )
    print(
        f"more than {round((NOISE - 1) * 100)}% slower than mlir-opt's (correct) tiling on: "
        + (", ".join(slower) if slower else "none")
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

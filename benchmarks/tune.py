"""poly-tune on PolyBench kernels of the corpus: tuned against the original and against our
automatic scheduler, side by side in one run.

Usage::

    python benchmarks/tune.py [--kernels gemm,mvt] [--trials 50] [--scale 1.0] [--workers 1]

Each kernel is scaled to the sizes of ``benchmarks/auto_schedule.py`` (PolyBench LARGE or
close to it) times ``--scale`` per dimension and tuned with ``--trials`` candidates (loop
order and tile sizes of each perfect nest, around the source's schedule), measured by the C
backend on ``--workers`` workers (1 by default: the machine is shared, and timings taken
side by side disturb each other). The ``auto`` column is ``--affine-auto-schedule`` timed the
same way ("not available" until that pass is registered). Printed per kernel: the
original's time, the tuned and auto times and their ratios to the original, the trials
(timed / illegal / wrong) and the search's wall time; then geometric means. Target: tuned >=
1.2x the automatic scheduler's geometric mean with at most 50 trials per kernel.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from auto_schedule import POLYBENCH
from kernels import KERNELS, scaled_text

import transforms
from affine import parse
from transforms.registry import lookup
from transforms.tuner import LocalExecutor, tune, tuning_inputs, wall_clock

DEFAULT = ("gemm", "two_mm", "syrk", "mvt", "atax", "doitgen", "jacobi_2d")


def auto_time(module, func: str, repeats: int) -> float | None:
    """``--affine-auto-schedule`` timed by the C backend (None: the pass is not there)."""
    if lookup("affine-auto-schedule") is None:
        return None
    scheduled = transforms.run_pass(module, "affine-auto-schedule").module
    inputs = tuning_inputs(scheduled.function(func), {}, 0)
    return wall_clock(scheduled, func, inputs, repeats)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kernels", default=",".join(DEFAULT))
    p.add_argument("--trials", type=int, default=50)
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--repeats", type=int, default=2)
    args = p.parse_args(argv)
    rows = []
    print(f"{'kernel':12s} {'original':>10s} {'tuned':>10s} {'x':>6s} {'auto':>10s} {'x':>6s}"
          f" {'timed/illegal/wrong':>20s} {'search':>8s}")  # fmt: skip
    for name in args.kernels.split(","):
        sizes = {k: max(2, int(v * args.scale)) for k, v in POLYBENCH[name].sizes.items()}
        module = parse(scaled_text((KERNELS / f"{name}.mlir").read_text(), sizes), name)
        func = module.functions()[0].properties["sym_name"].value  # type: ignore[attr-defined]
        start = time.monotonic()
        result = tune(
            module, trials=args.trials, executor=LocalExecutor(args.workers), repeats=args.repeats
        )
        search = time.monotonic() - start
        auto = auto_time(module, func, args.repeats)
        statuses = [t.status for t in result.trials]
        counts = f"{statuses.count('ok')}/{statuses.count('illegal')}/{statuses.count('wrong')}"
        auto_text = "n/a" if auto is None else f"{auto:.4f}"
        auto_ratio = "n/a" if auto is None else f"{result.original_seconds / auto:.2f}"
        print(
            f"{name:12s} {result.original_seconds:10.4f} {result.seconds:10.4f} "
            f"{result.speedup:6.2f} {auto_text:>10s} {auto_ratio:>6s} {counts:>20s} {search:7.0f}s"
        )
        rows.append((result.speedup, None if auto is None else result.original_seconds / auto))
    tuned = math.exp(sum(math.log(r[0]) for r in rows) / len(rows))
    print(f"geomean tuned/original: {tuned:.2f}x over {len(rows)} kernels")
    if all(r[1] is not None for r in rows):
        auto_mean = math.exp(sum(math.log(r[1]) for r in rows) / len(rows))  # type: ignore[arg-type]
        print(f"geomean auto/original: {auto_mean:.2f}x; tuned/auto: {tuned / auto_mean:.2f}x")
    else:
        print("auto: not available (--affine-auto-schedule is not registered)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

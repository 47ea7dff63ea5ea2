"""poly-tune on PolyBench kernels of the corpus: tuned against the automatic scheduler and
the original, side by side in one run.

Usage::

    python benchmarks/tune.py [--kernels gemm,mvt] [--trials 50] [--scale 1.0] [--workers 1]
                              [--rounds 3] [--repeats 2] [--search-repeats 1]

Each kernel is scaled to the sizes of ``benchmarks/auto_schedule.py`` (PolyBench LARGE or
close to it) times ``--scale`` per dimension and tuned with ``--trials`` candidates (the
whole space of :mod:`transforms.tuner`: the auto-scheduler's module as the first trial,
the source and fusion modes as bases, loop orders and tile sizes, register tiles and vector
widths, unroll-and-jam; no parallel knob: every column is single-threaded), measured by the
C backend on ``--workers`` workers (1 by default: the machine is shared, and timings taken
side by side disturb each other), ``--search-repeats`` timed calls after a warm-up each.

The table's times are not the search's: after the search, the original, the
auto-scheduler's module (:func:`transforms.auto_scheduler.auto_schedule`) and the tuned
module are timed again by the C backend, side by side, the minimum over ``--rounds`` rounds
that each run all three in turn (``--repeats`` calls each), so that a burst of load on the
shared machine hits all of them alike. Printed per kernel: the three times, the auto and
tuned ratios to the original and tuned over auto, the trials (timed / illegal / wrong /
reused), the search's wall time and the best candidate; then geometric means. Target:
tuned >= 1.2x the automatic scheduler's geometric mean with at most 50 trials per kernel.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from auto_schedule import POLYBENCH
from kernels import KERNELS, scaled_text

from affine import parse
from transforms.auto_scheduler import auto_schedule
from transforms.schedule import function_of
from transforms.tuner import LocalExecutor, tune, tuning_inputs, wall_clock

DEFAULT = ("gemm", "two_mm", "syrk", "mvt", "atax", "doitgen", "jacobi_2d")
COLUMNS = ("original", "auto", "tuned")


def side_by_side(modules: dict, func: str, rounds: int, repeats: int) -> dict[str, float]:
    """The fastest time of each module over ``rounds`` rounds that run them all in turn."""
    best = dict.fromkeys(modules, math.inf)
    inputs = tuning_inputs(function_of(modules["original"], func), {}, 0)
    for _ in range(rounds):
        for name, module in modules.items():
            best[name] = min(best[name], wall_clock(module, func, inputs, repeats))
    return best


def geomean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--kernels", default=",".join(DEFAULT))
    p.add_argument("--trials", type=int, default=50)
    p.add_argument("--scale", type=float, default=1.0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--repeats", type=int, default=2)
    p.add_argument("--search-repeats", type=int, default=1, help="timed calls per trial")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'kernel':10s} {'original':>9s} {'auto':>9s} {'tuned':>9s} {'auto x':>7s}"
          f" {'tuned x':>7s} {'t/auto':>7s} {'ok/ill/wr/re':>13s} {'search':>7s}  best")  # fmt: skip
    ratios: dict[str, list[float]] = {"auto": [], "tuned": []}
    for name in args.kernels.split(","):
        sizes = {k: max(2, int(v * args.scale)) for k, v in POLYBENCH[name].sizes.items()}
        module = parse(scaled_text((KERNELS / f"{name}.mlir").read_text(), sizes), name)
        func = module.functions()[0].properties["sym_name"].value  # type: ignore[attr-defined]
        start = time.monotonic()
        result = tune(
            module,
            trials=args.trials,
            executor=LocalExecutor(args.workers),
            repeats=args.search_repeats,
            seed=args.seed,
        )
        search = time.monotonic() - start
        modules = {"original": module, "auto": auto_schedule(module).module, "tuned": result.module}
        times = side_by_side(modules, func, args.rounds, args.repeats)
        for column in ("auto", "tuned"):
            ratios[column].append(times["original"] / times[column])
        statuses = [t.status for t in result.trials]
        counts = "/".join(str(statuses.count(s)) for s in ("ok", "illegal", "wrong", "reused"))
        best = "original" if result.best is None else result.best.history().replace("\n", "; ")
        print(
            f"{name:10s} {times['original']:9.4f} {times['auto']:9.4f} {times['tuned']:9.4f}"
            f" {ratios['auto'][-1]:7.2f} {ratios['tuned'][-1]:7.2f}"
            f" {times['auto'] / times['tuned']:7.2f} {counts:>13s} {search:6.0f}s  {best}",
            flush=True,
        )
    auto, tuned = geomean(ratios["auto"]), geomean(ratios["tuned"])
    print(f"geomean over {len(ratios['auto'])} kernels: auto/original {auto:.2f}x, "
          f"tuned/original {tuned:.2f}x, tuned/auto {tuned / auto:.2f}x (target >= 1.2x)")  # fmt: skip
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

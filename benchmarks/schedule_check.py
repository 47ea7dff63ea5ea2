"""How many candidate schedules per minute ``Schedule.check()`` decides, per kernel.

For every kernel of ``tests/corpus/kernels`` whose schedule can be built, this prints,
measured in one run:

- analysis: one memory-based dependence analysis of the function (``FlowAnalysis``), the
  work a checker without shared statements would redo for every candidate;
- first check: building the schedule and its first check (the dependences are computed
  then, once for all candidates);
- check: the mean time of ``check()`` on ``--candidates`` distinct schedules, each one to
  three random edits away from the source's (``Schedule.neighbours``: interchanges, skews,
  tiles by 16 or 32, fusions, distributions, parallel marks, ...), and the share found legal;
- per minute: candidates checked per minute, and the ratio check / analysis.

Target: a few hundred candidates per minute for every PolyBench kernel (at least 200).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import affine  # noqa: E402
from poly.deps import AnalysisWarning  # noqa: E402
from poly.flow import FlowAnalysis  # noqa: E402
from poly.schedule import Schedule  # noqa: E402
from poly.schedule_program import ScheduleError  # noqa: E402

KERNELS = ROOT / "tests" / "corpus" / "kernels"
TARGET = 200  # candidates per minute


def candidates(source: Schedule, count: int, rng: random.Random) -> list[Schedule]:
    """``count`` distinct schedules, each 1-3 random edits from ``source``."""
    found: dict[str, Schedule] = {}
    for _ in range(count * 20):
        if len(found) == count:
            break
        s = source
        for _ in range(rng.randint(1, 3)):
            options = s.neighbours(sizes=(16, 32))
            if not options:
                break
            try:
                s = s.replay([rng.choice(options)])
            except ScheduleError:
                break
        key = f"{s}|{s.history_text()}"
        if s.history and key not in found:
            found[key] = s
    return list(found.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--candidates", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("kernels", nargs="*", help="kernel names (default: all)")
    args = parser.parse_args()
    warnings.simplefilter("ignore", AnalysisWarning)
    names = args.kernels or sorted(p.stem for p in KERNELS.glob("*.mlir"))
    print(
        f"{'kernel':<22}{'analysis':>10}{'first':>10}{'check':>10}{'legal':>8}"
        f"{'per min':>10}{'/analysis':>11}"
    )
    rates = []
    for name in names:
        path = KERNELS / f"{name}.mlir"
        module = affine.parse(path.read_text(), path.name)
        functions = [f for f in module.functions() if f.regions and f.regions[0].blocks]
        if len(functions) != 1:
            continue
        function = functions[0]
        start = time.perf_counter()
        FlowAnalysis(function, value_based=False)
        analysis = time.perf_counter() - start
        start = time.perf_counter()
        try:
            source = Schedule.of(function)
        except ScheduleError as e:
            print(f"{name:<22}  refused: {e.message}")
            continue
        source.check()
        first = time.perf_counter() - start
        pool = candidates(source, args.candidates, random.Random(args.seed))
        if not pool:
            print(f"{name:<22}  no edit fits its schedule ({source})")
            continue
        start = time.perf_counter()
        legal = sum(1 for s in pool if s.check())
        check = (time.perf_counter() - start) / len(pool)
        rate = 60 / check
        rates.append(rate)
        print(
            f"{name:<22}{analysis * 1e3:>8.1f}ms{first * 1e3:>8.1f}ms{check * 1e3:>8.1f}ms"
            f"{legal / len(pool):>8.0%}{rate:>10.0f}{check / analysis:>11.2f}"
        )
    if rates:
        geomean = math.exp(sum(math.log(r) for r in rates) / len(rates))
        print(
            f"candidates per minute: geometric mean {geomean:.0f}, slowest kernel "
            f"{min(rates):.0f} (target {TARGET} for every kernel: "
            f"{'met' if min(rates) >= TARGET else 'missed'})"
        )


if __name__ == "__main__":
    main()

"""Dependence analysis time per kernel, side by side with mlir-opt's.

For every kernel of the corpus (``tests/corpus/kernels`` and ``tests/corpus/deps``) this
prints, measured in one run:

- ours: the in-process time of the analysis behind ``--test-memref-dependence-check``
  (building the polyhedral model and answering every pair and depth, exactly), on an
  already parsed module; the minimum over ``--repeats`` runs;
- also ours: the scope-wide analysis (memory- and value-based dependences of every kind,
  loop verdicts) that ``--dependence-report`` prints;
- mlir-opt: the whole-process time of ``mlir-opt FILE -test-memref-dependence-check``
  (minimum over the same number of runs);

and the ratio ours / mlir-opt, with the geometric mean over the corpus. Target: a
geometric mean of at most 1.
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import affine  # noqa: E402
from poly.deps import AnalysisWarning, DependenceAnalysis  # noqa: E402
from poly.flow import FlowAnalysis  # noqa: E402

CORPORA = [ROOT / "tests" / "corpus" / "kernels", ROOT / "tests" / "corpus" / "deps"]


def find_mlir_opt() -> str | None:
    for folder in (os.environ.get("POLY_MLIR_BIN", ""), "/usr/lib/llvm-22/bin"):
        candidate = Path(folder) / "mlir-opt"
        if folder and candidate.is_file():
            return str(candidate)
    return None


def best_of(repeats: int, fn) -> float:
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def remarks(module: affine.Module) -> int:
    return sum(1 for _ in DependenceAnalysis(module).all_checks())


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    mlir_opt = find_mlir_opt()
    if mlir_opt is None:
        print("mlir-opt 22 not found (set POLY_MLIR_BIN): printing our times only")
    warnings.simplefilter("ignore", AnalysisWarning)
    print(
        f"{'kernel':28s} {'pairs':>6s} {'ours ms':>9s} {'report ms':>10s} {'mlir-opt ms':>12s} {'ratio':>7s}"
    )
    ratios = []
    for corpus in CORPORA:
        for path in sorted(corpus.glob("*.mlir")):
            module = affine.parse(path.read_text(), str(path))
            count = remarks(module)  # warm up (imports, caches)
            ours = best_of(args.repeats, lambda m=module: remarks(m))
            report = best_of(args.repeats, lambda m=module: FlowAnalysis(m).loops())
            line = f"{corpus.name + '/' + path.stem:28s} {count:6d} {ours * 1e3:9.2f} {report * 1e3:10.2f}"
            if mlir_opt:
                command = [mlir_opt, str(path), "-test-memref-dependence-check", "-o", os.devnull]
                theirs = best_of(
                    args.repeats,
                    lambda c=command: subprocess.run(c, capture_output=True, check=True),
                )
                ratios.append(ours / theirs)
                line += f" {theirs * 1e3:12.2f} {ours / theirs:7.2f}"
            print(line)
    if ratios:
        mean = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        verdict = "meets" if mean <= 1 else "misses"
        print(
            f"geometric mean ours / mlir-opt over {len(ratios)} kernels: {mean:.2f} ({verdict} the target of 1)"
        )


if __name__ == "__main__":
    main()

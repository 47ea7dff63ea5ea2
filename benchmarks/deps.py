"""Dependence analysis time per kernel, side by side with mlir-opt's, measured two ways.

For every kernel of the corpus (``tests/corpus/kernels`` and ``tests/corpus/deps``) this
prints, measured in one run (minimum over ``--repeats`` runs each):

- pass: our analysis behind ``--test-memref-dependence-check`` in process, on an already
  parsed module (building the polyhedral model and answering every pair and depth,
  exactly), against the time mlir-opt's own report (``-mlir-timing``) gives its
  ``TestMemRefDependenceCheck`` pass, and their ratio. mlir-opt's pass time includes
  emitting its remarks, so the whole pass of ours, with every remark rendered as poly-opt
  prints it (source line, caret, op note), and its ratio are printed next to it;
- process: ``poly-opt FILE --test-memref-dependence-check`` against
  ``mlir-opt FILE -test-memref-dependence-check``, each a whole process (start-up, reading,
  the pass, printing), and their ratio;
- report: our scope-wide analysis (memory- and value-based dependences of every kind,
  loop verdicts) that ``--dependence-report`` prints, for reference.

Geometric means of the ratios close the table. Target: a geometric mean of at most 1 for
the analysis against mlir-opt's pass. The process ratio is dominated by the start-up of
Python and islpy (about 300-400 ms against mlir-opt's 30-40 ms on this machine) and has no
target; neither has the ratio with rendered remarks, though it is the like-for-like one.

On the 76 kernels, 2 shared cores, one run (``--repeats 3``): the analysis takes 0.4-34 ms
(adi, 2690 pairs and depths, is the largest) and its ratio is 0.58 (worst 2.24,
kernels/tiled_layout: 7.4 ms against 3.3 ms); with remarks rendered 1.28 (worst 6.86): each
op note prints the op in its function, which numbers the whole function's values again
(adi: 34 ms of analysis, 323 ms with remarks against mlir-opt's 404 ms). Whole processes:
9.6.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernels import find_tool  # noqa: E402

import affine  # noqa: E402
from poly.deps import AnalysisWarning, DependenceAnalysis  # noqa: E402
from poly.flow import FlowAnalysis  # noqa: E402
from transforms.analysis_passes import MemRefDependenceCheck  # noqa: E402
from transforms.registry import PassContext  # noqa: E402

CORPORA = [ROOT / "tests" / "corpus" / "kernels", ROOT / "tests" / "corpus" / "deps"]
PASS_TIME = re.compile(
    r"^\s*([\d.]+) \(\s*[\d.]+%\)\s+\(anonymous namespace\)::TestMemRefDependenceCheck$", re.M
)


def best_of(repeats: int, fn: Callable[[], object]) -> float:
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def analysis(module: affine.Module) -> int:
    """Every pair and depth answered; the number of answers."""
    return sum(1 for _ in DependenceAnalysis(module).all_checks())


def our_pass(module: affine.Module) -> int:
    """The pass as poly-opt runs it, remarks rendered; the number of remarks."""
    context = PassContext(print_op_on_diagnostic=True)
    MemRefDependenceCheck().run(module, context)
    text = "\n".join(d.render() for d in context.diagnostics)
    return text.count(": remark: ")


def mlir_opt_pass(mlir_opt: str, path: Path) -> float:
    """The pass time mlir-opt's ``-mlir-timing`` report gives, in seconds."""
    result = subprocess.run(
        [mlir_opt, str(path), "-test-memref-dependence-check", "-mlir-timing", "-o", os.devnull],
        capture_output=True,
        text=True,
        check=True,
    )
    found = PASS_TIME.search(result.stderr)
    if found is None:
        raise RuntimeError(f"no pass time in mlir-opt's timing report for {path}")
    return float(found.group(1))


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    mlir_opt = find_tool("mlir-opt")
    if mlir_opt is None:
        print("mlir-opt 22 not found (set POLY_MLIR_BIN): printing our times only")
    warnings.simplefilter("ignore", AnalysisWarning)
    header = (
        f"{'kernel':28s} {'pairs':>5s} | {'analysis':>8s} {'+remarks':>8s} {'mlir-opt':>8s} "
        f"{'ratio':>5s} {'ratio+r':>7s} | {'poly-opt':>8s} {'mlir-opt':>8s} {'ratio':>5s} | "
        f"{'report':>7s}"
    )
    print(f"{'':36s}{'pass (ms)':^43s}{'process (ms)':^27s}")
    print(header)
    pass_ratios, remark_ratios, process_ratios = [], [], []
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    for corpus in CORPORA:
        for path in sorted(corpus.glob("*.mlir")):
            module = affine.parse(path.read_text(), str(path))
            count = analysis(module)  # warm up (imports, caches)
            our_pass(module)
            ours = best_of(args.repeats, lambda m=module: analysis(m))
            with_remarks = best_of(args.repeats, lambda m=module: our_pass(m))
            report = best_of(args.repeats, lambda m=module: FlowAnalysis(m).loops())
            command = [sys.executable, "-m", "transforms.cli", str(path)]
            command += ["--test-memref-dependence-check", "-o", os.devnull]
            process = best_of(
                args.repeats,
                lambda c=command: subprocess.run(
                    c, capture_output=True, check=True, cwd=ROOT, env=environment
                ),
            )
            line = f"{corpus.name + '/' + path.stem:28s} {count:5d} | {ours * 1e3:8.2f} "
            line += f"{with_remarks * 1e3:8.2f} "
            if mlir_opt:
                theirs = min(mlir_opt_pass(mlir_opt, path) for _ in range(args.repeats))
                theirs_process = best_of(
                    args.repeats,
                    lambda p=path: subprocess.run(
                        [mlir_opt, str(p), "-test-memref-dependence-check", "-o", os.devnull],
                        capture_output=True,
                        check=True,
                    ),
                )
                # the report rounds to 0.1 ms: a pass it shows as 0 took under 0.05 ms
                theirs = max(theirs, 0.00005)
                pass_ratios.append(ours / theirs)
                remark_ratios.append(with_remarks / theirs)
                process_ratios.append(process / theirs_process)
                line += (
                    f"{theirs * 1e3:8.2f} {ours / theirs:5.2f} {with_remarks / theirs:7.2f} | "
                    f"{process * 1e3:8.1f} {theirs_process * 1e3:8.1f} "
                    f"{process / theirs_process:5.1f} | "
                )
            else:
                line += f"{'':8s} {'':5s} {'':7s} | {process * 1e3:8.1f} {'':8s} {'':5s} | "
            print(line + f"{report * 1e3:7.2f}", flush=True)
    if pass_ratios:
        mean = geometric_mean(pass_ratios)
        verdict = "meets" if mean <= 1 else "misses"
        print(
            f"analysis / mlir-opt's pass (-mlir-timing), geometric mean over {len(pass_ratios)} "
            f"kernels: {mean:.2f} (worst {max(pass_ratios):.2f}; {verdict} the target of 1)"
        )
        print(
            f"with every remark rendered: {geometric_mean(remark_ratios):.2f} "
            f"(worst {max(remark_ratios):.2f}; no target)"
        )
        print(
            f"whole process, poly-opt / mlir-opt: {geometric_mean(process_ratios):.1f} "
            "(no target: Python and islpy start-up)"
        )


if __name__ == "__main__":
    main()

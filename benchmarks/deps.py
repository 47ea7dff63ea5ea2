"""Dependence analysis time per kernel, side by side with mlir-opt's, measured two ways.

For every kernel of the corpus (``tests/corpus/kernels`` and ``tests/corpus/deps``) this
prints, measured in one run (minimum over ``--repeats`` runs each):

- pass: our ``--test-memref-dependence-check`` pass in process on an already parsed module
  (building the polyhedral model, answering every pair and depth exactly, and rendering
  every remark with its source line and op note as poly-opt prints it), against the time
  mlir-opt's own report (``-mlir-timing``) gives its ``TestMemRefDependenceCheck`` pass,
  which also emits the remarks; their ratio ours / mlir-opt;
- process: ``poly-opt FILE --test-memref-dependence-check`` against
  ``mlir-opt FILE -test-memref-dependence-check``, each a whole process (start-up, reading,
  the pass, printing), and their ratio;
- report: our scope-wide analysis (memory- and value-based dependences of every kind,
  loop verdicts) that ``--dependence-report`` prints, for reference.

Geometric means of both ratios close the table. Target: a geometric mean of at most 1 for
the pass ratio. The process ratio is dominated by the start-up of Python and islpy (a few
hundred ms against mlir-opt's few tens) and has no target.
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
from poly.deps import AnalysisWarning  # noqa: E402
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
        f"{'kernel':28s} {'remarks':>7s} | {'pass ours':>9s} {'mlir-opt':>8s} {'ratio':>6s} | "
        f"{'process ours':>12s} {'mlir-opt':>8s} {'ratio':>6s} | {'report':>7s}"
    )
    print(header + "\n" + "(times in ms)".rjust(len(header)))
    pass_ratios, process_ratios = [], []
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    for corpus in CORPORA:
        for path in sorted(corpus.glob("*.mlir")):
            module = affine.parse(path.read_text(), str(path))
            count = our_pass(module)  # warm up (imports, caches)
            ours = best_of(args.repeats, lambda m=module: our_pass(m))
            report = best_of(args.repeats, lambda m=module: FlowAnalysis(m).loops())
            command = [sys.executable, "-m", "transforms.cli", str(path)]
            command += ["--test-memref-dependence-check", "-o", os.devnull]
            process = best_of(
                args.repeats,
                lambda c=command: subprocess.run(
                    c, capture_output=True, check=True, cwd=ROOT, env=environment
                ),
            )
            line = f"{corpus.name + '/' + path.stem:28s} {count:7d} | {ours * 1e3:9.2f} "
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
                process_ratios.append(process / theirs_process)
                line += (
                    f"{theirs * 1e3:8.2f} {ours / theirs:6.2f} | {process * 1e3:12.1f} "
                    f"{theirs_process * 1e3:8.1f} {process / theirs_process:6.1f} | "
                )
            else:
                line += f"{'':8s} {'':6s} | {process * 1e3:12.1f} {'':8s} {'':6s} | "
            print(line + f"{report * 1e3:7.2f}", flush=True)
    if pass_ratios:
        worst = max(pass_ratios)
        mean = geometric_mean(pass_ratios)
        verdict = "meets" if mean <= 1 else "misses"
        print(
            f"pass, ours / mlir-opt's -mlir-timing, geometric mean over {len(pass_ratios)} "
            f"kernels: {mean:.2f} (worst {worst:.2f}; {verdict} the target of 1)"
        )
        print(
            f"whole process, poly-opt / mlir-opt, geometric mean: "
            f"{geometric_mean(process_ratios):.1f} (no target: Python and islpy start-up)"
        )


if __name__ == "__main__":
    main()

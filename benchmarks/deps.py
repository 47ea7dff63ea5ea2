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

Geometric means of the ratios close the table. With ``--scaling`` it prints instead how
whole-function analysis grows (:mod:`copy_chain`: N 2-deep nests copying three 200x200
arrays into one another) for N = 25 .. 800: ``poly-opt --dependence-report=json`` as a whole
process (time, peak RSS, size of the JSON written), our analysis alone in process (the
value-based dependences and loop verdicts, the report written to nowhere), the value-based
dependences it reports, the ordered pairs of accesses handed to ISL, and mlir-opt's
``-test-memref-dependence-check`` on the same file (whole process, remarks without the op
printed after each, and its pass time from ``-mlir-timing``). Targets: 400 nests in at
most 10 s and 500 MB. mlir-opt answers every pair of accesses (its work grows with the
square of N); the value-based report grows with N.

One run on 2 shared cores (``--scaling``); before the per-nest windows 100 nests took 10 s
and ran out of the ISL budget (every pair then assumed dependent), 400 took 101 s, 1.25 GB
and wrote 122 MB::

    nests  edges  pairs |  process analysis peak RSS     JSON |  mlir-opt its pass
       25    135    177 |    0.93s    0.27s     50MB   0.07MB |     0.17s    0.15s
      100    620    812 |    1.77s    0.81s     57MB   0.33MB |     1.30s    1.57s
      200   1270   1662 |    2.74s    1.86s     65MB   0.67MB |     4.57s    7.12s
      400   2570   3362 |    4.94s    4.04s     83MB   1.36MB |    17.65s   20.30s
      800   5170   6762 |    5.79s    5.31s    117MB   2.76MB |    62.17s   95.39s Target: a geometric mean of at most 1 for
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
import gc
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from copy_chain import copy_chain  # noqa: E402
from kernels import find_tool  # noqa: E402

import affine  # noqa: E402
from poly.deps import AnalysisWarning, DependenceAnalysis  # noqa: E402
from poly.flow import FlowAnalysis  # noqa: E402
from poly.graph import report_chunks  # noqa: E402
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


def mlir_opt_pass(mlir_opt: str, path: Path, *options: str) -> float:
    """The pass time mlir-opt's ``-mlir-timing`` report gives, in seconds (with ``options``
    added to the command line)."""
    result = subprocess.run(
        [mlir_opt, str(path), "-test-memref-dependence-check", "-mlir-timing", *options]
        + ["-o", os.devnull],
        capture_output=True,
        text=True,
        check=True,
    )
    found = PASS_TIME.search(result.stderr)
    if found is None:
        raise RuntimeError(f"no pass time in mlir-opt's timing report for {path}")
    return float(found.group(1))


def run_measured(command: list[str], timeout: float) -> tuple[float, int | None] | None:
    """Wall time (s) and peak RSS (bytes; None without /usr/bin/time) of ``command`` run to
    completion, its output discarded; None when it takes longer than ``timeout``. The peak
    is what /usr/bin/time reads for its own child: a child of this process would count this
    process's memory as its own (Linux keeps the peak across fork and exec)."""
    timer = shutil.which("time", path="/usr/bin")
    with tempfile.NamedTemporaryFile("r") as peak:
        wrapped = [timer, "-f", "%M", "-o", peak.name, *command] if timer else command
        start = time.perf_counter()
        try:
            subprocess.run(
                wrapped,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=ROOT,
                timeout=timeout,
                check=True,
            )
        except subprocess.TimeoutExpired:
            return None
        elapsed = time.perf_counter() - start
        kilobytes = peak.read().strip()
    return elapsed, int(kilobytes) * 1024 if kilobytes else None


def scaling(sizes: list[int], mlir_opt: str | None, timeout: float) -> None:
    """The scaling table (see the module doc)."""
    print(
        f"{'nests':>5s} {'edges':>6s} {'pairs':>6s} | {'process':>8s} {'analysis':>8s} "
        f"{'peak RSS':>8s} {'JSON':>8s} | {'mlir-opt':>9s} {'its pass':>8s}"
    )
    workdir = Path(tempfile.mkdtemp(prefix="deps-scaling-"))
    for nests in sizes:
        path = workdir / f"copy_chain_{nests}.mlir"
        path.write_text(copy_chain(nests))
        report = workdir / f"copy_chain_{nests}.json"
        command = [sys.executable, "-m", "transforms.cli", str(path)]
        command += ["--dependence-report=json", "-o", str(report)]
        measured = run_measured(command, timeout)
        module = affine.parse(path.read_text(), str(path))
        gc.collect()
        gc.freeze()  # as poly-opt does once the module is read: collections skip it
        start = time.perf_counter()
        flow = FlowAnalysis(module, memory_based=False)
        with open(os.devnull, "w") as nowhere:
            nowhere.writelines(report_chunks(flow))
        alone = time.perf_counter() - start
        line = f"{nests:5d} {len(flow.value):6d} {flow.pair_tests:6d} | "
        if measured is None:
            line += f"{'> ' + str(int(timeout)) + ' s':>8s} {alone:7.2f}s {'':8s} {'':8s} | "
        else:
            seconds, rss = measured
            size = report.stat().st_size
            peak = f"{rss / 2**20:6.0f}MB" if rss is not None else f"{'n/a':>8s}"
            line += f"{seconds:7.2f}s {alone:7.2f}s {peak} {size / 2**20:6.2f}MB | "
        if mlir_opt is None:
            line += f"{'not installed':>9s}"
        else:
            quiet = "-mlir-print-op-on-diagnostic=false"
            theirs = [mlir_opt, str(path), "-test-memref-dependence-check", quiet]
            theirs += ["-o", os.devnull]
            measured = run_measured(theirs, timeout)
            if measured is None:
                line += f"{'> ' + str(int(timeout)) + ' s':>9s}"
            else:
                pass_time = None
                if measured[0] < timeout / 2:
                    pass_time = mlir_opt_pass(mlir_opt, path, quiet)
                line += f"{measured[0]:8.2f}s "
                line += f"{pass_time:7.2f}s" if pass_time is not None else f"{'':8s}"
        print(line, flush=True)
    shutil.rmtree(workdir)


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--scaling",
        type=lambda text: [int(n) for n in text.split(",")],
        nargs="?",
        const=[25, 50, 100, 200, 400, 800],
        help="print the scaling table instead, for these numbers of nests (default 25..800)",
    )
    parser.add_argument("--timeout", type=float, default=600, help="per process, in seconds")
    args = parser.parse_args()
    mlir_opt = find_tool("mlir-opt")
    if args.scaling:
        scaling(args.scaling, mlir_opt, args.timeout)
        return
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

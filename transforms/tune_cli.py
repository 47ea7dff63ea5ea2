"""``poly-tune``: a measured search over the schedules of one function (:mod:`transforms.tuner`).

Invariant: the best module is written only when the search finishes (atomically, ``-o``);
bad input is a ``FILE:LINE:COL: error:`` diagnostic or a ``poly-tune: error:`` line and exit
status 1, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from affine import parse
from affine.errors import PolyError
from affine.ir.diagnostics import DiagnosticError
from affine.syntax.printer import print_module
from transforms.cli import read_source, write_atomically

try:
    from transforms.tuner import LocalExecutor, Trial, TuneResult, tune
except ModuleNotFoundError as missing:  # the tune extra is not installed
    _MISSING: str | None = missing.name
else:
    _MISSING = None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # argparse's usage errors: our format, exit 1
        raise PolyError(message)


def _sizes(text: str) -> dict[str, Any]:
    """``N=1024,A=64x32``: an index argument's value, a dynamic memref's shape."""
    sizes: dict[str, Any] = {}
    for item in filter(None, text.split(",")):
        name, eq, value = item.partition("=")
        try:
            if not eq:
                raise ValueError
            dims = [int(d) for d in value.split("x")]
        except ValueError:
            raise PolyError(f"--sizes: '{item}' is not NAME=VALUE or NAME=D0xD1...") from None
        sizes[name.strip().lstrip("%")] = dims[0] if len(dims) == 1 else tuple(dims)
    return sizes


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="poly-tune", description=__doc__.split("\n")[0])
    p.add_argument("input", help="the MLIR file")
    p.add_argument("--func", help="the function to tune (default: the only one)")
    p.add_argument("--trials", type=int, default=20, help="candidates to try (default 20)")
    p.add_argument("--time-budget", type=float, help="stop after this many seconds")
    p.add_argument(
        "--executor",
        default="local",
        help="'local' (a worker per core) or 'dask://HOST:PORT' (a Dask scheduler)",
    )
    p.add_argument("--workers", type=int, help="local workers (default: one per core)")
    p.add_argument(
        "--storage",
        default="sqlite:///poly-tune.db",
        help="optuna storage URL holding the measurements (default sqlite:///poly-tune.db)",
    )
    p.add_argument("--seed", type=int, default=0, help="the sampler's seed (default 0)")
    p.add_argument("--sizes", type=_sizes, default={}, help="N=1024,A=64x32: dynamic sizes")
    p.add_argument("--repeats", type=int, default=3, help="timed runs per candidate (min)")
    p.add_argument(
        "--prune",
        type=float,
        default=3.0,  # transforms.tuner.PRUNE (optuna may be missing here)
        help="a candidate this many times slower than the best so far on its first timed run "
        "is not timed again (default 3; 0 times every candidate in full)",
    )
    p.add_argument(
        "--backend",
        choices=("c", "mlir-runner"),  # transforms.tuner.BACKENDS (optuna may be missing here)
        default="c",
        help="what times the candidates: the C backend (default) or mlir-runner (mlir-opt 22's "
        "lowering under the MLIR JIT at -O3); results are always checked on the C backend",
    )
    p.add_argument("-o", dest="output", help="write the best module here (default: stdout)")
    p.add_argument(
        "--save-schedule",
        help="write the best schedule here, after a comment with the poly-opt options that "
        "rebuild the best module (--affine-schedule reads it)",
    )
    p.add_argument(
        "--no-auto",
        dest="auto",
        action="store_false",
        help="do not start from the auto-scheduler's module",
    )
    p.add_argument(
        "--parallel",
        action="store_true",
        help="add the parallel knob (OpenMP threads: use one worker)",
    )
    return p


def saved_schedule(result: TuneResult, path: str) -> str:
    """What ``--save-schedule`` writes: a comment with poly-opt's options that rebuild the
    best module from the input (the schedule read from ``path``), then the schedule."""
    lines = [f"// poly-opt INPUT {result.pipeline(path)}".rstrip()]
    if result.schedule is not None:
        name = result.schedule.function.properties["sym_name"].value  # type: ignore[attr-defined]  # a function's sym_name is a StringAttr
        lines += [f"// @{name}", result.schedule.tree_text()]
    return "\n".join(lines) + "\n"


def run(argv: list[str]) -> int:
    opts = _parser().parse_args(argv)
    if _MISSING is not None:
        raise PolyError(f"poly-tune needs {_MISSING}: pip install 'polyaffine[tune]'")
    if opts.trials < 1:
        raise PolyError(f"--trials must be at least 1 (got {opts.trials})")
    try:
        with open(opts.input, "rb") as f:
            text = read_source(f)
    except OSError as e:
        raise PolyError(f"cannot read '{opts.input}': {getattr(e, 'strerror', None) or e}") from e
    module = parse(text, opts.input)
    executor = opts.executor
    if executor == "local" and opts.workers:
        executor = LocalExecutor(opts.workers)
    # lazy: start-up cost (tqdm, only for the command line's progress bar)
    from tqdm import tqdm

    with tqdm(total=opts.trials, unit="trial", file=sys.stderr, leave=False) as bar:

        def progress(trial: Trial) -> None:
            bar.update(1)
            bar.set_postfix_str(f"{trial.status} {trial.seconds:.4g}s")

        result = tune(
            module,
            opts.func,
            trials=opts.trials,
            executor=executor,
            storage=opts.storage,
            seed=opts.seed,
            sizes=opts.sizes,
            time_budget=opts.time_budget,
            repeats=opts.repeats,
            progress=progress,
            auto=opts.auto,
            parallel=opts.parallel,
            backend=opts.backend,
            prune=opts.prune or None,
        )
    for t in result.trials:
        candidate = t.history.replace("\n", "; ") or "(original)"
        print(f"{t.number:4d}  {t.status:8s}  {t.seconds:10.4g} s  {candidate}", file=sys.stderr)
    print(
        f"best: {result.seconds:.4g} s, original {result.original_seconds:.4g} s "
        f"({result.speedup:.2f}x) after {len(result.trials)} trials",
        file=sys.stderr,
    )
    if opts.save_schedule:
        write_atomically(opts.save_schedule, saved_schedule(result, opts.save_schedule))
    if opts.output:
        write_atomically(opts.output, print_module(result.module))
    else:
        sys.stdout.write(print_module(result.module))
    return 0


def main(argv: list[str] | None = None) -> int:
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except DiagnosticError as e:
        print(e.render(), file=sys.stderr)
    except PolyError as e:
        print(f"poly-tune: error: {e}", file=sys.stderr)
    except KeyboardInterrupt:
        return 130
    return 1


if __name__ == "__main__":
    raise SystemExit(main())

"""poly-tune (transforms/tuner.py): candidates are schedules checked before they are built,
measured on workers (a local process pool, a real Dask LocalCluster), stored in an optuna
study that resumes; timings here come from a deterministic fake timer (tests/tune_timers.py)
except in the command-line test, which times real code."""

from __future__ import annotations

import functools
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import tune_timers

from affine import parse
from affine.exec.equivalence import check_equivalent
from affine.syntax.printer import print_module
from poly.schedule import Schedule
from transforms.auto_scheduler import auto_schedule
from transforms.tuner import (
    AUTO,
    SOURCE,
    Candidate,
    DaskExecutor,
    LocalExecutor,
    SearchSpace,
    Task,
    TuneError,
    TuneSpace,
    measure,
    perfect_nests,
    tune,
)

ROOT = Path(__file__).resolve().parents[2]

MATMUL = """
func.func @mm(%A: memref<24x20xf32>, %B: memref<20x16xf32>, %C: memref<24x16xf32>) {
  affine.for %i = 0 to 24 {
    affine.for %j = 0 to 16 {
      affine.for %k = 0 to 20 {
        %a = affine.load %A[%i, %k] : memref<24x20xf32>
        %b = affine.load %B[%k, %j] : memref<20x16xf32>
        %c = affine.load %C[%i, %j] : memref<24x16xf32>
        %p = arith.mulf %a, %b : f32
        %s = arith.addf %c, %p : f32
        affine.store %s, %C[%i, %j] : memref<24x16xf32>
      }
    }
  }
  return
}
"""

# A[i][j] reads A[i-1][j+1]: the distance (1, -1) makes the interchange and a 2-d tile
# illegal, while tiling %i alone (or nothing) is legal.
SKEWED = """
func.func @sweep(%A: memref<20x20xf32>) {
  affine.for %i = 1 to 20 {
    affine.for %j = 0 to 19 {
      %x = affine.load %A[%i - 1, %j + 1] : memref<20x20xf32>
      %y = affine.load %A[%i, %j] : memref<20x20xf32>
      %s = arith.addf %x, %y : f32
      affine.store %s, %A[%i, %j] : memref<20x20xf32>
    }
  }
  return
}
"""


def _history(result) -> list[tuple[str, str]]:
    return [(t.history, t.status) for t in result.trials]


def _built(space: TuneSpace, values: dict[str, object]) -> Candidate:
    """The candidate of ``values`` (a knob left out takes its first choice)."""
    return space.candidate(lambda name, choices: values.get(name, choices[0]))


def _measured_like_the_original(module, func: str, candidate: Candidate) -> None:
    """The candidate is built, and a worker finds it computes the original's results (C
    backend) and times it (fake timer)."""
    assert candidate.module is not None, candidate.refusal
    task = Task(
        print_module(module), func, print_module(candidate.module), (), 0, 1,
        tune_timers.fake_time,
    )  # fmt: skip
    outcome = measure(task)
    assert outcome.status == "ok", outcome.detail


def test_the_space_is_orders_and_tiles_of_each_perfect_nest() -> None:
    s = Schedule.of(parse(MATMUL).functions()[0])
    assert perfect_nests(s) == [("%i", "%j", "%k")]
    space = SearchSpace.around(s, sizes=(0, 8))
    names = [k.name for k in space.knobs()]
    assert names == ["order %i", "tile %i", "tile %j", "tile %k", "point order %i"]
    assert len(space.knobs()[0].choices) == 6  # 3! loop orders
    candidate = space.build({"order %i": "%i,%k,%j", "tile %i": 8, "tile %k": 8})
    assert candidate.history_text() == "permute(['%i', '%k', '%j'])\ntile(['%i', '%k'], [8, 8])"
    # the built candidate computes what the original does
    module = parse(MATMUL)
    assert check_equivalent(module, candidate.apply(), backend="interp", seed=1)
    # inside the tiles the tiled loops run in the point order's relative order (%j, not
    # tiled, is left out of it): tile loops %i, %k, then points %k, %i
    values = {"order %i": "%i,%k,%j", "tile %i": 8, "tile %k": 8, "point order %i": "%j,%k,%i"}
    inside = space.build(values)
    assert inside.history_text().splitlines()[-1] == "permute(['%k.point', '%i.point'])"
    assert inside.check().legal
    assert check_equivalent(module, inside.apply(), backend="interp", seed=1)


def test_illegal_candidates_are_never_timed(tmp_path: Path) -> None:
    log = tmp_path / "timed.log"
    timer = functools.partial(tune_timers.fake_time, log=str(log))
    result = tune(parse(SKEWED), trials=10, timer=timer, seed=2, executor=LocalExecutor(2))
    statuses = [t.status for t in result.trials]
    assert "illegal" in statuses and "ok" in statuses
    timed = log.read_text().split()
    # one timing for the original, one per measured candidate, none for the illegal ones
    assert len(timed) == 1 + statuses.count("ok") + statuses.count("pruned")
    for t in result.trials:
        if t.status == "illegal":  # the schedule's verdict, or a later step's refusal
            assert "illegal" in t.detail or "would reverse" in t.detail
    assert result.schedule is not None and result.schedule.check().legal


def test_the_study_resumes_without_measuring_again(tmp_path: Path) -> None:
    log = tmp_path / "timed.log"
    timer = functools.partial(tune_timers.fake_time, log=str(log))
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    first = tune(parse(MATMUL), trials=6, timer=timer, storage=storage, seed=5, batch=2)
    measured = len(log.read_text().split())
    second = tune(parse(MATMUL), trials=6, timer=timer, storage=storage, seed=5, batch=2)
    assert len(log.read_text().split()) == measured  # nothing measured twice
    assert _history(second) == _history(first)
    assert second.schedule.history_text() == first.schedule.history_text()
    # more trials go on from where the study stopped
    third = tune(parse(MATMUL), trials=8, timer=timer, storage=storage, seed=5, batch=2)
    assert _history(third)[:6] == _history(first) and len(third.trials) == 8


def test_a_wrong_candidate_is_reported_and_discarded() -> None:
    original = print_module(parse(MATMUL))
    wrong = original.replace("arith.addf", "arith.subf")
    task = Task(original, "mm", wrong, (), 0, 1, None)
    outcome = measure(task)
    assert outcome.status == "wrong" and "argument #2 differs at [0, 0]" in outcome.detail


def test_dynamic_sizes_are_asked_for() -> None:
    module = parse((ROOT / "examples" / "matmul.mlir").read_text())
    with pytest.raises(TuneError, match="dynamic sizes: give %A, %B, %C"):
        tune(module, trials=1)


@pytest.fixture(scope="module")
def dask_cluster():
    distributed = pytest.importorskip("dask.distributed")
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    )
    client = distributed.Client(cluster)
    client.upload_file(str(Path(tune_timers.__file__)))
    yield client
    client.close()
    cluster.close()


@pytest.mark.slow
def test_a_dask_cluster_finds_what_the_local_pool_finds(dask_cluster) -> None:
    timer = tune_timers.fake_time
    local = tune(parse(MATMUL), trials=8, timer=timer, seed=3, batch=2, executor=LocalExecutor(2))
    remote = tune(parse(MATMUL), trials=8, timer=timer, seed=3, batch=2, executor=dask_cluster)
    assert _history(remote) == _history(local)
    assert remote.schedule.history_text() == local.schedule.history_text()
    assert remote.seconds == local.seconds < local.original_seconds


@pytest.mark.slow
def test_a_worker_killed_mid_search_loses_nothing(dask_cluster, tmp_path: Path) -> None:
    log = tmp_path / "timed.log"
    timer = functools.partial(tune_timers.dying_time, marker=str(tmp_path / "died"), log=str(log))
    result = tune(parse(MATMUL), trials=6, timer=timer, seed=4, batch=2, executor=dask_cluster)
    assert (tmp_path / "died").exists()  # a worker did die
    assert len(result.trials) == 6
    assert all(t.status in ("ok", "reused", "illegal") for t in result.trials)


def test_an_unreachable_cluster_is_a_clear_error() -> None:
    pytest.importorskip("dask.distributed")
    with pytest.raises(TuneError, match=r"cannot reach the Dask scheduler at tcp://127\.0\.0\.1:9"):
        DaskExecutor("tcp://127.0.0.1:9", timeout=1)


def _poly_tune(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "transforms.tune_cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={
            "PYTHONPATH": str(ROOT),
            "PATH": "/usr/bin:/bin",
            "HOME": str(cwd),
        },  # the real machine
        timeout=600,
    )


def test_poly_tune_writes_the_best_module_and_its_schedule(tmp_path: Path) -> None:
    kernel = tmp_path / "mm.mlir"
    kernel.write_text(MATMUL)
    out = tmp_path / "best.mlir"
    saved = tmp_path / "best.schedule"
    storage = f"sqlite:///{tmp_path / 'tune.db'}"
    args = [str(kernel), "--trials", "3", "--workers", "1", "--storage", storage, "--repeats", "1"]
    done = _poly_tune(*args, "-o", str(out), "--save-schedule", str(saved), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "best:" in done.stderr and "trials" in done.stderr
    best = parse(out.read_text())
    assert check_equivalent(parse(MATMUL), best, backend="interp", seed=2)
    # the saved file says which poly-opt options rebuild the best module from the input
    first, *_ = saved.read_text().splitlines()
    assert first.startswith("// poly-opt INPUT")
    options = shlex.split(first.removeprefix("// poly-opt INPUT"))
    again = subprocess.run(
        [sys.executable, "-m", "transforms.cli", str(kernel), *options],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr
    assert print_module(parse(again.stdout)) == print_module(best)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--trials", "0"], "poly-tune: error: --trials must be at least 1 (got 0)"),
        (["--sizes", "N"], "poly-tune: error: --sizes: 'N' is not NAME=VALUE or NAME=D0xD1..."),
        (["--executor", "ssh://x"], "poly-tune: error: unknown executor 'ssh://x'"),
    ],
)
def test_poly_tune_bad_options(tmp_path: Path, args: list[str], message: str) -> None:
    kernel = tmp_path / "mm.mlir"
    kernel.write_text(MATMUL)
    done = _poly_tune(str(kernel), *args, cwd=tmp_path)
    assert done.returncode == 1 and message in done.stderr, done.stderr
    assert "Traceback" not in done.stderr


def test_poly_tune_reports_bad_input_at_its_place(tmp_path: Path) -> None:
    kernel = tmp_path / "bad.mlir"
    kernel.write_text("func.func @f() {\n  affine.for %i = 0 to {\n}\n")
    done = _poly_tune(str(kernel), cwd=tmp_path)
    assert done.returncode == 1 and f"{kernel}:2:" in done.stderr and "error:" in done.stderr
    assert "Traceback" not in done.stderr


# -- the knobs beyond loop order and tiles --------------------------------------------------


def test_a_register_tile_with_a_vector_width_is_built_checked_and_correct() -> None:
    module = parse(MATMUL)
    space = TuneSpace(module, "mm", auto=False)
    values = {"register rows": 4, "register vectors": 2, "vector bits": 256}
    candidate = _built(space, values)
    assert candidate.steps == [
        '--affine-register-tile="rows=4 vectors=2 vector-bits=256 distribute=false"'
    ]
    text = print_module(candidate.module)
    assert "vector<8xf32>" in text  # 256-bit vectors of f32
    _measured_like_the_original(module, "mm", candidate)
    # a narrower vector is another candidate
    narrow = _built(space, {**values, "vector bits": 128})
    assert "vector<4xf32>" in print_module(narrow.module)
    _measured_like_the_original(module, "mm", narrow)


def test_an_illegal_register_tile_is_refused_with_the_dependence() -> None:
    # rows of %i run side by side: (i + 1, j) before (i, j + 1) reverses the distance (1, -1)
    space = TuneSpace(parse(SKEWED), "sweep", auto=False)
    candidate = _built(space, {"register rows": 2, "vector bits": 128})
    assert candidate.module is None
    assert candidate.refusal.startswith("register tile 2 rows of")
    assert "distance (1, -1)" in candidate.refusal


def test_unroll_and_jam_is_built_checked_and_correct() -> None:
    module = parse(MATMUL)
    space = TuneSpace(module, "mm", auto=False)
    candidate = _built(space, {"unroll-jam": 4})
    assert candidate.steps == ['--affine-loop-unroll-jam="unroll-jam-factor=4"']
    assert "step 4" in print_module(candidate.module)
    _measured_like_the_original(module, "mm", candidate)
    refused = _built(TuneSpace(parse(SKEWED), "sweep", auto=False), {"unroll-jam": 2})
    assert refused.module is None and "would reverse" in refused.refusal


def test_fusion_is_a_base_built_checked_and_correct() -> None:
    module = parse((ROOT / "tests/corpus/fusion/elementwise_chain.mlir").read_text())
    space = TuneSpace(module, "chain", auto=False)
    names = [b.name for b in space.bases]
    assert names[0] == SOURCE and "fusion greedy" in names
    candidate = _built(space, {"base": "fusion greedy"})
    assert candidate.history().startswith("base fusion greedy")
    assert print_module(candidate.module).count("affine.for") == 1
    _measured_like_the_original(module, "chain", candidate)


def test_parallel_is_a_knob_only_when_asked_for() -> None:
    module = parse(MATMUL)
    candidate = _built(TuneSpace(module, "mm", auto=False, parallel=True), {"parallel": "on"})
    assert candidate.steps == ['--affine-parallelize="max-nested=1"']
    assert "affine.parallel" in print_module(candidate.module)
    _measured_like_the_original(module, "mm", candidate)
    # without parallel=True no candidate has the knob
    asked: list[str] = []
    TuneSpace(module, "mm", auto=False).candidate(lambda n, c: asked.append(n) or c[0])
    assert "parallel" not in asked


def test_illegal_register_tiles_and_fusions_are_never_timed(tmp_path: Path) -> None:
    log = tmp_path / "timed.log"
    timer = functools.partial(tune_timers.fake_time, log=str(log))
    doitgen = parse((ROOT / "tests/corpus/kernels/doitgen.mlir").read_text())
    space = TuneSpace(doitgen, "doitgen", auto=False)
    [fusion] = [b for b in space.bases if b.name.startswith("fusion")]
    assert fusion.refusal and "is reversed" in fusion.refusal  # every mode refuses the pair
    results = [
        tune(doitgen, trials=12, timer=timer, seed=1, batch=2, auto=False),
        tune(parse(SKEWED), trials=12, timer=timer, seed=1, batch=2, auto=False),
    ]
    rows = [t for r in results for t in r.trials]
    refused = [t.detail for t in rows if t.status == "illegal"]
    assert any(d.startswith("register tile") for d in refused)
    assert any("is reversed" in d for d in refused)  # a fusion
    timed = log.read_text().split()
    assert len(timed) == len(results) + sum(t.status in ("ok", "pruned") for t in rows)


def test_the_search_starts_from_the_auto_schedule(tmp_path: Path) -> None:
    module = parse((ROOT / "tests/corpus/kernels/mvt.mlir").read_text())
    auto = auto_schedule(module).module
    # times from the code alone, the auto-scheduler's module fast enough not to be pruned
    timer = functools.partial(
        tune_timers.favouring_time, favoured=print_module(auto), log=str(tmp_path / "timed.log")
    )
    result = tune(module, trials=3, timer=timer, seed=0, batch=1)
    first = result.trials[0]
    assert first.history == f"base {AUTO}" and first.status == "ok"
    # it is the auto-scheduler's module, untouched, and the best is never slower
    assert first.seconds == tune_timers.favouring_time(auto, "mvt", [], print_module(auto))
    assert result.seconds <= first.seconds


def test_the_auto_base_names_its_machine_so_poly_opt_rebuilds_it_anywhere() -> None:
    module = parse((ROOT / "tests/corpus/kernels/gemm.mlir").read_text())
    (auto,) = [b for b in TuneSpace(module, "gemm").bases if b.name == AUTO]
    assert (
        auto.options == '--affine-auto-schedule="l1=32 l2=1024 l3=32768 l1-ways=8 vector-bits=512"'
    )
    options = shlex.split(auto.options)[0].removeprefix("--affine-auto-schedule=")
    assert "vector<16xf32>" in print_module(auto.module)
    # rebuilt for a 256-bit machine: the same options give the same module
    elsewhere = auto_schedule(module, 32, 1024, 32768, 256).module
    assert "vector<16xf32>" not in print_module(elsewhere)
    assert options == "l1=32 l2=1024 l3=32768 l1-ways=8 vector-bits=512"


def test_distribution_makes_a_perfect_nest_to_register_tile() -> None:
    # gemm's %i holds the scaling of C and the k-j nest: distributed, the second copy is
    # the perfect nest %i.2, %k, %j whose rows, vectors and reduction make a register tile
    module = parse((ROOT / "tests/corpus/kernels/gemm.mlir").read_text())
    space = TuneSpace(module, "gemm", auto=False)
    values = {"distribute %i": "on", "register rows": 4, "vector bits": 128}
    candidate = _built(space, values)
    assert candidate.history() == (
        "distribute('%i')\n"
        '--affine-register-tile="rows=4 vectors=1 vector-bits=128 distribute=false"'
    )
    assert "vector<4xf32>" in print_module(candidate.module)
    # without it, the register tile of the k-j band has one row: one multiply-add, not four
    alone = _built(space, {**values, "distribute %i": "off"})
    fmas = [print_module(c.module).count("vector.fma") for c in (candidate, alone)]
    assert fmas[0] >= 4 * fmas[1] > 0
    _measured_like_the_original(module, "gemm", candidate)


@pytest.mark.mlir
def test_mlir_runner_times_the_candidates(mlir_runner: str, tmp_path: Path) -> None:
    """With backend="mlir-runner" every candidate is checked on the C backend and timed under
    the MLIR JIT: real times, the best one correct, the study apart from the C backend's."""
    storage = f"sqlite:///{tmp_path / 'study.db'}"
    result = tune(parse(MATMUL), trials=3, seed=1, storage=storage, backend="mlir-runner")
    timed = [t.seconds for t in result.trials if t.status == "ok"]
    assert timed and all(0 <= t < 1 for t in timed)  # rtclock may read 0 on this small kernel
    assert check_equivalent(parse(MATMUL), result.module)
    again = tune(parse(MATMUL), trials=1, timer=tune_timers.fake_time, storage=storage)
    assert len(again.trials) == 1  # the C backend's study is another one


def test_an_unknown_backend_is_a_clear_error() -> None:
    with pytest.raises(TuneError, match="backend must be one of c, mlir-runner, not 'gpu'"):
        tune(parse(MATMUL), trials=1, backend="gpu")


def test_slow_candidates_are_pruned_after_one_timed_run(tmp_path: Path) -> None:
    # the fake clock spreads candidates over 1 ms .. 1 s: with prune=3, one slower than 3x
    # the fastest measured before its batch is told as pruned; prune=None times them all
    log = tmp_path / "timed.log"
    timer = functools.partial(tune_timers.fake_time, log=str(log))
    result = tune(parse(MATMUL), trials=12, timer=timer, seed=1, batch=2, prune=3.0)
    pruned = [t for t in result.trials if t.status == "pruned"]
    assert pruned and all("on its first timed run" in t.detail for t in pruned)
    fastest = result.original_seconds
    for t in result.trials:
        if t.status == "pruned":
            assert t.seconds > 3.0 * fastest
        if t.status == "ok":
            fastest = min(fastest, t.seconds)
    # a pruned candidate is timed once: the original, then each ok or pruned one
    statuses = [t.status for t in result.trials]
    assert len(log.read_text().split()) == 1 + statuses.count("ok") + statuses.count("pruned")
    unpruned = tune(parse(MATMUL), trials=12, timer=timer, seed=1, batch=2, prune=None)
    assert all(t.status != "pruned" for t in unpruned.trials)
    with pytest.raises(TuneError, match="prune must be at least 1"):
        tune(parse(SKEWED), trials=1, timer=timer, prune=0.5)

"""Loop fusion and data copies of the corpus chains: the original, our passes and mlir-opt
22's side by side in one run.

Usage::

    python benchmarks/fusion.py [--chains two_mm,mvt] [--rounds 2] [--repeats 2] [--small]
                                [--no-copies]

The fusion table times every chain of :data:`CHAINS` (producer-consumer as in
2mm/3mm/gemver, sibling as in mvt/bicg/atax, element-wise chains whose intermediate does
not escape, doitgen- and fdtd-2d-shaped nests, stencils), scaled to sizes whose arrays
leave the L2 cache (most leave the L3 too), in these versions:

- ``original``;
- ``fuse``: our ``--affine-loop-fusion`` (greedy); ``producer`` and ``sibling``: its
  ``mode=producer`` and ``mode=sibling``, timed only where their output differs from the
  greedy one (``= fuse`` otherwise); ``maximal``: greedy with ``maximal=true`` (every
  legal fusion, the cost model skipped), timed where it differs;
- ``mlir-fuse``: mlir-opt 22's ``-affine-loop-fusion``, read back by our parser.

Each is lowered and run by ``mlir-runner -O3`` as in ``benchmarks/auto_schedule.py``
(same pipeline and harness, minimum over ``--rounds`` rounds of ``--repeats`` calls, every
version in turn within a round). Every version's checksums are compared with the
original's, and the versions of the chain at the ``--small`` sizes are run by the
interpreter against the original array by array (checksums of large arrays can hide a
wrong element): ``WRONG`` marks a version that disagrees in either, which is never counted
as a speedup or a fusion. Beside the times:

- ``merged``: loops merged by fusion, the number of ``affine.for`` ops of the original
  minus the result's (a fusion at depth d merges d loops; a producer mlir-opt keeps beside
  its fused slice counts against it), ours / mlir-opt's;
- ``MB touched``: the memory traffic of the function as the sum, over its top-level loop
  nests, of the bytes of every memref element the nest touches (the exact footprints of
  ``poly/footprints.py``: an element read by two separate nests counts twice, once when
  they are fused; a buffer contracted to one element counts one element), for the
  original, ours and mlir-opt's; ``<=`` marks an over-approximated footprint;
- ``contracted``: the private buffers our fusion contracted (from its remarks).

The data-copy table runs our ``--affine-data-copy-generate`` and mlir-opt's
``-affine-data-copy-generate`` (both with point-wise copy loops, ``generate-dma=false``,
fast memory space 1) on the functions of ``tests/corpus/datamove/copy.mlir`` and a few
kernels at their corpus sizes, and gives the elements each copies (the instances of its
copy statements, stores between memory spaces whose value is a load, counted exactly on
the model) and whether the result computes the original's (interpreter).

The machine and its load average are printed with the tables: only ratios measured in the
same run compare.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

# this checkout's packages, not an installed copy
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from auto_schedule import (
    Outcome,
    Runner,
    fastest,
    machine_lines,
    selected,
    table_header,
    timing_parser,
    timing_runner,
    tolerance,
)
from kernels import KERNELS, scaled_text

CORPUS = KERNELS.parent
SMALL_SIZE = 24


@dataclass(frozen=True)
class Chain:
    """A corpus file (relative to ``tests/corpus``), its shape and its timed sizes."""

    path: str
    shape: str
    sizes: dict[str, int]
    small: dict[str, int] = field(default_factory=dict)  # of ``--small`` runs; else all 24

    def text(self, small: bool) -> str:
        sizes = self.sizes
        if small:
            sizes = self.small or dict.fromkeys(self.sizes, SMALL_SIZE)
        return scaled_text((CORPUS / self.path).read_text(), sizes)


CHAINS: dict[str, Chain] = {
    # producer-consumer
    "two_mm": Chain(
        "kernels/two_mm.mlir",
        "producer-consumer",
        {"NI": 1000, "NJ": 500, "NK": 500, "NL": 500},
        {"NI": 16, "NJ": 18, "NK": 20, "NL": 22},
    ),
    "two_mm_private": Chain(
        "fusion/two_mm_private.mlir",
        "producer-consumer",
        {"NI": 1000, "NJ": 500, "NK": 500, "NL": 500},
        {"NI": 12, "NJ": 10, "NK": 14, "NL": 16},
    ),
    "three_mm": Chain(
        "kernels/three_mm.mlir",
        "producer-consumer",
        {"NI": 500, "NJ": 450, "NK": 400, "NL": 420, "NM": 440},
        {"NI": 16, "NJ": 18, "NK": 20, "NL": 22, "NM": 24},
    ),
    "gemver": Chain("kernels/gemver.mlir", "producer-consumer", {"N": 4000}, {"N": 24}),
    "atax_split": Chain("fusion/atax_split.mlir", "producer-consumer", {"M": 4000, "N": 5000}),
    "reversed_read": Chain("fusion/reversed_read.mlir", "producer-consumer", {"N": 8_000_000}),
    # sibling
    "mvt": Chain("kernels/mvt.mlir", "sibling", {"N": 4000}, {"N": 40}),
    "bicg": Chain("kernels/bicg.mlir", "sibling", {"M": 4000, "N": 5000}, {"M": 38, "N": 42}),
    "bicg_split": Chain("fusion/bicg_split.mlir", "sibling", {"M": 4000, "N": 5000}),
    "atax": Chain("kernels/atax.mlir", "sibling", {"M": 4000, "N": 5000}, {"M": 38, "N": 42}),
    "identical_reads": Chain("fusion/identical_reads.mlir", "sibling", {"N": 16_000_000}),
    # element-wise, the intermediate private
    "elementwise_chain": Chain("fusion/elementwise_chain.mlir", "element-wise", {"N": 16_000_000}),
    # doitgen- and fdtd-2d-shaped
    "doitgen": Chain(
        "kernels/doitgen.mlir",
        "doitgen",
        {"NR": 128, "NQ": 128, "NP": 128},
        {"NR": 10, "NQ": 8, "NP": 12},
    ),
    "fdtd_2d": Chain(
        "kernels/fdtd_2d.mlir",
        "fdtd-2d",
        {"TMAX": 20, "NX": 1000, "NY": 1200},
        {"TMAX": 4, "NX": 20, "NY": 24},
    ),
    # stencils
    "stencil_chain": Chain("fusion/stencil_chain.mlir", "stencil", {"N": 16_000_000}),
    "row_stencil_chain": Chain("fusion/row_stencil_chain.mlir", "stencil", {"N": 4000}),
    "jacobi_1d": Chain(
        "kernels/jacobi_1d.mlir", "stencil", {"N": 4_000_000, "T": 20}, {"N": 40, "T": 4}
    ),
    "jacobi_2d": Chain(
        "kernels/jacobi_2d.mlir", "stencil", {"N": 2000, "T": 10}, {"N": 20, "T": 4}
    ),
}

VERSIONS = ("original", "fuse", "producer", "sibling", "maximal", "mlir-fuse")
OUR_MODES = {  # version: mode, maximal
    "fuse": ("greedy", False),
    "producer": ("producer", False),
    "sibling": ("sibling", False),
    "maximal": ("greedy", True),
}

# Functions and kernels of the data-copy table (corpus sizes).
COPY_FUNCTIONS = (
    ("datamove/copy.mlir", "loop_nest_1d"),
    ("datamove/copy.mlir", "loop_nest_tiled"),
    ("datamove/copy.mlir", "loop_nest_modulo"),
    ("datamove/copy.mlir", "constant_dim_access"),
    ("datamove/copy.mlir", "symbolic_accesses"),
    ("datamove/copy.mlir", "multi_load_store_union"),
    ("kernels/gemm.mlir", None),
    ("kernels/mvt.mlir", None),
    ("kernels/jacobi_2d.mlir", None),
    ("kernels/two_mm.mlir", None),
)
FAST_SPACE = 1


# -- what each version does ------------------------------------------------------------------


def loop_count(module) -> int:
    """The ``affine.for`` ops of the module's kernel."""
    from affine.exec.inputs import resolve_function

    return sum(1 for op in resolve_function(module).walk() if op.name == "affine.for")


def bytes_touched(module) -> tuple[int, bool] | None:
    """The bytes of memref elements each top-level loop nest of the kernel touches, summed
    over the nests, and whether every footprint is exact (else the sum contains them)."""
    from affine.exec.inputs import resolve_function
    from poly.footprints import bytes_touched as function_bytes

    return function_bytes(resolve_function(module))


def copied_elements(function, fast_space: int = FAST_SPACE) -> int | None:
    """The elements the copy statements of ``function`` move (instances of a store whose
    value is a load of a memref in another memory space, one side in ``fast_space``), or
    None when a copy statement's instance count depends on a symbol."""
    import islpy as isl

    from affine.ir.types import MemRefType
    from poly.model import build_model

    def space(value) -> int:
        t = value.type
        return (t.memory_space_number or 0) if isinstance(t, MemRefType) else 0

    total = 0
    for statement in build_model(function).statements:
        op = statement.op
        if op.name != "affine.store":
            continue
        value, target = op.operands[0], op.operands[1]
        source_op = getattr(value, "owner", None)
        if getattr(source_op, "name", None) != "affine.load":
            continue
        spaces = {space(source_op.operands[0]), space(target)}
        if len(spaces) < 2 or fast_space not in spaces:
            continue
        if statement.domain.dim(isl.dim_type.param):
            return None
        total += int(statement.domain.count_val().to_python())
    return total


# -- the fusion table ------------------------------------------------------------------------


@dataclass
class Version:
    """One version of a chain: its module (or why none), outcome, traffic and loop count."""

    module: object = None
    outcome: Outcome | None = None
    same_as: str = ""
    touched: tuple[int, bool] | None = None
    loops: int = 0
    notes: list[str] = field(default_factory=list)


def build(name: str, text: str, runner: Runner, measure_traffic: bool = True) -> dict[str, Version]:
    """Every version of chain ``name`` (modules built, traffic and loops counted when
    ``measure_traffic``, nothing timed yet)."""
    import affine
    import transforms

    original = affine.parse(text, f"{name}.mlir")
    versions = {"original": Version(original)}
    printed: dict[str, str] = {}
    for version, (mode, maximal) in OUR_MODES.items():
        try:
            result = transforms.fuse(original, mode=mode, maximal=maximal)
        except Exception as e:  # a refusal or crash is a result, not an abort
            versions[version] = Version(outcome=Outcome(note=f"error: {str(e)[:40]}"))
            continue
        text_out = affine.print_module(result.module)
        same = next((v for v, t in printed.items() if t == text_out), "")
        printed[version] = text_out
        contracted = [
            part.replace(" private: ", " ").split(" ")[0] + " -> " + part.split(" -> ")[-1]
            for remark in result.remarks
            for part in remark.splitlines()[0].split("; ")
            if " private: " in part
        ]
        versions[version] = Version(result.module, same_as=same, notes=contracted)
    try:
        versions["mlir-fuse"] = Version(runner.mlir_pass(text, name, "-affine-loop-fusion"))
    except Exception as e:
        versions["mlir-fuse"] = Version(outcome=Outcome(note=f"error: {str(e)[:40]}"))
    for version in versions.values():
        if measure_traffic and version.module is not None and not version.same_as:
            version.touched = bytes_touched(version.module)
            version.loops = loop_count(version.module)
    return versions


def measure(name: str, args, runner: Runner) -> dict[str, Version]:
    """Every version of chain ``name``, each the best of ``args.rounds`` rounds."""
    from affine.exec.inputs import resolve_function

    versions = build(name, CHAINS[name].text(args.small), runner)
    rtol = tolerance(resolve_function(versions["original"].module))
    reference: list = []
    for _ in range(args.rounds):
        for label, version in versions.items():
            if version.module is None or version.same_as:
                continue
            outcome, sums = runner.jit(version.module, reference or None, rtol)
            if label == "original":
                reference = reference or sums
            version.outcome = fastest(version.outcome, outcome)
        if not reference:  # the original itself did not run
            break
    for label in wrong_at_small_sizes(name, runner):
        outcome = versions[label].outcome
        if outcome is not None and outcome.time is not None:
            versions[label].outcome = Outcome(outcome.time, correct=False)
    return versions


def wrong_at_small_sizes(name: str, runner: Runner) -> list[str]:
    """The versions of chain ``name`` whose every array, at the ``--small`` sizes, differs
    from the original's somewhere (the interpreter, element by element: a checksum can
    miss what this sees)."""
    import affine

    versions = build(name, CHAINS[name].text(small=True), runner, measure_traffic=False)
    original = versions["original"].module
    return [
        label
        for label, version in versions.items()
        if version.module is not None
        and label != "original"
        and not affine.check_equivalent(original, version.module)
    ]


def megabytes(version: Version) -> str:
    if version.touched is None:
        return "-"
    total, exact = version.touched
    return ("" if exact else "<=") + f"{total / 1e6:.3g}"


def fusion_table(names: list[str], args, runner: Runner) -> dict[str, int]:
    """Print the fusion table; return the totals the targets are read from."""
    header = table_header(
        args,
        "merged = affine.for ops fewer than the original's",
        (f"{'chain':<18}{'shape':<18}{'original':>9} ", VERSIONS[1:], 15),
        f" {'merged us/mlir':>15} {'MB touched orig/us/mlir':>25}  contracted",
    )
    totals = dict.fromkeys(
        ("ours", "mlir", "ours_wrong", "mlir_wrong", "contracted", "contracted_faster"), 0
    )
    for name in names:
        versions = measure(name, args, runner)
        original, ours, theirs = versions["original"], versions["fuse"], versions["mlir-fuse"]
        base = original.outcome.time if original.outcome else None
        cells = []
        for label in VERSIONS[1:]:
            version = versions[label]
            if version.same_as:
                cells.append(f"= {version.same_as}")
            else:
                cells.append(version.outcome.cell(base) if version.outcome else "-")
        merged = []
        for label, key in (("fuse", "ours"), ("mlir-fuse", "mlir")):
            version = versions[label]
            if version.module is None or version.outcome is None:
                merged.append("-")
                continue
            count = original.loops - version.loops
            if version.outcome.correct:
                totals[key] += max(count, 0)
            else:
                totals[f"{key}_wrong"] += 1
            merged.append(str(count) + ("" if version.outcome.correct else "!"))
        touched = "/".join(megabytes(v) for v in (original, ours, theirs))
        if ours.notes and ours.outcome is not None:
            totals["contracted"] += 1
            faster = (
                ours.outcome.correct
                and ours.outcome.time is not None
                and base is not None
                and ours.outcome.time < base
            )
            totals["contracted_faster"] += faster
        print(
            f"{name:<18}{CHAINS[name].shape:<18}{original.outcome.cell(None):>9} "
            + " ".join(f"{c:>15}" for c in cells)
            + f" {'/'.join(merged):>15} {touched:>25}  {', '.join(ours.notes)}",
            flush=True,
        )
    print("-" * len(header))
    print(
        f"loops merged by legal fusions: ours {totals['ours']}, mlir-opt {totals['mlir']}; "
        f"wrong results: ours {totals['ours_wrong']}, mlir-opt {totals['mlir_wrong']} "
        "(! marks a wrong version's count, left out of the totals); "
        f"chains with a contracted buffer: {totals['contracted']}, "
        f"faster than the original: {totals['contracted_faster']}"
    )
    return totals


# -- the data-copy table ---------------------------------------------------------------------


def copy_versions(text: str, label: str, entry: str | None, runner: Runner) -> list[str]:
    """The row of one function: elements copied and correctness, ours then mlir-opt's."""
    import affine
    import transforms
    from affine.exec.inputs import resolve_function

    original = affine.parse(text, label)
    cells: list[str] = []
    results = []
    try:
        results.append(
            transforms.copy_data(original, generate_dma=False, fast_mem_space=FAST_SPACE).module
        )
    except Exception as e:
        results.append(f"error: {str(e)[:30]}")
    try:
        results.append(
            runner.mlir_pass(
                text,
                label,
                "-affine-data-copy-generate=generate-dma=false "
                f"fast-mem-space={FAST_SPACE} skip-non-unit-stride-loops=false",
            )
        )
    except Exception as e:
        results.append(f"error: {str(e)[:30]}")
    for result in results:
        if isinstance(result, str):
            cells += [result, ""]
            continue
        count = copied_elements(resolve_function(result, entry))
        same = affine.check_equivalent(original, result, f_entry=entry, g_entry=entry)
        cells += ["symbolic" if count is None else str(count), "ok" if same else "WRONG"]
    return cells


def copy_table(runner: Runner) -> None:

    print()
    print(
        "data copies (generate-dma=false, fast memory space 1): elements copied in and out "
        "by each tool, and its result against the original's (interpreter)"
    )
    header = f"{'function':<34}{'ours':>10}{'':>7}{'mlir-opt':>10}{'':>7}"
    print(header)
    print("-" * len(header))
    for path, entry in COPY_FUNCTIONS:
        text = (CORPUS / path).read_text()
        label = entry or Path(path).stem
        ours, ours_ok, theirs, theirs_ok = copy_versions(text, label, entry, runner)
        print(f"{label:<34}{ours:>10}{ours_ok:>7}{theirs:>10}{theirs_ok:>7}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = timing_parser(__doc__, "chain")
    parser.add_argument("--small", action="store_true", help="corpus-like sizes (a smoke test)")
    parser.add_argument("--no-copies", action="store_true", help="skip the data-copy table")
    args = parser.parse_args(argv)
    names = selected(parser, args.chains, CHAINS, "chain")
    runner = timing_runner(args.repeats)
    if runner is None:
        return 1
    for line in machine_lines():
        print(line)
    fusion_table(names, args, runner)
    if not args.no_copies:
        copy_table(runner)
    print(machine_lines()[1])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""mlir-opt's own fusion, scalar-replacement, data-copy and pipelining tests through our
passes and mlir-opt 22's, chunk by chunk, side by side.

Usage::

    python benchmarks/mlir_tests_table.py FILE.mlir [FILE.mlir ...]

Each FILE is a test of llvm-project's ``mlir/test/Dialect/Affine`` (``loop-fusion*.mlir``,
``scalrep.mlir``, ``affine-data-copy.mlir``, ``dma-generate.mlir``,
``pipeline-data-transfer.mlir``; the files are read from where they are given, they are not
part of this repository). Every ``// RUN:`` line gives the options both tools run with (its
``mlir-opt`` command up to the first pipe, without ``%s``, ``-split-input-file`` and
``-verify-diagnostics``); every chunk between ``// -----`` lines is run through
``poly-opt`` (in process) and ``mlir-opt`` with them. For each chunk and tool the table
gives:

- what the pass did, counted on the output against the input the same way for both tools:
  loops merged (``affine.for`` ops fewer) for fusion, loads and stores removed for scalar
  replacement, buffers allocated plus ``dma_start`` ops present for data copies,
  ``dma_start`` ops added (the prologue's) for pipelining;
- whether the output computes the input's results: every function of the chunk with a body
  is run on the same random inputs before and after (``affine.check_equivalent``,
  interpreter, in a child process given 10 s); ``ok``, ``WRONG``, ``-`` when nothing is
  observable (no memref argument and no result: only that it runs is shown), ``n/r`` when
  the input cannot run (unregistered ops, dynamic shapes without sizes...) ``slow`` when it runs longer;
- ``error`` when a tool fails on the chunk or its output cannot be read back.
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from kernels import find_tool

DROPPED_FLAGS = {"%s", "-split-input-file", "--split-input-file", "-verify-diagnostics"}
DROPPED_FLAGS |= {"--verify-diagnostics"}
RUN_SECONDS = 10  # a function the interpreter runs longer is not checked


@dataclass(frozen=True)
class Run:
    """One ``// RUN:`` line: the flags both tools get, and the pass family it tests."""

    flags: tuple[str, ...]
    family: str  # fusion, scalrep, copy, pipeline


def run_lines(text: str) -> list[Run]:
    """The ``mlir-opt`` RUN lines of a test file (continuation lines joined)."""
    joined, current = [], ""
    for line in text.splitlines():
        match = re.match(r"\s*//\s*RUN:(.*)", line)
        if match is None:
            continue
        part = match.group(1).rstrip()
        if part.endswith("\\"):
            current += part[:-1] + " "
            continue
        joined.append(current + part)
        current = ""
    runs = []
    for command in joined:
        words = shlex.split(command.split("|")[0])
        if not words or not words[0].endswith("mlir-opt"):
            continue
        flags = tuple(w for w in words[1:] if w not in DROPPED_FLAGS)
        runs.append(Run(flags, family(" ".join(flags))))
    return runs


def family(flags: str) -> str:
    for name, marker in (
        ("fusion", "affine-loop-fusion"),
        ("scalrep", "affine-scalrep"),
        ("pipeline", "affine-pipeline-data-transfer"),
        ("copy", "affine-data-copy-generate"),
    ):
        if marker in flags:
            return name
    return "other"


def chunks(text: str) -> list[str]:
    """The chunks of a ``-split-input-file`` test that hold a function."""
    parts = re.split(r"^// -----.*$", text, flags=re.M)
    return [c for c in parts if re.search(r"^\s*func\.func", c, flags=re.M)]


def one_function_chunks(chunk: str) -> list[str]:
    """``chunk`` cut before each top-level ``func.func``, the attribute aliases before the
    first kept with each (for a file our parser cannot read whole)."""
    pieces = re.split(r"^(?=func\.func)", chunk, flags=re.M)
    head = "\n".join(line for line in pieces[0].splitlines() if line.startswith("#"))
    return [head + "\n" + piece for piece in pieces[1:]]


def count(op, names: tuple[str, ...]) -> int:
    return sum(1 for inner in op.walk() if inner.name in names)


def effect(kind: str, before, after) -> int:
    """What the pass did to the function ``before``, counted on ``after`` (see the module
    doc)."""
    if kind == "fusion":
        return count(before, ("affine.for",)) - count(after, ("affine.for",))
    if kind == "scalrep":
        accesses = ("affine.load", "affine.store", "affine.vector_load", "affine.vector_store")
        return count(before, accesses) - count(after, accesses)
    starts = ("affine.dma_start", "memref.dma_start")
    if kind == "pipeline":
        return count(after, starts) - count(before, starts)
    allocs = ("memref.alloc", "memref.alloca")
    return count(after, allocs) - count(before, allocs) + count(after, starts)


def correctness(before, after, name: str) -> str:
    """:func:`run_both` in a child process, ``slow`` past :data:`RUN_SECONDS`."""
    context = multiprocessing.get_context("fork")  # the modules reach the child as they are
    receive, send = context.Pipe(duplex=False)
    child = context.Process(target=lambda: send.send(run_both(before, after, name)))
    child.start()
    verdict = receive.recv() if receive.poll(RUN_SECONDS) else "slow"
    child.kill()
    child.join()
    return verdict


def run_both(before, after, name: str) -> str:
    """ok / WRONG / - / n/r for function ``name`` (see the module doc)."""
    import affine
    from affine.exec.inputs import resolve_function, signature
    from affine.ir.types import MemRefType

    try:
        arguments, results = signature(resolve_function(before, name))
        same = affine.check_equivalent(before, after, f_entry=name, g_entry=name)
    except Exception:  # an op, shape or DMA the interpreter cannot run
        return "n/r"
    observable = results or any(isinstance(t, MemRefType) for t in arguments)
    return ("ok" if same else "WRONG") if observable else "-"


def bodies(module) -> dict[str, object]:
    """The functions of ``module`` that have a body, by name."""
    return {
        str(f.properties["sym_name"].value): f  # type: ignore[union-attr]
        for f in module.functions()
        if f.regions and f.regions[0].blocks
    }


def ours(chunk: str, flags: tuple[str, ...], filename: str):
    """Our output of one chunk, or why there is none."""
    import affine
    from transforms import cli

    try:
        options = cli.parse_args([*flags, "-"])
        pieces, diagnostics = cli.process_reporting(chunk, filename, options, 0)
    except Exception as e:  # an option we do not have is a result, not an abort
        return f"error: {str(e).splitlines()[0][:50]}"
    if pieces is None:
        errors = [d for d in diagnostics if d.severity == "error"]
        return f"error: {errors[0].message[:50] if errors else 'no output'}"
    text = "".join(p if isinstance(p, str) else "".join(p) for p in pieces)
    return affine.parse(text, f"{filename} (ours)")


def theirs(chunk: str, flags: tuple[str, ...], filename: str, mlir_opt: str):
    """mlir-opt's output of one chunk read back, or why there is none."""
    import affine

    done = subprocess.run([mlir_opt, *flags, "-"], input=chunk, capture_output=True, text=True)
    if done.returncode != 0:
        return f"error: {(done.stderr.strip().splitlines() or ['failed'])[0][:50]}"
    try:
        return affine.parse(done.stdout, f"{filename} (mlir-opt)")
    except Exception as e:
        return f"unreadable: {str(e).splitlines()[0][:40]}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("files", nargs="+", type=Path, help="mlir-opt test files")
    args = parser.parse_args(argv)
    mlir_opt = find_tool("mlir-opt")
    if mlir_opt is None:
        print("mlir-opt 22 not found: nothing to compare", file=sys.stderr)
        return 1
    import affine

    header = f"{'test':<58}{'did: ours':>10}{'mlir':>6}  {'result: ours':>12}{'mlir':>7}  note"
    print(header)
    print("-" * len(header))
    totals = {"functions": 0, "ours": 0, "mlir": 0, "ours_wrong": 0, "mlir_wrong": 0}
    for path in args.files:
        text = path.read_text()
        runs = run_lines(text)
        for run_index, run in enumerate(runs):
            pending = chunks(text)
            while pending:
                chunk = pending.pop(0)
                try:
                    original = affine.parse(chunk, path.name)
                except Exception as e:
                    pieces = one_function_chunks(chunk)
                    if len(pieces) > 1:
                        pending[:0] = pieces
                    else:
                        print(f"{path.name}: not read: {str(e).splitlines()[0]}")
                    continue
                outputs = {
                    "ours": ours(chunk, run.flags, path.name),
                    "mlir": theirs(chunk, run.flags, path.name, mlir_opt),
                }
                suffix = f"#{run_index + 1}" if len(runs) > 1 else ""
                for name, function in bodies(original).items():
                    totals["functions"] += 1
                    row, notes = [], []
                    for tool, result in outputs.items():
                        after = None if isinstance(result, str) else bodies(result).get(name)
                        if after is None:
                            row.append(("error", ""))
                            notes.append(f"{tool}: {result if isinstance(result, str) else 'gone'}")
                            continue
                        did = effect(run.family, function, after)
                        verdict = correctness(original, result, name)
                        totals[tool] += did > 0
                        totals[f"{tool}_wrong"] += verdict == "WRONG"
                        row.append((str(did), verdict))
                    label = f"{path.stem}{suffix}:{name}"
                    print(
                        f"{label[:57]:<58}{row[0][0]:>10}{row[1][0]:>6}  "
                        f"{row[0][1]:>12}{row[1][1]:>7}  " + "; ".join(notes),
                        flush=True,
                    )
    print("-" * len(header))
    print(
        f"{totals['functions']} functions; changed by ours {totals['ours']}, by mlir-opt "
        f"{totals['mlir']}; wrong results: ours {totals['ours_wrong']}, mlir-opt "
        f"{totals['mlir_wrong']}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Random programs (tests/nestgen.py) x recomputation slices: for every producer-consumer
pair and every depth, the function with the slice copied before the consumer, and that copy
fused into it, compute the original's results (interpreter)."""

from __future__ import annotations

import warnings

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from nestgen import nests
from test_fusion_random import _first_array_local

import affine
import transforms
from poly.deps import AnalysisWarning
from poly.recompute import recompute_slice
from poly.schedule import Schedule
from poly.schedule_program import ScheduleError
from poly.slices import PRODUCER, candidates
from transforms.fusion import fuse_recomputing


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nests(), st.booleans())
def test_recomputed_slices_compute_the_same_results(nest, local: bool) -> None:
    text = _first_array_local(nest.text) if local else nest.text
    assume(text is not None)
    module = affine.parse(text, "random.mlir")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        try:
            schedule = Schedule.of(module.functions()[0])
            found = candidates(schedule, PRODUCER)
        except ScheduleError:
            assume(False)
        for candidate in found:
            for depth in range(1, candidate.second.depth + 1):
                copied = recompute_slice(schedule, candidate, depth)
                if isinstance(copied, str):
                    continue
                verdict = affine.check_equivalent(module, copied.module)
                assert verdict, f"{verdict}\n{text}\n{affine.print_module(copied.module)}"
                fused = fuse_recomputing(module, schedule, candidate, depth)
                if isinstance(fused, str):
                    continue
                verdict = affine.check_equivalent(module, fused[0])
                assert verdict, f"{verdict}\n{text}\n{affine.print_module(fused[0])}"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(nests(), st.sampled_from([0.3, 4.0, 1000.0]), st.booleans())
def test_random_programs_fuse_with_any_tolerance_to_the_same_results(
    nest, tolerance: float, maximal: bool
) -> None:
    text = _first_array_local(nest.text)
    assume(text is not None)
    module = affine.parse(text, "random.mlir")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", AnalysisWarning)
        result = transforms.fuse(module, maximal=maximal, compute_tolerance=tolerance)
    verdict = affine.check_equivalent(module, result.module)
    assert verdict, f"{verdict}\n{text}\n{affine.print_module(result.module)}"


_INDEX = ("%i", "%j", "7 - %i", "7 - %j", "0")  # in 0..7 for %i, %j in 0..5, before offsets


@st.composite
def chains(draw: st.DrawFn) -> str:
    """A producer ``B = A * A`` (8 x 8) and a consumer summing 1-3 reads of ``B`` at
    shifted, transposed or reversed indices into ``C`` (6 x 6); ``B`` local or an argument,
    a nest between them that may write ``A``, a consumer that may write ``A`` too, all of
    it maybe inside a time loop."""
    local = draw(st.booleans())
    timed = draw(st.booleans())
    reads = []
    for _ in range(draw(st.integers(1, 3))):
        index = []
        for _ in range(2):
            base = draw(st.sampled_from(_INDEX))
            offset = draw(st.integers(0, 2))
            if base.startswith("7 - "):
                index.append(f"{base} - {offset}" if offset else base)
            else:
                index.append(f"{base} + {offset}" if offset else base)
        reads.append(", ".join(index))
    between = draw(st.sampled_from(["", "write A", "read B"]))
    writes_input = draw(st.booleans())
    args = "%A: memref<8x8xf32>, %C: memref<6x6xf32>, %D: memref<8xf32>"
    head = [f"func.func @k({args}{'' if local else ', %B: memref<8x8xf32>'}) {{"]
    if local:
        head.append("  %B = memref.alloc() : memref<8x8xf32>")
    lines = [
        "  affine.for %i = 0 to 8 {",
        "    affine.for %j = 0 to 8 {",
        "      %a = affine.load %A[%i, %j] : memref<8x8xf32>",
        "      %m = arith.mulf %a, %a : f32",
        "      affine.store %m, %B[%i, %j] : memref<8x8xf32>",
        "    }",
        "  }",
    ]
    if between == "write A":
        lines += [
            "  affine.for %i = 0 to 8 {",
            "    %d = affine.load %D[%i] : memref<8xf32>",
            "    affine.store %d, %A[%i, 3] : memref<8x8xf32>",
            "  }",
        ]
    elif between == "read B":
        lines += [
            "  affine.for %i = 0 to 8 {",
            "    %b = affine.load %B[%i, %i] : memref<8x8xf32>",
            "    affine.store %b, %D[%i] : memref<8xf32>",
            "  }",
        ]
    lines += ["  affine.for %i = 0 to 6 {", "    affine.for %j = 0 to 6 {"]
    for k, index in enumerate(reads):
        lines.append(f"      %r{k} = affine.load %B[{index}] : memref<8x8xf32>")
    total = "%r0"
    for k in range(1, len(reads)):
        lines.append(f"      %s{k} = arith.addf {total}, %r{k} : f32")
        total = f"%s{k}"
    lines.append(f"      affine.store {total}, %C[%i, %j] : memref<6x6xf32>")
    if writes_input:
        lines.append(f"      affine.store {total}, %A[%i + 1, %j] : memref<8x8xf32>")
    lines += ["    }", "  }"]
    if timed:
        lines = ["  affine.for %t = 0 to 2 {", *("  " + line for line in lines), "  }"]
    lines = [*head, *lines]
    if local:
        lines.append("  memref.dealloc %B : memref<8x8xf32>")
    lines += ["  return", "}"]
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chains(), st.sampled_from([0.3, 1000.0]), st.booleans())
def test_producer_consumer_chains_fuse_recomputing_to_the_same_results(
    text: str, tolerance: float, maximal: bool
) -> None:
    module = affine.parse(text, "chain.mlir")
    schedule = Schedule.of(module.functions()[0])
    for candidate in candidates(schedule, PRODUCER):
        for depth in (1, 2):
            fused = fuse_recomputing(module, schedule, candidate, depth)
            if isinstance(fused, str):
                continue
            verdict = affine.check_equivalent(module, fused[0])
            assert verdict, f"{verdict}\n{text}\n{affine.print_module(fused[0])}"
    result = transforms.fuse(module, maximal=maximal, compute_tolerance=tolerance)
    verdict = affine.check_equivalent(module, result.module)
    assert verdict, f"{verdict}\n{text}\n{affine.print_module(result.module)}"

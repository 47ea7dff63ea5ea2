"""Loop transformations over affine IR: legality checks, rewrites and passes.

From Python, each pass runs on a module and returns a new one (the input is untouched)
with the remarks it made::

    import affine, transforms
    module = affine.parse(open("gemm.mlir").read(), "gemm.mlir")
    result = transforms.tile(module)                 # the cache model's tile sizes
    result = transforms.tile(module, sizes=[32, 32]) # explicit sizes
    print(result.module); print(*result.remarks, sep="\\n")

Schedule-level operations: ``transforms.schedule_of(module, func=None)`` is a function's
schedule (:class:`poly.schedule.Schedule`: print, edit, check it), and
``transforms.apply_schedule(module, schedule_or_text)`` checks it and returns a new module
(or raises ``ScheduleError`` naming the dependence it would reverse)::

    s = transforms.schedule_of(module).skew("%j", {"%i": 1}).tile(["%i", "%j"], [32, 32])
    print(s, s.check())
    result = transforms.apply_schedule(module, s)

The checks (``check_tiling``, ``check_permutation``, ..., each next to its rewrite) and the
rewrites that assume legality (``tile_perfect_band`` with integer or SSA-value sizes,
``permute_loops``, ``skew``, ``unroll``, ``unroll_and_jam``, ``to_parallel``,
``distribute_band``, ``register_tile_band`` after ``plan_register_tile`` and
``check_register_tile``) are public too. Importing this package loads no
pass: passes and their dependencies (islpy) load on use.
"""

from __future__ import annotations

import html
import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from affine.ir.core import Module
from affine.syntax.highlight import mlir_diff_html, mlir_html
from affine.syntax.printer import print_module
from transforms import registry

_LAZY = {
    "check_tiling": "transforms.tiling",
    "check_permutation": "transforms.permutation",
    "check_unroll_and_jam": "transforms.unroll_jam",
    "check_parallel": "transforms.parallelization",
    "check_distribution": "transforms.distribute",
    "Verdict": "poly.legality",
    "tile_perfect_band": "transforms.tiling",
    "separate_full_tiles": "transforms.tiling",
    "permute_loops": "transforms.loop_utils",
    "permute_band": "transforms.loop_utils",
    "interchange_loops": "transforms.loop_utils",
    "get_perfect_band": "transforms.loop_utils",
    "get_tileable_bands": "transforms.loop_utils",
    "apply_to_clone": "transforms.loop_utils",
    "skew_band": "transforms.skewing",
    "unroll_loop": "transforms.unrolling",
    "unroll_full": "transforms.unrolling",
    "unroll_up_to": "transforms.unrolling",
    "unroll_and_jam_loop": "transforms.unroll_jam",
    "to_parallel": "transforms.parallelization",
    "distribute_band": "transforms.distribute",
    "RegisterTile": "transforms.register_tiling",
    "plan_register_tile": "transforms.register_tiling",
    "check_register_tile": "transforms.register_tiling",
    "register_tile_band": "transforms.register_tiling",
    "innermost_bands": "transforms.register_tiling",
    "check_data_copy": "transforms.data_copy",
    "plan_copies": "transforms.data_copy",
    "generate_copies": "transforms.data_copy",
    "check_transposed_copy": "transforms.transposed_copy",
    "check_expansion": "transforms.scalar_expansion",
    "plan_transposed_copies": "transforms.transposed_copy",
    "check_pipelining": "transforms.pipeline_transfer",
    "find_transfers": "transforms.pipeline_transfer",
    "pipeline_loop": "transforms.pipeline_transfer",
    "double_buffer": "transforms.pipeline_transfer",
    "TransformError": "transforms.errors",
    "PolyError": "affine.errors",
    "check_fusion": "transforms.fusion",
    "check_private_buffer": "transforms.fusion",
    "fuse_candidate": "transforms.fusion",
    "plan_block": "transforms.scalar_replacement",
    "nested_source": "transforms.scalar_replacement",
    "apply_plan": "transforms.scalar_replacement",
    "schedule_of": "transforms.schedule",
    "apply_schedule": "transforms.schedule",
    "Schedule": "poly.schedule",
    "auto_schedule": "transforms.auto_scheduler",
    "ScheduleError": "poly.schedule_program",
    "Explorer": "transforms.explorer",
    "tune": "transforms.tuner",
    "TuneResult": "transforms.tuner",
    "TuneError": "transforms.tuner",
    "TuneSpace": "transforms.tuner",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'transforms' has no attribute {name!r}")


@dataclass
class PassResult:
    """A transformed module and the remarks the pass made (one per band left alone); in
    Jupyter, the remarks and the diff of the MLIR from ``original`` (the input)."""

    module: Module
    remarks: list[str]
    original: Module | None = None

    def _repr_html_(self) -> str:
        remarks = "".join(f"<li><pre>{html.escape(r)}</pre></li>" for r in self.remarks)
        parts = [f"<b>{len(self.remarks)} remarks</b><ul>{remarks}</ul>"]
        after = print_module(self.module)
        if self.original is None:
            parts.append(mlir_html(after))
        else:
            parts.append(mlir_diff_html(print_module(self.original), after, ("input", "result")))
        return "".join(parts)


def run_pass(module: Module, name: str, **options: Any) -> PassResult:
    """Run the pass ``name`` (its poly-opt flag without dashes) with Python options
    (``tile_sizes=(32, 32)``); the input module is not modified."""

    entry = registry.lookup(name)
    if entry is None:
        raise KeyError(f"no pass named '{name}'")
    context = registry.PassContext(print_op_on_diagnostic=False)
    result = entry.load()(**options).run(module, context)
    return PassResult(result, [d.render() for d in context.diagnostics], module)


def tile(
    module: Module,
    sizes: Sequence[int] | None = None,
    cache_size: int = 512,
    separate: bool = False,
) -> PassResult:
    """``--affine-loop-tile``: explicit ``sizes``, or the cache model for ``cache_size`` KiB."""
    return run_pass(
        module,
        "affine-loop-tile",
        tile_sizes=tuple(sizes or ()),
        cache_size=cache_size,
        separate=separate,
    )


def permute(module: Module, permutation: Sequence[int]) -> PassResult:
    """``--test-loop-permutation``: ``permutation[i]`` is the new position of loop ``i``."""
    return run_pass(module, "test-loop-permutation", permutation_map=tuple(permutation))


def interchange(module: Module, permutation: Sequence[int] | None = None) -> PassResult:
    """``--affine-loop-interchange``: by ``permutation``, or for contiguous innermost access."""
    return run_pass(module, "affine-loop-interchange", permutation_map=tuple(permutation or ()))


def skew(module: Module, factors: Sequence[int]) -> PassResult:
    """``--affine-loop-skew``: innermost IV ``j + sum factors[k] * i_k``."""
    return run_pass(module, "affine-loop-skew", skew_factors=tuple(factors))


def unroll(module: Module, factor: int = 4, **options: Any) -> PassResult:
    """``--affine-loop-unroll`` (``factor=-1`` unrolls fully)."""
    return run_pass(module, "affine-loop-unroll", unroll_factor=factor, **options)


def unroll_and_jam(module: Module, factor: int = 4) -> PassResult:
    """``--affine-loop-unroll-jam`` where the dependences allow it."""
    return run_pass(module, "affine-loop-unroll-jam", unroll_jam_factor=factor)


def normalize_memrefs(module: Module) -> PassResult:
    """``--normalize-memrefs``: memrefs get the identity layout where that is sound."""
    return run_pass(module, "normalize-memrefs")


def parallelize(
    module: Module, reductions: bool = False, max_nested: int = 2**32 - 1
) -> PassResult:
    """``--affine-parallelize``: loops that carry no dependence become ``affine.parallel``."""
    return run_pass(
        module, "affine-parallelize", parallel_reductions=reductions, max_nested=max_nested
    )


def register_tile(
    module: Module,
    rows: int = 0,
    vectors: int = 0,
    vector_bits: int = 0,
    registers: int = 0,
    fma: bool = True,
    pack: bool = True,
    distribute: bool = True,
    cache_tiles: bool = False,
    l2: int = 0,
) -> PassResult:
    """``--affine-register-tile``: innermost bands as register tiles (rows unrolled, a
    stride-1 loop as vectors, accumulators in iter_args) where legal, with ``cache_tiles``
    beneath tiles of a matrix product's kind where they pay (``l2`` KiB); 0 takes a size
    from the machine."""
    return run_pass(
        module,
        "affine-register-tile",
        rows=rows,
        vectors=vectors,
        vector_bits=vector_bits,
        registers=registers,
        fma=fma,
        pack=pack,
        distribute=distribute,
        cache_tiles=cache_tiles,
        l2=l2,
    )


def pipeline_transfers(module: Module) -> PassResult:
    """``--affine-pipeline-data-transfer``: incoming DMAs double-buffered, started one
    iteration ahead, where legal."""
    return run_pass(module, "affine-pipeline-data-transfer")


def copy_data(module: Module, **options: Any) -> PassResult:
    """``--affine-data-copy-generate`` (``fast_mem_capacity`` KiB, ``fast_mem_space``,
    ``slow_mem_space``, ``generate_dma``, ``min_dma_transfer``,
    ``skip_non_unit_stride_loops``, ``tag_mem_space``)."""
    return run_pass(module, "affine-data-copy-generate", **options)


def expand_iter_args(module: Module) -> PassResult:
    """``--affine-expand-iter-args``: values carried in ``iter_args`` demoted to memory, one
    cell per instance of the loops around, so that schedules can move loops across them."""
    return run_pass(module, "affine-expand-iter-args")


def transpose_copy(module: Module, min_reuse: int = 16) -> PassResult:
    """``--affine-transpose-copy``: read-only arrays whose innermost reads move by rows
    read, in each outermost loop, from a copy with their dimensions reordered, where those
    reads run at least ``min_reuse`` times per element copied."""
    return run_pass(module, "affine-transpose-copy", min_reuse=min_reuse)


def fuse(
    module: Module,
    mode: str = "greedy",
    maximal: bool = False,
    compute_tolerance: float = 0.30,
    fast_mem_space: int = 0,
    local_buf_threshold: int = 0,
) -> PassResult:
    """``--affine-loop-fusion``: producer-consumer and sibling fusion where the function's
    fused schedule is legal; a remark for every candidate pair."""
    return run_pass(
        module,
        "affine-loop-fusion",
        mode=mode,
        maximal=maximal,
        compute_tolerance=compute_tolerance,
        fast_mem_space=fast_mem_space,
        local_buf_threshold=local_buf_threshold,
    )


def interleave_chains(
    module: Module, chains: int = 8, max_skew: int = 3, max_streams: int = 16
) -> PassResult:
    """``--affine-interleave-chains``: innermost loops that carry a chain (each iteration
    reads what one a few before wrote) run up to ``chains`` at a time, the enclosing loop
    jammed after the smallest legal skew (at most ``max_skew``), with fewer chains where
    their loops would walk more than ``max_streams`` address streams (0: no limit)."""
    return run_pass(
        module,
        "affine-interleave-chains",
        chains=chains,
        max_skew=max_skew,
        max_streams=max_streams,
    )


def scalar_replace(module: Module) -> PassResult:
    """``--affine-scalrep``: store-to-load forwarding, redundant loads and dead stores."""
    return run_pass(module, "affine-scalrep")

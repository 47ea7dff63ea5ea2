"""Every pass poly-opt knows, by flag name (imported lazily by :mod:`transforms.registry`)."""

from transforms.registry import register, register_action

register_action(
    "emit",
    "Print C99 for the module's public functions instead of MLIR (--emit=c)",
    "transforms.run_actions",
    "emit",
)
register_action(
    "run",
    "Run a function; print checksums and kernel time. Options (space-separated): entry=NAME "
    "backend=c|interp repeats=N timeout=SECONDS sizes=A=40x30,n=100 (shapes of ? sizes, scalar "
    "values) inputs=A=a.npy save=DIR [overwrite]; other inputs are generated in [1, 2)",
    "transforms.run_actions",
    "run",
)

register_action(
    "print-schedule",
    "Print each function's schedule: its 2d+1 map (--print-schedule) or its ISL tree (=tree)",
    "transforms.schedule",
    "print_schedule",
)
register(
    "affine-schedule",
    "Apply a checked schedule: a union map or ISL tree (file=PATH or schedule='...', func, separate, split, value-based)",
    "transforms.schedule",
    "AffineSchedule",
)

register(
    "test-memref-dependence-check",
    "Remark on every dependence between affine loads and stores (exact; mlir-opt's format)",
    "transforms.analysis_passes",
    "MemRefDependenceCheck",
)
register(
    "affine-check-bounds",
    "Prove every affine access inside its memref's shape, or name an instance that is not (remarks)",
    "transforms.analysis_passes",
    "CheckBounds",
)
register_action(
    "dependence-report",
    "Print the dependence graph and loop verdicts: --dependence-report=json|dot|text"
    "[,access|statement|nest[,value|memory]] (value-based or memory-based dependences; "
    "json: value-based, written a line at a time; dot: memory-based; text: both)",
    "transforms.analysis_passes",
    "dependence_report",
)

for _name, _module, _cls, _summary in (
    (
        "affine-loop-tile",
        "tiling",
        "LoopTile",
        "Tile loop bands where legal (tile-sizes, tile-size, cache-size KiB, separate)",
    ),
    (
        "test-loop-permutation",
        "permutation",
        "LoopPermutation",
        "Permute perfect loop nests where legal (permutation-map=...)",
    ),
    (
        "affine-loop-interchange",
        "permutation",
        "LoopInterchange",
        "Reorder loop bands for contiguous innermost accesses, or by permutation-map, where legal",
    ),
    (
        "affine-loop-skew",
        "skewing",
        "LoopSkew",
        "Skew the innermost loop of bands by the outer IVs (skew-factors=...)",
    ),
    (
        "affine-loop-unroll",
        "unrolling",
        "LoopUnroll",
        "Unroll innermost loops (unroll-factor, -1 for full, unroll-up-to-factor, unroll-full-threshold, unroll-num-reps, cleanup-unroll)",
    ),
    (
        "affine-loop-unroll-jam",
        "unroll_jam",
        "LoopUnrollAndJam",
        "Unroll and jam outermost loops where legal (unroll-jam-factor)",
    ),
    (
        "affine-register-tile",
        "register_tiling",
        "RegisterTilePass",
        "Register-tile and vectorise innermost bands where legal: rows unrolled, stride-1 loops as vectors, accumulators in iter_args (rows, vectors, vector-bits, registers, fma, pack, distribute, cache-tiles, l2)",
    ),
    (
        "normalize-memrefs",
        "memref_normalization",
        "NormalizeMemRefs",
        "Give memrefs the identity layout, rewriting their uses through the layout map",
    ),
    (
        "affine-data-copy-generate",
        "data_copy",
        "AffineDataCopyGenerate",
        "Copy the data loops touch into fast-memory buffers, by copy loops or DMA (fast-mem-capacity KiB, fast-mem-space, slow-mem-space, generate-dma, min-dma-transfer, skip-non-unit-stride-loops, tag-mem-space)",
    ),
    (
        "affine-expand-iter-args",
        "scalar_expansion",
        "ExpandIterArgs",
        "Demote values carried in iter_args to memory, one cell per instance of the loops around (scalar expansion), so that schedules can move loops across them",
    ),
    (
        "affine-transpose-copy",
        "transposed_copy",
        "AffineTransposeCopy",
        "Copy read-only arrays whose innermost reads move by rows, before each outermost loop, into buffers with their dimensions reordered so those reads are stride-1 (min-reuse)",
    ),
    (
        "affine-pipeline-data-transfer",
        "pipeline_transfer",
        "PipelineDataTransfer",
        "Double-buffer incoming DMAs of loops and start each one iteration ahead, where legal",
    ),
    (
        "affine-loop-fusion",
        "fusion",
        "LoopFusion",
        "Fuse producer-consumer and sibling loop nests where the function's fused schedule is legal (mode, maximal, compute-tolerance, fast-mem-space, local-buf-threshold)",
    ),
    (
        "affine-scalrep",
        "scalar_replacement",
        "ScalarReplacement",
        "Forward stored values to loads, remove redundant loads and dead stores where the accesses provably match",
    ),
    (
        "affine-parallelize",
        "parallelization",
        "Parallelize",
        "Turn loops that carry no dependence into affine.parallel (max-nested, parallel-reductions)",
    ),
    (
        "affine-interleave-chains",
        "unroll_jam",
        "InterleaveChains",
        "Run innermost loops that carry a chain several at a time: the enclosing loop unrolled and jammed after the smallest legal skew (chains, max-skew, max-streams)",
    ),
    (
        "affine-vector-sums",
        "vector_sums",
        "VectorSums",
        "Vectorise loops carrying two or more float sums of stride-1 loads, each sum's additions in the source's order (vector.reduction <add>, ordered; vector-bits)",
    ),
    (
        "affine-rotate-loads",
        "load_rotation",
        "RotateLoads",
        "Load each element of a row once in loops whose vector loads overlap (a stencil's neighbours): loads carried to the next iteration in iter_args and shuffled into place",
    ),
    (
        "affine-time-tile",
        "time_tiling",
        "TimeTile",
        "Tile a stencil's time loop with the outer space dimensions of its sweeps, skewed where needed (time-size, space-sizes, max-skew, l2 KiB, fuse: the sweeps of a step fused row by row)",
    ),
    (
        "affine-auto-schedule",
        "auto_scheduler",
        "AffineAutoSchedule",
        "Schedule from exact dependences (ISL), tile for the caches, keep what the model expects to pay (l1, l2, l3 KiB, l1-ways, vector-bits, parallel, report=text|json)",
    ),
):
    register(_name, _summary, f"transforms.{_module}", _cls)

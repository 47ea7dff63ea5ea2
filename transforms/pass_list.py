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
    'Run a function on deterministic inputs; print checksums and kernel time (--run="entry=NAME backend=c|interp repeats=N")',
    "transforms.run_actions",
    "run",
)

register(
    "test-memref-dependence-check",
    "Remark on every dependence between affine loads and stores (exact; mlir-opt's format)",
    "transforms.analysis_passes",
    "MemRefDependenceCheck",
)
register_action(
    "dependence-report",
    "Print the dependence graph and loop verdicts: --dependence-report=json|dot|text[,access|statement|nest]",
    "transforms.analysis_passes",
    "dependence_report",
)

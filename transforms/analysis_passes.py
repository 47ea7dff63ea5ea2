"""Passes that report analyses without changing the IR (mlir-opt's ``-test-*`` checks)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from affine.ir import Module
from transforms.registry import PassContext


@dataclass
class MemRefDependenceCheck:
    """``-test-memref-dependence-check``: one remark per ordered pair of ``affine.load`` /
    ``affine.store`` accesses and depth, worded and numbered as mlir-opt 22 does, decided
    exactly (see :mod:`poly.deps`). Undecided pairs say ``unknown`` with a warning."""

    name = "test-memref-dependence-check"

    def run(self, module: Module, context: PassContext) -> Module:
        from poly.deps import UNKNOWN, AnalysisWarning, DependenceAnalysis

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AnalysisWarning)
            analysis = DependenceAnalysis(module)
            for dep in analysis.all_checks():
                source = dep.source
                context.emit(
                    source.op,
                    "remark",
                    f"dependence from {source.number} to {dep.target.number} at depth "
                    f"{dep.depth} = {dep.remark_value()}",
                )
                if dep.status != UNKNOWN and dep.exists and not dep.exact:
                    reasons = "; ".join(dict.fromkeys(source.reasons + dep.target.reasons))
                    context.emit(
                        source.op,
                        "note",
                        f"over-approximated ({reasons}): the dependence may not exist",
                    )
                if dep.status == UNKNOWN:
                    context.emit(
                        source.op,
                        "warning",
                        f"dependence from {source.number} to {dep.target.number} could not "
                        f"be decided ({dep.reason}); it is assumed to exist",
                    )
        return module

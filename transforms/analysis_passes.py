"""Passes that report analyses without changing the IR (mlir-opt's ``-test-*`` checks)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

from affine.errors import PolyError
from affine.ir.core import Module
from poly.deps import DEFAULT_MAX_OPERATIONS, UNKNOWN, AnalysisWarning, DependenceAnalysis
from poly.flow import FlowAnalysis
from poly.graph import LEVELS, dependence_graph, report_json, report_text, to_dot
from transforms.registry import PassContext, PassOptions, option


@dataclass
class MemRefDependenceCheck(PassOptions):
    """``-test-memref-dependence-check``: one remark per ordered pair of ``affine.load`` /
    ``affine.store`` accesses and depth, worded and numbered as mlir-opt 22 does, decided
    exactly (see :mod:`poly.deps`). Undecided pairs say ``unknown`` with a warning."""

    name = "test-memref-dependence-check"
    max_operations: int = option(
        DEFAULT_MAX_OPERATIONS, minimum=1
    )  # per query, before answering "unknown"

    def run(self, module: Module, context: PassContext) -> Module:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", AnalysisWarning)
            analysis = DependenceAnalysis(module, max_operations=self.max_operations)
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


REPORT_FORMATS = ("json", "dot", "text")


def dependence_report(module: Module, value: str, context: PassContext) -> str:
    """``--dependence-report=FORMAT[,LEVEL]``: the dependence graph and loop verdicts as JSON
    (default), Graphviz DOT or text; LEVEL is ``access`` (default), ``statement`` or ``nest``."""

    fmt, _, level = (value or "json").partition(",")
    level = level or "access"
    if fmt not in REPORT_FORMATS or level not in LEVELS:
        raise PolyError(
            f"--dependence-report takes FORMAT[,LEVEL] with FORMAT in {', '.join(REPORT_FORMATS)} "
            f"and LEVEL in {', '.join(LEVELS)}; got '{value}'"
        )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AnalysisWarning)
        analysis = FlowAnalysis(module)
    for w in caught:
        context.emit(None, "warning", str(w.message))
    if fmt == "json":
        return report_json(analysis, level)
    if fmt == "dot":
        return to_dot(dependence_graph(analysis, level))
    return report_text(analysis, level)

"""Passes that report analyses without changing the IR (mlir-opt's ``-test-*`` checks)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from dataclasses import dataclass

from affine.errors import PolyError
from affine.ir.core import Module
from poly.bounds import OUT_OF_BOUNDS, check_bounds
from poly.deps import DEFAULT_MAX_OPERATIONS, UNKNOWN, AnalysisWarning, DependenceAnalysis
from poly.flow import FlowAnalysis
from poly.graph import LEVELS, dependence_graph, report_chunks, report_text, to_dot
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
        with warnings.catch_warnings(), context.reading_only():
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
REPORT_DEPENDENCES = ("value", "memory")


def dependence_report(module: Module, value: str, context: PassContext) -> Iterator[str]:
    """``--dependence-report=FORMAT[,LEVEL[,DEPENDENCES]]``: the dependence graph and loop
    verdicts as JSON (default; written a line at a time), Graphviz DOT or text; LEVEL is
    ``access`` (default), ``statement`` or ``nest``; DEPENDENCES is ``value`` (value-based,
    the default of JSON) or ``memory`` (memory-based, the default of DOT); text shows both
    unless one is named."""

    fmt, level, dependences, *rest = (value or "json").split(",") + ["", ""]
    level = level or "access"
    if (
        fmt not in REPORT_FORMATS
        or level not in LEVELS
        or dependences not in ("", *REPORT_DEPENDENCES)
        or any(rest)
    ):
        raise PolyError(
            f"--dependence-report takes FORMAT[,LEVEL[,DEPENDENCES]] with FORMAT in "
            f"{', '.join(REPORT_FORMATS)}, LEVEL in {', '.join(LEVELS)} and DEPENDENCES in "
            f"{', '.join(REPORT_DEPENDENCES)}; got '{value}'"
        )
    default = {"json": "value", "dot": "memory", "text": ""}[fmt]
    with_memory = (dependences or default) in ("memory", "")
    with_value = (dependences or default) in ("value", "")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", AnalysisWarning)
        analysis = FlowAnalysis(module, value_based=with_value, memory_based=with_memory)
        if fmt == "json":
            chunks = report_chunks(analysis, level, value_based=with_value)
        elif fmt == "dot":
            chunks = iter([to_dot(dependence_graph(analysis, level, value_based=with_value))])
        else:
            chunks = iter(
                [report_text(analysis, level, None if with_memory and with_value else with_value)]
            )
    for w in caught:
        context.emit(None, "warning", str(w.message))
    return chunks


@dataclass
class CheckBounds(PassOptions):
    """``--affine-check-bounds``: one remark per affine access (and ``memref.load``/``store``)
    saying whether ISL proves every instance inside the memref's shape; an access that may
    not is a warning with a witness instance, one that cannot be decided a remark saying why
    (see :mod:`poly.bounds`)."""

    name = "affine-check-bounds"

    def run(self, module: Module, context: PassContext) -> Module:
        for verdict in check_bounds(module):
            severity = "warning" if verdict.status == OUT_OF_BOUNDS else "remark"
            context.emit(verdict.op, severity, verdict.describe())
        return module

"""``-normalize-memrefs`` as mlir-opt names it: memrefs with a non-identity layout get the
identity layout, their uses rewritten through the layout map.

Invariant: the pass is the thin driver of :func:`poly.normalize_memrefs` (the rewrite of
:mod:`affine.analysis.layout` with ISL's exact bounds); a function it leaves alone, and every
function connected to it by calls, is reported by a remark at the function with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from affine.ir.core import Module
from poly import normalize_memrefs
from transforms.registry import PassContext

_LEFT_ALONE = " is left alone: "


@dataclass
class NormalizeMemRefs:
    """``-normalize-memrefs``: every memref whose layout can be normalised soundly gets the
    identity layout (allocations, arguments and results, calls, loads and stores)."""

    name = "normalize-memrefs"

    def run(self, module: Module, context: PassContext) -> Module:
        remarks: list[str] = []
        result = normalize_memrefs(module, remarks)
        for remark in remarks:
            name, _, reason = remark.partition(_LEFT_ALONE)
            function = result.function(name.removeprefix("@"))
            context.emit(function, "remark", f"memrefs not normalized: {reason}")
        return result

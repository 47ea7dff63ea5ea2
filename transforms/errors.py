"""Errors raised by loop transformations."""

from __future__ import annotations

from affine.ir.diagnostics import DiagnosticError


class TransformError(DiagnosticError):
    """A rewrite cannot handle the shape it was given; the message says why, the location is
    the op's.  The IR is left untouched: rewrites check every condition before changing it."""

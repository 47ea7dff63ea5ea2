"""The pass registry: kebab-case names (mlir-opt's where it has one), typed options, lazy import.

A pass is a class with a ``name`` class attribute, typed dataclass fields for its options
and a ``run(module, context) -> Module`` method that returns a new module (the input is
not modified).  The registry records where each pass lives so that listing passes
(``poly-opt --help``) or running one does not import the others (or islpy) needlessly.
"""

from __future__ import annotations

import dataclasses
import importlib
from dataclasses import dataclass, field
from typing import Any

from affine.errors import PolyError
from affine.ir.core import Operation
from affine.ir.diagnostics import Diagnostic
from affine.syntax.printer import print_operation_in_context


class PassOptionError(PolyError):
    """A malformed pass name or option on the command line."""


@dataclass(frozen=True)
class PassEntry:
    name: str
    summary: str
    module: str  # "transforms.tiling"
    attr: str  # "LoopTilingPass"

    def load(self) -> type:
        return getattr(importlib.import_module(self.module), self.attr)


_PASSES: dict[str, PassEntry] = {}
_ACTIONS: dict[str, PassEntry] = {}


def register(name: str, summary: str, module: str, attr: str) -> None:
    """Register a pass class (``run(module, context) -> Module``)."""
    _PASSES[name] = PassEntry(name, summary, module, attr)


def register_action(name: str, summary: str, module: str, attr: str) -> None:
    """Register a command-line action: a function ``(module, value, context) -> str | None``
    run after the passes.  It may add diagnostics to the context; a returned string is
    printed instead of the module (``--emit=c``), None prints the module as usual."""
    _ACTIONS[name] = PassEntry(name, summary, module, attr)


def lookup_action(name: str) -> PassEntry | None:
    _ensure_registered()
    return _ACTIONS.get(name)


def all_actions() -> list[PassEntry]:
    _ensure_registered()
    return sorted(_ACTIONS.values(), key=lambda e: e.name)


def lookup(name: str) -> PassEntry | None:
    _ensure_registered()
    return _PASSES.get(name)


def all_passes() -> list[PassEntry]:
    _ensure_registered()
    return sorted(_PASSES.values(), key=lambda e: e.name)


_registered = False


def _ensure_registered() -> None:
    global _registered
    if not _registered:
        _registered = True
        importlib.import_module("transforms.pass_list")


@dataclass
class PassContext:
    """What a pass may report while running: remarks and warnings, printed by the CLI."""

    filename: str = "<input>"
    diagnostics: list[Diagnostic] = field(default_factory=list)
    print_op_on_diagnostic: bool = True  # mlir-opt's --mlir-print-op-on-diagnostic
    multithreading: bool = True  # cleared by --mlir-disable-threading: kernels use one thread

    def emit(self, op: Operation | None, severity: str, message: str) -> None:
        """Report ``message`` at ``op`` (mlir-opt then shows the op in a note)."""
        op_text = None
        if op is not None and self.print_op_on_diagnostic:
            op_text = print_operation_in_context(op)
        location = op.loc if op is not None else None
        self.diagnostics.append(Diagnostic(severity, message, location, op_text))


def parse_options(pass_cls: type, text: str) -> Any:
    """Build a pass from mlir-opt style options: ``tile-sizes=32,32 separate``."""
    fields = {f.name.replace("_", "-"): f for f in dataclasses.fields(pass_cls)}
    values: dict[str, Any] = {}
    for item in _split_options(text):
        key, _, raw = item.partition("=")
        f = fields.get(key)
        if f is None:
            known = ", ".join(sorted(fields)) or "none"
            raise PassOptionError(
                f"no such option '{key}' for pass '{pass_cls.name}' (options: {known})"
            )
        values[f.name] = _convert(f, raw, "=" in item, pass_cls.name)
    return pass_cls(**values)


def _split_options(text: str) -> list[str]:
    text = text.strip()
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1]
    return [part for part in text.replace("\t", " ").split(" ") if part]


def _convert(f: dataclasses.Field, raw: str, has_value: bool, pass_name: str) -> Any:
    kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
    try:
        if kind == "bool":
            if not has_value:
                return True
            if raw.lower() in ("1", "true"):
                return True
            if raw.lower() in ("0", "false"):
                return False
            raise ValueError(raw)
        if not has_value:
            raise ValueError("missing value")
        if kind == "int":
            return int(raw, 0)
        if kind == "float":
            return float(raw)
        if kind.startswith("tuple[int") or kind.startswith("list[int"):
            return tuple(int(x, 0) for x in raw.split(",") if x)
        if kind.startswith("tuple[str") or kind.startswith("list[str"):
            return tuple(x for x in raw.split(",") if x)
        return raw
    except ValueError:
        raise PassOptionError(
            f"invalid value '{raw}' for option '{f.name.replace('_', '-')}' of pass '{pass_name}'"
        ) from None

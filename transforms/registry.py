"""The pass registry: kebab-case names (mlir-opt's where it has one), typed options, lazy import.

A pass is a class with a ``name`` class attribute, typed dataclass fields for its options
and a ``run(module, context) -> Module`` method that returns a new module (the input is
not modified).  The registry records where each pass lives so that listing passes
(``poly-opt --help``) or running one does not import the others (or islpy) needlessly.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeVar

from affine.errors import PolyError
from affine.ir.core import Module, Operation
from affine.ir.diagnostics import Diagnostic, Location
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
    """Register a command-line action: a function ``(module, value, context) -> str |
    Iterable[str] | None`` run after the passes.  It may add diagnostics to the context; a
    returned string is printed instead of the module (``--emit=c``), strings one after the
    other as they come (a report written as it is made), None prints the module as usual."""
    _ACTIONS[name] = PassEntry(name, summary, module, attr)


def lookup_action(name: str) -> PassEntry | None:
    return _loaded(_ACTIONS).get(name)


def all_actions() -> list[PassEntry]:
    return sorted(_loaded(_ACTIONS).values(), key=lambda e: e.name)


def lookup(name: str) -> PassEntry | None:
    return _loaded(_PASSES).get(name)


def all_passes() -> list[PassEntry]:
    return sorted(_loaded(_PASSES).values(), key=lambda e: e.name)


def _loaded(table: dict[str, PassEntry]) -> dict[str, PassEntry]:
    """``table`` once every pass module has registered its entries."""
    _ensure_registered()
    return table


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
    _names: dict[tuple[int, bool], Any] | None = field(default=None, init=False, repr=False)

    @contextmanager
    def reading_only(self) -> Iterator[None]:
        """While the IR does not change, each function's values are numbered once for all the
        ops shown with the diagnostics (not once per diagnostic)."""
        self._names = {}
        try:
            yield
        finally:
            self._names = None

    def emit(
        self, op: Operation | None, severity: str, message: str, at: Location | None = None
    ) -> None:
        """Report ``message`` at ``op`` (mlir-opt then shows the op in a note), or at ``at``
        (an op that is no longer in the IR)."""
        op_text = None
        if op is not None and self.print_op_on_diagnostic:
            op_text = print_operation_in_context(op, names=self._names)
        location = op.loc if op is not None else at
        self.diagnostics.append(Diagnostic(severity, message, location, op_text))


@dataclass(frozen=True)
class OptionSpec:
    """What a pass option accepts beyond its type (every integer of a list alike):
    ``minimum``..``maximum``, or one of ``special`` (``-1``: unroll fully); a list that is
    ``non_empty``, or a ``permutation`` of 0..n-1; a string among ``choices``. The field's
    default always passes: it means "not given"."""

    minimum: int | None = None
    maximum: int | None = None
    special: tuple[int, ...] = ()
    non_empty: bool = False
    permutation: bool = False
    choices: tuple[str, ...] = ()


def option(
    default: Any,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    special: tuple[int, ...] = (),
    non_empty: bool = False,
    permutation: bool = False,
    choices: tuple[str, ...] = (),
) -> Any:
    """A pass option field with what it accepts (checked by :class:`PassOptions`)."""
    spec = OptionSpec(minimum, maximum, special, non_empty, permutation, choices)
    return field(default=default, metadata={"option": spec})


class PassOptions:
    """Base of pass (and action) option classes: every option value is checked when the
    object is built, whether from the command line, a pass pipeline or Python."""

    name: ClassVar[str]

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):  # type: ignore[arg-type]  # subclasses are dataclasses
            value = getattr(self, f.name)
            if isinstance(value, list):
                value = tuple(value)
                setattr(self, f.name, value)
            if value is f.default or value == f.default:
                continue
            if not _accepts(_kind(f), f.metadata.get("option", OptionSpec()), value):
                shown = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
                raise _invalid(f, shown, self.name)


def _kind(f: dataclasses.Field) -> str:
    """The field's type as written (``int``, ``tuple[int, ...]``, ...)."""
    return f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _accepts(kind: str, spec: OptionSpec, value: object) -> bool:
    """Does ``value`` have the field's type and fit ``spec``?"""

    def fits(number: object) -> bool:
        if not _is_int(number):
            return False
        assert isinstance(number, int)
        if number in spec.special:
            return True
        low = spec.minimum is None or number >= spec.minimum
        return low and (spec.maximum is None or number <= spec.maximum)

    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return fits(value)
    if kind == "float":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind.startswith("tuple[int"):
        if not isinstance(value, tuple) or not all(fits(x) for x in value):
            return False
        if spec.permutation and sorted(value) != list(range(len(value))):
            return False
        return bool(value) or not spec.non_empty
    if kind == "str":
        return isinstance(value, str) and (not spec.choices or value in spec.choices)
    return True


def accepted_values(f: dataclasses.Field) -> str:
    """What option ``f`` accepts, in words (for errors and ``--help``)."""
    kind = _kind(f)
    spec: OptionSpec = f.metadata.get("option", OptionSpec())
    if kind == "bool":
        return "0 or 1 (false or true)"
    if kind == "float":
        return "a number"
    if kind == "str":
        return f"one of {', '.join(spec.choices)}" if spec.choices else "a string"
    if spec.minimum is not None and spec.maximum is not None:
        integer = f"integer from {spec.minimum} to {spec.maximum}"
    elif spec.minimum is not None:
        integer = f"integer >= {spec.minimum}"
    elif spec.maximum is not None:
        integer = f"integer <= {spec.maximum}"
    else:
        integer = "integer"
    if spec.special:
        integer += " or " + " or ".join(map(str, spec.special))
    if spec.permutation:
        return "a permutation of 0..n-1 (each position once, comma-separated)"
    if kind.startswith("tuple[int"):
        some = "a non-empty" if spec.non_empty else "a"
        return f"{some} comma-separated list of {integer.replace('integer', 'integers', 1)}"
    return f"an {integer}"


def _invalid(f: dataclasses.Field, raw: str, pass_name: str) -> PassOptionError:
    flag = f.name.replace("_", "-")
    if _kind(f) == "bool":
        what = f"'{raw}' is invalid value for boolean argument! Try 0 or 1"
    else:
        what = f"'{raw}' value invalid; expected {accepted_values(f)}"
    return PassOptionError(f"for the --{flag} option of --{pass_name}: {what}")


def parse_bool(raw: str, has_value: bool = True) -> bool | None:
    """mlir-opt's boolean option values (none, ``1``/``0``, ``true``/``false``); None for
    anything else."""
    if not has_value:
        return True
    return {"1": True, "true": True, "0": False, "false": False}.get(raw.lower())


class Configurable(Protocol):
    """A pass or action option class: a dataclass whose ``name`` is its flag."""

    name: ClassVar[str]
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]


ConfigurableT = TypeVar("ConfigurableT", bound=Configurable)


class Pass(Configurable, Protocol):
    """A pass: its options, and ``run`` returning a new module (the input is left as it is)."""

    def run(self, module: Module, context: PassContext) -> Module: ...


def parse_options(pass_cls: type[ConfigurableT], text: str) -> ConfigurableT:
    """Build a pass from mlir-opt style options (``tile-sizes=32,32 separate``); every value
    is converted and checked here (:class:`PassOptions`), before anything runs."""
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
    """``a=1 b='x y' c={p q}`` -> ``["a=1", "b=x y", "c={p q}"]``: items are separated by
    blanks outside quotes and brackets (as mlir-opt's option parser does); a value in
    quotes loses them."""
    text = text.strip()
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1]
    items: list[str] = []
    current: list[str] = []
    quote = ""
    depth = 0
    for ch in text + " ":
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch in "{[(":
            depth += 1
        elif ch in "}])":
            depth -= 1
        elif ch in " \t" and depth <= 0:
            if current:
                items.append(_unquoted("".join(current)))
            current = []
            continue
        current.append(ch)
    return items


def _unquoted(item: str) -> str:
    key, eq, value = item.partition("=")
    if eq and len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return f"{key}={value[1:-1]}"
    return item


def _integer(text: str) -> int:
    """A decimal integer (leading zeros allowed) or one with a ``0x``/``0o``/``0b`` prefix."""
    try:
        return int(text, 10)
    except ValueError:
        return int(text, 0)


def _convert(f: dataclasses.Field, raw: str, has_value: bool, pass_name: str) -> Any:
    """The typed value of option text ``raw`` (range checks come later)."""
    kind = _kind(f)
    if kind == "bool":
        flag = parse_bool(raw, has_value)
        if flag is None:
            raise _invalid(f, raw, pass_name)
        return flag
    if not has_value:
        flag_name = f.name.replace("_", "-")
        raise PassOptionError(f"for the --{flag_name} option of --{pass_name}: requires a value!")
    try:
        if kind == "int":
            return _integer(raw)
        if kind == "float":
            return float(raw)
        if kind.startswith("tuple[int"):
            return tuple(_integer(x) for x in raw.split(",")) if raw else ()
        if kind.startswith("tuple[str"):
            return tuple(raw.split(",")) if raw else ()
        return raw
    except ValueError:
        raise _invalid(f, raw, pass_name) from None

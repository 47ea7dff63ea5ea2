"""Schedules as values: the order of a whole function, printed, edited, checked and applied.

A :class:`Schedule` is immutable: the function's statements (:mod:`poly.schedule_program`:
which ops make a statement, their instances, accesses and dependences) and a tree that
orders their instances (:mod:`poly.schedule_tree`). Every edit returns a new schedule (the
statements and their dependences are shared, so checking many candidates is cheap) and
records itself in a history that prints as Python calls and replays on another schedule of
the same function::

    s = Schedule.of(function)
    print(s)                            # { S0[t, i, j] -> [0, t, 0, i, 0, j, 0] }
    t = s.skew("%i", {"%t": 1}).skew("%j", {"%t": 1}).tile(["%t", "%i", "%j"], [8, 8, 8])
    verdict = t.check()                 # legal / illegal (which dependence, a witness) / unknown
    module = t.apply()                  # a new module; the input is untouched
    print(t.history_text())             # skew('%i', {'%t': 1}) ...

Loops are named by their IV as written in the source (``%i``), generated loops by derived
names (``%i.tile``, ``%i.point``, :mod:`poly.schedule_edits`); statements are ``S0, S1,
...``; parameters carry the source's names (``N`` for ``%N``). A schedule given as text or
as an islpy object (a union map in any form, 2d+1 or not, or a schedule tree) may come from
any islpy context: it is read again from its text, statements matched by name.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import islpy as isl

from affine.ir.core import Module, Operation, Value
from poly import schedule_edits as edits
from poly.context import isl_context
from poly.deps import DEFAULT_MAX_OPERATIONS
from poly.schedule_apply import TileHook, apply
from poly.schedule_check import ILLEGAL, ScheduleVerdict, check, members_to
from poly.schedule_program import Program, ScheduleError, Statement
from poly.schedule_tree import (
    Node,
    flat_maps,
    from_isl,
    from_map,
    from_program,
    member_names,
    to_isl,
)
from poly.space import param_names, read_user_text

Literal = str | int | bool | None | list | dict | tuple

# A whole schedule as a user gives it: a union map (any form) or a schedule tree, as text or
# as an islpy object of any context.
ScheduleText = str | isl.UnionMap | isl.Map | isl.Schedule


@dataclass(frozen=True)
class Edit:
    """One recorded edit: a :class:`Schedule` method and its (literal) arguments."""

    name: str
    args: tuple[Literal, ...]
    kwargs: tuple[tuple[str, Literal], ...] = ()

    def __str__(self) -> str:
        parts = [repr(a) for a in self.args] + [f"{k}={v!r}" for k, v in self.kwargs]
        return f"{self.name}({', '.join(parts)})"


def _value_name(value: Value) -> str:
    if value.name is None:
        raise ScheduleError("an SSA value without a name cannot be recorded")
    return value.name


def _literal(value: object) -> Literal:
    """A printable, replayable form of an edit argument (ISL objects by their text, SSA
    values by their name)."""
    if isinstance(value, Value):
        return _value_name(value)
    if isinstance(value, (isl.UnionMap, isl.Map, isl.Schedule, isl.BasicMap)):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): _literal(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_literal(v) for v in value]
    if value is None or isinstance(value, (str, int)):  # bool is an int
        return value
    raise ScheduleError(f"an edit argument of type {type(value).__name__} cannot be recorded")


class Schedule:
    """The schedule of one function (see the module docstring)."""

    __slots__ = ("_checks", "_maps", "history", "program", "root")

    def __init__(self, program: Program, root: Node, history: tuple[Edit, ...] = ()) -> None:
        self.program = program
        self.root = root
        self.history = history
        self._maps: dict[str, isl.Map] | None = None
        self._checks: dict[tuple[bool, int], ScheduleVerdict] = {}

    @classmethod
    def of(cls, function: Operation) -> Schedule:
        """The source's schedule of ``function`` (any function-like op with a body)."""
        program = Program(function)
        return cls(program, from_program(program))

    def _edited(self, root: Node, name: str, *args: object, **kwargs: object) -> Schedule:
        edit = Edit(
            name,
            tuple(_literal(a) for a in args),
            tuple((k, _literal(v)) for k, v in kwargs.items() if v is not None),
        )
        return Schedule(self.program, root, (*self.history, edit))

    # -- views -------------------------------------------------------------------------------
    @property
    def function(self) -> Operation:
        return self.program.function

    @property
    def statements(self) -> tuple[Statement, ...]:
        return self.program.statements

    @property
    def loops(self) -> list[str]:
        """The loop names, outermost first in tree order."""
        return member_names(self.root)

    def loops_of(self, statement: str) -> list[str]:
        """The loops around ``statement`` (``S0``), outermost first."""
        return [m.name for m in members_to(self.root, self.program.statement(statement))]

    @property
    def maps(self) -> dict[str, isl.Map]:
        """Each statement's 2d+1 map: a constant (the position in a sequence, else 0)
        before every loop dimension and at the end, padded with zeros to one width."""
        if self._maps is None:
            self._maps = flat_maps(self.root, self.program)
        return self._maps

    @property
    def map(self) -> isl.UnionMap:
        """The 2d+1 map of all statements (:attr:`maps`)."""
        result = isl.UnionMap.empty(isl.Space.params_alloc(isl_context(), 0))
        for m in self.maps.values():
            result = result.union(isl.UnionMap.from_map(m))
        return result

    def tree(self) -> isl.Schedule:
        """ISL's schedule tree over the statements' instances (parallel loops coincident,
        parametric tiles marked)."""
        return to_isl(self.root, self.program.domain)

    def __str__(self) -> str:
        """The 2d+1 map in ISL's syntax, statements in order."""
        return map_text(self.maps, self.program.statements)

    def __repr__(self) -> str:
        name = self.function.properties.get("sym_name")
        return f"<Schedule of @{getattr(name, 'value', '?')}: {self}>"

    def _repr_html_(self) -> str:
        """Statements, map, tree and a picture (Jupyter's rich display)."""
        from poly import display  # lazy: start-up cost (matplotlib, for pictures)

        return display.schedule_html(self)

    def tree_text(self) -> str:
        """The schedule tree in ISL's YAML (block style), which :meth:`replace` reads."""
        printer = isl.Printer.to_str(isl_context()).set_yaml_style(isl.yaml_style.BLOCK)
        return printer.print_schedule(self.tree()).get_str()

    def describe(self) -> str:
        """The statements (ops, loops, memrefs, source lines) and the schedule."""
        lines = [s.describe() for s in self.statements]
        return "\n".join([*lines, f"schedule: {self}"])

    def history_text(self) -> str:
        return "\n".join(str(e) for e in self.history)

    # -- edits ---------------------------------------------------------------------------------
    def interchange(self, a: str, b: str) -> Schedule:
        """Swap two loops of a perfect nest."""
        return self._edited(edits.interchange(self.root, self.program, a, b), "interchange", a, b)

    def permute(self, order: Sequence[str]) -> Schedule:
        """Run the perfectly nested loops ``order`` in that order, outermost first."""
        return self._edited(edits.permute(self.root, self.program, order), "permute", order)

    def skew(self, loop: str, by: Mapping[str, int]) -> Schedule:
        """``loop`` plus ``factor`` times each loop around it named in ``by``."""
        return self._edited(edits.skew(self.root, self.program, loop, by), "skew", loop, by)

    def reverse(self, loop: str) -> Schedule:
        return self._edited(edits.reverse(self.root, self.program, loop), "reverse", loop)

    def shift(self, loop: str, amount: int, statements: Sequence[str] | None = None) -> Schedule:
        """``loop`` plus ``amount`` for ``statements`` (all inside it by default)."""
        root = edits.shift(self.root, self.program, loop, amount, statements)
        return self._edited(root, "shift", loop, amount, statements=statements)

    def scale(self, loop: str, factor: int) -> Schedule:
        return self._edited(
            edits.scale(self.root, self.program, loop, factor), "scale", loop, factor
        )

    def strip_mine(self, loop: str, size: int) -> Schedule:
        """``loop`` becomes ``loop.tile`` (by ``size``) around ``loop.point``."""
        root = edits.strip_mine(self.root, self.program, loop, size)
        return self._edited(root, "strip_mine", loop, size)

    def tile(self, loops: Sequence[str], sizes: Sequence[int | str | Value]) -> Schedule:
        """Rectangular tiles of perfectly nested ``loops``: integer sizes, or SSA values
        (or their names, ``"%T"``) for parametric tiles."""
        names = [_value_name(s) if isinstance(s, Value) else s for s in sizes]
        root = edits.tile(self.root, self.program, loops, names)
        return self._edited(root, "tile", loops, names)

    def wavefront(self, loops: Sequence[str]) -> Schedule:
        root = edits.wavefront(self.root, self.program, loops)
        return self._edited(root, "wavefront", loops)

    def fuse(self, a: str, b: str) -> Schedule:
        """Fuse the sibling nests of loops ``a`` and ``b`` into one loop ``a``."""
        return self._edited(edits.fuse(self.root, self.program, a, b), "fuse", a, b)

    def distribute(self, loop: str, groups: Sequence[Sequence[str]] | None = None) -> Schedule:
        """One nest per group of statements from ``loop`` inward."""
        root = edits.distribute(self.root, self.program, loop, groups)
        return self._edited(root, "distribute", loop, groups=groups)

    def parallel(self, loop: str, on: bool = True) -> Schedule:
        """Mark ``loop`` parallel (checked by :meth:`check`; ``affine.parallel`` in code)."""
        root = edits.parallel(self.root, self.program, loop, on)
        return self._edited(root, "parallel", loop, on=None if on else on)

    def replace(self, schedule: ScheduleText) -> Schedule:
        """The whole schedule given as a map (any form) or a schedule tree, as text or as
        an islpy object from any context."""
        obj = read_schedule(schedule, self.program)
        root = (
            from_isl(obj, self.program)
            if isinstance(obj, isl.Schedule)
            else from_map(obj, self.program)
        )
        return self._edited(root, "replace", schedule)

    def replace_band(self, loop: str, schedule: str | isl.UnionMap | isl.Map) -> Schedule:
        """The band holding ``loop`` replaced by the dimensions of a map on its statements."""
        obj = read_schedule(schedule, self.program)
        if isinstance(obj, isl.Schedule):
            raise ScheduleError("a band is replaced by a map, not a tree", self.function.loc)
        root = edits.replace_band(self.root, self.program, loop, obj)
        return self._edited(root, "replace_band", loop, schedule)

    def neighbours(
        self,
        sizes: Sequence[int] = (32,),
        factors: Sequence[int] = (1, -1),
        shifts: Sequence[int] = (),
    ) -> list[Edit]:
        """The single edits that fit this schedule's shape (not all legal: :meth:`check`
        them), for searches and tuners; :meth:`replay` applies one
        (:func:`poly.schedule_edits.neighbours` lists which)."""
        return [
            Edit(name, tuple(_literal(a) for a in args))
            for name, args in edits.neighbours(self.root, sizes, factors, shifts)
        ]

    def replay(self, history: str | Sequence[Edit]) -> Schedule:
        """This schedule with the edits of ``history`` (:meth:`history_text` or edits)."""
        result = self
        for edit in _parse_history(history) if isinstance(history, str) else history:
            if edit.name not in _EDITS:
                raise ScheduleError(f"'{edit.name}' is not a schedule edit", self.function.loc)
            result = getattr(result, edit.name)(*edit.args, **dict(edit.kwargs))
        return result

    # -- legality and code ----------------------------------------------------------------------
    def check(
        self, value_based: bool = False, max_operations: int = DEFAULT_MAX_OPERATIONS
    ) -> ScheduleVerdict:
        """Legal, illegal (the dependence, a witness pair) or unknown (why); see
        :mod:`poly.schedule_check`."""
        key = (value_based, max_operations)
        if key not in self._checks:
            self._checks[key] = check(self.root, self.program, value_based, max_operations)
        return self._checks[key]

    def apply(
        self,
        separate: bool = False,
        tile_parametric: TileHook | None = None,
        value_based: bool = False,
        checked: bool = True,
        split: bool = False,
    ) -> Module:
        """A new module running this schedule; the function's module is untouched.

        A schedule that :meth:`check` (memory-based dependences, or ``value_based``) does
        not find legal raises :class:`ScheduleError` naming the dependence, at the access
        it would read or write too early; ``checked=False`` skips the check (for a caller
        that wants the code of an illegal schedule). ``separate`` runs full tiles apart;
        bands tiled with SSA sizes need ``tile_parametric`` (``transforms.apply_schedule``
        passes the parametric tiling rewrite); ``split`` splits loops where the statements they
        run change, so that no guard is left inside a loop (:func:`poly.schedule_apply.apply`)."""
        if checked:
            verdict = self.check(value_based=value_based)
            if not verdict:
                where = self.function.loc
                if verdict.status == ILLEGAL and verdict.violation is not None:
                    where = verdict.violation.dependence.target_op.loc
                name = getattr(self.function.properties.get("sym_name"), "value", "?")
                raise ScheduleError(
                    f"{verdict.status} schedule for @{name}: {verdict.reason}", where
                )
        return apply(self.root, self.program, separate, tile_parametric, split)


_EDITS = frozenset(
    "interchange permute skew reverse shift scale strip_mine tile wavefront fuse distribute "
    "parallel replace replace_band".split()
)


def _parse_history(text: str) -> list[Edit]:
    result = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        try:
            call = ast.parse(line, mode="eval").body
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
                raise ValueError("not a call")
            args = tuple(ast.literal_eval(a) for a in call.args)
            kwargs = tuple((k.arg, ast.literal_eval(k.value)) for k in call.keywords if k.arg)
        except (SyntaxError, ValueError) as e:
            raise ScheduleError(f"history line {number} is not an edit call: {line} ({e})") from e
        result.append(Edit(call.func.id, args, kwargs))
    return result


def read_schedule(schedule: ScheduleText, program: Program) -> isl.UnionMap | isl.Schedule:
    """A schedule read (again) in the toolkit's context: a schedule tree when the text is
    one (``domain: ...`` or ``{ domain: ...``), a union map otherwise; its parameters must
    be the program's."""
    text = str(schedule).strip()
    is_tree = text.startswith("domain") or text.replace(" ", "").startswith("{domain")
    obj: isl.UnionMap | isl.Schedule
    try:
        obj = read_user_text(isl.Schedule, text) if is_tree else read_user_text(isl.UnionMap, text)
    except isl.Error as e:
        what = "a schedule tree" if is_tree else "a union map such as { S0[i, j] -> [j, i] }"
        message = str(e).split(" in /")[0]  # without isl's source position
        raise ScheduleError(
            f"cannot read the schedule as {what} (isl: {message})", program.function.loc
        ) from e
    space_of = obj.get_domain() if isinstance(obj, isl.Schedule) else obj
    unknown = [p for p in param_names(space_of.get_space()) if p not in program.params]
    if unknown:
        known = ", ".join(program.params) or "none"
        raise ScheduleError(
            f"the schedule uses parameter {', '.join(unknown)}, which the function does not "
            f"have (parameters: {known})",
            program.function.loc,
        )
    return obj


def map_text(maps: Mapping[str, isl.Map], statements: Sequence[Statement]) -> str:
    """Statement maps as one union map in ISL's syntax, statements in the given order."""
    prefix, bodies = "", []
    for s in statements:
        found = maps.get(s.name)
        if found is None or found.is_empty():
            continue
        prefix, _, rest = str(found).partition("{")
        bodies.append(rest.rsplit("}", 1)[0].strip())
    return f"{prefix}{{ {'; '.join(bodies)} }}"

"""Schedule-level operations on modules: a function's schedule, and a schedule applied.

``schedule_of(module, func=None)`` gives the :class:`poly.schedule.Schedule` of a function
(the source's order, to edit, check and print); ``apply_schedule(module, schedule)`` checks
a schedule (a :class:`~poly.schedule.Schedule`, or a map or tree as text or islpy object)
and returns a new module running it, or raises :class:`~poly.schedule_program.ScheduleError`
naming the dependence it would reverse. Bands tiled with SSA-value sizes are tiled by
:func:`transforms.tiling.tile_perfect_band` once the loops are generated.

On the command line (``poly-opt``)::

    --print-schedule          each function's 2d+1 map, after a '// @name' line, on stdout
    --print-schedule=tree     each function's schedule tree in ISL's YAML
    --affine-schedule="file=PATH"                  apply the schedule(s) of a file
    --affine-schedule="schedule='{ S0[i, j] -> [j, i] }' func=f separate split value-based"

A schedule file holds one map or tree, or several after ``// @name`` lines (what
``--print-schedule`` prints). An illegal schedule is an error at the access whose
dependence it reverses; nothing is written then.
"""

from __future__ import annotations

from dataclasses import dataclass

from affine.errors import PolyError
from affine.ir.core import Module, Operation, Value
from affine.ir.diagnostics import Diagnostic, Location
from poly.schedule import Schedule, ScheduleText
from poly.schedule_program import ScheduleError
from transforms.errors import TransformError
from transforms.registry import PassContext
from transforms.tiling import tile_perfect_band


def function_of(module: Module, func: str | None = None) -> Operation:
    """The function named ``func``, or the module's only function with a body."""
    if func:
        try:
            return module.function(func.lstrip("@"))
        except KeyError:
            raise ScheduleError(f"no function named @{func.lstrip('@')}", _top(module)) from None
    bodies = _functions(module)
    if len(bodies) != 1:
        names = ", ".join(_name(f) for f in bodies) or "none"
        raise ScheduleError(
            f"the module has {len(bodies)} functions with a body ({names}): name one (func=NAME)",
            _top(module),
        )
    return bodies[0]


def _top(module: Module) -> Location | None:
    """Where errors about the module as a whole are reported: the module, or its first op."""
    if module.operation.loc is not None:
        return module.operation.loc
    return next((op.loc for op in module.ops if op.loc is not None), None)


def _functions(module: Module) -> list[Operation]:
    return [f for f in module.functions() if f.regions and f.regions[0].blocks]


def _name(function: Operation) -> str:
    name = function.properties.get("sym_name")
    return "@" + str(getattr(name, "value", "?"))


def schedule_of(module: Module, func: str | None = None) -> Schedule:
    """The source's schedule of a function of ``module``."""
    return Schedule.of(function_of(module, func))


def tile_parametric(loops: list[Operation], sizes: list[Value]) -> None:
    """Tile a generated perfect band by SSA-value sizes (:func:`tile_perfect_band`)."""
    try:
        tile_perfect_band(loops, sizes)
    except TransformError as e:
        raise ScheduleError(f"cannot tile with parametric sizes: {e.message}", e.location) from e


def apply_schedule(
    module: Module,
    new: Schedule | ScheduleText,
    func: str | None = None,
    separate: bool = False,
    value_based: bool = False,
    split: bool = False,
) -> Module:
    """A new module with a function rescheduled by ``new`` after checking it (an illegal or
    undecided schedule raises :class:`ScheduleError` with the reason; ``module`` is never
    changed). ``new`` is a schedule of one of the module's functions, or a map or tree (as
    text or islpy object) for ``func``; ``separate`` and ``split`` as in
    :meth:`poly.schedule.Schedule.apply`."""
    if isinstance(new, Schedule):
        if not any(f is new.function for f in module.functions()):
            raise ScheduleError("the schedule is of a function of another module", _top(module))
        chosen = new
    else:
        chosen = schedule_of(module, func).replace(new)
    return chosen.apply(
        separate=separate, tile_parametric=tile_parametric, value_based=value_based, split=split
    )


# -- command line -------------------------------------------------------------------------------


def print_schedule(module: Module, value: str, context: PassContext) -> str:
    """``--print-schedule[=map|tree]``: each function's schedule after a ``// @name`` line;
    a function whose schedule cannot be built is an error at the reason's place."""
    form = value or "map"
    if form not in ("map", "tree"):
        raise PolyError(f"--print-schedule takes 'map' (the default) or 'tree', got '{value}'")
    parts = []
    for function in _functions(module):
        try:
            s = Schedule.of(function)
        except ScheduleError as e:
            message = f"no schedule for {_name(function)}: {e.message}"
            context.diagnostics.append(Diagnostic("error", message, e.location or function.loc))
            continue
        text = s.tree_text().rstrip("\n") if form == "tree" else str(s)
        parts.append(f"// {_name(function)}\n{text}\n")
    return "".join(parts)


def schedule_sections(text: str) -> dict[str | None, str]:
    """The schedules of a file: ``{None: text}``, or one per ``// @name`` section."""
    sections: dict[str | None, list[str]] = {}
    current: str | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("// @"):
            current = stripped[3:].split()[0]
            sections[current] = []
        elif not stripped.startswith("//"):
            sections.setdefault(current, []).append(line)
    result = {k: "\n".join(v).strip() for k, v in sections.items()}
    return {k: v for k, v in result.items() if v or k is not None}


@dataclass
class AffineSchedule:
    """``--affine-schedule``: apply a schedule (a union map or a schedule tree) given in a
    ``file`` or inline (``schedule``) to function ``func`` (the only one by default, or each
    function named by a ``// @name`` section of the file), after checking it against the
    exact dependences (``value-based`` for value-based ones with kills); ``separate`` runs
    full tiles without bound checks; ``split`` splits loops where the statements they run
    change, so that no guard is left inside a loop (sweeps fused with shifts)."""

    name = "affine-schedule"
    file: str = ""
    schedule: str = ""
    func: str = ""
    separate: bool = False
    split: bool = False
    value_based: bool = False

    def run(self, module: Module, context: PassContext) -> Module:
        where = _top(module)
        if bool(self.file) == bool(self.schedule):
            raise ScheduleError("--affine-schedule needs one of file=PATH or schedule='...'", where)
        text = self.schedule or self._read(self.file, where)
        sections = schedule_sections(text)
        if None in sections and len(sections) > 1:
            raise ScheduleError(
                "a schedule file holds one schedule, or one per '// @name' section, not both",
                where,
            )
        if None in sections:
            targets = {_name(function_of(module, self.func or None)): sections[None]}
        elif self.func:
            key = "@" + self.func.lstrip("@")
            if key not in sections:
                raise ScheduleError(f"the schedule file has no section for {key}", where)
            targets = {key: sections[key]}
        else:
            targets = {k: v for k, v in sections.items() if k is not None}
        result = module
        for name, schedule_text in targets.items():
            result = apply_schedule(
                result,
                schedule_text,
                name.lstrip("@"),
                separate=self.separate,
                value_based=self.value_based,
                split=self.split,
            )
        return result

    @staticmethod
    def _read(path: str, where: Location | None) -> str:
        try:
            with open(path, encoding="utf-8") as f:
                return f.read()
        except (OSError, UnicodeDecodeError) as e:
            raise ScheduleError(
                f"cannot read schedule file '{path}': {getattr(e, 'strerror', None) or e}", where
            ) from e

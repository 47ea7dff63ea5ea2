"""The schedule explorer: edit a function's schedule step by step and see, at each step,
whether it is legal, its iteration space in the new order, its code, and on request the
time of the original and the new code.

Invariant: the module is never changed. Every step is a :class:`~poly.schedule.Schedule`
of the function (kept in a history that :meth:`Explorer.undo` walks back), checked against
the exact dependences; the code of an illegal schedule is shown marked as such and never
measured. Usable as a plain object::

    ex = Explorer(module, params={"%N": 8})      # parameters of the pictures
    ex.skew("%j", {"%i": 1}).tile(["%i", "%j"], [4, 4])
    ex.verdict                                    # legal / illegal (the dependence, where)
    ex.picture()                                  # poly.viz.plot_schedule
    print(ex.mlir())                              # the generated code
    ex.measure()                                  # C backend: original, new, speedup

and in Jupyter with controls (:meth:`Explorer.widget`, :mod:`transforms.explorer_widget`).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from affine.exec.equivalence import Equivalence, check_equivalent
from affine.exec.inputs import deterministic_inputs
from affine.exec.running import Timing, format_seconds, time_kernel
from affine.ir.core import Module, Operation
from affine.syntax.highlight import mlir_html
from affine.syntax.printer import print_module
from poly import schedule_edits, viz
from poly.display import code, picture_html, schedule_verdict_html, status_html
from poly.schedule import Schedule, ScheduleText
from poly.schedule_check import ScheduleVerdict
from poly.schedule_program import ScheduleError
from transforms.schedule import function_of, schedule_of, tile_parametric

AUTO_SCHEDULE = "transforms.auto_scheduler"  # the module of the auto-scheduler, when present


@dataclass(frozen=True)
class Measurement:
    """Times of the original and the new function on the same inputs (C backend), and
    whether their results agree."""

    original: Timing
    new: Timing
    equivalent: Equivalence

    @property
    def speedup(self) -> float:
        """Best original time over best new time."""
        return self.original.min / self.new.min

    def __str__(self) -> str:
        agree = "results agree" if self.equivalent else f"results differ: {self.equivalent}"
        return (
            f"original {format_seconds(self.original.min)}, new {format_seconds(self.new.min)}: "
            f"speedup {self.speedup:.2f}x ({agree})"
        )


class Explorer:
    """Step-by-step schedules of one function of ``module`` (see the module docstring).

    ``params`` fixes the parameters of the pictures (``{"%N": 8}``; small values by
    default, :func:`poly.viz.small_params`); ``inputs`` are the arguments :meth:`measure`
    runs both functions on (deterministic arrays by default, for statically shaped memref
    arguments)."""

    def __init__(
        self,
        module: Module,
        func: str | None = None,
        *,
        params: Mapping[str, int] | None = None,
        inputs: Sequence[Any] | None = None,
    ) -> None:
        self.module = module
        self.original = schedule_of(module, func)
        self.history: list[Schedule] = [self.original]
        self.params = dict(params) if params is not None else None
        self.inputs = list(inputs) if inputs is not None else None
        self.split = False  # code with loops split where their statements change
        drawable = [s.name for s in self.original.statements if 1 <= s.depth <= 3]
        self.statement: str | None = drawable[0] if drawable else None

    # -- the current schedule ---------------------------------------------------------------------
    @property
    def function(self) -> Operation:
        return self.original.function

    @property
    def schedule(self) -> Schedule:
        return self.history[-1]

    @property
    def verdict(self) -> ScheduleVerdict:
        """Legal, illegal (the violated dependence, its accesses with source positions, a
        witness pair) or unknown (why)."""
        return self.schedule.check()

    def use(self, schedule: Schedule) -> Explorer:
        """Continue from ``schedule`` (a schedule of this function)."""
        if schedule.function is not self.function:
            raise ScheduleError("the schedule is of another function", self.function.loc)
        self.history.append(schedule)
        return self

    def undo(self) -> Explorer:
        """Back to the schedule before the last step (the original stays)."""
        if len(self.history) > 1:
            self.history.pop()
        return self

    def reset(self) -> Explorer:
        """Back to the source's schedule (a step of its own, so :meth:`undo` returns)."""
        return self.use(self.original)

    # -- edits (each a step; an edit that cannot be made raises ScheduleError) ----------------------
    def permute(self, order: Sequence[str]) -> Explorer:
        """Run the perfectly nested loops ``order`` in that order, outermost first."""
        return self.use(self.schedule.permute(order))

    def interchange(self, a: str, b: str) -> Explorer:
        return self.use(self.schedule.interchange(a, b))

    def skew(self, loop: str, by: Mapping[str, int]) -> Explorer:
        """``loop`` plus ``factor`` times each loop around it named in ``by``."""
        return self.use(self.schedule.skew(loop, by))

    def reverse(self, loop: str) -> Explorer:
        return self.use(self.schedule.reverse(loop))

    def tile(self, loops: Sequence[str], sizes: Sequence[int | str]) -> Explorer:
        return self.use(self.schedule.tile(loops, sizes))

    def wavefront(self, loops: Sequence[str]) -> Explorer:
        return self.use(self.schedule.wavefront(loops))

    def fuse(self, a: str, b: str) -> Explorer:
        return self.use(self.schedule.fuse(a, b))

    def distribute(self, loop: str, groups: Sequence[Sequence[str]] | None = None) -> Explorer:
        return self.use(self.schedule.distribute(loop, groups))

    def parallel(self, loop: str, on: bool = True) -> Explorer:
        return self.use(self.schedule.parallel(loop, on))

    def set_schedule(self, text: ScheduleText) -> Explorer:
        """The whole schedule as ISL text (a map in any form, or a tree), read against the
        source's statements."""
        return self.use(self.original.replace(text))

    def structures(self) -> list[tuple[str, tuple[str, ...]]]:
        """The fusions of sibling nests and distributions of loops the source's schedule
        allows in shape: ``("fuse %i and %k", ("fuse", "%i", "%k"))`` (legality is the
        verdict's business)."""
        root = self.original.root
        found: list[tuple[str, tuple[str, ...]]] = [
            (f"fuse {a} and {b}", ("fuse", a, b)) for a, b in schedule_edits.sibling_nests(root)
        ]
        found += [
            (f"distribute {a}", ("distribute", a)) for a in schedule_edits.distributable(root)
        ]
        return found

    def auto_schedule_available(self) -> bool:
        """Whether the auto-scheduler (``transforms.auto_scheduler``) is installed."""
        return importlib.util.find_spec(AUTO_SCHEDULE) is not None

    def auto_schedule(self, **options: Any) -> Explorer:
        """Continue from the schedule the auto-scheduler chooses for this function (its
        report's ISL text; the source's when it keeps the original), with its loops split
        where the report says so (:attr:`split`); ``options`` go to the auto-scheduler
        (``l2=`` KiB...)."""
        auto = importlib.import_module(AUTO_SCHEDULE)
        result = auto.auto_schedule(self.module, **options)
        name = self._name()
        report = next(r for r in result.functions if r.function == name)
        self.split = report.split
        return self.set_schedule(report.schedule) if report.schedule else self.reset()

    # -- what a step shows ---------------------------------------------------------------------------
    def picture(self, statement: str | None = None) -> viz.Picture:
        """The statement's instances in the current order, its dependences on itself
        (red where the order breaks them, the verdict's witness ringed):
        :func:`poly.viz.plot_schedule`."""
        chosen = statement or self.statement
        if chosen is None:
            raise ScheduleError("no statement with 1 to 3 loops to draw", self.function.loc)
        return viz.plot_schedule(self.schedule, self.params, statement=chosen)

    def new_module(self) -> Module:
        """A new module running the current schedule (also when it is illegal: check
        :attr:`verdict`); with :attr:`split`, its loops split where the statements they run
        change, so that none keeps a guard (a fused time tile's rows)."""
        return self.schedule.apply(tile_parametric=tile_parametric, checked=False, split=self.split)

    def mlir(self) -> str:
        """The new module's MLIR."""
        return print_module(self.new_module())

    def new_function(self) -> Operation:
        return function_of(self.new_module(), self._name().lstrip("@"))

    def measure(self, repeats: int = 3) -> Measurement:
        """Best of ``repeats`` times of the original and the new function (C backend) on
        :attr:`inputs` and whether their results agree; refused unless the schedule is
        legal."""
        verdict = self.verdict
        if not verdict:
            raise ScheduleError(f"not measured: the schedule is {verdict}", self.function.loc)
        new = self.new_function()
        inputs = self.inputs if self.inputs is not None else deterministic_inputs(self.function)
        times = [
            time_kernel(f, *_copies(inputs), backend="c", repeats=repeats)
            for f in (self.function, new)
        ]
        same = check_equivalent(self.function, new, *_copies(inputs), backend="c")
        return Measurement(times[0], times[1], same)

    def widget(self) -> Any:
        """Controls for this explorer in Jupyter (:class:`transforms.explorer_widget.Controls`)."""
        from transforms import explorer_widget  # lazy: start-up cost (ipywidgets)

        return explorer_widget.Controls(self)

    def _name(self) -> str:
        return "@" + str(getattr(self.function.properties.get("sym_name"), "value", "?"))

    def summary_html(self) -> str:
        """The verdict, the picture and the code (marked when illegal), as HTML."""
        verdict = self.verdict
        parts = [code(str(self.schedule)), schedule_verdict_html(verdict)]
        if self.statement is not None:
            parts.append(picture_html(self.picture(), "the iteration space in the new order"))
        if not verdict:
            parts.append(status_html(verdict.status, "this code does not keep the dependences"))
        parts.append(mlir_html(self.mlir().rstrip("\n")))
        return "".join(parts)

    def _repr_html_(self) -> str:
        return self.summary_html()

    def __repr__(self) -> str:
        return f"<Explorer of {self._name()}: {self.schedule} ({self.verdict.status})>"


def _copies(inputs: Sequence[Any]) -> list[Any]:
    return [a.copy() if hasattr(a, "copy") else a for a in inputs]

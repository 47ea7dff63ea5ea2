"""Jupyter controls for a :class:`~transforms.explorer.Explorer` (ipywidgets).

Invariant: the controls describe one schedule, built from the source's schedule in a fixed
order: fusion or distribution (``structure``), skews (``%j += k * %i`` for each loop and
a loop around it), the loop order (``order``, a permutation of the chosen nest's loops),
tiles (``tile %i``: 0 leaves the loop untiled) and parallel marks (on the loop over tiles
where the loop is tiled). On each change that schedule becomes the explorer's next step and
the outputs are redrawn: the verdict, the picture of the chosen statement (``nest``), the
MLIR. An ISL schedule typed in ``text`` and applied replaces the controls' schedule until
the next change of a control; ``measure`` times the original and the new code; "start
from the auto-schedule" appears when ``transforms.auto_scheduler`` is installed. A schedule
the controls cannot express (loops not perfectly nested, say) is reported in ``verdict``
and leaves the outputs of the last schedule.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets

from affine.errors import PolyError
from affine.syntax.highlight import mlir_html
from poly.display import schedule_verdict_html, status_html
from poly.schedule import Schedule
from transforms.explorer import Explorer

MAX_SKEW = 3
MAX_TILE = 64


class Controls(widgets.VBox):
    """The explorer's controls and outputs, in one box (see the module docstring)."""

    def __init__(self, explorer: Explorer) -> None:
        self.explorer = explorer
        names = [s.name for s in explorer.original.statements if 1 <= s.depth <= 3]
        self.nest = widgets.Dropdown(
            options=[(self._nest_label(n), n) for n in names],
            value=explorer.statement,
            description="nest",
        )
        self.structure = widgets.Dropdown(
            options=[("as written", ()), *explorer.structures()],
            value=(),
            description="fusion",
        )
        self.text = widgets.Textarea(
            description="ISL",
            layout=widgets.Layout(width="95%", height="4em"),
            placeholder="{ S0[i, j] -> [j, i] }",
        )
        self.apply_text = widgets.Button(description="apply ISL schedule")
        self.measure_button = widgets.Button(description="measure", button_style="info")
        self.auto_button = widgets.Button(description="start from the auto-schedule")
        self.verdict = widgets.HTML()
        self.image = widgets.Image(format="png", layout=widgets.Layout(align_self="flex-start"))
        self.code = widgets.HTML()
        self.timing = widgets.HTML()
        self.order = widgets.Dropdown(description="order")
        self.skews: dict[tuple[str, str], widgets.IntSlider] = {}
        self.tiles: dict[str, widgets.IntSlider] = {}
        self.parallel: dict[str, widgets.Checkbox] = {}
        self.loop_box = widgets.VBox()
        self._building = False
        self.nest.observe(self._rebuild_loops, "value")
        self.structure.observe(self._rebuild_loops, "value")
        self.apply_text.on_click(self._apply_text)
        self.measure_button.on_click(self._measure)
        self.auto_button.on_click(self._auto)
        buttons = [self.apply_text, self.measure_button]
        if explorer.auto_schedule_available():
            buttons.append(self.auto_button)
        super().__init__(
            [
                widgets.HBox([self.nest, self.structure]),
                self.loop_box,
                self.text,
                widgets.HBox(buttons),
                self.verdict,
                self.timing,
                self.image,
                self.code,
            ]
        )
        self._rebuild_loops()

    def _nest_label(self, name: str) -> str:
        s = self.explorer.original.program.statement(name)
        return f"{name} in {', '.join(s.loop_names)}"

    # -- the controls of the chosen nest ---------------------------------------------------------
    def _structured(self) -> Schedule:
        """The source's schedule with the chosen fusion or distribution."""
        chosen = self.structure.value
        s = self.explorer.original
        if not chosen:
            return s
        edit, *args = chosen
        return getattr(s, edit)(*args)

    def _rebuild_loops(self, _change: object = None) -> None:
        """New loop controls for the nest's loops (after the structure's edit)."""
        try:
            loops = self._structured().loops_of(self.nest.value)
        except PolyError as e:
            self._report(e)
            return
        self._building = True
        self.order.options = [", ".join(p) for p in itertools.permutations(loops)]
        self.order.value = ", ".join(loops)
        self.skews = {
            (inner, outer): widgets.IntSlider(
                value=0, min=-MAX_SKEW, max=MAX_SKEW, description=f"{inner} += k·{outer}"
            )
            for k, inner in enumerate(loops)
            for outer in loops[:k]
        }
        self.tiles = {
            loop: widgets.IntSlider(value=0, min=0, max=MAX_TILE, description=f"tile {loop}")
            for loop in loops
        }
        self.parallel = {
            loop: widgets.Checkbox(value=False, description=f"parallel {loop}") for loop in loops
        }
        controls: list[Any] = [self.order, *self.skews.values(), *self.tiles.values()]
        for control in controls:
            control.observe(self._changed, "value")
        for box in self.parallel.values():
            box.observe(self._changed, "value")
        self.loop_box.children = [
            self.order,
            widgets.HBox(list(self.skews.values())),
            widgets.HBox(list(self.tiles.values())),
            widgets.HBox(list(self.parallel.values())),
        ]
        self._building = False
        self.explorer.statement = self.nest.value
        self._changed()

    def schedule(self) -> Schedule:
        """The schedule the controls describe (see the module docstring)."""
        s = self._structured()
        for (inner, outer), slider in self.skews.items():
            if slider.value:
                s = s.skew(inner, {outer: slider.value})
        order = self.order.value.split(", ")
        if order != s.loops_of(self.nest.value)[: len(order)]:
            s = s.permute(order)
        tiled = [loop for loop in order if self.tiles[loop].value]
        if tiled:
            s = s.tile(tiled, [self.tiles[loop].value for loop in tiled])
        for loop, box in self.parallel.items():
            if box.value:
                s = s.parallel(f"{loop}.tile" if loop in tiled else loop)
        return s

    # -- reactions --------------------------------------------------------------------------------
    def _changed(self, _change: object = None) -> None:
        if not self._building:
            self._step(lambda: self.explorer.use(self.schedule()))

    def _apply_text(self, _button: object = None) -> None:
        self._step(lambda: self.explorer.set_schedule(self.text.value))

    def _auto(self, _button: object = None) -> None:
        self._step(self.explorer.auto_schedule)

    def _step(self, step: Callable[[], object]) -> None:
        """Take a step of the explorer and show it, or report why it cannot be taken."""
        try:
            step()
        except PolyError as e:
            self._report(e)
            return
        self._show()

    def _measure(self, _button: object = None) -> None:
        try:
            result = self.explorer.measure()
        except PolyError as e:
            self.timing.value = status_html("not measured", str(e))
            return
        self.timing.value = status_html("measured", str(result))

    def _report(self, error: PolyError) -> None:
        self.verdict.value = status_html("cannot build this schedule", str(error))

    def _show(self) -> None:
        """The outputs of the explorer's current step."""
        explorer = self.explorer
        verdict = explorer.verdict
        self.text.value = str(explorer.schedule)
        self.verdict.value = schedule_verdict_html(verdict)
        self.timing.value = ""
        self.image.value = explorer.picture().png()
        code = explorer.mlir().rstrip("\n")
        warning = "" if verdict else status_html(verdict.status, "this code is wrong")
        self.code.value = warning + mlir_html(code)

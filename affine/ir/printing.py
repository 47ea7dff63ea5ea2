"""How IR objects become text: the printer of the syntax layer, installed here.

The IR layer cannot import the printer (:mod:`affine.syntax.printer` builds on it); the
printer installs itself with :func:`install` when it is imported, and the ``affine``
package imports it before anything else can print. ``str()`` of a type, an attribute, an
operation or a module goes through :func:`printer`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from affine.ir.attributes import Attribute
    from affine.ir.core import Module, Operation
    from affine.ir.types import StridedLayout, Type


class Printer(Protocol):
    """What the IR needs of the printer (the module :mod:`affine.syntax.printer`)."""

    def type_to_str(self, t: Type) -> str: ...

    def attr_to_str(self, a: Attribute) -> str: ...

    def strided_to_str(self, layout: StridedLayout) -> str: ...

    def print_operation(self, op: Operation, generic: bool = False) -> str: ...

    def print_module(self, module: Module | Operation, generic: bool = False) -> str: ...


_installed: list[Printer] = []


def install(printer: Printer) -> None:
    """Make ``printer`` the one that turns IR objects into text."""
    _installed[:] = [printer]


def printer() -> Printer:
    """The installed printer (the syntax layer is loaded with the ``affine`` package)."""
    if not _installed:
        raise RuntimeError("no printer installed: import affine first")
    return _installed[0]

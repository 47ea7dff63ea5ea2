"""How IR objects become text: the printer of the syntax layer, installed here.

The IR layer cannot import the printer (:mod:`affine.syntax.printer` builds on it); the
printer installs itself with :func:`install` when it is imported, and the ``affine``
package imports it before anything else can print. ``str()`` of a type, an attribute, an
operation or a module goes through :func:`printer`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from affine.ir.hooks import Hook

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

    def to_html(self, obj: Module | Operation) -> str: ...


_PRINTER: Hook[Printer] = Hook("printer")

install = _PRINTER.install  # called by affine.syntax.printer when it is imported
printer = _PRINTER.get

"""The ``ub`` dialect's ``ub.poison``: the padding mlir-opt's vectoriser gives
``vector.transfer_read`` (a value of any type the program must not depend on).

Invariant: reads and prints as mlir-opt 22 does (``%0 = ub.poison : f32``; its ``value``
property, ``#ub.poison``, shown in the generic form only).
"""

from __future__ import annotations

from affine.dialects.format import Group, define_format
from affine.ir.attributes import OpaqueAttr
from affine.ir.registry import PURE, define_attribute

POISON = OpaqueAttr("#ub.poison")

define_attribute("ub.poison", lambda p: POISON)
define_format(
    "ub.poison",
    "attr-dict `:` type($result)",
    results=[Group("result")],
    defaults={"value": POISON},
    properties=("value",),
    traits=(PURE,),
)

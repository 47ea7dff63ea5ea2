"""The polyhedral layer: ISL sets and relations for affine IR (the only user of islpy).

``poly.Schedule`` (:mod:`poly.schedule`: a function's schedule as a value) loads on use.
"""

from typing import Any

from poly.context import DEFAULT_MAX_OPERATIONS as DEFAULT_MAX_OPERATIONS
from poly.context import IslBudgetExceeded as IslBudgetExceeded
from poly.context import budget as budget
from poly.context import isl_context as isl_context
from poly.convert import NotExpressibleError as NotExpressibleError
from poly.convert import NotPresburgerError as NotPresburgerError
from poly.convert import box_set as box_set
from poly.convert import expr_to_pw_aff as expr_to_pw_aff
from poly.convert import inverse_on_image as inverse_on_image
from poly.convert import map_from_isl as map_from_isl
from poly.convert import map_to_isl as map_to_isl
from poly.convert import map_to_multi_pw_aff as map_to_multi_pw_aff
from poly.convert import pw_aff_to_expr as pw_aff_to_expr
from poly.convert import set_from_isl as set_from_isl
from poly.convert import set_to_isl as set_to_isl
from poly.convert import sets_from_isl as sets_from_isl
from poly.layout import ISL_ORACLE as ISL_ORACLE
from poly.layout import OneToOne as OneToOne
from poly.layout import bounding_box as bounding_box
from poly.layout import footprint as footprint
from poly.layout import normalize_memref_type as normalize_memref_type
from poly.layout import normalize_memrefs as normalize_memrefs
from poly.layout import one_to_one_on as one_to_one_on
from poly.layout import parametric_bounding_box as parametric_bounding_box
from poly.sets import canonical_set as canonical_set
from poly.sets import count_points as count_points
from poly.sets import difference as difference
from poly.sets import dim_bounds as dim_bounds
from poly.sets import dim_range as dim_range
from poly.sets import intersection as intersection
from poly.sets import is_empty as is_empty
from poly.sets import is_subset as is_subset
from poly.sets import points as points
from poly.sets import sets_equal as sets_equal
from poly.sets import union as union

_LAZY = {
    "Schedule": "poly.schedule",
    "ScheduleVerdict": "poly.schedule_check",
    "ScheduleError": "poly.schedule_program",
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'poly' has no attribute {name!r}")

"""The polyhedral layer: ISL sets and relations for affine IR (the only user of islpy).

The facade: the model of IR (``build_model``), the dependence analyses
(``DependenceAnalysis``: mlir-opt's question answered exactly; ``FlowAnalysis``: the
dependences of a whole function, carried loops and parallel loops), the dependence graph
(``dependence_graph``, ``to_dot``, ``report_json``), legality verdicts, the tile-size model,
code generation from a schedule, a function's schedule as a value (``Schedule``: print,
edit, check and apply it), and set and layout helpers. ``poly.viz`` (pictures,
matplotlib) is imported on first use, so ``import poly`` stays cheap.
"""

import importlib
from types import ModuleType

from affine.errors import PolyError as PolyError
from poly.codegen import CodegenError as CodegenError
from poly.codegen import generate as generate
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
from poly.deps import AnalysisWarning as AnalysisWarning
from poly.deps import Dependence as Dependence
from poly.deps import DependenceAnalysis as DependenceAnalysis
from poly.flow import Edge as Edge
from poly.flow import FlowAnalysis as FlowAnalysis
from poly.graph import LEVELS as LEVELS
from poly.graph import dependence_graph as dependence_graph
from poly.graph import report_json as report_json
from poly.graph import to_dot as to_dot
from poly.layout import ISL_ORACLE as ISL_ORACLE
from poly.layout import OneToOne as OneToOne
from poly.layout import bounding_box as bounding_box
from poly.layout import footprint as footprint
from poly.layout import normalize_memref_type as normalize_memref_type
from poly.layout import one_to_one_on as one_to_one_on
from poly.layout import parametric_bounding_box as parametric_bounding_box
from poly.legality import Verdict as Verdict
from poly.legality import describe as describe
from poly.model import Model as Model
from poly.model import ModelError as ModelError
from poly.model import build_model as build_model
from poly.schedule import Schedule as Schedule
from poly.schedule_check import ScheduleVerdict as ScheduleVerdict
from poly.schedule_program import ScheduleError as ScheduleError
from poly.sets import bind_params as bind_params
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
from poly.tile_model import TileChoice as TileChoice
from poly.tile_model import choose_tile_sizes as choose_tile_sizes
from poly.tile_model import contiguity_order as contiguity_order


def __getattr__(name: str) -> ModuleType:
    if name == "viz":
        return importlib.import_module("poly.viz")
    raise AttributeError(f"module 'poly' has no attribute {name!r}")

"""Layer 4: operation definitions, registered by name in :mod:`affine.ir.registry` when
their module is imported (importing this package imports them all)."""

from affine.dialects import affine_dialect as affine_dialect
from affine.dialects import arith as arith
from affine.dialects import func as func
from affine.dialects import memref as memref
from affine.dialects import scf as scf
from affine.dialects import seed as seed
from affine.dialects import ub as ub
from affine.dialects import vector as vector

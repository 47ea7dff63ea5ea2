"""Typed views over generic operations (named access to operands, maps and regions)."""

from affine.dialects.affine_dialect import REDUCTION_KINDS as REDUCTION_KINDS
from affine.dialects.affine_dialect import DmaStartOp as DmaStartOp
from affine.dialects.affine_dialect import ForOp as ForOp
from affine.dialects.affine_dialect import IfOp as IfOp
from affine.dialects.affine_dialect import LoadOp as LoadOp
from affine.dialects.affine_dialect import ParallelOp as ParallelOp
from affine.dialects.affine_dialect import StoreOp as StoreOp
from affine.dialects.affine_dialect import affine_scope as affine_scope
from affine.dialects.affine_dialect import is_valid_dim as is_valid_dim
from affine.dialects.affine_dialect import is_valid_symbol as is_valid_symbol
from affine.dialects.func import function_type_of as function_type_of
from affine.dialects.memref import MemRefDmaStart as MemRefDmaStart

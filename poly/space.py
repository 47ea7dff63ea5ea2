"""The one module that names ISL dimensions and parameters.

Invariant: ISL objects built by the toolkit are combined by *name*, never by position.
Parameters are aligned with :func:`align_params` before two objects meet; a symbol of an
affine map or set is the parameter of the same name in every object it takes part in.

Conventions (each has one function here; nothing else spells these names):

* inputs of an affine map or set: ``d0, d1, ...`` (:func:`dim_names`);
* symbols: ISL parameters ``s0, s1, ...`` (:func:`symbol_names`) unless the caller names them
  (e.g. after the SSA values they are bound to, so equal values give equal parameters);
* results of a map: ``r0, r1, ...`` (:func:`result_names`);
* memref index spaces: tuple named after the memref, dimensions ``i0, i1, ...``
  (:func:`memref_space`); a ``?`` size is the parameter ``size<k>`` (:func:`size_names`);
* the symbols of map ``k`` of a layout composition, judged apart from the others:
  ``m<k>_s<j>`` (:func:`composition_symbol_names`);
* statement instances: tuple named after the statement, one dimension per enclosing loop
  named after its induction variable (:func:`statement_space`);
* in the polyhedral model of IR (:mod:`poly.model`): statements ``S<n>``, the per-access
  instance spaces ``A<n>``, memrefs ``M<n>`` (:func:`model_tuple_name`), IV ``k`` of the
  ``n``-th loop of a scope ``i<n>_<k>`` (:func:`iv_name`) and IR values used as symbols
  ``p<n>`` (:func:`value_param_name`), numbered in the order the model meets them;
* in schedules (:mod:`poly.schedule`): statements ``S<n>`` as above, their dimensions and the
  parameters named after the source's SSA values (``%i`` is ``i``, :func:`source_identifiers`
  makes them identifiers ISL reads back and unique where they must be), the mark of a band
  tiled with SSA-value sizes (:func:`tile_mark`), the mark of a parallel loop
  (:func:`parallel_mark`) and the AST build option ``isolate`` (:func:`isolate_option`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TypeVar

import islpy as isl

from poly.context import isl_context

IslObject = TypeVar("IslObject", isl.Set, isl.Map, isl.BasicSet, isl.BasicMap, isl.PwAff, isl.Aff)


def dim_names(count: int) -> list[str]:
    return [f"d{i}" for i in range(count)]


def symbol_names(count: int) -> list[str]:
    return [f"s{j}" for j in range(count)]


def result_names(count: int) -> list[str]:
    return [f"r{k}" for k in range(count)]


def memref_index_names(rank: int) -> list[str]:
    return [f"i{k}" for k in range(rank)]


def size_names(shape: Sequence[int], dynamic: int) -> list[str | int]:
    """The shape with each ``dynamic`` size replaced by its parameter name ``size<k>``."""
    return [f"size{k}" if size == dynamic else size for k, size in enumerate(shape)]


def composition_symbol_names(map_index: int, count: int) -> list[str]:
    return [f"m{map_index}_s{j}" for j in range(count)]


def iv_name(loop: int, index: int) -> str:
    return f"i{loop}_{index}"


def value_param_name(number: int) -> str:
    return f"p{number}"


# Words ISL's reader takes for keywords in any letter case: an identifier spelled like one
# would not read back.
_ISL_KEYWORDS = frozenset(
    "exists and or not implies true false infty infinity nan rat min max mod floor ceil "
    "floord ceild".split()
)


def source_identifier(ssa_name: str | None, fallback: str) -> str:
    """An ISL identifier for a value written ``ssa_name`` in the source (``%i`` -> ``i``,
    ``%x#1`` -> ``x_1``, ``%0`` -> ``v0``); ``fallback`` for a value without a name."""
    if not ssa_name:
        return fallback
    text = re.sub(r"[^A-Za-z0-9_]", "_", ssa_name.lstrip("%"))
    if not text or not (text[0].isalpha() or text[0] == "_"):
        text = "v" + text
    return text + "_" if text.lower() in _ISL_KEYWORDS else text


def source_identifiers(
    ssa_names: Sequence[str | None], fallbacks: Sequence[str], taken: Sequence[str] = ()
) -> list[str]:
    """:func:`source_identifier` of each name, made distinct from each other and from
    ``taken`` by a suffix (``i``, ``i_1``, ...), in order."""
    used = set(taken)
    result = []
    for name, fallback in zip(ssa_names, fallbacks):
        base = source_identifier(name, fallback)
        candidate, k = base, 0
        while candidate in used:
            k += 1
            candidate = f"{base}_{k}"
        used.add(candidate)
        result.append(candidate)
    return result


def parallel_mark() -> str:
    """The mark above a band whose first loop runs in parallel (``affine.parallel``)."""
    return "parallel"


def mark_id(name: str) -> isl.Id:
    """The ISL id of a mark named ``name``."""
    return isl.Id(name, context=isl_context())


def tile_mark(sizes: Sequence[str]) -> str:
    """The mark above a band tiled with the SSA values named ``sizes`` (``%T``)."""
    return "tile " + " ".join(sizes)


def tile_mark_sizes(mark: str) -> list[str] | None:
    """The SSA names of a :func:`tile_mark`, or None for another mark."""
    kind, _, sizes = mark.partition(" ")
    return sizes.split() if kind == "tile" and sizes else None


def isolate_option(full: isl.Set, outer: int) -> isl.UnionSet:
    """The AST build option ``{ isolate[[outer dims] -> [band dims]] : full }`` for the set
    ``full`` of schedule points (its first ``outer`` dimensions are the outer ones)."""
    option = isl.Map.from_range(full).move_dims(isl.dim_type.in_, 0, isl.dim_type.out, 0, outer)
    return isl.UnionSet.from_set(option.wrap().set_tuple_name("isolate"))


def model_tuple_name(kind: str, number: int) -> str:
    """``S<n>`` (statement), ``A<n>`` (access) or ``M<n>`` (memref)."""
    if kind not in ("S", "A", "M"):
        raise ValueError(f"unknown tuple kind {kind!r}")
    return f"{kind}{number}"


def _check_names(names: Sequence[str], what: str) -> None:
    if len(set(names)) != len(names):
        raise ValueError(f"{what} names must be distinct, got {list(names)}")


def set_space(
    dims: Sequence[str], symbols: Sequence[str] = (), tuple_name: str | None = None
) -> isl.Space:
    """``[symbols] -> { tuple_name[dims] }``."""
    _check_names(list(dims), "dimension")
    _check_names(list(symbols), "parameter")
    space = isl.Space.create_from_names(isl_context(), set=list(dims), params=list(symbols))
    return space.set_tuple_name(isl.dim_type.set, tuple_name) if tuple_name else space


def map_space(
    inputs: Sequence[str],
    outputs: Sequence[str],
    symbols: Sequence[str] = (),
    in_tuple: str | None = None,
    out_tuple: str | None = None,
) -> isl.Space:
    """``[symbols] -> { in_tuple[inputs] -> out_tuple[outputs] }``."""
    _check_names(list(inputs), "input")
    _check_names(list(symbols), "parameter")
    space = isl.Space.create_from_names(
        isl_context(), in_=list(inputs), out=list(outputs), params=list(symbols)
    )
    if in_tuple:
        space = space.set_tuple_name(isl.dim_type.in_, in_tuple)
    if out_tuple:
        space = space.set_tuple_name(isl.dim_type.out, out_tuple)
    return space


def memref_space(name: str, rank: int, symbols: Sequence[str] = ()) -> isl.Space:
    """The index space of memref ``name``: ``[symbols] -> { name[i0, ..] }``."""
    return set_space(memref_index_names(rank), symbols, name)


def statement_space(
    name: str, induction_vars: Sequence[str], symbols: Sequence[str] = ()
) -> isl.Space:
    """The instance space of statement ``name``: one dimension per enclosing loop."""
    return set_space(induction_vars, symbols, name)


def param_names(obj: isl.Set | isl.Map | isl.PwAff | isl.Space) -> list[str]:
    space = obj if isinstance(obj, isl.Space) else obj.get_space()
    return [space.get_dim_name(isl.dim_type.param, k) for k in range(space.dim(isl.dim_type.param))]


def align_params(*objects: IslObject) -> list[IslObject]:
    """The objects with the same parameters in the same order (the union of theirs, by name)."""
    names: list[str] = []
    for obj in objects:
        for name in param_names(obj):
            if name not in names:
                names.append(name)
    model = isl.Space.create_from_names(isl_context(), set=[], params=names).params()
    return [obj.align_params(model) for obj in objects]


def rename_params(obj: IslObject, renaming: dict[str, str]) -> IslObject:
    """``obj`` with parameters renamed (those not in ``renaming`` keep their names)."""
    for k, name in enumerate(param_names(obj)):
        if name in renaming:
            obj = obj.set_dim_name(isl.dim_type.param, k, renaming[name])
    return obj

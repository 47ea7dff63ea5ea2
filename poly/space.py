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
* anonymous vectors (distance vectors, schedule times): ``x0, x1, ...`` and, for the
  second vector of a relation, ``y0, y1, ...`` (:func:`vector_names`); the helper sets and
  maps built on them (:func:`lex_negative_set`, :func:`any_negative_set`,
  :func:`permutation_map`, :func:`window_reversal_map`, :func:`register_window_set`,
  :func:`register_reversal_set`) are made here too;
* in schedules (:mod:`poly.schedule`): statements ``S<n>`` as above, their dimensions and the
  parameters named after the source's SSA values (``%i`` is ``i``, :func:`source_identifiers`
  makes them identifiers ISL reads back and unique where they must be), the mark of a band
  tiled with SSA-value sizes (:func:`tile_mark`), the mark of a parallel loop
  (:func:`parallel_mark`), the mark that keeps a band's place while a tree is built
  (:func:`band_mark`) and the AST build option ``isolate`` (:func:`isolate_option`);
* the iterators of the loops ISL's AST generator builds: ``c<depth>`` (:func:`ast_iterators`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from typing import TypeVar

import islpy as isl

from poly.context import isl_context

IslText = TypeVar("IslText", isl.Set, isl.Map, isl.UnionSet, isl.UnionMap, isl.Schedule)
IslObject = TypeVar("IslObject", isl.Set, isl.Map, isl.BasicSet, isl.BasicMap, isl.Aff)
HasParams = isl.Set | isl.Map | isl.BasicSet | isl.BasicMap | isl.PwAff | isl.Aff | isl.Space


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


def parallel_mark(depth: int) -> str:
    """The mark above a band whose first loop, at schedule depth ``depth``, runs in parallel
    (``affine.parallel``). The depth says which loop below the mark that is: ISL leaves out
    a loop of one iteration, and the first loop below the mark is then an inner one."""
    return f"parallel {depth}"


def parallel_mark_depth(mark: str) -> int | None:
    """The schedule depth of a :func:`parallel_mark`, or None for another mark."""
    depth = _mark_argument(mark, "parallel")
    return int(depth) if depth is not None and depth.isdigit() else None


def ast_iterators(depth: int, taken: Sequence[str]) -> list[str]:
    """The iterators of the loops ISL's AST generator builds for schedule depths ``0`` to
    ``depth - 1``: ``c0, c1, ...`` (ISL's own names), made distinct from the parameter
    names ``taken`` by a suffix."""
    return source_identifiers([None] * depth, [f"c{k}" for k in range(depth)], taken)


def mark_id(name: str) -> isl.Id:
    """The ISL id of a mark named ``name``."""
    return isl.Id(name, context=isl_context())


def band_mark(index: int) -> str:
    """The mark that keeps the place of band ``index`` while a schedule tree is built."""
    return f"band {index}"


def band_mark_index(mark: str) -> int | None:
    """The index of a :func:`band_mark`, or None for another mark."""
    index = _mark_argument(mark, "band")
    return int(index) if index is not None and index.isdigit() else None


def tile_mark(sizes: Sequence[str]) -> str:
    """The mark above a band tiled with the SSA values named ``sizes`` (``%T``)."""
    return "tile " + " ".join(sizes)


def tile_mark_sizes(mark: str) -> list[str] | None:
    """The SSA names of a :func:`tile_mark`, or None for another mark."""
    sizes = _mark_argument(mark, "tile")
    return sizes.split() if sizes else None


def _mark_argument(mark: str, kind: str) -> str | None:
    """What follows the word ``kind`` in a mark ``"<kind> <argument>"``, or None."""
    word, _, argument = mark.partition(" ")
    return argument if word == kind else None


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


def _require_distinct(names: Sequence[str], what: str) -> None:
    if len(set(names)) != len(names):
        raise ValueError(f"{what} names must be distinct, got {list(names)}")


def set_space(
    dims: Sequence[str], symbols: Sequence[str] = (), tuple_name: str | None = None
) -> isl.Space:
    """``[symbols] -> { tuple_name[dims] }``."""
    _require_distinct(list(dims), "dimension")
    _require_distinct(list(symbols), "parameter")
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
    _require_distinct(list(inputs), "input")
    _require_distinct(list(symbols), "parameter")
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


def param_names(obj: HasParams) -> list[str]:
    """The names of ``obj``'s parameters, in order (the toolkit names every parameter)."""
    space = obj if isinstance(obj, isl.Space) else obj.get_space()
    names = []
    for k in range(space.dim(isl.dim_type.param)):
        name = space.get_dim_name(isl.dim_type.param, k)
        if name is None:
            raise ValueError(f"parameter {k} of {obj} has no name")
        names.append(name)
    return names


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


def dim_name(index: int) -> str:
    return dim_names(index + 1)[index]


def symbol_name(index: int) -> str:
    return symbol_names(index + 1)[index]


def read_user_text(kind: type[IslText], text: str) -> IslText:
    """An ISL object of class ``kind`` read, in the toolkit's context, from text a user wrote:
    its names are the user's, and clients align it with the toolkit's objects by name."""
    return kind.read_from_str(isl_context(), text)


def in_toolkit_context(obj: IslText) -> IslText:
    """``obj`` in the toolkit's context: itself when it lives there, else read from its text
    (made elsewhere, e.g. by ``isl.Set("...")`` in islpy's default context), names kept."""
    if obj.get_ctx() == isl_context():  # type: ignore[misc]  # islpy's stub types Context.__eq__'s self as a protocol Context lacks
        return obj
    return read_user_text(type(obj), str(obj))


def param_id(name: str) -> isl.Id:
    """The ISL identifier of parameter ``name``."""
    return isl.Id.read_from_str(isl_context(), name)


def vector_names(count: int, prefix: str = "x") -> list[str]:
    """The dimensions of an anonymous vector: ``x0, x1, ...`` (``y0, ...`` for a second)."""
    if prefix not in ("x", "y"):
        raise ValueError(f"unknown vector prefix {prefix!r}")
    return [f"{prefix}{k}" for k in range(count)]


def _vector_set(count: int, disjuncts: Sequence[Sequence[str]]) -> isl.Set:
    """``{ [x0, ..] : (c and c ..) or (..) }`` (no disjunct: the empty set)."""
    body = " or ".join("(" + " and ".join(terms) + ")" for terms in disjuncts) or "false"
    return isl.Set.read_from_str(
        isl_context(), f"{{ [{', '.join(vector_names(count))}] : {body} }}"
    )


def lex_negative_set(count: int) -> isl.Set:
    """The vectors of ``count`` integers that are lexicographically negative."""
    x = vector_names(count)
    return _vector_set(
        count, [[*(f"{x[j]} = 0" for j in range(k)), f"{x[k]} < 0"] for k in range(count)]
    )


def any_negative_set(count: int) -> isl.Set:
    """The vectors of ``count`` integers with at least one negative component."""
    return _vector_set(count, [[f"{x} < 0"] for x in vector_names(count)])


def permutation_map(order: Sequence[int]) -> isl.Map:
    """``{ [x0, ..] -> [x_order[0], x_order[1], ..] }``: component ``order[k]`` goes to
    position ``k``."""
    x = vector_names(len(order))
    text = f"{{ [{', '.join(x)}] -> [{', '.join(x[k] for k in order)}] }}"
    return isl.Map.read_from_str(isl_context(), text)


def register_window_set(
    count: int,
    fixed: Sequence[int],
    near: Sequence[tuple[int, int]],
    apart: Sequence[int] = (),
) -> isl.Set:
    """Distance vectors (``count`` components) that are zero at ``fixed`` and within
    ``(position, window)`` of ``near`` (``-window < x < window``): pairs of instances that
    may share one register tile; with ``apart``, only those nonzero at one of those
    positions."""
    x = vector_names(count)
    terms = [f"{x[k]} = 0" for k in fixed]
    terms += [f"-{window} < {x[k]} < {window}" for k, window in near]
    if not apart:
        return _vector_set(count, [terms or ["true"]])
    return _vector_set(count, [[*terms, f"{x[k]} != 0"] for k in apart])


def register_reversal_set(
    count: int,
    fixed: Sequence[int],
    rows: tuple[int, int] | None,
    vector: tuple[int, int] | None,
    reduction: int | None,
    body_order: int,
) -> isl.Set:
    """Distance vectors (``count`` components, zero at ``fixed``) of dependences that a
    register tile reverses.  ``rows`` and ``vector`` are ``(position, window)``: those loops
    run in groups of ``window`` iterations, the groups of rows outside the groups of
    vectors, and inside a group the instances run by ``reduction``'s component, the row,
    their ops' order in the body (``body_order``: the sign of target position minus source
    position) and the vector component.  Alignment-free: any pair closer than a window on
    a grouped loop may share a group."""
    x = vector_names(count)
    base = [f"{x[k]} = 0" for k in fixed]
    near_rows = [f"-{rows[1]} < {x[rows[0]]} < {rows[1]}"] if rows else []
    near_vector = [f"-{vector[1]} < {x[vector[0]]} < {vector[1]}"] if vector else []
    disjuncts = []
    if rows:  # different groups of rows run in the order of the rows
        disjuncts.append([*base, f"{x[rows[0]]} < 0"])
    if vector:  # in one group of rows, different groups of vectors in the order of the vectors
        disjuncts.append([*base, *near_rows, f"{x[vector[0]]} < 0"])
    inside = [*base, *near_rows, *near_vector]
    equal: list[str] = []
    before_body = [k for k in (reduction, rows[0] if rows else None) if k is not None]
    after_body = [vector[0]] if vector else []
    for k in before_body:
        disjuncts.append([*inside, *equal, f"{x[k]} < 0"])
        equal.append(f"{x[k]} = 0")
    if body_order < 0:  # the target's op comes first in the body
        disjuncts.append([*inside, *equal])
    if body_order == 0:
        for k in after_body:
            disjuncts.append([*inside, *equal, f"{x[k]} < 0"])
            equal.append(f"{x[k]} = 0")
    return _vector_set(count, disjuncts)


def window_reversal_map(width: int, position: int, span: int) -> isl.Map:
    """Time pairs ``x -> y`` (vectors of ``width``) equal before ``position``, with
    ``0 < y - x < span`` there, and ``y`` lexicographically before ``x`` after it."""
    x, y = vector_names(width), vector_names(width, "y")
    equal = [f"{x[k]} = {y[k]}" for k in range(position)]
    apart = [f"0 < {y[position]} - {x[position]} < {span}"]
    earlier = []
    for k in range(position + 1, width):
        prefix = [f"{x[j]} = {y[j]}" for j in range(position + 1, k)]
        earlier.append("(" + " and ".join([*prefix, f"{y[k]} < {x[k]}"]) + ")")
    body = " and ".join(equal + apart + ["(" + (" or ".join(earlier) or "false") + ")"])
    text = f"{{ [{', '.join(x)}] -> [{', '.join(y)}] : {body} }}"
    return isl.Map.read_from_str(isl_context(), text)


def same_iteration_distances(span: int) -> isl.Set:
    """Distance vectors ``[d0, d1]`` with ``0 < d0 < span`` and ``d1 = 0``: pairs less than
    ``span`` iterations apart on a loop and in the same iteration of the loop inside it."""
    return isl.Set.read_from_str(isl_context(), f"{{ [d0, d1] : 0 < d0 < {span} and d1 = 0 }}")


def _constraints(terms: Sequence[str]) -> str:
    return f" : {' and '.join(terms)}" if terms else ""


def ordering_distances(count: int, depth: int, repeated: Sequence[int] = ()) -> isl.Set:
    """Distance vectors (``count`` common IVs) of pairs ordered at ``depth``: zero on the
    first ``depth - 1`` components and positive on component ``depth`` (zero there when
    ``depth - 1`` is in ``repeated``, a loop of step 0); all zero for ``depth = count + 1``."""
    x = vector_names(count)
    terms = [f"{x[k]} = 0" for k in range(min(depth - 1, count))]
    if depth <= count:
        terms.append(f"{x[depth - 1]} = 0" if depth - 1 in repeated else f"{x[depth - 1]} >= 1")
    return isl.Set.read_from_str(isl_context(), f"{{ [{', '.join(x)}]{_constraints(terms)} }}")


def ordering_map(
    count: int, depth: int, source_dims: int, target_dims: int, repeated: Sequence[int] = ()
) -> isl.Map:
    """Instance pairs ``x -> y`` (``source_dims`` and ``target_dims`` IVs, the first
    ``count`` common) ordered at ``depth``: equal on the first ``depth - 1`` common IVs and
    ``y`` later on IV ``depth`` (equal there when ``depth - 1`` is in ``repeated``)."""
    x, y = vector_names(source_dims), vector_names(target_dims, "y")
    terms = [f"{x[k]} = {y[k]}" for k in range(min(depth - 1, count))]
    if depth <= count:
        k = depth - 1
        terms.append(f"{y[k]} = {x[k]}" if k in repeated else f"{y[k]} >= {x[k]} + 1")
    text = f"{{ [{', '.join(x)}] -> [{', '.join(y)}]{_constraints(terms)} }}"
    return isl.Map.read_from_str(isl_context(), text)


def half_line_map(later: bool) -> isl.Map:
    """``{ [x] -> [y] : y >= x }`` (``later``) or ``{ [x] -> [y] : y < x }``."""
    text = "{ [x0] -> [y0] : y0 >= x0 }" if later else "{ [x0] -> [y0] : y0 < x0 }"
    return isl.Map.read_from_str(isl_context(), text)


@functools.cache
def window_map(rank: int, index: int, width: int) -> isl.Map:
    """``{ [x] -> [i0, ..] : x <= i_index < x + width }`` into a memref's index space (read
    once per shape: every element access of every model asks for one)."""
    i = memref_index_names(rank)
    text = f"{{ [x0] -> [{', '.join(i)}] : x0 <= {i[index]} < x0 + {width} }}"
    return isl.Map.read_from_str(isl_context(), text)


def strided_position_map(name: str, strides: Sequence[int], offset: int) -> isl.Map:
    """``{ name[i0, ..] -> [offset + sum_k strides[k] * i_k] }``."""
    i = memref_index_names(len(strides))
    position = " + ".join([str(offset)] + [f"{s_k} * {i_k}" for s_k, i_k in zip(strides, i)])
    return isl.Map.read_from_str(isl_context(), f"{{ {name}[{', '.join(i)}] -> [{position}] }}")


def row_major_linearization(name: str, shape: Sequence[int]) -> isl.Map:
    """``{ name[i] -> [row-major position of i] : 0 <= i < shape }``."""
    i = memref_index_names(len(shape))
    position = "0"
    for i_k, size in zip(i, shape):
        position = f"({position}) * {size} + {i_k}"
    bounds = [f"0 <= {i_k} < {size}" for i_k, size in zip(i, shape)]
    text = f"{{ {name}[{', '.join(i)}] -> [{position}]{_constraints(bounds)} }}"
    return isl.Map.read_from_str(isl_context(), text)


def prefix_map(name: str, dims: Sequence[str], count: int) -> isl.Map:
    """``{ name[dims] -> [dims[:count]] }``: the first ``count`` dimensions of a tuple."""
    text = f"{{ {name}[{', '.join(dims)}] -> [{', '.join(dims[:count])}] }}"
    return isl.Map.read_from_str(isl_context(), text)


def unit_step_map(count: int, position: int) -> isl.Map:
    """``{ [x0, ..] -> [x0, .., x_position + 1, ..] }``."""
    x = vector_names(count)
    moved = [f"{v} + 1" if k == position else v for k, v in enumerate(x)]
    return isl.Map.read_from_str(isl_context(), f"{{ [{', '.join(x)}] -> [{', '.join(moved)}] }}")

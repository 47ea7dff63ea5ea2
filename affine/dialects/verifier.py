"""Verifier: structural rules (terminators, SSA dominance, isolation) and per-op rules.

``verify(module)`` raises :class:`~affine.ir.diagnostics.VerifyError` located at the first
offending op, with a message in mlir-opt's words (``'affine.load' op affine map num
results must equal memref rank``).
"""

from __future__ import annotations

from affine.dialects.arity import arity
from affine.ir.core import Block, BlockArgument, Module, Operation, Region, Value
from affine.ir.diagnostics import Location, VerifyError, op_in_message
from affine.ir.registry import (
    COMPLETE_DIALECTS,
    GRAPH_REGION,
    ISOLATED,
    NO_TERMINATOR,
    SINGLE_BLOCK,
    SYMBOL_TABLE,
    TERMINATOR,
    lookup,
)
from affine.ir.symbols import symbol_name
from affine.syntax.printer import print_operation_in_context


def verify(root: Module | Operation) -> None:
    """Check ``root`` and everything nested in it; raise on the first problem, with the op
    at fault printed as mlir-opt's verifier shows it (generic form, its function's value
    names)."""
    op = root.operation if isinstance(root, Module) else root
    try:
        _verify_structure(op)
        _verify_dominance(op)
    except VerifyError as e:
        if e.op is not None and e.op_text is None:
            e.op_text = print_operation_in_context(e.op, generic=True)
        raise


def _error(op: Operation, message: str) -> VerifyError:
    return VerifyError(f"'{op.name}' op {message}", op.loc, op=op)


def _verify_structure(root: Operation) -> None:
    """mlir-opt's order: an op's own rules on entry, then its blocks in order (each block's
    ops, then the block's terminator), so the first error reported is mlir-opt's."""
    stack: list[tuple[Operation | Block, bool]] = [(root, False)]
    while stack:
        item, is_exit = stack.pop()
        if is_exit and isinstance(item, Operation):
            exit_def = lookup(item.name)
            if exit_def is not None and exit_def.has(SYMBOL_TABLE):
                _verify_symbol_table(item)
            if exit_def is not None and exit_def.verify_regions is not None:
                exit_def.verify_regions(item)
            continue
        if isinstance(item, Block):
            if is_exit:
                _verify_block_terminator(item)
                continue
            _verify_block_entry(item)
            stack.append((item, True))
            for nested in reversed(item.operations):
                if nested.parent is not item:
                    raise _error(nested, "is not linked to its parent block")
                stack.append((nested, False))
            continue
        op = item
        op_def = lookup(op.name)
        for index, v in enumerate(op.operands):
            if v is None or getattr(v, "type", None) is None:
                raise _error(op, f"operand #{index} is null or unresolved")
        dialect = op.name.partition(".")[0]
        if op_def is None and "." in op.name and dialect in COMPLETE_DIALECTS:
            raise VerifyError(
                f"unregistered operation '{op.name}' found in dialect ('{dialect}') that does "
                "not allow unknown operations",
                op.loc,
                op=op,
            )
        shape = arity(op.name)
        if shape is not None:
            problem = shape.problem(op)
            if problem is not None:
                raise _error(op, problem)
        if op_def is not None and (op_def.implicit_terminator or op_def.has(SINGLE_BLOCK)):
            for index, region in enumerate(op.regions):
                if len(region.blocks) > 1:
                    raise _error(op, f"expects region #{index} to have 0 or 1 blocks")
                if region.blocks and not region.blocks[0].operations:
                    if not op_def.has(NO_TERMINATOR):
                        raise _error(op, "expects a non-empty block")
        if op_def is not None:
            if op_def.has(TERMINATOR):
                block = op.parent
                if block is not None and block.operations[-1] is not op:
                    raise _error(op, "must be the last operation in the parent block")
            if op_def.verify is not None:
                op_def.verify(op)
        for region in op.regions:
            if region.blocks and _has_predecessor(region, region.blocks[0]):
                raise VerifyError("entry block of region may not have predecessors", op.loc)
        if op_def is not None and (op_def.has(SYMBOL_TABLE) or op_def.verify_regions):
            stack.append((op, True))
        for region in reversed(op.regions):
            for block in reversed(region.blocks):
                stack.append((block, False))


def _has_predecessor(region: Region, block: Block) -> bool:
    """Whether an op of ``region`` branches to ``block`` (successors stay in their region)."""
    return any(block in op.successors for b in region.blocks for op in b.operations)


def _verify_symbol_table(op: Operation) -> None:
    """A symbol table's ops have distinct ``sym_name``s; checked after its nested ops."""
    seen: dict[str, Operation] = {}
    for block in op.regions[0].blocks if op.regions else ():
        for nested in block.operations:
            name = symbol_name(nested)
            if name is None:
                continue
            if name in seen:
                raise VerifyError(
                    f"redefinition of symbol named '{name}'",
                    nested.loc,
                    [("see existing symbol definition here", seen[name].loc)],
                    op=nested,
                )
            seen[name] = nested


def _needs_terminator(block: Block) -> bool:
    """Whether ``block`` must end in a terminator: always in a registered op's region
    (unless it has no terminators), and in multi-block regions of unregistered ops."""
    region = block.parent
    parent = region.parent if region is not None else None
    if parent is None:
        return False
    op_def = lookup(parent.name)
    if op_def is None:
        return len(region.blocks) > 1  # type: ignore[union-attr]  # region is not None when it has a parent op
    return not op_def.has(NO_TERMINATOR)


def _verify_block_entry(block: Block) -> None:
    if block.operations:
        return
    region = block.parent
    parent = region.parent if region is not None else None
    if parent is not None and lookup(parent.name) is not None and _needs_terminator(block):
        raise VerifyError("empty block: expect at least a terminator", parent.loc)


def _verify_block_terminator(block: Block) -> None:
    if not block.operations or not _needs_terminator(block):
        return
    last = block.operations[-1]
    last_def = lookup(last.name)
    if last_def is not None and not last_def.has(TERMINATOR):
        region = block.parent
        parent = region.parent if region is not None else None
        raise VerifyError(
            f"block with no terminator, has {_describe(last)}",
            last.loc or (parent.loc if parent is not None else None),
            op=last,
        )


def _describe(op: Operation) -> str:
    """The op as mlir-opt shows it in a diagnostic: generic form, names in context."""
    return op_in_message(print_operation_in_context(op, generic=True))


# -- dominance --------------------------------------------------------------------------------------


def _is_graph_region(region: Region) -> bool:
    """Regions without SSA dominance: the top level, regions of graph-region ops, and
    single-block regions of unregistered ops (mlir-opt cannot know their kind)."""
    parent = region.parent
    if parent is None:
        return True
    d = lookup(parent.name)
    if d is None:
        return len(region.blocks) == 1
    return d.has(GRAPH_REGION)


def _block_dominators(region: Region) -> dict[Block, set[Block]]:
    """Dominator sets of the blocks of a multi-block region reachable from its entry
    (iterative dataflow); unreachable blocks have no entry."""
    blocks = region.blocks
    successors = {
        b: [s for s in (b.terminator.successors if b.terminator else ()) if s.parent is region]
        for b in blocks
    }
    entry = blocks[0]
    reachable = {entry}
    work = [entry]
    while work:
        for s in successors[work.pop()]:
            if s not in reachable:
                reachable.add(s)
                work.append(s)
    order = [b for b in blocks if b in reachable]
    preds: dict[Block, list[Block]] = {b: [] for b in order}
    for b in order:
        for s in successors[b]:
            preds[s].append(b)
    dom = {b: set(order) for b in order}
    dom[entry] = {entry}
    changed = True
    while changed:
        changed = False
        for b in order[1:]:
            new = set.intersection(*(dom[p] for p in preds[b])) | {b}
            if new != dom[b]:
                dom[b] = new
                changed = True
    return dom


def _verify_dominance(root: Operation) -> None:
    dominators: dict[Region, dict[Block, set[Block]]] = {}
    position: dict[Operation, int] = {}

    def def_block(v: Value) -> Block | None:
        return v.owner if isinstance(v, BlockArgument) else v.owner.parent  # type: ignore[attr-defined]  # an OpResult's owner is an operation

    def dominates(v: Value, user: Operation) -> bool:
        block = def_block(v)
        if block is None:
            return False
        region = block.parent
        # Find the ancestor of `user` that lives in `region`; leaving an isolated op fails.
        ancestor = user
        while ancestor.parent is None or ancestor.parent.parent is not region:
            parent_op = ancestor.parent_op
            if parent_op is None:
                return False
            d = lookup(parent_op.name)
            if d is not None and d.has(ISOLATED):
                return False
            ancestor = parent_op
        if _is_graph_region(region):  # type: ignore[arg-type]  # region is not None when it has a parent op
            return True
        use_block = ancestor.parent
        if isinstance(v, BlockArgument):
            if use_block is block:
                return True
        elif use_block is block:
            definer = v.owner  # type: ignore[attr-defined]  # not a block argument here, so an OpResult owned by an operation
            if definer is ancestor:
                return False
            return _index(definer) < _index(ancestor)
        if len(region.blocks) == 1:  # type: ignore[union-attr]  # region is not None when it has a parent op
            return use_block is block
        dom = dominators_of(region)  # type: ignore[arg-type]  # region is not None when it has a parent op
        if use_block not in dom:  # an unreachable use is dominated by anything
            return True
        return block in dom[use_block]

    def dominators_of(region: Region) -> dict[Block, set[Block]]:
        dom = dominators.get(region)
        if dom is None:
            dom = dominators[region] = _block_dominators(region)
        return dom

    def in_reachable_block(op: Operation) -> bool:
        block = op.parent
        region = block.parent if block is not None else None
        if region is None or len(region.blocks) == 1:
            return True
        return block in dominators_of(region)

    def _index(op: Operation) -> int:
        index = position.get(op)
        if index is None:
            block = op.parent
            assert block is not None
            for i, o in enumerate(block.operations):
                position[o] = i
            index = position[op]
        return index

    for op in root.walk():
        if not in_reachable_block(op):  # dominance means nothing in unreachable code
            continue
        for i, v in enumerate(op.operands):
            if not dominates(v, op):
                raise VerifyError(
                    f"operand #{i} does not dominate this use",
                    op.loc,
                    [_definition_note(v, op)],
                    op=op,
                )


def _definition_note(value: Value, user: Operation) -> tuple[str, Location | None]:
    """mlir-opt's note on where an operand that does not dominate its use is defined:
    the defining op, or the op owning the block of a block argument, and how its block or
    region stands to the user's."""
    use_block = user.parent
    use_region = use_block.parent if use_block is not None else None
    if isinstance(value, BlockArgument):
        block = value.owner
        region = block.parent
        parent = region.parent if region is not None else None
        where = parent.loc if parent is not None else None
        if region is None:
            return " (block without parent)", where
        text = f"operand defined as a block argument (block #{region.blocks.index(block)}"
        return text + _relation(region, use_region, " in", " neither in") + ")", where
    definer = value.owner  # type: ignore[attr-defined]  # not a block argument: an OpResult
    block = definer.parent
    if block is use_block:
        return "operand defined here (op in the same block)", definer.loc
    region = block.parent if block is not None else None
    return (
        "operand defined here (op" + _relation(region, use_region, " in", " is neither in") + ")",
        definer.loc,
    )


def _relation(region: Region | None, use_region: Region | None, is_in: str, neither: str) -> str:
    """`` in the same region``, `` in a parent region`` (``region`` holds ``use_region``),
    `` in a child region``, or ``neither`` + `` a parent nor in a child region``."""
    if region is use_region:
        return f"{is_in} the same region"
    if _holds(region, use_region):
        return f"{is_in} a parent region"
    if _holds(use_region, region):
        return f"{is_in} a child region"
    return f"{neither} a parent nor in a child region"


def _holds(outer: Region | None, inner: Region | None) -> bool:
    """Whether ``inner`` is nested (properly) in ``outer``: the op owning it, or one around
    that op, lies in ``outer``."""
    owner = inner.parent if inner is not None else None
    if outer is None or owner is None:
        return False
    return any(
        op.parent is not None and op.parent.parent is outer for op in (owner, *owner.ancestors())
    )

"""The generic IR: operations, regions, blocks and SSA values.

This is MLIR's model: an :class:`Operation` has a name, operands, results, inherent
attributes (``properties``, printed in ``<{...}>`` in generic form), discardable
``attributes``, regions and successor blocks.  Every op, known or not, is stored this way,
which makes the generic form exact; typed views (:mod:`affine.ops`) give named access to
the operands and attributes of the ops the toolkit understands.

Operations are mutable graph nodes, but transformations never modify their input: they
work on a :meth:`Operation.clone` and return it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from affine.ir.attributes import Attribute
from affine.ir.diagnostics import Location
from affine.ir.printing import printer
from affine.ir.registry import FUNCTION, lookup
from affine.ir.types import Type

if TYPE_CHECKING:
    from affine.ir.registry import OpDef


class Value:
    """An SSA value: an operation result or a block argument.

    ``name`` is the value's SSA name as written in the source (``%i``, ``%x#1`` for a result
    of a group), kept so that reports read like the input; None for values the toolkit made
    (the printer numbers values itself and never uses it). Clones keep it.
    """

    __slots__ = ("name", "type")

    type: Type
    name: str | None

    @property
    def owner_op(self) -> Operation | None:
        """The defining operation (None for a block argument)."""
        return None

    @property
    def parent_block(self) -> Block | None:
        raise NotImplementedError


class _OwnedValue(Value):
    """A value defined by an owner (its operation or block) at position ``index``."""

    __slots__ = ("index", "owner")

    def __init__(self, type: Type, owner: Operation | Block, index: int) -> None:
        self.type = type
        self.owner = owner
        self.index = index
        self.name = None


class OpResult(_OwnedValue):
    __slots__ = ()

    owner: Operation

    @property
    def owner_op(self) -> Operation:
        return self.owner

    @property
    def parent_block(self) -> Block | None:
        return self.owner.parent

    def __repr__(self) -> str:
        return f"<result #{self.index} of {self.owner.name}: {self.type}>"


class BlockArgument(_OwnedValue):
    __slots__ = ("loc",)

    owner: Block

    def __init__(self, type: Type, owner: Block, index: int, loc: Location | None = None) -> None:
        super().__init__(type, owner, index)
        self.loc = loc

    @property
    def parent_block(self) -> Block:
        return self.owner

    def __repr__(self) -> str:
        return f"<block argument #{self.index}: {self.type}>"


class Operation:
    """A generic operation.  Build with :meth:`Operation.create`."""

    __slots__ = (
        "attributes",
        "loc",
        "name",
        "operands",
        "parent",
        "properties",
        "regions",
        "results",
        "successors",
    )

    name: str
    operands: list[Value]
    results: list[OpResult]
    properties: dict[str, Attribute]
    attributes: dict[str, Attribute]
    regions: list[Region]
    successors: list[Block]
    loc: Location | None
    parent: Block | None

    @classmethod
    def create(
        cls,
        name: str,
        operands: Sequence[Value] = (),
        result_types: Sequence[Type] = (),
        properties: Mapping[str, Attribute] | None = None,
        attributes: Mapping[str, Attribute] | None = None,
        regions: int | Sequence[Region] = 0,
        successors: Sequence[Block] = (),
        loc: Location | None = None,
    ) -> Operation:
        op = cls.__new__(cls)
        op.name = name
        op.operands = list(operands)
        op.results = (
            [OpResult(t, op, i) for i, t in enumerate(result_types)] if result_types else []
        )
        op.properties = dict(properties) if properties else {}
        op.attributes = dict(attributes) if attributes else {}
        if isinstance(regions, int):
            op.regions = [Region() for _ in range(regions)]
            for r in op.regions:
                r.parent = op
        else:
            op.regions = list(regions)
            for r in op.regions:
                r.parent = op
        op.successors = list(successors) if successors else []
        op.loc = loc
        op.parent = None
        return op

    # -- structure ----------------------------------------------------------------------

    @property
    def op_def(self) -> OpDef | None:
        return lookup(self.name)

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0] if "." in self.name else ""

    @property
    def result(self) -> OpResult:
        if len(self.results) != 1:
            raise ValueError(f"'{self.name}' has {len(self.results)} results, not one")
        return self.results[0]

    @property
    def parent_op(self) -> Operation | None:
        block = self.parent
        if block is None or block.parent is None:
            return None
        return block.parent.parent

    @property
    def result_types(self) -> list[Type]:
        return [r.type for r in self.results]

    @property
    def operand_types(self) -> list[Type]:
        return [v.type for v in self.operands]

    def get_attr(self, name: str) -> Attribute | None:
        """An inherent (property) or discardable attribute by name."""
        value = self.properties.get(name)
        return value if value is not None else self.attributes.get(name)

    def ancestors(self) -> Iterator[Operation]:
        """Enclosing operations, innermost first."""
        op = self.parent_op
        while op is not None:
            yield op
            op = op.parent_op

    def is_ancestor_of(self, other: Operation) -> bool:
        """True when ``other`` is this op or nested inside one of its regions."""
        op: Operation | None = other
        while op is not None:
            if op is self:
                return True
            op = op.parent_op
        return False

    def walk(self, post_order: bool = False) -> Iterator[Operation]:
        """This op and every op nested in its regions, in textual (pre-)order."""
        if not post_order:
            yield self
        for region in self.regions:
            for block in region.blocks:
                for op in list(block.operations):
                    yield from op.walk(post_order)
        if post_order:
            yield self

    def nested_ops(self) -> Iterator[Operation]:
        """Every op nested in this op's regions (excluding the op itself)."""
        for region in self.regions:
            for block in region.blocks:
                for op in block.operations:
                    yield from op.walk()

    # -- editing ------------------------------------------------------------------------

    def erase(self) -> None:
        """Remove this op from its block (its results must be unused)."""
        if self.parent is not None:
            self.parent.operations.remove(self)
            self.parent = None

    def set_operand(self, index: int, value: Value) -> None:
        self.operands[index] = value

    def clone(
        self,
        mapping: dict[Value, Value] | None = None,
        blocks: Mapping[Block, Block] | None = None,
    ) -> Operation:
        """A deep copy; operands found in ``mapping`` and successors found in ``blocks`` are
        remapped, and ``mapping`` is extended with the results and block arguments of the
        copy."""
        if mapping is None:
            mapping = {}
        new = Operation.create(
            self.name,
            [mapping.get(v, v) for v in self.operands],
            [r.type for r in self.results],
            self.properties,
            self.attributes,
            [r.clone(mapping) for r in self.regions],
            [blocks.get(b, b) if blocks else b for b in self.successors],
            self.loc,
        )
        for old, fresh in zip(self.results, new.results):
            mapping[old] = fresh
            fresh.name = old.name
        return new

    def __repr__(self) -> str:
        return f"<Operation {self.name}>"

    def __str__(self) -> str:
        return printer().print_operation(self)

    def _repr_html_(self) -> str:
        """The op's MLIR (a function's whole body), highlighted (Jupyter's rich display)."""
        return printer().to_html(self)


class Block:
    """A list of operations with arguments; ``parent`` is the enclosing region."""

    __slots__ = ("arguments", "operations", "parent")

    arguments: list[BlockArgument]
    operations: list[Operation]
    parent: Region | None

    def __init__(self, arg_types: Iterable[Type] = ()) -> None:
        self.arguments = []
        self.operations = []
        self.parent = None
        for t in arg_types:
            self.add_argument(t)

    def add_argument(self, type: Type, loc: Location | None = None) -> BlockArgument:
        arg = BlockArgument(type, self, len(self.arguments), loc)
        self.arguments.append(arg)
        return arg

    def erase_argument(self, index: int) -> None:
        del self.arguments[index]
        for i, a in enumerate(self.arguments):
            a.index = i

    @property
    def parent_op(self) -> Operation | None:
        return self.parent.parent if self.parent is not None else None

    @property
    def terminator(self) -> Operation | None:
        return self.operations[-1] if self.operations else None

    def append(self, op: Operation) -> Operation:
        op.parent = self
        self.operations.append(op)
        return op

    def insert(self, index: int, op: Operation) -> Operation:
        op.parent = self
        self.operations.insert(index, op)
        return op

    def insert_before(self, anchor: Operation, op: Operation) -> Operation:
        return self.insert(self.operations.index(anchor), op)

    def insert_after(self, anchor: Operation, op: Operation) -> Operation:
        return self.insert(self.operations.index(anchor) + 1, op)

    def index_of(self, op: Operation) -> int:
        for i, o in enumerate(self.operations):
            if o is op:
                return i
        raise ValueError(f"{op!r} is not in this block")

    def clone_into(self, region: Region, mapping: dict[Value, Value]) -> Block:
        new = Block()
        region.add_block(new)
        for arg in self.arguments:
            fresh = new.add_argument(arg.type, arg.loc)
            fresh.name = arg.name
            mapping[arg] = fresh
        return new

    def __repr__(self) -> str:
        return f"<Block with {len(self.operations)} ops>"


class Region:
    """A list of blocks owned by an operation."""

    __slots__ = ("blocks", "parent")

    blocks: list[Block]
    parent: Operation | None

    def __init__(self, blocks: Iterable[Block] = ()) -> None:
        self.blocks = []
        self.parent = None
        for b in blocks:
            self.add_block(b)

    def add_block(self, block: Block | None = None) -> Block:
        block = block if block is not None else Block()
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def entry(self) -> Block:
        return self.blocks[0]

    @property
    def is_empty(self) -> bool:
        return not self.blocks

    def ops(self) -> Iterator[Operation]:
        for block in self.blocks:
            yield from block.operations

    def walk(self) -> Iterator[Operation]:
        for block in self.blocks:
            for op in list(block.operations):
                yield from op.walk()

    def clone(self, mapping: dict[Value, Value] | None = None) -> Region:
        if mapping is None:
            mapping = {}
        new = Region()
        # Create all blocks first so that branches may refer to later blocks (a successor is
        # always a block of the branch's own region).
        blocks = {block: block.clone_into(new, mapping) for block in self.blocks}
        for old_block, new_block in blocks.items():
            for op in old_block.operations:
                new_block.append(op.clone(mapping, blocks))
        return new


def replace_uses(root: Operation | Region | Block, old: Value, new: Value) -> int:
    """Replace every use of ``old`` by ``new`` in ops nested in ``root``; return the count."""
    if isinstance(root, Operation):
        ops: Iterable[Operation] = root.walk()
    elif isinstance(root, Region):
        ops = root.walk()
    else:
        ops = (o for op in root.operations for o in op.walk())
    count = 0
    for op in ops:
        operands = op.operands
        for i, v in enumerate(operands):
            if v is old:
                operands[i] = new
                count += 1
    return count


def uses_of(root: Operation | Region, value: Value) -> list[tuple[Operation, int]]:
    """``(op, operand index)`` of every use of ``value`` within ``root``."""
    ops = root.walk()
    return [(op, i) for op in ops for i, v in enumerate(op.operands) if v is value]


def block_of(value: Value) -> Block | None:
    return value.parent_block


class Module:
    """A parsed or built module: the ``builtin.module`` operation and its source.

    ``implicit`` says that the reader made the module to hold the top-level ops of a text
    that had none (mlir-opt's implicit module)."""

    __slots__ = ("file_metadata", "implicit", "operation", "source")

    def __init__(
        self,
        operation: Operation,
        source=None,
        file_metadata: str | None = None,
        implicit: bool = False,
    ) -> None:
        self.operation = operation
        self.source = source
        self.file_metadata = file_metadata  # a trailing `{-# ... #-}` block, kept verbatim
        self.implicit = implicit

    @property
    def body(self) -> Block:
        return self.operation.regions[0].blocks[0]

    @property
    def ops(self) -> list[Operation]:
        return self.body.operations

    def walk(self) -> Iterator[Operation]:
        return self.operation.walk()

    def functions(self) -> list[Operation]:
        """Function-like ops (``func.func``, ``ml_program.func``...) anywhere in the module."""
        return [
            op for op in self.operation.walk() if (d := op.op_def) is not None and d.has(FUNCTION)
        ]

    def function(self, name: str) -> Operation:
        for op in self.functions():
            sym = op.properties.get("sym_name")
            if sym is not None and getattr(sym, "value", None) == name:
                return op
        raise KeyError(f"no function named @{name}")

    def clone(self) -> Module:
        return Module(self.operation.clone(), self.source, self.file_metadata, self.implicit)

    def __str__(self) -> str:
        return printer().print_module(self)

    def __repr__(self) -> str:
        return f"<Module with {len(self.ops)} top-level ops>"

    def _repr_html_(self) -> str:
        """The module's MLIR, highlighted (Jupyter's rich display)."""
        return printer().to_html(self)

"""Random affine loop nests as MLIR text, for differential testing of execution and transforms.

``nests()`` is a hypothesis strategy drawing a :class:`Nest`: a module with one public
function ``@nest`` whose arguments are memrefs of static shape (1-3 arrays, rank 1-2,
sizes 3-8, element type f32 or i32) and whose body is a random tree of

- ``affine.for`` loops with constant or ``max``/``min`` bounds over outer induction
  variables and steps 1-3,
- ``affine.if`` guards (with and without ``else``) on bounds, differences, equalities and
  ``mod`` of the ivs,
- stores ``A[s(ivs)] = e`` where every subscript is ``(affine expr) mod size`` (so every
  access is in bounds; expressions mix sums, constant multiples and ``floordiv``) and ``e``
  combines loads and constants with add/sub/max and a multiplication by a constant,
- ``iter_args`` reductions, and race-free ``affine.parallel`` loops (each iteration writes
  its own row of one array, which the loop does not otherwise read; or a ``reduce``).

Every nest verifies, is accepted by mlir-opt 22, runs in at most a few thousand iterations
and has a defined result; the statement order is the only thing a schedule may not change.
Usage::

    from hypothesis import given
    from nestgen import nests

    @given(nests())
    def test_something(nest):
        module = affine.parse(nest.text)
"""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st


@dataclass(frozen=True)
class Nest:
    """A generated kernel: MLIR ``text`` of a module with the public function ``name``."""

    text: str
    name: str
    shapes: tuple[tuple[int, ...], ...]
    element: str

    def __str__(self) -> str:
        return self.text


class _Writer:
    """Builds the function body: fresh SSA names, indentation, the arrays in scope."""

    def __init__(self, draw: st.DrawFn, shapes: list[tuple[int, ...]], element: str) -> None:
        self.draw = draw
        self.shapes = shapes
        self.element = element
        self.lines: list[str] = []
        self.depth = 1
        self.count = 0
        self.budget = 10  # statements still to generate

    def fresh(self, prefix: str) -> str:
        self.count += 1
        return f"%{prefix}{self.count}"

    def emit(self, text: str) -> None:
        self.lines.append("  " * self.depth + text)

    def type_of(self, array: int) -> str:
        dims = "x".join(map(str, self.shapes[array]))
        return f"memref<{dims}x{self.element}>"

    # -- expressions

    def affine_expr(self, ivs: list[str]) -> str:
        """A non-negative-or-not affine expression of the ivs (terms, floordiv, constant)."""
        draw = self.draw
        terms = []
        for iv in ivs:
            coefficient = draw(st.integers(-2, 3))
            if coefficient == 1:
                terms.append(iv)
            elif coefficient:
                terms.append(f"{iv} * {coefficient}")
        constant = draw(st.integers(0, 9))
        expr = " + ".join(terms + [str(constant)])
        if terms and draw(st.booleans()):
            expr = f"({expr}) floordiv {draw(st.integers(2, 3))}"
        return expr

    def subscript(self, array: int, ivs: list[str]) -> str:
        return ", ".join(f"({self.affine_expr(ivs)}) mod {size}" for size in self.shapes[array])

    def load(self, ivs: list[str], array: int | None = None) -> str:
        if array is None:
            array = self.draw(st.integers(0, len(self.shapes) - 1))
        value = self.fresh("v")
        self.emit(
            f"{value} = affine.load %A{array}[{self.subscript(array, ivs)}] : {self.type_of(array)}"
        )
        return value

    def constant(self) -> str:
        value = self.fresh("c")
        if self.element == "f32":
            number = self.draw(st.sampled_from(["0.5", "1.0", "-0.25", "2.0"]))
        else:
            number = str(self.draw(st.integers(-3, 5)))
        self.emit(f"{value} = arith.constant {number} : {self.element}")
        return value

    def combine(self, a: str, b: str) -> str:
        float_ops = {
            "add": "arith.addf",
            "sub": "arith.subf",
            "max": "arith.maximumf",
            "scale": "arith.mulf",
        }
        int_ops = {
            "add": "arith.addi",
            "sub": "arith.subi",
            "max": "arith.maxsi",
            "scale": "arith.muli",
        }
        kind = self.draw(st.sampled_from(["add", "sub", "max", "scale"]))
        op = (float_ops if self.element == "f32" else int_ops)[kind]
        if kind == "scale":
            b = self.constant()
        value = self.fresh("e")
        self.emit(f"{value} = {op} {a}, {b} : {self.element}")
        return value

    def value(self, ivs: list[str], avoid: int | None = None) -> str:
        """An expression of loads (not of array ``avoid``) and constants."""
        arrays = [a for a in range(len(self.shapes)) if a != avoid] or [None]

        def operand() -> str:
            array = self.draw(st.sampled_from(arrays))
            if array is None:
                return self.constant()
            return self.load(ivs, array)

        result = operand()
        for _ in range(self.draw(st.integers(0, 2))):
            result = self.combine(result, operand())
        return result

    # -- statements

    def block(self, ivs: list[str], depth: int) -> None:
        for _ in range(self.draw(st.integers(1, 3))):
            if self.budget <= 0:
                return
            self.budget -= 1
            self.statement(ivs, depth)

    def statement(self, ivs: list[str], depth: int) -> None:
        kinds = ["store"]
        if depth < 3:
            kinds += ["loop", "loop", "reduce", "parallel"]
        if ivs:
            kinds.append("if")
        kind = self.draw(st.sampled_from(kinds))
        getattr(self, kind)(ivs, depth)

    def store(self, ivs: list[str], depth: int) -> None:
        array = self.draw(st.integers(0, len(self.shapes) - 1))
        value = self.value(ivs)
        self.emit(
            f"affine.store {value}, %A{array}[{self.subscript(array, ivs)}] : {self.type_of(array)}"
        )

    def bounds(self, ivs: list[str]) -> str:
        draw = self.draw
        lower = draw(st.integers(0, 2))
        upper = draw(st.integers(lower + 1, 8))
        lb, ub = str(lower), str(upper)
        if ivs and draw(st.booleans()):
            iv = draw(st.sampled_from(ivs))
            lb = f"max affine_map<(d0) -> ({lower}, d0 - {draw(st.integers(0, 3))})>({iv})"
        if ivs and draw(st.booleans()):
            iv = draw(st.sampled_from(ivs))
            ub = f"min affine_map<(d0) -> ({upper}, d0 + {draw(st.integers(1, 4))})>({iv})"
        step = draw(st.sampled_from([1, 1, 2, 3]))
        return f"{lb} to {ub}" + (f" step {step}" if step != 1 else "")

    def loop(self, ivs: list[str], depth: int) -> None:
        iv = self.fresh("i")
        self.emit(f"affine.for {iv} = {self.bounds(ivs)} {{")
        self.depth += 1
        self.block(ivs + [iv], depth + 1)
        self.depth -= 1
        self.emit("}")

    def reduce(self, ivs: list[str], depth: int) -> None:
        init = self.constant()
        iv, acc, result = self.fresh("i"), self.fresh("acc"), self.fresh("r")
        self.emit(
            f"{result} = affine.for {iv} = {self.bounds(ivs)} iter_args({acc} = {init}) -> ({self.element}) {{"
        )
        self.depth += 1
        step = self.combine(acc, self.value(ivs + [iv]))
        self.emit(f"affine.yield {step} : {self.element}")
        self.depth -= 1
        self.emit("}")
        array = self.draw(st.integers(0, len(self.shapes) - 1))
        self.emit(
            f"affine.store {result}, %A{array}[{self.subscript(array, ivs)}] : {self.type_of(array)}"
        )

    def parallel(self, ivs: list[str], depth: int) -> None:
        array = self.draw(st.integers(0, len(self.shapes) - 1))
        iv = self.fresh("p")
        rows = self.shapes[array][0]
        if self.draw(st.booleans()):
            kind = "addf" if self.element == "f32" else "addi"
            result = self.fresh("r")
            self.emit(
                f'{result} = affine.parallel ({iv}) = (0) to ({rows}) reduce ("{kind}") -> ({self.element}) {{'
            )
            self.depth += 1
            self.emit(f"affine.yield {self.value(ivs + [iv])} : {self.element}")
            self.depth -= 1
            self.emit("}")
            self.emit(
                f"affine.store {result}, %A{array}[{self.subscript(array, ivs)}] : {self.type_of(array)}"
            )
            return
        self.emit(f"affine.parallel ({iv}) = (0) to ({rows}) {{")
        self.depth += 1
        value = self.value(ivs + [iv], avoid=array)
        rest = [self.affine_expr(ivs) for _ in self.shapes[array][1:]]
        subscript = ", ".join(
            [iv] + [f"({e}) mod {s}" for e, s in zip(rest, self.shapes[array][1:])]
        )
        self.emit(f"affine.store {value}, %A{array}[{subscript}] : {self.type_of(array)}")
        self.depth -= 1
        self.emit("}")

    def if_(self, ivs: list[str], depth: int) -> None:
        draw = self.draw
        dims = ", ".join(f"d{k}" for k in range(len(ivs)))
        constraints = []
        for _ in range(draw(st.integers(1, 2))):
            k = draw(st.integers(0, len(ivs) - 1))
            j = draw(st.integers(0, len(ivs) - 1))
            c = draw(st.integers(0, 4))
            constraints.append(
                draw(
                    st.sampled_from(
                        [
                            f"d{k} - {c} >= 0",
                            f"-d{k} + {c} >= 0",
                            f"d{k} - d{j} + {c - 2} >= 0",
                            f"d{k} mod 2 == 0",
                            f"d{k} - {c} == 0",
                        ]
                    )
                )
            )
        condition = f"affine_set<({dims}) : ({', '.join(constraints)})>"
        self.emit(f"affine.if {condition}({', '.join(ivs)}) {{")
        self.depth += 1
        self.block(ivs, depth)
        self.depth -= 1
        if draw(st.booleans()):
            self.emit("} else {")
            self.depth += 1
            self.block(ivs, depth)
            self.depth -= 1
        self.emit("}")

    # ``if`` is a keyword; statement kinds are looked up by name.
    locals()["if"] = if_


@st.composite
def nests(draw: st.DrawFn, element: str | None = None) -> Nest:
    """A random kernel (see the module docstring); ``element`` fixes f32 or i32."""
    if element is None:
        element = draw(st.sampled_from(["f32", "f32", "i32"]))
    shapes = [
        tuple(draw(st.integers(3, 8)) for _ in range(draw(st.integers(1, 2))))
        for _ in range(draw(st.integers(1, 3)))
    ]
    writer = _Writer(draw, shapes, element)
    writer.block([], 0)
    params = ", ".join(f"%A{a}: {writer.type_of(a)}" for a in range(len(shapes)))
    body = "\n".join(writer.lines)
    text = f"func.func @nest({params}) {{\n{body}\n  return\n}}\n"
    return Nest(text, "nest", tuple(shapes), element)

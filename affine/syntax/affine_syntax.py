"""The affine section of the MLIR reader: affine expressions, maps and integer sets
(``(d0)[s0] -> (d0 + s0)``, ``(d0) : (d0 >= 0)``), with the seed syntax's ``size`` and
call-style divisions.

Invariant: an expression is built with :mod:`affine.math.expr`'s simplifications, as
mlir-opt builds it; a non-affine product or division is an error at mlir-opt's location.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, TypeVar, overload

from affine.ir.diagnostics import ParseError
from affine.math.affine_map import AffineMap
from affine.math.expr import AffineExpr, AffineExprError, constant, dim, symbol
from affine.math.integer_set import IntegerSet
from affine.syntax.lexer import lex
from affine.syntax.reader import TokenReader, int_value

Reader = TypeVar("Reader", bound="AffineSyntaxReader")


class AffineSyntaxReader(TokenReader):
    """Reads affine expressions, maps and sets; identifiers are resolved by a ``lookup_id``
    function of the reader (bare names of a map's lists, or SSA names in op syntax)."""

    # -- affine maps and integer sets ------------------------------------------------------

    def _parse_identifier_list(
        self,
        names: dict[str, AffineExpr],
        make: Callable[[int], AffineExpr],
        close: str,
        what: str,
    ) -> int:
        """``d0, d1, ...`` up to ``close`` (already past the opening bracket); returns the count."""
        count = 0
        if self.accept(close):
            return 0
        while True:
            if self.kind != "id":
                self.wrong_token("expected bare identifier")
            name = self.tok
            if name in names:
                self.error(f"redefinition of identifier '{name}'")
            names[name] = make(count)
            count += 1
            self.advance()
            if not self.accept(","):
                break
        self.expect(close, f" in {what}")
        return count

    def parse_affine_map_body(self) -> AffineMap:
        """``(d0, d1) -> (d1, d0)`` written without ``affine_map<>``."""
        offset = self.start
        result = self._parse_map_or_set_body(want="map")
        if not isinstance(result, AffineMap):
            self.error("expected affine map", offset)
        return result

    def _parse_map_or_set_body(self, want: str | None = None) -> AffineMap | IntegerSet:
        """``(d0, ..)[s0, ..] -> (exprs)`` or ``(d0, ..)[s0, ..] : (constraints)``."""
        names: dict[str, AffineExpr] = {}
        self.expect("(", " in dimensional identifier list")
        num_dims = self._parse_identifier_list(names, dim, ")", "dimensional identifier list")
        num_symbols = 0
        if self.accept("["):
            num_symbols = self._parse_identifier_list(names, symbol, "]", "symbol list")
        lookup_id = name_resolver(names)
        if self.kind == "->":
            if want == "set":
                self.error("expected ':' in integer set")
            self.advance()
            self.expect("(", " in affine map range")
            results: list[AffineExpr] = []
            if not self.accept(")"):
                while True:
                    results.append(self.parse_affine_expr(lookup_id))
                    if not self.accept(","):
                        break
                self.expect(")", " in affine map range")
            size = None
            if self.at_keyword("size"):
                size = self._parse_seed_size(lookup_id, num_dims)
            return AffineMap.get(num_dims, num_symbols, results, size)
        if self.kind == ":":
            if want == "map":
                self.wrong_token("expected '->' or ':'")
            self.advance()
            self.expect("(", " in integer set constraint list")
            constraints: list[AffineExpr] = []
            flags: list[bool] = []
            if not self.accept(")"):
                while True:
                    expr, is_eq = self._parse_constraint(lookup_id)
                    constraints.append(expr)
                    flags.append(is_eq)
                    if not self.accept(","):
                        break
                self.expect(")", " in integer set constraint list")
            if not constraints:
                return IntegerSet.get(num_dims, num_symbols, [constant(0)], [True])
            return IntegerSet.get(num_dims, num_symbols, constraints, flags)
        self.wrong_token("expected '->' or ':'")

    def _parse_seed_size(self, lookup_id, num_dims: int):
        self.advance()  # 'size'
        self.expect("(", " after 'size'")
        entries: list[tuple[AffineExpr, ...]] = []
        while True:
            if self.at_keyword("min") and lex(self.text, self.end)[0] == "(":
                self.advance()
                self.advance()
                options = [self.parse_affine_expr(lookup_id)]
                while self.accept(","):
                    options.append(self.parse_affine_expr(lookup_id))
                self.expect(")")
                entries.append(tuple(options))
            else:
                entries.append((self.parse_affine_expr(lookup_id),))
            if not self.accept(","):
                break
        self.expect(")", " at end of size list")
        for entry in entries:
            for e in entry:
                if not e.is_symbolic_or_constant():
                    self.error("only symbols and constants may appear in a map's size")
        return entries

    @overload
    def _parse_seed_map_or_set(self, want: Literal["map"]) -> AffineMap: ...

    @overload
    def _parse_seed_map_or_set(self, want: Literal["set"]) -> IntegerSet: ...

    @overload
    def _parse_seed_map_or_set(self, want: None = None) -> AffineMap | IntegerSet: ...

    def _parse_seed_map_or_set(self, want: str | None = None) -> AffineMap | IntegerSet:
        """A seed-syntax map or set written without ``affine_map<...>`` (the one ``want``
        names, when given: the other kind is an error)."""
        return self._parse_map_or_set_body(want)

    def _parse_constraint(self, lookup_id) -> tuple[AffineExpr, bool]:
        lhs = self.parse_affine_expr(lookup_id)
        # mlir-opt's tokens: '>' then '=' (a blank between them is allowed), each tried in
        # turn after the one before was taken
        if self.accept(">") and self.accept("="):
            return self._sub(lhs, self.parse_affine_expr(lookup_id)), False
        if self.accept("<") and self.accept("="):
            return self._sub(self.parse_affine_expr(lookup_id), lhs), False
        if self.accept("=") and self.accept("="):
            return self._sub(lhs, self.parse_affine_expr(lookup_id)), True
        self.error("expected '== affine-expr' or '>= affine-expr' at end of affine constraint")

    @staticmethod
    def _sub(a: AffineExpr, b: AffineExpr) -> AffineExpr:
        return a - b

    def parse_affine_expr(self: Reader, lookup_id: Callable[[Reader], AffineExpr]) -> AffineExpr:
        """An affine expression; ``lookup_id`` resolves identifiers (and ``%ssa`` names)."""
        self._enter()
        result = self._affine_low(None, None, lookup_id)
        self._leave()
        return result

    def _affine_binary(self, op: str, lhs: AffineExpr, rhs: AffineExpr, offset: int) -> AffineExpr:
        try:
            if op == "+":
                return lhs + rhs
            if op == "-":
                return lhs - rhs
            if op == "*":
                if not lhs.is_symbolic_or_constant() and not rhs.is_symbolic_or_constant():
                    self.error(
                        "non-affine expression: at least one of the multiply operands has to "
                        "be either a constant or symbolic",
                        offset,
                    )
                return lhs * rhs
            if not rhs.is_symbolic_or_constant():
                self.error(
                    f"non-affine expression: right operand of {op} has to be either a "
                    "constant or symbolic",
                    offset,
                )
            return lhs.binary(op, rhs)
        except AffineExprError as e:
            self.error(str(e), offset)

    def _high_op(self) -> str | None:
        if self.kind == "*":
            return "*"
        if self.kind == "id":
            word = self.tok
            if word in ("floordiv", "ceildiv", "mod"):
                return word
        return None

    def _affine_low(self, llhs, llhs_op, lookup_id) -> AffineExpr:
        while True:
            lhs = self._affine_operand(lookup_id, llhs is not None)
            op_offset = self.start
            high = self._high_op()
            if high is not None:
                self.advance()
                lhs = self._affine_high(lhs, high, op_offset, lookup_id)
            if llhs is not None:
                lhs = self._affine_binary(llhs_op, llhs, lhs, self.start)
            if self.kind == "+" or self.kind == "-":
                llhs, llhs_op = lhs, self.kind
                self.advance()
                continue
            return lhs

    def _affine_high(self, lhs, op, op_offset, lookup_id) -> AffineExpr:
        while True:
            rhs = self._affine_operand(lookup_id, True)
            high = self._high_op()
            # mlir-opt reports a non-affine product or division at the next operator when
            # one follows (its parser's location), else at the operator itself.
            where = self.start if high is not None else op_offset
            lhs = self._affine_binary(op, lhs, rhs, where)
            if high is None:
                return lhs
            op, op_offset = high, self.start
            self.advance()

    def _index_constant(self) -> int:
        """The integer literal at the current token, which must fit a signed 64-bit index."""
        value = int_value(self.tok)
        if value >= 1 << 63:
            self.error("constant too large for index")
        self.advance()
        return value

    def _affine_operand(self, lookup_id, has_lhs: bool = False) -> AffineExpr:
        """One operand; ``has_lhs`` when it is the right side of a binary operator."""
        kind = self.kind
        if kind == "int":
            value = self._index_constant()
            return constant(value)
        if kind == "(":
            self._enter()
            self.advance()
            if self.kind == ")":
                self.error("no expression inside parentheses")
            expr = self._affine_low(None, None, lookup_id)
            self.expect(")")
            self._leave()
            return expr
        if kind == "-":
            self.advance()
            if self.kind == "int":
                return constant(-self._index_constant())
            try:
                operand = self._affine_operand(lookup_id, has_lhs)
            except ParseError as error:  # mlir-opt adds its own error where the operand failed
                error.followed_by += (("missing operand of negation", self.loc()),)
                raise
            return operand * -1
        if kind == "id":
            word = self.tok
            if word in ("floordiv", "ceildiv", "mod") and lex(self.text, self.end)[0] == "(":
                # seed syntax: floordiv(expr, divisor)
                call_offset = self.start
                self.advance()
                self.advance()
                lhs = self.parse_affine_expr(lookup_id)
                self.expect(",", f" in {word}(...)")
                rhs = self.parse_affine_expr(lookup_id)
                self.expect(")", f" in {word}(...)")
                return self._affine_binary(word, lhs, rhs, call_offset)
            return lookup_id(self)
        if kind == "%":
            return lookup_id(self)
        if has_lhs:
            self.error("missing right operand of binary operator")
        if kind in ("+", "*"):
            self.error("missing left operand of binary operator")
        self.error("expected affine expression")


def name_resolver(names: dict[str, AffineExpr]) -> Callable[[AffineSyntaxReader], AffineExpr]:
    def lookup_id(p: AffineSyntaxReader) -> AffineExpr:
        if p.kind == "%":  # an SSA name where only the map's own names can be used
            p.wrong_token("unexpected ssa identifier")
        if p.kind != "id":
            p.error("expected bare identifier")
        expr = names.get(p.tok)
        if expr is None:
            p.wrong_token("use of undeclared identifier")
        p.advance()
        return expr

    return lookup_id

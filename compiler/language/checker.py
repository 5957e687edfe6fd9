"""Type-checking a parse tree into the IR.

An expression is checked once, when its variant is compiled: unknown names, unknown
functions, wrong argument types and wrong result types are errors with a line and
column inside the expression. What comes out is a typed IR tree (ir.py) built from the
parse tree (never from the author's text); optimisations are passes over it (passes.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from ..errors import did_you_mean, quoted
from ..model.tiles import TileError, kind_of
from ..records import FrozenRecord
from . import ir
from .parser import ExpressionError, parse, position
from .types import ANY, BOOL, INT, Type, compatible, is_collection, list_of, set_of
from .vocabulary import ATTR_VALUES, ATTRS, FUNCTIONS, Fact

if TYPE_CHECKING:
    from lark import Token, Tree


class Env(FrozenRecord):
    """The names an expression may use: name -> the IR node that reads it (a fact of the
    context, a bound name, a definition)."""

    names: dict[str, ir.Node]

    def __init__(self, names: dict[str, ir.Node]) -> None:
        vars(self).update(names=names)

    @classmethod
    def of(cls, names: Mapping[str, Type | Fact]) -> Env:
        """An environment of context facts (plain facts for bare types)."""
        return cls({n: ir.FactRead(f if isinstance(f, Fact) else Fact(n, f)) for n, f in names.items()})

    def bind(self, name: str, node: ir.Node) -> Env:
        names = dict(self.names)
        names[name] = node
        return Env(names)


#: Bounds on one expression (ir.py says how each is measured), far above what the shipped
#: variants need (at most 54,434 steps, 516 characters, 8 levels), far below what would
#: hang a scorer or exhaust memory: a file of a few lines must not ask for either.
MAX_COST = 20_000_000
MAX_CHARS = 100_000
#: Python refuses source nested 200 parentheses deep; each level here writes at most two.
MAX_DEPTH = 80
#: Bound on the steps of every condition and value of a pattern table together (what one
#: arrangement of a hand may cost), far above the shipped variants' (at most 278,621):
#: many expressions each within MAX_COST must not add up to a scorer that never ends.
MAX_TOTAL_COST = 100_000_000


def within_bounds(node: ir.Node) -> str | None:
    """Why ``node`` is beyond the bounds an expression must keep, or None."""
    if node.nesting > MAX_DEPTH:
        return f"the expression nests too deeply: {node.nesting} levels of operators and calls, at most {MAX_DEPTH}"
    if node.chars > MAX_CHARS:
        return (f"the expression is too large once its definitions are written out where they are used: "
                f"about {node.chars:,} characters, at most {MAX_CHARS:,}")
    if node.cost > MAX_COST:
        return (f"the expression may take too long to evaluate: up to {node.cost:,} steps, at most {MAX_COST:,} "
                f"(a quantifier with several names tries every choice of that many elements)")
    return None


def _err(tree: Tree | Token, message: str) -> ExpressionError:
    line, col = position(tree)
    return ExpressionError(message, line, col)


class _Checker:
    def __init__(self) -> None:
        self.depth = 0

    def expect(self, tree: Tree | Token, env: Env, want: Type, what: str) -> ir.Node:
        node = self.visit(tree, env)
        if not compatible(node.type, want):
            raise _err(tree, f"{what} must be a {want}, got a {node.type}")
        return node

    def visit(self, tree: Tree | Token, env: Env) -> ir.Node:
        from lark import Token

        if isinstance(tree, Token):  # pragma: no cover - the grammar wraps tokens in rules
            raise _err(tree, f"unexpected {tree!s}")
        method: Callable[[Tree, Env], ir.Node] | None = getattr(self, "v_" + tree.data.rstrip("_"), None)
        if method is None:  # pragma: no cover
            raise _err(tree, f"unsupported construct {tree.data}")
        node = method(tree, env)
        problem = within_bounds(node)  # the innermost part beyond them is the one named
        if problem is not None:
            raise _err(tree, problem)
        return node

    # literals
    def v_int(self, tree: Tree, env: Env) -> ir.Node:
        digits = str(tree.children[0])
        if len(digits) > 20 or int(digits) > ir.MAX_NUMBER:  # (int() refuses 4,300 digits)
            raise _err(tree, f"the number {quoted(digits)} is too large: a number is at most 2 ** 64 "
                             f"({ir.MAX_NUMBER:,})")
        return ir.Const(int(digits))

    def v_string(self, tree: Tree, env: Env) -> ir.Node:
        return ir.Const(str(tree.children[0])[1:-1])

    def v_tile(self, tree: Tree, env: Env) -> ir.Node:
        try:
            kind = kind_of(str(tree.children[0]))
        except TileError as exc:  # pragma: no cover - the terminal admits valid shapes only
            raise _err(tree, str(exc)) from None
        return ir.TileConst(kind)

    def v_true(self, tree: Tree, env: Env) -> ir.Node:
        return ir.Const(True)

    def v_false(self, tree: Tree, env: Env) -> ir.Node:
        return ir.Const(False)

    def v_name(self, tree: Tree, env: Env) -> ir.Node:
        name = str(tree.children[0])
        if name not in env.names:
            known = ", ".join(sorted(env.names))
            raise _err(tree, f"unknown name {quoted(name)}{did_you_mean(name, env.names)}: expected one of {known}")
        return env.names[name]

    # operators
    def v_or(self, tree: Tree, env: Env) -> ir.Node:
        return ir.BoolOp("or", tuple(self.expect(c, env, BOOL, "each side of 'or'") for c in tree.children))

    def v_and(self, tree: Tree, env: Env) -> ir.Node:
        return ir.BoolOp("and", tuple(self.expect(c, env, BOOL, "each side of 'and'") for c in tree.children))

    def v_not(self, tree: Tree, env: Env) -> ir.Node:
        return ir.Unary("not", self.expect(tree.children[0], env, BOOL, "the operand of 'not'"))

    def v_neg(self, tree: Tree, env: Env) -> ir.Node:
        return ir.Unary("-", self.expect(tree.children[0], env, INT, "the operand of '-'"))

    def v_pow(self, tree: Tree, env: Env) -> ir.Node:
        base = self.expect(tree.children[0], env, INT, "the base of '**'")
        exp = self.expect(tree.children[-1], env, INT, "the exponent of '**'")
        lo, hi = exp.span
        if (hi is not None and hi < 0) or (lo is not None and lo > 64):
            raise _err(tree.children[-1], "the exponent of '**' is always outside 0 to 64")
        least = base.span[0]  # (the bit count first: a ** lo is worked out only when it is small)
        if least is not None and least >= 2 and lo is not None and lo >= 0 and (
                (least.bit_length() - 1) * lo > 64 or least ** lo > ir.MAX_NUMBER):
            raise _err(tree, f"'**' is always beyond 2 ** 64, the largest number: at least {least} ** {lo}")
        return ir.Pow(base, exp)

    def v_arith(self, tree: Tree, env: Env) -> ir.Node:
        children = tree.children
        node = self.expect(children[0], env, INT, f"the left side of '{children[1]}'")
        for i in range(1, len(children), 2):
            op = str(children[i])
            right = self.expect(children[i + 1], env, INT, f"the right side of '{op}'")
            if op in ("//", "%") and right.span == (0, 0):
                raise _err(children[i + 1], f"the right side of '{op}' is always 0: a division by zero")
            # A divisor that cannot be 0 cannot fail; any other is checked at run time. So is
            # a product the spans of its sides do not keep within the bound of a number.
            lo, hi = right.span
            checked = op in ("//", "%") and not ((lo is not None and lo > 0) or (hi is not None and hi < 0))
            checked = checked or (op == "*" and None in ir.Arith(op, node, right).span)
            node = ir.Arith(op, node, right, checked)
        return node

    def v_compare(self, tree: Tree, env: Env) -> ir.Node:
        children = tree.children
        left = self.visit(children[0], env)
        left_t = left.type
        operands = [left]
        ops = []
        for i in range(1, len(children), 2):
            op = " ".join(str(children[i]).split())
            right = self.visit(children[i + 1], env)
            right_t = right.type
            if op in ("in", "not in"):
                if not is_collection(right_t) or not compatible(right_t.item or ANY, left_t):
                    raise _err(children[i + 1], f"'{op}' needs a list of {left_t} on its right, got a {right_t}")
            elif op in ("==", "!="):
                if not compatible(left_t, right_t):
                    raise _err(children[i], f"cannot compare a {left_t} with a {right_t}")
                _known_text(operands[-1], right, children[i + 1])
                _known_text(right, operands[-1], children[i - 1])
            else:
                for side, t in ((children[i - 1], left_t), (children[i + 1], right_t)):
                    if not compatible(t, INT):  # an element of an empty list [] may be a number
                        raise _err(side, f"'{op}' compares numbers, got a {t}")
            ops.append(op)
            operands.append(right)
            left_t = right_t
        return ir.Compare(tuple(operands), tuple(ops))

    def v_conditional(self, tree: Tree, env: Env) -> ir.Node:
        then = self.visit(tree.children[0], env)
        cond = self.expect(tree.children[1], env, BOOL, "the condition after 'if'")
        orelse = self.visit(tree.children[2], env)
        if not compatible(then.type, orelse.type):
            raise _err(tree, f"both branches of 'if ... else' must have one type, got {then.type} and {orelse.type}")
        return ir.IfElse(then, cond, orelse)

    def v_attr(self, tree: Tree, env: Env) -> ir.Node:
        obj = self.visit(tree.children[0], env)
        name = str(tree.children[1])
        attrs = ATTRS.get(obj.type)
        if attrs is None:
            raise _err(tree.children[1], f"a {obj.type} has no attribute {quoted(name)}")
        if name not in attrs:
            raise _err(tree.children[1], f"a {obj.type} has no attribute {quoted(name)}{did_you_mean(name, attrs)}: "
                                         f"expected one of {', '.join(sorted(attrs))}")
        return ir.Attr(obj, name, attrs[name][0])

    def v_index(self, tree: Tree, env: Env) -> ir.Node:
        seq = self.visit(tree.children[0], env)
        index = self.expect(tree.children[1], env, INT, "an index")
        if seq.type.name != "list":
            raise _err(tree.children[0], f"only a list can be indexed, got a {seq.type}")
        if not isinstance(seq, ir.ListLit):
            raise _err(tree.children[0], "only a list written out can be indexed, e.g. [1, 2, 4, 8][fan]")
        lo, hi = index.span
        last = len(seq.items) - 1
        if lo is None or hi is None or lo < 0 or hi > last:
            shown = f"{'any number' if lo is None else lo} to {'any number' if hi is None else hi}"
            bound = "a fact the variant bounds (total under a cap), or min(x, N)"
            raise _err(tree.children[1], f"the index may fall outside the list: it can be {shown}, the list's "
                                         f"places are 0 to {last}: expected {bound}")
        return ir.Index(seq, index, seq.type.item or ANY)

    def _items(self, trees: list[Tree], env: Env, what: str) -> tuple[Type, tuple[ir.Node, ...]]:
        item_t = ANY
        nodes = []
        for child in trees:
            node = self.visit(child, env)
            if not compatible(item_t, node.type):
                raise _err(child, f"the elements of a {what} must have one type, got {item_t} and {node.type}")
            if item_t == ANY:
                item_t = node.type
            nodes.append(node)
        return item_t, tuple(nodes)

    def v_list(self, tree: Tree, env: Env) -> ir.Node:
        item_t, items = self._items([c for c in tree.children if c is not None], env, "list")
        return ir.ListLit(items, list_of(item_t))

    def v_set(self, tree: Tree, env: Env) -> ir.Node:
        item_t, items = self._items(list(tree.children), env, "collection")
        return ir.SetLit(items, set_of(item_t))

    def v_call(self, tree: Tree, env: Env) -> ir.Node:
        name_tok = tree.children[0]
        name = str(name_tok)
        fn = FUNCTIONS.get(name)
        if fn is None:
            raise _err(name_tok, f"unknown function {quoted(name)}{did_you_mean(name, FUNCTIONS)}: "
                                 f"expected one of {', '.join(sorted(FUNCTIONS))}")
        args = tuple(self.visit(a, env) for a in tree.children[1:] if a is not None)
        try:
            result = fn.check([a.type for a in args])
        except TypeError as exc:
            raise _err(name_tok, str(exc)) from None
        if name == "same":
            return ir.Same(args)
        if name == "distinct":
            return ir.Distinct(args)
        return ir.Call(name, args, result)

    def v_quantifier(self, tree: Tree, env: Env) -> ir.Node:
        quant = str(tree.children[0])
        names = [str(c) for c in tree.children[1:-2]]
        domain_tree, body_tree = tree.children[-2], tree.children[-1]
        domain = self.visit(domain_tree, env)
        if not is_collection(domain.type):
            raise _err(domain_tree, f"{quant}() ranges over a list, got a {domain.type}")
        if len(set(names)) != len(names):
            raise _err(tree, f"{quant}() binds each name once")
        self.depth += 1
        local = env
        bound = []
        for n in names:
            if n in FUNCTIONS:
                raise _err(tree, f"{n!r} is a function name and cannot be bound")
            var = ir.Var(n, self.depth, domain.type.item or ANY)
            bound.append(var)
            local = local.bind(n, var)
        body = self.visit(body_tree, local)
        self.depth -= 1
        if quant == "filter" and len(bound) != 1:
            raise _err(tree, "filter() binds one name")
        if quant == "sum":
            if body.type != INT:
                raise _err(body_tree, f"sum() adds numbers, got a {body.type}")
        elif body.type != BOOL:
            raise _err(body_tree, f"the condition of {quant}() must be a boolean, got a {body.type}")
        result = (list_of(domain.type.item or ANY) if quant == "filter" else INT if quant in ("count", "sum")
                  else BOOL)
        return ir.Quant(quant, tuple(bound), domain, body, result)


def _values_of(node: ir.Node) -> frozenset[str] | None:
    """The texts ``node`` can be, when the vocabulary knows them (a fact's or an attribute's)."""
    while isinstance(node, ir.Def):
        node = node.body
    if isinstance(node, ir.FactRead):
        return node.fact.values
    if isinstance(node, ir.Attr):
        return ATTR_VALUES.get((node.obj.type, node.name))
    return None


def _known_text(node: ir.Node, other: ir.Node, tree: Tree | Token) -> None:
    """Refuse comparing ``node`` with a quoted text it can never be (a misspelt shape id
    would make a condition that never holds)."""
    values = _values_of(node)
    if values is None or not isinstance(other, ir.Const) or not isinstance(other.value, str):
        return
    if other.value not in values:
        raise _err(tree, f"{other.value!r} is not a value it can take{did_you_mean(other.value, values)}: "
                         f"expected one of {', '.join(repr(v) for v in sorted(values))}")


def check(text: str, env: Env, want: Type | None = None, what: str = "the expression") -> ir.Node:
    """Parse and type-check ``text`` in ``env``: its IR; raises :class:`ExpressionError`."""
    tree = parse(text)
    node = _Checker().visit(tree, env)
    if want is not None and not compatible(node.type, want):
        raise ExpressionError(f"{what} must be a {want}, got a {node.type}", *position(tree))
    return node


__all__ = ["MAX_CHARS", "MAX_COST", "MAX_DEPTH", "MAX_TOTAL_COST", "Env", "ExpressionError", "check", "within_bounds"]

"""The typed intermediate representation of checked expressions.

The checker (checker.py) turns a parse tree into these nodes; the passes (passes.py)
rewrite them; the emitter (emit.py) writes Python source from them, once, at the end.
Nodes are immutable and compare by structure (two nodes computing the same thing the
same way are equal and hash alike), so a pass can count and share repeated parts.

Every node knows its ``type`` and, worked out once from its children:

* ``reads``: the context attributes it reads (fact names, and internal attributes such
  as a mask of kinds);
* ``free``: the bound names (quantifier variables) it uses without binding them;
* ``fails``: whether evaluating it can raise (a division by a value that may be zero,
  a power): everything else is pure and total, so it may be moved or shared;
* ``work``: whether it does more than read and compare (a call, a loop, a list built,
  an index, a fact computed on demand): the rough cost the optimiser orders by;
* ``lazy``: whether it reads a fact computed on demand;
* ``size``: the number of nodes (the larger of two repeated parts is shared first);
* ``most``: for a list or collection, the most elements it can hold (0 for a single value);
* ``cost``: an upper bound on the steps evaluating it takes (a quantifier multiplies its
  body's by the choices it ranges over);
* ``chars``: an upper bound on the size of its Python source, definitions written out
  wherever they are used; ``nesting``: how deeply its parts nest;
* ``span``: for a number, the least and the most it can be (None where unbounded), so
  that an index can be checked against its list and a division by a divisor that is
  always 0 refused, when the variant is compiled.

The last three are what the checker bounds, so that a small file cannot ask for a
huge computation or a huge source (a definition used twice by the next, twenty times
over, is a million copies once written out). They are worked out from the children's,
so a tree that shares parts (a definition used in many places) costs nothing to measure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import pairwise
from typing import Any, ClassVar

from .types import BOOL, INT, STR, TILE, Type, is_collection, list_of, set_of
from .types import from_json as type_from_json
from .types import to_json as type_to_json
from .vocabulary import MAX_NUMBER, Fact

Span = tuple[int | None, int | None]
#: The span of a number nothing bounds.
UNBOUNDED: Span = (None, None)


def _within(span: Span) -> Span:
    """``span`` with a bound beyond :data:`MAX_NUMBER` taken as no bound (what is beyond
    fails at run time): the spans worked out from it stay small numbers."""
    lo, hi = span
    return (None if lo is None or lo < -MAX_NUMBER else lo, None if hi is None or hi > MAX_NUMBER else hi)


def _join(*spans: Span) -> Span:
    """The smallest span holding every one of ``spans``."""
    los = [s[0] for s in spans]
    his = [s[1] for s in spans]
    return (None if None in los else min(los), None if None in his else max(his))  # type: ignore[type-var]


class Node:
    """A node of the IR (see the module docstring for the derived properties)."""

    __slots__ = ("type", "key", "_hash", "reads", "free", "fails", "work", "lazy", "size", "most", "cost", "chars",
                 "nesting", "span")
    tag: ClassVar[str] = ""
    #: Does the node itself (not its children) do work, fail, read lazily?
    WORK: ClassVar[bool] = False
    FAILS: ClassVar[bool] = False

    type: Type
    key: tuple[Any, ...]
    _hash: int
    reads: frozenset[str]
    free: frozenset[tuple[str, int]]
    fails: bool
    work: bool
    lazy: bool
    size: int
    most: int
    cost: int
    chars: int
    nesting: int
    span: Span

    def _finish(self, type: Type, own: tuple[Any, ...], children: tuple[Node, ...],
                reads: frozenset[str] = frozenset(), free: frozenset[tuple[str, int]] = frozenset(),
                work: bool = False, lazy: bool = False, fails: bool = False) -> None:
        set_ = object.__setattr__
        set_(self, "type", type)
        # Compared by structure, hashed from the children's hashes: a shared part is hashed
        # once, however often it occurs below.
        set_(self, "key", (self.tag, own, children))
        set_(self, "_hash", hash((self.tag, own, tuple(c._hash for c in children))))
        for c in children:
            reads = reads | c.reads
            free = free | c.free
        set_(self, "reads", reads)
        set_(self, "free", free)
        set_(self, "fails", fails or self.FAILS or any(c.fails for c in children))
        set_(self, "work", work or self.WORK or any(c.work for c in children))
        set_(self, "lazy", lazy or any(c.lazy for c in children))
        set_(self, "size", 1 + sum(c.size for c in children))
        set_(self, "chars", 12 + sum(c.chars for c in children))
        set_(self, "nesting", 1 + max((c.nesting for c in children), default=0))
        most, cost = self._measure(children)
        set_(self, "most", most)
        set_(self, "cost", cost)
        set_(self, "span", _within(self._span()) if type == INT else UNBOUNDED)

    def _span(self) -> Span:
        """The least and the most this number can be (see the module docstring)."""
        return UNBOUNDED

    def _measure(self, children: tuple[Node, ...]) -> tuple[int, int]:
        """(most elements, cost) of this node from its children's: a single value, one step
        more than its parts by default."""
        return 0, 1 + sum(c.cost for c in children)

    def children(self) -> tuple[Node, ...]:
        return ()

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        """This node with other children (in the order of :meth:`children`)."""
        return self

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"IR nodes do not change ({type(self).__name__}.{name})")

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Node) and self._hash == other._hash and self.key == other.key)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key!r}: {self.type}>"

    def walk(self) -> Iterator[Node]:
        """This node and every node below it, parents first."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children()))


def _init(node: Node, **fields: Any) -> None:
    for name, value in fields.items():
        object.__setattr__(node, name, value)


# --------------------------------------------------------------- leaves

class Const(Node):
    """A number, a boolean or a text."""

    __slots__ = ("value",)
    tag = "const"
    value: int | bool | str

    def __init__(self, value: int | bool | str) -> None:
        _init(self, value=value)
        t = BOOL if isinstance(value, bool) else INT if isinstance(value, int) else STR
        self._finish(t, (type(value).__name__, value), ())



    def _span(self) -> Span:
        return (self.value, self.value) if type(self.value) is int else UNBOUNDED

class TileConst(Node):
    """A tile written in the expression (``5m``): the shared tile of that kind."""

    __slots__ = ("kind",)
    tag = "tile"
    kind: int

    def __init__(self, kind: int) -> None:
        _init(self, kind=kind)
        self._finish(TILE, (kind,), ())


class FactRead(Node):
    """A fact of the context, read as ``c.<name>``."""

    __slots__ = ("fact",)
    tag = "fact"
    fact: Fact

    def __init__(self, fact: Fact) -> None:
        _init(self, fact=fact)
        self._finish(fact.type, (fact.name, fact.lazy, fact.mask, fact.counts), (), reads=frozenset((fact.name,)),
                     work=fact.lazy, lazy=fact.lazy)


    def _measure(self, children: tuple[Node, ...]) -> tuple[int, int]:
        return (self.fact.most if is_collection(self.fact.type) else 0), 1


    def _span(self) -> Span:
        return self.fact.span

class Slot(Node):
    """An internal attribute of the context (a mask or counts kept for a fact)."""

    __slots__ = ("attr",)
    tag = "slot"
    attr: str

    def __init__(self, attr: str, type: Type) -> None:
        _init(self, attr=attr)
        self._finish(type, (attr, type), (), reads=frozenset((attr,)))


class Var(Node):
    """A name bound by a quantifier (``s`` in ``count(s in sets: ...)``), at a depth."""

    __slots__ = ("name", "depth")
    tag = "var"
    name: str
    depth: int

    def __init__(self, name: str, depth: int, type: Type) -> None:
        _init(self, name=name, depth=depth)
        self._finish(type, (name, depth, type), (), free=frozenset(((name, depth),)))

    @property
    def ident(self) -> tuple[str, int]:
        return (self.name, self.depth)


class Local(Node):
    """A value the generated function computed once and keeps in a local variable."""

    __slots__ = ("name", "value")
    tag = "local"
    name: str
    value: Node

    def __init__(self, name: str, value: Node) -> None:
        _init(self, name=name, value=value)
        self._finish(value.type, (name,), (), reads=value.reads, free=value.free)

    def _measure(self, children: tuple[Node, ...]) -> tuple[int, int]:
        return self.value.most, 1


    def _span(self) -> Span:
        return self.value.span


# -------------------------------------------------------------- operators

class Unary(Node):
    """``not x`` (op "not") or ``-x`` (op "-")."""

    __slots__ = ("op", "operand")
    tag = "unary"
    op: str
    operand: Node

    def __init__(self, op: str, operand: Node) -> None:
        _init(self, op=op, operand=operand)
        self._finish(BOOL if op == "not" else INT, (op,), (operand,))


    def _span(self) -> Span:
        lo, hi = self.operand.span
        return (None if hi is None else -hi, None if lo is None else -lo)

    def children(self) -> tuple[Node, ...]:
        return (self.operand,)

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return Unary(self.op, children[0])


class BoolOp(Node):
    """``a and b and ...`` (op "and") or ``a or b or ...`` (op "or")."""

    __slots__ = ("op", "parts")
    tag = "boolop"
    op: str
    parts: tuple[Node, ...]

    def __init__(self, op: str, parts: tuple[Node, ...]) -> None:
        _init(self, op=op, parts=parts)
        self._finish(BOOL, (op,), parts)

    def children(self) -> tuple[Node, ...]:
        return self.parts

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return BoolOp(self.op, children)


class Compare(Node):
    """A chain of comparisons: ``operands[0] ops[0] operands[1] ops[1] ...``."""

    __slots__ = ("operands", "ops")
    tag = "compare"
    operands: tuple[Node, ...]
    ops: tuple[str, ...]

    def __init__(self, operands: tuple[Node, ...], ops: tuple[str, ...]) -> None:
        _init(self, operands=operands, ops=ops)
        self._finish(BOOL, ops, operands)

    def _measure(self, children: tuple[Node, ...]) -> tuple[int, int]:
        # Membership looks through the collection on the right.
        looked = sum(right.most for op, right in zip(self.ops, children[1:]) if op in ("in", "not in"))
        return 0, 1 + looked + sum(c.cost for c in children)

    def children(self) -> tuple[Node, ...]:
        return self.operands

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return Compare(children, self.ops)


class Arith(Node):
    """``left op right`` for + - * // %; ``checked``: a division or remainder by a value
    that may be zero, which fails with a clear error instead of Python's, or a product
    that may be beyond :data:`MAX_NUMBER`, which fails so."""

    __slots__ = ("op", "left", "right", "checked")
    tag = "arith"
    op: str
    left: Node
    right: Node
    checked: bool

    def __init__(self, op: str, left: Node, right: Node, checked: bool = False) -> None:
        _init(self, op=op, left=left, right=right, checked=checked)
        self._finish(INT, (op, checked), (left, right), fails=checked)


    def _span(self) -> Span:
        (a, b), (c, d) = self.left.span, self.right.span
        op = self.op
        if op in ("+", "-"):
            if op == "-":
                c, d = (None if d is None else -d), (None if c is None else -c)
            return (None if a is None or c is None else a + c, None if b is None or d is None else b + d)
        if None in (a, b, c, d):
            if op in ("//", "%") and c is not None and c > 0 and a is not None and a >= 0:
                return (0, d - 1 if op == "%" and d is not None else (b // c if op == "//" and b is not None else None))
            return UNBOUNDED
        assert a is not None and b is not None and c is not None and d is not None
        if op == "*":
            corners = (a * c, a * d, b * c, b * d)
            return (min(corners), max(corners))
        if c > 0 and a >= 0:  # the usual case: a count divided by a positive number
            return (a // d, b // c) if op == "//" else (0, min(b, d - 1))
        return UNBOUNDED

    def children(self) -> tuple[Node, ...]:
        return (self.left, self.right)

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return Arith(self.op, children[0], children[1], self.checked)


class Pow(Node):
    """``base ** exp``, with the exponent checked at run time (0..64)."""

    __slots__ = ("base", "exp")
    tag = "pow"
    FAILS = True
    base: Node
    exp: Node

    def __init__(self, base: Node, exp: Node) -> None:
        _init(self, base=base, exp=exp)
        self._finish(INT, (), (base, exp))


    def _span(self) -> Span:
        (a, b), (c, d) = self.base.span, self.exp.span
        if a is not None and b is not None and c is not None and d is not None and a >= 0 and 0 <= c <= d <= 64:
            return (a ** c, b ** d)
        return UNBOUNDED

    def children(self) -> tuple[Node, ...]:
        return (self.base, self.exp)

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return Pow(children[0], children[1])


class IfElse(Node):
    """``then if test else orelse``."""

    __slots__ = ("then", "test", "orelse")
    tag = "ifelse"
    then: Node
    test: Node
    orelse: Node

    def __init__(self, then: Node, test: Node, orelse: Node) -> None:
        _init(self, then=then, test=test, orelse=orelse)
        self._finish(then.type, (), (then, test, orelse))

    def _measure(self, children: tuple[Node, ...]) -> tuple[int, int]:
        return max(self.then.most, self.orelse.most), 1 + sum(c.cost for c in children)


    def _span(self) -> Span:
        return _join(self.then.span, self.orelse.span)

    def children(self) -> tuple[Node, ...]:
        return (self.then, self.test, self.orelse)

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return IfElse(*children)


class Attr(Node):
    """``obj.name``: an attribute of a tile, a set or a player."""

    __slots__ = ("obj", "name")
    tag = "attr"
    obj: Node
    name: str

    def __init__(self, obj: Node, name: str, type: Type) -> None:
        _init(self, obj=obj, name=name)
        self._finish(type, (name, type), (obj,))

    def _measure(self, children: tuple[Node, ...]) -> tuple[int, int]:
        return (4 if is_collection(self.type) else 0), 1 + self.obj.cost  # a set's tiles: four at most

    def children(self) -> tuple[Node, ...]:
        return (self.obj,)

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return Attr(children[0], self.name, self.type)


class _Items(Node):
    """A literal of elements, ``[a, b]`` or ``{a, b}``."""

    __slots__ = ("items",)
    WORK = True
    items: tuple[Node, ...]

    def __init__(self, items: tuple[Node, ...], type: Type) -> None:
        _init(self, items=items)
        self._finish(type, (type,), items)

    def _measure(self, children: tuple[Node, ...]) -> tuple[int, int]:
        return len(children), 1 + sum(c.cost for c in children)

    def children(self) -> tuple[Node, ...]:
        return self.items

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return type(self)(children, self.type)


class ListLit(_Items):
    """``[a, b, ...]``."""

    __slots__ = ()
    tag = "list"


class SetLit(_Items):
    """``{a, b, ...}``: a collection (duplicates count once)."""

    __slots__ = ()
    tag = "set"


class ConstSet(Node):
    """A collection of constant numbers, texts or tile kinds, for membership tests: a
    constant Python folds into the code."""

    __slots__ = ("values",)
    tag = "constset"
    values: tuple[int | str, ...]

    def __init__(self, values: tuple[int | str, ...], type: Type) -> None:
        _init(self, values=values)
        self._finish(type, (values, type), ())


    def _measure(self, children: tuple[Node, ...]) -> tuple[int, int]:
        return len(self.values), 1

class KindOf(Node):
    """The kind of a tile (``default`` for a missing tile, such as the pair of a hand
    without exactly one pair)."""

    __slots__ = ("tile", "default")
    tag = "kindof"
    tile: Node
    default: int

    def __init__(self, tile: Node, default: int) -> None:
        _init(self, tile=tile, default=default)
        self._finish(INT, (default,), (tile,))

    def children(self) -> tuple[Node, ...]:
        return (self.tile,)

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return KindOf(children[0], self.default)


class Call(Node):
    """A built-in function of the vocabulary applied to its arguments."""

    __slots__ = ("name", "args")
    tag = "call"
    name: str
    args: tuple[Node, ...]

    def __init__(self, name: str, args: tuple[Node, ...], type: Type) -> None:
        _init(self, name=name, args=args)
        # len of a plain value is as cheap as reading it; every other call works.
        cheap = name == "len" and len(args) == 1 and isinstance(args[0], (FactRead, Local))
        self._finish(type, (name, type), args, work=not cheap)

    def _measure(self, children: tuple[Node, ...]) -> tuple[int, int]:
        # Each function reads its arguments' elements once (sorted: n log n, within n * 8).
        most = max((c.most for c in children), default=0)
        if self.name == "tiles_of":
            most *= 4
        elif not is_collection(self.type):
            most = 0
        work = most * (8 if self.name == "sorted" else 1)
        return most, 1 + work + sum(c.cost for c in children)


    def _span(self) -> Span:
        args = self.args
        if self.name == "len":
            return (0, args[0].most)
        if self.name in ("min", "max") and len(args) > 1:
            los = [a.span[0] for a in args]
            his = [a.span[1] for a in args]
            known_lo = [x for x in los if x is not None]
            known_hi = [x for x in his if x is not None]
            if self.name == "min":  # below every argument's most, above the least of the least
                return (None if None in los else min(known_lo), min(known_hi) if known_hi else None)
            return (max(known_lo) if known_lo else None, None if None in his else max(known_hi))
        if self.name == "abs":
            lo, hi = args[0].span
            if lo is not None and hi is not None:
                return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi)), max(abs(lo), abs(hi)))
            return (0, None)
        return UNBOUNDED

    def children(self) -> tuple[Node, ...]:
        return self.args

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return Call(self.name, children, self.type)


class Index(Node):
    """``seq[index]``: an element of a list written out (a lookup table), or a count per
    kind read from the counts the context keeps."""

    __slots__ = ("seq", "index")
    tag = "index"
    WORK = True
    seq: Node
    index: Node

    def __init__(self, seq: Node, index: Node, type: Type = INT) -> None:
        _init(self, seq=seq, index=index)
        self._finish(type, (type,), (seq, index))


    def _span(self) -> Span:
        if isinstance(self.seq, ListLit) and self.seq.items:
            return _join(*(item.span for item in self.seq.items))
        return (0, None) if isinstance(self.seq, Slot) else UNBOUNDED  # copies of a kind

    def children(self) -> tuple[Node, ...]:
        return (self.seq, self.index)

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return Index(children[0], children[1], self.type)


class Quant(Node):
    """``quant(names in domain: body)``: any, all, exists, count, sum or filter. With
    several names: ordered choices of distinct elements (count and sum: combinations)."""

    __slots__ = ("quant", "vars", "domain", "body")
    tag = "quant"
    WORK = True
    quant: str
    vars: tuple[Var, ...]
    domain: Node
    body: Node

    def __init__(self, quant: str, vars: tuple[Var, ...], domain: Node, body: Node, type: Type) -> None:
        _init(self, quant=quant, vars=vars, domain=domain, body=body)
        self._finish(type, (quant, tuple(v.key for v in vars), type), (domain, body))
        bound = frozenset(v.ident for v in vars)
        object.__setattr__(self, "free", domain.free | (body.free - bound))

    def _measure(self, children: tuple[Node, ...]) -> tuple[int, int]:
        # Every choice of len(vars) elements (ordered for any/all: at most n ** k of them).
        choices = self.domain.most ** len(self.vars)
        most = self.domain.most if self.quant == "filter" else 0
        return most, 1 + self.domain.cost + choices * (1 + self.body.cost)


    def _span(self) -> Span:
        return (0, self.domain.most ** len(self.vars)) if self.quant == "count" else UNBOUNDED

    def children(self) -> tuple[Node, ...]:
        return (self.domain, self.body)

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return Quant(self.quant, self.vars, children[0], children[1], self.type)


class MaskTest(Node):
    """Whether a list of tiles holds any of the kinds of ``mask`` (``all``: none of the
    others), from the bit mask of kinds the context keeps for it."""

    __slots__ = ("held", "mask", "all")
    tag = "mask"
    held: Node
    mask: int
    all: bool

    def __init__(self, held: Node, mask: int, all: bool) -> None:
        _init(self, held=held, mask=mask, all=all)
        self._finish(BOOL, (mask, all), (held,))

    def children(self) -> tuple[Node, ...]:
        return (self.held,)

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return MaskTest(children[0], self.mask, self.all)


class CountOf(Node):
    """How many kinds a list holds exactly ``n`` times, from its copies per kind."""

    __slots__ = ("counts", "n")
    tag = "countof"
    WORK = True
    counts: Node
    n: int

    def __init__(self, counts: Node, n: int) -> None:
        _init(self, counts=counts, n=n)
        self._finish(INT, (n,), (counts,))


    def _span(self) -> Span:
        return (0, 42)  # kinds

    def children(self) -> tuple[Node, ...]:
        return (self.counts,)

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return CountOf(children[0], self.n)


class Tally(Node):
    """How many tiles of a list have ``attr`` (rank or suit) equal to ``value``, from its
    copies per kind."""

    __slots__ = ("counts", "attr", "value")
    tag = "tally"
    WORK = True
    counts: Node
    attr: str
    value: Node

    def __init__(self, counts: Node, attr: str, value: Node) -> None:
        _init(self, counts=counts, attr=attr, value=value)
        self._finish(INT, (attr,), (counts, value))

    def _measure(self, children: tuple[Node, ...]) -> tuple[int, int]:
        return 0, 10 + sum(c.cost for c in children)  # the copies of up to nine kinds


    def _span(self) -> Span:
        return (0, None)

    def children(self) -> tuple[Node, ...]:
        return (self.counts, self.value)

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return Tally(children[0], self.attr, children[1])


class Def(Node):
    """A definition of the variant file (``scoring.definitions``), used by name: the
    name is kept for readable generated code; it is equal to its body (same key)."""

    __slots__ = ("name", "body")
    tag = "def"
    name: str
    body: Node

    def __init__(self, name: str, body: Node) -> None:
        _init(self, name=name, body=body)
        self._finish(body.type, (), (body,))
        object.__setattr__(self, "key", body.key)
        object.__setattr__(self, "_hash", body._hash)

    def _measure(self, children: tuple[Node, ...]) -> tuple[int, int]:
        return self.body.most, self.body.cost


    def _span(self) -> Span:
        return self.body.span

    def children(self) -> tuple[Node, ...]:
        return (self.body,)

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return Def(self.name, children[0])


class Same(Node):
    """``same(a, b, ...)``: every value equal."""

    __slots__ = ("args",)
    tag = "same"
    args: tuple[Node, ...]

    def __init__(self, args: tuple[Node, ...]) -> None:
        _init(self, args=args)
        self._finish(BOOL, (), args)

    def children(self) -> tuple[Node, ...]:
        return self.args

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return Same(children)


class Distinct(Node):
    """``distinct(a, b, ...)``: every value different."""

    __slots__ = ("args",)
    tag = "distinct"
    WORK = True
    args: tuple[Node, ...]

    def __init__(self, args: tuple[Node, ...]) -> None:
        _init(self, args=args)
        self._finish(BOOL, (), args)

    def children(self) -> tuple[Node, ...]:
        return self.args

    def rebuild(self, children: tuple[Node, ...]) -> Node:
        return Distinct(children)


# ------------------------------------------------------------ traversals

def transform(node: Node, fn: Callable[[Node], Node | None]) -> Node:
    """``node`` rewritten bottom-up: each node's children first, then ``fn`` on the node
    rebuilt from them (None keeps it). Shared subtrees are rewritten once."""
    done: dict[int, Node] = {}

    def visit(n: Node) -> Node:
        got = done.get(id(n))
        if got is not None:
            return got
        kids = n.children()
        if kids:
            new_kids = tuple(visit(k) for k in kids)
            n2 = n.rebuild(new_kids) if any(a is not b for a, b in zip(new_kids, kids)) else n
        else:
            n2 = n
        out = fn(n2)
        result = n2 if out is None else out
        done[id(n)] = result
        return result

    return visit(node)


def conjuncts(node: Node) -> list[Node]:
    """The parts that must all hold: ``and`` chains flattened (through definitions), and
    a chain ``a == b == c`` as ``a == b`` and ``b == c`` (its operands are pure reads)."""
    inner = node
    while isinstance(inner, Def):
        inner = inner.body
    if isinstance(inner, BoolOp) and inner.op == "and":
        return [c for part in inner.parts for c in conjuncts(part)]
    if isinstance(inner, Compare) and len(inner.ops) > 1 and all(op == "==" for op in inner.ops):
        return [Compare((a, b), ("==",)) for a, b in pairwise(inner.operands)]
    if isinstance(inner, Same) and len(inner.args) > 2:
        return [Same((a, b)) for a, b in pairwise(inner.args)]
    return [node]


def and_of(parts: list[Node]) -> Node:
    """The conjunction of ``parts`` (one part: itself)."""
    return parts[0] if len(parts) == 1 else BoolOp("and", tuple(parts))


# --------------------------------------------------------------- storage

_NODES: dict[str, type[Node]] = {cls.tag: cls for cls in (
    Const, TileConst, FactRead, Slot, Var, Local, Unary, BoolOp, Compare, Arith, Pow, IfElse, Attr, ListLit,
    SetLit, ConstSet, KindOf, Call, Index, Quant, MaskTest, CountOf, Tally, Def, Same, Distinct)}


def to_json(node: Node) -> Any:
    """A node as plain JSON data (for the compile cache); :func:`from_json` reverses it."""
    memo: dict[int, Any] = {}

    def enc(n: Node) -> Any:
        got = memo.get(id(n))
        if got is not None:
            return got
        if isinstance(n, Const):
            out: Any = ["const", n.value]
        elif isinstance(n, TileConst):
            out = ["tile", n.kind]
        elif isinstance(n, FactRead):
            f = n.fact
            out = ["fact", f.name, type_to_json(f.type), f.lazy, f.mask, f.counts, f.most]
        elif isinstance(n, Slot):
            out = ["slot", n.attr, type_to_json(n.type)]
        elif isinstance(n, Var):
            out = ["var", n.name, n.depth, type_to_json(n.type)]
        elif isinstance(n, Local):
            out = ["local", n.name, enc(n.value)]
        elif isinstance(n, Unary):
            out = ["unary", n.op, enc(n.operand)]
        elif isinstance(n, BoolOp):
            out = ["boolop", n.op, [enc(p) for p in n.parts]]
        elif isinstance(n, Compare):
            out = ["compare", list(n.ops), [enc(p) for p in n.operands]]
        elif isinstance(n, Arith):
            out = ["arith", n.op, enc(n.left), enc(n.right), n.checked]
        elif isinstance(n, Pow):
            out = ["pow", enc(n.base), enc(n.exp)]
        elif isinstance(n, IfElse):
            out = ["ifelse", enc(n.then), enc(n.test), enc(n.orelse)]
        elif isinstance(n, Attr):
            out = ["attr", enc(n.obj), n.name, type_to_json(n.type)]
        elif isinstance(n, (ListLit, SetLit)):
            out = [n.tag, [enc(p) for p in n.items], type_to_json(n.type)]
        elif isinstance(n, ConstSet):
            out = ["constset", list(n.values), type_to_json(n.type)]
        elif isinstance(n, KindOf):
            out = ["kindof", enc(n.tile), n.default]
        elif isinstance(n, Call):
            out = ["call", n.name, [enc(a) for a in n.args], type_to_json(n.type)]
        elif isinstance(n, Index):
            out = ["index", enc(n.seq), enc(n.index), type_to_json(n.type)]
        elif isinstance(n, Quant):
            out = ["quant", n.quant, [enc(v) for v in n.vars], enc(n.domain), enc(n.body), type_to_json(n.type)]
        elif isinstance(n, MaskTest):
            out = ["mask", enc(n.held), n.mask, n.all]
        elif isinstance(n, CountOf):
            out = ["countof", enc(n.counts), n.n]
        elif isinstance(n, Tally):
            out = ["tally", enc(n.counts), n.attr, enc(n.value)]
        elif isinstance(n, Def):
            out = ["def", n.name, enc(n.body)]
        elif isinstance(n, (Same, Distinct)):
            out = [n.tag, [enc(a) for a in n.args]]
        else:  # pragma: no cover - every node class is listed above
            raise TypeError(f"cannot store {type(n).__name__}")
        memo[id(n)] = out
        return out

    return enc(node)


def from_json(obj: Any) -> Node:
    """The node :func:`to_json` stored; ValueError on anything else."""
    try:
        return _dec(obj)
    except (TypeError, KeyError, IndexError) as exc:
        raise ValueError(f"not a stored expression: {exc}") from None


def _dec(o: Any) -> Node:
    tag = o[0]
    t = type_from_json
    if tag == "const":
        if not isinstance(o[1], (int, str)):
            raise ValueError("bad constant")
        return Const(o[1])
    if tag == "tile":
        return TileConst(int(o[1]))
    if tag == "fact":
        return FactRead(Fact(o[1], t(o[2]), "", bool(o[3]), o[4], o[5], int(o[6])))
    if tag == "slot":
        return Slot(o[1], t(o[2]))
    if tag == "var":
        return Var(o[1], int(o[2]), t(o[3]))
    if tag == "local":
        return Local(o[1], _dec(o[2]))
    if tag == "unary":
        return Unary(o[1], _dec(o[2]))
    if tag == "boolop":
        return BoolOp(o[1], tuple(_dec(p) for p in o[2]))
    if tag == "compare":
        return Compare(tuple(_dec(p) for p in o[2]), tuple(o[1]))
    if tag == "arith":
        return Arith(o[1], _dec(o[2]), _dec(o[3]), bool(o[4]))
    if tag == "pow":
        return Pow(_dec(o[1]), _dec(o[2]))
    if tag == "ifelse":
        return IfElse(_dec(o[1]), _dec(o[2]), _dec(o[3]))
    if tag == "attr":
        return Attr(_dec(o[1]), o[2], t(o[3]))
    if tag == "list":
        return ListLit(tuple(_dec(p) for p in o[1]), t(o[2]))
    if tag == "set":
        return SetLit(tuple(_dec(p) for p in o[1]), t(o[2]))
    if tag == "constset":
        return ConstSet(tuple(o[1]), t(o[2]))
    if tag == "kindof":
        return KindOf(_dec(o[1]), int(o[2]))
    if tag == "call":
        return Call(o[1], tuple(_dec(a) for a in o[2]), t(o[3]))
    if tag == "index":
        return Index(_dec(o[1]), _dec(o[2]), t(o[3]))
    if tag == "quant":
        vs = tuple(_dec(v) for v in o[2])
        if not all(isinstance(v, Var) for v in vs):
            raise ValueError("a quantifier binds names")
        return Quant(o[1], vs, _dec(o[3]), _dec(o[4]), t(o[5]))  # type: ignore[arg-type]
    if tag == "mask":
        return MaskTest(_dec(o[1]), int(o[2]), bool(o[3]))
    if tag == "countof":
        return CountOf(_dec(o[1]), int(o[2]))
    if tag == "tally":
        return Tally(_dec(o[1]), o[2], _dec(o[3]))
    if tag == "def":
        return Def(o[1], _dec(o[2]))
    if tag == "same":
        return Same(tuple(_dec(a) for a in o[1]))
    if tag == "distinct":
        return Distinct(tuple(_dec(a) for a in o[1]))
    raise ValueError(f"unknown node {tag!r}")


__all__ = ["Arith", "Attr", "BoolOp", "Call", "Compare", "Const", "ConstSet", "CountOf", "Def", "Distinct",
           "FactRead", "IfElse", "Index", "KindOf", "ListLit", "Local", "MaskTest", "Node", "Pow", "Quant", "Same",
           "SetLit", "Slot", "Tally", "TileConst", "Unary", "Var", "and_of", "conjuncts", "from_json", "list_of",
           "set_of", "to_json", "transform"]

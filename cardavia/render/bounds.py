"""How many times a pattern can count in one hand: an upper bound read from its formula.

A ``count`` pattern scores once per instance, but many can have only one instance in a
hand: MCR's Big Four Winds counts choices of four pungs among at most four, a pung of
the seat wind is a pung of one tile kind (four copies make one pung). A rules page says
"counted once for each" only of a pattern this bound does not limit to one, so the
sentence is true of every pattern it is printed for.

The bound reads the ``count`` expression's parse tree (the compiler's own grammar) with
what the variant fixes: the sets a hand holds (``(hand size - 2) // 3``), the copies of
each tile kind, and the combination principles of ``scoring.principles`` (with
``account_once`` the combinations of one kind never close a cycle over the sets, with
``non_identical`` a set joins one instance of a pattern at most). What it cannot bound
it reports as unbounded (``None``): the pattern is then said to count for each.
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING, Any

from lark import Token, Tree

from cardavia.compiler.language.parser import ExpressionError, parse

if TYPE_CHECKING:
    from cardavia.compiler.scoring.patterns import Pattern
    from cardavia.compiler.variant import CompiledVariant

#: Lists of sets of the hand a quantifier may range over.
GROUP_LISTS = {"sets", "groups", "pungs", "kongs", "chows", "declared", "exposed"}
#: Lists whose sets are pungs or kongs: at most ``copies // 3`` of them per tile kind.
PUNG_LISTS = {"pungs", "kongs"}
#: Set attributes that restrict a pung to a few tile kinds: the number of kinds.
KIND_ATTRS = {"dragon": 3, "wind": 4, "honor": 7}


class _Reader:
    def __init__(self, definitions: dict[str, str], sets: int, copies: int, principles: dict[str, Any],
                 combination: bool) -> None:
        self.definitions = definitions
        self.sets = sets
        self.copies = copies
        self.principles = principles
        self.combination = combination
        self._seen: set[str] = set()

    def bound(self, tree: Tree | Token) -> int | None:
        if isinstance(tree, Token):
            return None
        kind = tree.data
        if kind == "int_":
            return int(str(tree.children[0]))
        if kind == "name":
            name = str(tree.children[0])
            if name in GROUP_LISTS:
                return self.sets
            text = self.definitions.get(name)
            if text is None or name in self._seen:
                return None
            self._seen.add(name)
            try:
                return self.bound(parse(text))
            except ExpressionError:
                return None
            finally:
                self._seen.discard(name)
        if kind == "arith":
            ops = [str(c) for c in tree.children[1::2]]
            first = self.bound(tree.children[0])
            if ops and all(op == "-" for op in ops):  # counts are never negative: a - b <= a
                return first
            return None
        if kind == "call" and str(tree.children[0]) == "len":
            args = [c for c in tree.children[1:] if c is not None]
            return self.bound(args[0]) if len(args) == 1 else None
        if kind == "quantifier" and str(tree.children[0]) == "count":
            return self.count(tree)
        return None

    def count(self, tree: Tree) -> int | None:
        names = [str(c) for c in tree.children[1:-2]]
        over, body = tree.children[-2], tree.children[-1]
        if not (isinstance(over, Tree) and over.data == "name" and str(over.children[0]) in GROUP_LISTS):
            return None
        listed = str(over.children[0])
        available = self.sets
        if listed in PUNG_LISTS:
            kinds = [self._kinds(name, body) for name in names]
            known = [k for k in kinds if k is not None]
            if known:  # every choice holds a pung of such a kind
                available = min(available, max(known) * (self.copies // 3))
        k = len(names)
        if k > available:
            return 0
        bounds = [comb(available, k)]
        if self.combination and self.principles.get("non_identical"):
            bounds.append(available // k)
        if self.combination and self.principles.get("account_once") and k > 1:
            bounds.append((available - 1) // (k - 1))
        return min(bounds)

    def _kinds(self, name: str, body: Tree | Token) -> int | None:
        """How many tile kinds the body lets set ``name`` be (None: not restricted)."""
        found: list[int] = []
        for term in _conjuncts(body):
            if not isinstance(term, Tree):
                continue
            if term.data == "attr" and _is_var(term.children[0], name) and str(term.children[1]) in KIND_ATTRS:
                found.append(KIND_ATTRS[str(term.children[1])])
            if term.data == "compare" and len(term.children) == 3 and str(term.children[1]) == "==":
                left, right = term.children[0], term.children[2]
                for side, other in ((left, right), (right, left)):
                    if (isinstance(side, Tree) and side.data == "attr" and _is_var(side.children[0], name)
                            and str(side.children[1]) == "tile" and _is_single_tile(other)):
                        found.append(1)
        return min(found) if found else None


def _conjuncts(tree: Tree | Token) -> list[Tree | Token]:
    if isinstance(tree, Tree) and tree.data == "and_":
        return [t for c in tree.children for t in _conjuncts(c)]
    return [tree]


def _is_var(tree: Tree | Token, name: str) -> bool:
    return isinstance(tree, Tree) and tree.data == "name" and str(tree.children[0]) == name


def _is_single_tile(tree: Tree | Token) -> bool:
    """A tile literal, or a name of the context that is one tile (the seat or round wind)."""
    if not isinstance(tree, Tree):
        return False
    return tree.data == "tile" or (tree.data == "name" and str(tree.children[0]) in ("seat_wind", "round_wind"))


def most_counts(count_text: str, *, definitions: dict[str, str], sets: int, copies: int,
                principles: dict[str, Any], combination: bool) -> int | None:
    """An upper bound on a count expression's value in one hand (None: no bound found)."""
    try:
        tree = parse(count_text)
    except ExpressionError:
        return None
    return _Reader(definitions, sets, copies, principles, combination).bound(tree)


def can_repeat(pattern: Pattern, variant: CompiledVariant) -> bool:
    """True when the pattern may count more than once in a hand, as far as its formula says."""
    if pattern.count is None:
        return False
    scoring = variant.data["scoring"]
    hand = variant.table.other_tiles + 1
    copies = max((variant.tiles.copies(k) for k in range(34)), default=4)
    bound = most_counts(str(pattern.count.text), definitions=dict(scoring.get("definitions") or {}),
                        sets=(hand - 2) // 3, copies=copies, principles=dict(variant.scoring.principles),
                        combination=pattern.combination is not None)
    return bound is None or bound > 1

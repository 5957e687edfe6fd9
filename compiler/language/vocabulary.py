"""What expressions may name: attributes of tiles, sets and players, the built-in
functions, and the facts a context provides (each described by a :class:`Fact`).

The descriptions are the documentation authors read (docs/variant-language.md is
generated from them). The run-time side of the vocabulary (:data:`RUNTIME`) is the
namespace every generated function runs in: nothing else is reachable from it.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations, permutations
from typing import Any

from ..errors import EvaluationError, quoted
from ..model.groups import TILES
from ..records import FrozenRecord
from .types import ANY, BOOL, GROUP, INT, PLAYER, STR, TILE, Type, compatible, is_collection, list_of, set_of

# ------------------------------------------------------------------ attributes

TILE_ATTRS: dict[str, tuple[Type, str]] = {
    "code": (STR, "the tile code, e.g. \"5m\""),
    "suit": (STR, "\"m\", \"p\", \"s\", \"z\" (honors) or \"f\" (bonus tiles)"),
    "rank": (INT, "1-9 for suited tiles; 1-7 for honors (winds 1-4, dragons 5-7)"),
    "suited": (BOOL, "a character, dot or bamboo tile"),
    "honor": (BOOL, "a wind or dragon"),
    "wind": (BOOL, "a wind"),
    "dragon": (BOOL, "a dragon"),
    "terminal": (BOOL, "a suited 1 or 9"),
    "simple": (BOOL, "a suited 2-8"),
    "outside": (BOOL, "a terminal or an honor"),
}

GROUP_ATTRS: dict[str, tuple[Type, str]] = {
    "kind": (STR, "\"chow\", \"pung\", \"kong\", \"pair\", \"knitted\" or \"single\""),
    "chow": (BOOL, "a chow"),
    "pung": (BOOL, "a pung or a kong (a kong counts as a pung)"),
    "kong": (BOOL, "a kong"),
    "pair": (BOOL, "a pair"),
    "knitted": (BOOL, "a knitted run such as 147m"),
    "single": (BOOL, "a single tile of a special shape"),
    "tile": (TILE, "the first (lowest) tile"),
    "middle": (TILE, "the middle tile of a chow; the tile of other groups"),
    "tiles": (list_of(TILE), "every tile of the group"),
    "size": (INT, "the number of tiles"),
    "suit": (STR, "the suit of its tiles"),
    "rank": (INT, "the rank of its first tile"),
    "concealed": (BOOL, "concealed (a set completed by a claimed discard is not)"),
    "declared": (BOOL, "declared during play (a melded set or a concealed kong)"),
    "has_win": (BOOL, "holds the winning tile"),
    "suited": (BOOL, "of a suit"),
    "honor": (BOOL, "of honors"),
    "wind": (BOOL, "of winds"),
    "dragon": (BOOL, "of dragons"),
    "terminal": (BOOL, "every tile is a terminal"),
    "simple": (BOOL, "every tile is a 2-8"),
    "outside": (BOOL, "holds a terminal or an honor"),
}

PLAYER_ATTRS: dict[str, tuple[Type, str]] = {
    "seat": (INT, "the seat number 0-3"),
    "won": (BOOL, "has won in this deal"),
    "active": (BOOL, "still playing (has not won)"),
    "ready": (BOOL, "one tile from a valid winning hand (at the end of the wall)"),
    "pig": (BOOL, "still holds a tile of the declared missing suit"),
    "ready_value": (INT, "the most the ready hand could win (settlement.ready_value), 0 if not ready"),
    "kong_income": (INT, "what the player's kongs collected in this deal"),
    "dealer": (BOOL, "is the dealer (East) of this deal"),
    "discarder": (BOOL, "discarded the winning tile, or had the kong robbed (win payments)"),
}

ATTRS = {TILE: TILE_ATTRS, GROUP: GROUP_ATTRS, PLAYER: PLAYER_ATTRS}

_SUITS = frozenset({"m", "p", "s", "z", "f"})
#: The values a text attribute can take: comparing it with any other quoted text is an error.
ATTR_VALUES: dict[tuple[Type, str], frozenset[str]] = {
    (TILE, "suit"): _SUITS,
    (GROUP, "suit"): _SUITS,
    (GROUP, "kind"): frozenset({"chow", "pung", "kong", "pair", "knitted", "single"}),
}


# ------------------------------------------------------------------- facts

class Fact(FrozenRecord):
    """A name a context provides, read as ``c.<name>`` by generated code.

    ``lazy``: computed on first read, at a cost (the optimiser tests it after plain
    facts). ``mask``: for a list of tiles, the context attribute holding the kinds it
    holds as a bit mask (bit k: a tile of kind k), so that ``any``/``all`` with a
    condition on the tile alone is one mask test. ``counts``: the context attribute
    holding the copies per kind (bytes indexed by kind, one more entry for "no tile") of
    this list of tiles, or of the tiles of this list of sets. ``most``: for a list, the most
    elements it can hold (what the checker's bound on an expression's work assumes).
    ``span``: for a number, the least and the most it can be (None: unbounded), against
    which an index into a lookup table is checked. ``values``: for a text, the values it
    can take, against which a comparison with a quoted text is checked (a misspelt shape
    id is an error, not a condition that never holds).
    """

    name: str
    type: Type
    doc: str
    lazy: bool
    mask: str | None
    counts: str | None
    most: int
    span: tuple[int | None, int | None]
    values: frozenset[str] | None

    def __init__(self, name: str, type: Type, doc: str = "", lazy: bool = False, mask: str | None = None,
                 counts: str | None = None, most: int = 64, span: tuple[int | None, int | None] = (None, None),
                 values: frozenset[str] | None = None) -> None:
        vars(self).update(name=name, type=type, doc=doc, lazy=lazy, mask=mask, counts=counts, most=most, span=span,
                          values=values)

    def with_(self, **changes: Any) -> Fact:
        """This fact with some fields changed (a variant's own span or values)."""
        fields = {name: getattr(self, name) for name in self.FIELDS}
        fields.update(changes)
        return Fact(**fields)

    @property
    def single(self) -> bool:
        """One immutable, hashable value (tiles and sets are shared, never changed): what
        a condition answers may be kept in a table keyed by it."""
        return self.type in (BOOL, INT, STR, TILE, GROUP) and not self.lazy


def facts(names: dict[str, Type]) -> dict[str, Fact]:
    """Plain facts (no mask, no counts, not lazy) from names and types."""
    return {n: Fact(n, t) for n, t in names.items()}


# --------------------------------------------------------------- functions

class Function(FrozenRecord):
    """A built-in function: ``check`` maps argument types to the result type (or raises
    TypeError with the message an author reads)."""

    name: str
    check: Callable[[list[Type]], Type]
    impl: Callable[..., Any]
    doc: str

    def __init__(self, name: str, check: Callable[[list[Type]], Type], impl: Callable[..., Any], doc: str) -> None:
        vars(self).update(name=name, check=check, impl=impl, doc=doc)


def _arity(n: int | None, name: str, types: list[Type]) -> None:
    if n is not None and len(types) != n:
        raise TypeError(f"{name}() takes {n} argument{'s' if n != 1 else ''}, got {len(types)}")


def _ints(name: str) -> Callable[[list[Type]], Type]:
    def check(types: list[Type]) -> Type:
        if len(types) == 1 and is_collection(types[0]) and compatible(types[0].item or ANY, INT):
            return INT
        if not types:
            raise TypeError(f"{name}() needs numbers")
        for t in types:
            if t != INT:
                raise TypeError(f"{name}() takes numbers, got {t}")
        return INT
    return check


def _minmax(fn: Callable[..., int]) -> Callable[..., int]:
    def impl(*args: Any) -> int:
        if len(args) == 1 and not isinstance(args[0], int):
            return fn(args[0]) if args[0] else 0
        return fn(args)
    return impl


def _collection(name: str, item_ok: Callable[[Type], bool], result: Type, what: str) -> Callable[[list[Type]], Type]:
    def check(types: list[Type]) -> Type:
        _arity(1, name, types)
        t = types[0]
        if not is_collection(t) or not item_ok(t.item or ANY):
            raise TypeError(f"{name}() takes a list of {what}, got {t}")
        return result
    return check


def _tile_or_group(t: Type) -> bool:
    return t in (TILE, GROUP, ANY)


def _same_types(name: str, result: Type | None = None) -> Callable[[list[Type]], Type]:
    def check(types: list[Type]) -> Type:
        if len(types) < 2:
            raise TypeError(f"{name}() compares two or more values")
        for t in types[1:]:
            if not compatible(types[0], t):
                raise TypeError(f"{name}() compares values of one type, got {types[0]} and {t}")
        return result if result is not None else set_of(types[0])
    return check


def _order(x: Any) -> Any:
    """Sort key: numbers by value, tiles by kind (characters, dots, bamboo, honors)."""
    return getattr(x, "kind", x)


def _same(*args: Any) -> bool:
    return all(a == args[0] for a in args[1:])


def _distinct(*args: Any) -> bool:
    return len(set(args)) == len(args)


def _copies_check(types: list[Type]) -> Type:
    _arity(2, "copies", types)
    if types[0] != TILE or not (is_collection(types[1]) and compatible(types[1].item or ANY, TILE)):
        raise TypeError(f"copies(tile, tiles) takes a tile and a list of tiles, got {types[0]} and {types[1]}")
    return INT


def _tiles_of_check(types: list[Type]) -> Type:
    _arity(1, "tiles_of", types)
    if not (is_collection(types[0]) and compatible(types[0].item or ANY, GROUP)):
        raise TypeError(f"tiles_of() takes a list of sets, got {types[0]}")
    return list_of(TILE)


def _kinds_check(types: list[Type]) -> Type:
    _arity(1, "kinds", types)
    if not (is_collection(types[0]) and compatible(types[0].item or ANY, TILE)):
        raise TypeError(f"kinds() takes a list of tiles, got {types[0]}")
    return set_of(TILE)


def _sorted_check(types: list[Type]) -> Type:
    _arity(1, "sorted", types)
    if not is_collection(types[0]) or (types[0].item or ANY) not in (INT, TILE, ANY):
        raise TypeError(f"sorted() takes a list of numbers or tiles, got {types[0]}")
    return list_of(types[0].item or ANY)


def _len_check(types: list[Type]) -> Type:
    _arity(1, "len", types)
    if not is_collection(types[0]):
        raise TypeError(f"len() takes a list, got {types[0]}")
    return INT


def _int_check(name: str, n: int) -> Callable[[list[Type]], Type]:
    def check(types: list[Type]) -> Type:
        _arity(n, name, types)
        for t in types:
            if t != INT:
                raise TypeError(f"{name}() takes numbers, got {t}")
        return INT
    return check


FUNCTIONS: dict[str, Function] = {f.name: f for f in [
    Function("len", _len_check, len, "the number of elements: len(flowers)"),
    Function("min", _ints("min"), _minmax(min), "the smallest number: min(2 ** fan, 32)"),
    Function("max", _ints("max"), _minmax(max), "the largest number: max(1, fan)"),
    Function("abs", _int_check("abs", 1), abs, "the absolute value"),
    Function("suits", _collection("suits", _tile_or_group, set_of(STR), "tiles or sets"),
             lambda xs: frozenset(x.suit for x in xs), "the distinct suits: len(suits(tiles)) == 1"),
    Function("ranks", _collection("ranks", _tile_or_group, set_of(INT), "tiles or sets"),
             lambda xs: frozenset(x.rank for x in xs), "the distinct ranks: ranks(chows) == {1, 4, 7}"),
    Function("kinds", _kinds_check, frozenset, "the distinct tiles: len(kinds(tiles)) == 14"),
    Function("tiles_of", _tiles_of_check, lambda gs: [t for g in gs for t in g.tiles],
             "every tile of a list of sets: tiles_of(declared)"),
    Function("copies", _copies_check, lambda t, ts: ts.count(t) if isinstance(ts, list) else int(t in ts),
             "how many copies of a tile a list holds: copies(win, tiles) == 4"),
    Function("sorted", _sorted_check, lambda xs: sorted(xs, key=_order),
             "the list in increasing order: sorted(ranks) "),
    Function("same", _same_types("same", BOOL), _same, "all values are equal: same(a.suit, b.suit, c.suit)"),
    Function("distinct", _same_types("distinct", BOOL), _distinct,
             "all values differ: distinct(a.suit, b.suit, c.suit)"),
]}

#: Functions that read of the sets they are given only what their kind and first tile fix
#: (compiler/model/groups.py ``KIND_ATTRIBUTES``).
KIND_ONLY_FUNCTIONS = frozenset({"ranks", "suits", "tiles_of"})


# ------------------------------------------------------------------ run time

#: attribute -> value -> the kinds of the tiles with that value (counting by attribute).
_KINDS_BY: dict[str, dict[Any, tuple[int, ...]]] = {
    attr: {v: tuple(t.kind for t in TILES if getattr(t, attr) == v) for v in {getattr(t, attr) for t in TILES}}
    for attr in ("rank", "suit")}


def tally(counts: bytes, attr: str, value: Any) -> int:
    """The tiles whose ``attr`` is ``value``, from copies per kind."""
    return sum(map(counts.__getitem__, _KINDS_BY[attr].get(value, ())))


#: The largest magnitude of a number of the language: a literal beyond it is refused, a
#: product or a power beyond it fails when it is worked out (``M``, ``P``), so that no
#: expression makes a number too long to compute with or to write out.
MAX_NUMBER = 2 ** 64


def power(base: int, exp: int) -> int:
    if exp < 0 or exp > 64:
        raise EvaluationError(f"the exponent of '**' is {quoted(exp)}, outside 0 to 64")
    if abs(base) > 1 and (abs(base).bit_length() - 1) * exp > 64:  # at least 2 ** 65: not worked out
        raise EvaluationError(f"{quoted(base)} ** {exp} is beyond 2 ** 64, the largest number")
    result = base ** exp
    if abs(result) > MAX_NUMBER:
        raise EvaluationError(f"{quoted(base)} ** {exp} is beyond 2 ** 64, the largest number")
    return result


def multiply(a: int, b: int) -> int:
    """``a * b`` of a product whose sides may make it beyond :data:`MAX_NUMBER`."""
    result = a * b
    if abs(result) > MAX_NUMBER:
        raise EvaluationError(f"{quoted(a)} * {quoted(b)} is beyond 2 ** 64, the largest number")
    return result


def divide(a: int, b: int, op: str) -> int:
    if b == 0:
        raise EvaluationError(f"a division by zero ({quoted(a)} {op} 0)")
    return a // b if op == "//" else a % b


#: The namespace of every generated function: the shared tiles, the helpers of the
#: emitted code and the built-in functions (``F_<name>``), with a minimal builtins.
RUNTIME: dict[str, Any] = {
    "T": TILES, "P": power, "D": divide, "M": multiply, "PERM": permutations, "COMB": combinations, "TALLY": tally,
    "__builtins__": {"any": any, "all": all, "sum": sum, "frozenset": frozenset, "len": len, "range": range,
                     "getattr": getattr},
}
RUNTIME.update({"F_" + name: fn.impl for name, fn in FUNCTIONS.items()})

"""The expression language: parse (Lark), type-check against a vocabulary, generate Python.

An expression is checked once, when its variant is compiled: unknown names, unknown
functions, wrong argument types and wrong result types are errors with a line and
column inside the expression. The checked tree becomes Python source built by this
module from the parse tree (never from the author's text), compiled to a function of
one context object ``c``.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import combinations, permutations
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:  # Lark is imported when an expression is parsed, not when a cached variant loads
    from lark import Lark, Token, Tree

from ..errors import did_you_mean as _did_you_mean
from ..model.groups import TILES
from ..records import FrozenRecord
from ..model.tiles import CODES, TileError, kind_of

# ------------------------------------------------------------------- types


class Type(FrozenRecord):
    name: str
    item: "Type | None"

    def __init__(self, name: str, item: "Type | None" = None) -> None:
        vars(self).update(name=name, item=item)

    def __str__(self) -> str:
        return f"{self.name} of {self.item}" if self.item else self.name


INT = Type("number")
BOOL = Type("boolean")
STR = Type("text")
TILE = Type("tile")
GROUP = Type("set")
ANY = Type("anything")


def list_of(t: Type) -> Type:
    return Type("list", t)


def set_of(t: Type) -> Type:
    return Type("collection", t)


def is_collection(t: Type) -> bool:
    return t.name in ("list", "collection")


def compatible(a: Type, b: Type) -> bool:
    if a == ANY or b == ANY:
        return True
    if a.name != b.name:
        return False
    if a.item is None or b.item is None:
        return a.item == b.item
    return compatible(a.item, b.item)


class ExpressionError(Exception):
    """A problem in one expression, at a 1-based line and column inside it."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


# ------------------------------------------------------------ vocabulary

#: Attributes of tiles and groups: name -> (type, description). The description is
#: the documentation authors read (docs/variant-language.md is generated from it).
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

PLAYER = Type("player")

PLAYER_ATTRS: dict[str, tuple[Type, str]] = {
    "seat": (INT, "the seat number 0-3"),
    "won": (BOOL, "has won in this deal"),
    "active": (BOOL, "still playing (has not won)"),
    "ready": (BOOL, "one tile from a valid winning hand (at the end of the wall)"),
    "pig": (BOOL, "still holds a tile of the declared missing suit"),
    "ready_value": (INT, "the most the ready hand could win (settlement.ready_value), 0 if not ready"),
    "kong_income": (INT, "what the player's kongs collected in this deal"),
}

ATTRS = {TILE: TILE_ATTRS, GROUP: GROUP_ATTRS, PLAYER: PLAYER_ATTRS}


class Function(FrozenRecord):
    """A built-in function: ``check`` maps argument types to the result type (or raises)."""

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
    Function("sorted", _sorted_check, lambda xs: sorted(xs, key=_order), "the list in increasing order: sorted(ranks) "),
    Function("same", _same_types("same", BOOL), _same, "all values are equal: same(a.suit, b.suit, c.suit)"),
    Function("distinct", _same_types("distinct", BOOL), _distinct,
             "all values differ: distinct(a.suit, b.suit, c.suit)"),
]}


# ------------------------------------------------------------------ parsing

_GRAMMAR_PATH = Path(__file__).with_name("expression.lark")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The parser, built once per process (its tables kept in the compile cache folder)."""
    from lark import Lark

    from ..loading.cache import parser_cache_file

    return Lark(_GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", propagate_positions=True,
                maybe_placeholders=False, cache=parser_cache_file() or False)


_TOKEN_WORDS = {
    "COMPARE": "a comparison", "ADDOP": "+ or -", "MULOP": "*, // or %", "TILE": "a tile code",
    "NAME": "a name", "INT": "a number", "STRING": "a quoted text", "QUANT": "a quantifier",
    "LPAR": "(", "RPAR": ")", "LSQB": "[", "RSQB": "]", "LBRACE": "{", "RBRACE": "}", "COMMA": ",",
    "COLON": ":", "DOT": ".", "$END": "the end of the expression", "POW": "**", "MINUS": "-",
    "IF": "if", "ELSE": "else", "AND": "and", "OR": "or", "NOT": "not", "TRUE": "true", "FALSE": "false",
}


def _describe_expected(expected: set[str]) -> str:
    words = sorted({_TOKEN_WORDS.get(e, e.lower().strip('"')) for e in expected if not e.startswith("__")})
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def parse(text: str) -> Tree:
    """Parse one expression; raises :class:`ExpressionError` with the position of the problem."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

    if not isinstance(text, str) or not text.strip():
        raise ExpressionError("empty expression: expected a formula or condition")
    try:
        return _parser().parse(text)
    except UnexpectedCharacters as exc:
        raise ExpressionError(f"unexpected character {text[exc.pos_in_stream]!r}", exc.line, exc.column) from None
    except UnexpectedEOF as exc:
        lines = text.split("\n")
        raise ExpressionError(f"the expression ends too early: expected {_describe_expected(set(exc.expected))}",
                              len(lines), len(lines[-1]) + 1) from None
    except UnexpectedToken as exc:
        tok = exc.token
        line = tok.line if tok.line is not None else 1
        col = tok.column if tok.column is not None else len(text) + 1
        if tok.type == "$END":
            lines = text.rstrip().split("\n")
            raise ExpressionError(f"the expression ends too early: expected {_describe_expected(set(exc.expected))}",
                                  len(lines), len(lines[-1]) + 1) from None
        raise ExpressionError(f"unexpected {str(tok)!r}: expected {_describe_expected(set(exc.expected))}",
                              line, col) from None
    except UnexpectedInput as exc:  # pragma: no cover - other lark input errors
        raise ExpressionError(str(exc).splitlines()[0], getattr(exc, "line", 1), getattr(exc, "column", 1)) from None


# ----------------------------------------------------------------- checking

class Env(FrozenRecord):
    """The names an expression may use: name -> (type, Python source that reads it)."""

    names: dict[str, tuple[Type, str]]

    def __init__(self, names: dict[str, tuple[Type, str]]) -> None:
        vars(self).update(names=names)

    @classmethod
    def of(cls, names: dict[str, Type]) -> "Env":
        return cls({n: (t, f"c.{n}") for n, t in names.items()})

    def bind(self, name: str, t: Type, src: str) -> "Env":
        names = dict(self.names)
        names[name] = (t, src)
        return Env(names)


def _pos(tree: Tree | Token) -> tuple[int, int]:
    from lark import Token

    if isinstance(tree, Token):
        return (tree.line or 1, tree.column or 1)
    meta = tree.meta
    return (getattr(meta, "line", 1) or 1, getattr(meta, "column", 1) or 1)


def _err(tree: Tree | Token, message: str) -> ExpressionError:
    line, col = _pos(tree)
    return ExpressionError(message, line, col)


class _Checker:
    def __init__(self, consts: dict[str, Any]) -> None:
        self.consts = consts  # namespace for generated code
        self.depth = 0

    def const(self, value: Any) -> str:
        key = f"k{len(self.consts)}"
        self.consts[key] = value
        return key

    def expect(self, tree: Tree | Token, env: Env, want: Type, what: str) -> str:
        t, src = self.visit(tree, env)
        if not compatible(t, want):
            raise _err(tree, f"{what} must be a {want}, got a {t}")
        return src

    def visit(self, tree: Tree | Token, env: Env) -> tuple[Type, str]:
        if not hasattr(tree, "data"):  # pragma: no cover - a Token: the grammar wraps tokens in rules
            raise _err(tree, f"unexpected {tree!s}")
        method = getattr(self, "v_" + tree.data.rstrip("_"), None)
        if method is None:  # pragma: no cover
            raise _err(tree, f"unsupported construct {tree.data}")
        return method(tree, env)

    # literals
    def v_int(self, tree: Tree, env: Env) -> tuple[Type, str]:
        return INT, str(int(tree.children[0]))

    def v_string(self, tree: Tree, env: Env) -> tuple[Type, str]:
        return STR, repr(str(tree.children[0])[1:-1])

    def v_tile(self, tree: Tree, env: Env) -> tuple[Type, str]:
        try:
            kind = kind_of(str(tree.children[0]))
        except TileError as exc:  # pragma: no cover - the terminal admits valid shapes only
            raise _err(tree, str(exc)) from None
        return TILE, f"T[{kind}]"

    def v_true(self, tree: Tree, env: Env) -> tuple[Type, str]:
        return BOOL, "True"

    def v_false(self, tree: Tree, env: Env) -> tuple[Type, str]:
        return BOOL, "False"

    def v_name(self, tree: Tree, env: Env) -> tuple[Type, str]:
        name = str(tree.children[0])
        if name not in env.names:
            known = ", ".join(sorted(env.names))
            raise _err(tree, f"unknown name {name!r}{_did_you_mean(name, env.names)}: expected one of {known}")
        return env.names[name]

    # operators
    def v_or(self, tree: Tree, env: Env) -> tuple[Type, str]:
        parts = [self.expect(c, env, BOOL, "each side of 'or'") for c in tree.children]
        return BOOL, "(" + " or ".join(parts) + ")"

    def v_and(self, tree: Tree, env: Env) -> tuple[Type, str]:
        parts = [self.expect(c, env, BOOL, "each side of 'and'") for c in tree.children]
        return BOOL, "(" + " and ".join(parts) + ")"

    def v_not(self, tree: Tree, env: Env) -> tuple[Type, str]:
        return BOOL, "(not " + self.expect(tree.children[0], env, BOOL, "the operand of 'not'") + ")"

    def v_neg(self, tree: Tree, env: Env) -> tuple[Type, str]:
        return INT, "(-" + self.expect(tree.children[0], env, INT, "the operand of '-'") + ")"

    def v_pow(self, tree: Tree, env: Env) -> tuple[Type, str]:
        base = self.expect(tree.children[0], env, INT, "the base of '**'")
        exp = self.expect(tree.children[-1], env, INT, "the exponent of '**'")
        return INT, f"P({base}, {exp})"

    def v_arith(self, tree: Tree, env: Env) -> tuple[Type, str]:
        children = tree.children
        src = self.expect(children[0], env, INT, f"the left side of '{children[1]}'")
        for i in range(1, len(children), 2):
            op = str(children[i])
            right = self.expect(children[i + 1], env, INT, f"the right side of '{op}'")
            if op in ("//", "%") and right.isdigit() and int(right) != 0:
                src = f"({src} {op} {right})"  # a literal divisor other than 0 cannot fail
            elif op in ("//", "%"):
                src = f"D({src}, {right}, {op!r})"
            else:
                src = f"({src} {op} {right})"
        return INT, src

    def v_compare(self, tree: Tree, env: Env) -> tuple[Type, str]:
        children = tree.children
        left_t, left = self.visit(children[0], env)
        parts = [left]
        for i in range(1, len(children), 2):
            op = " ".join(str(children[i]).split())
            right_t, right = self.visit(children[i + 1], env)
            if op in ("in", "not in"):
                if not is_collection(right_t) or not compatible(right_t.item or ANY, left_t):
                    raise _err(children[i + 1], f"'{op}' needs a list of {left_t} on its right, got a {right_t}")
            elif op in ("==", "!="):
                if not compatible(left_t, right_t):
                    raise _err(children[i], f"cannot compare a {left_t} with a {right_t}")
            else:
                for side, t in ((children[i - 1], left_t), (children[i + 1], right_t)):
                    if not compatible(t, INT):  # an element of an empty list [] may be a number
                        raise _err(side, f"'{op}' compares numbers, got a {t}")
            if op in ("in", "not in") and len(children) == 3:
                folded = self._constant_membership(children[0], left, children[2], left_t)
                if folded is not None:
                    return BOOL, f"({folded[0]} {op} {folded[1]})"
            parts.append(op)
            parts.append(right)
            left_t = right_t
        return BOOL, "(" + " ".join(parts) + ")"

    def _constant_membership(self, left_tree: Tree, left: str, right_tree: Tree, left_t: Type) -> tuple[str, str] | None:
        """``x in {1, 9}`` or ``t in {2s, 6z}`` with literals only: a Python set literal of
        numbers or strings, which Python folds into one constant (tiles compare by kind)."""
        if getattr(right_tree, "data", None) != "set_":
            return None
        kinds = {getattr(c, "data", None) for c in right_tree.children}
        if kinds <= {"int_", "string"}:
            elems = [self.visit(c, Env({}))[1] for c in right_tree.children]
            return left, "{" + ", ".join(elems) + "}"
        if kinds == {"tile"} and left_t == TILE:
            elems = [str(kind_of(str(c.children[0]))) for c in right_tree.children]
            return f"getattr({left}, 'kind', -1)", "{" + ", ".join(elems) + "}"
        return None

    def v_conditional(self, tree: Tree, env: Env) -> tuple[Type, str]:
        then_t, then_src = self.visit(tree.children[0], env)
        cond = self.expect(tree.children[1], env, BOOL, "the condition after 'if'")
        else_t, else_src = self.visit(tree.children[2], env)
        if not compatible(then_t, else_t):
            raise _err(tree, f"both branches of 'if ... else' must have one type, got {then_t} and {else_t}")
        return then_t, f"({then_src} if {cond} else {else_src})"

    def v_attr(self, tree: Tree, env: Env) -> tuple[Type, str]:
        obj_t, obj = self.visit(tree.children[0], env)
        name = str(tree.children[1])
        attrs = ATTRS.get(obj_t)
        if attrs is None:
            raise _err(tree.children[1], f"a {obj_t} has no attribute {name!r}")
        if name not in attrs:
            raise _err(tree.children[1], f"a {obj_t} has no attribute {name!r}{_did_you_mean(name, attrs)}: "
                                         f"expected one of {', '.join(sorted(attrs))}")
        return attrs[name][0], f"{obj}.{name}"

    def _items(self, trees: list[Tree], env: Env, what: str) -> tuple[Type, list[str]]:
        item_t = ANY
        srcs = []
        for child in trees:
            t, src = self.visit(child, env)
            if not compatible(item_t, t):
                raise _err(child, f"the elements of a {what} must have one type, got {item_t} and {t}")
            if item_t == ANY:
                item_t = t
            srcs.append(src)
        return item_t, srcs

    def v_list(self, tree: Tree, env: Env) -> tuple[Type, str]:
        children = [c for c in tree.children if c is not None]
        item_t, srcs = self._items(children, env, "list")
        return list_of(item_t), "[" + ", ".join(srcs) + "]"

    def v_set(self, tree: Tree, env: Env) -> tuple[Type, str]:
        item_t, srcs = self._items(list(tree.children), env, "collection")
        return set_of(item_t), "frozenset((" + ", ".join(srcs) + ",))"

    def v_call(self, tree: Tree, env: Env) -> tuple[Type, str]:
        name_tok = tree.children[0]
        name = str(name_tok)
        args = [c for c in tree.children[1:] if c is not None]
        fn = FUNCTIONS.get(name)
        if fn is None:
            raise _err(name_tok, f"unknown function {name!r}{_did_you_mean(name, FUNCTIONS)}: "
                                 f"expected one of {', '.join(sorted(FUNCTIONS))}")
        typed = [self.visit(a, env) for a in args]
        try:
            result = fn.check([t for t, _ in typed])
        except TypeError as exc:
            raise _err(name_tok, str(exc)) from None
        srcs = [src for _, src in typed]
        # Comparisons of a few values are written out, so they run without a call.
        if name == "same":
            return result, "(" + " == ".join(srcs) + ")"
        if name == "distinct":
            return result, f"(len({{{', '.join(srcs)}}}) == {len(srcs)})"
        if name == "len":
            return result, f"len({srcs[0]})"
        if name == "copies" and srcs[1] in TILE_LIST_COUNTS:  # a count kept per kind by the context
            return result, f"{TILE_LIST_COUNTS[srcs[1]]}[getattr({srcs[0]}, 'kind', {len(TILES)})]"
        return result, f"F_{name}(" + ", ".join(srcs) + ")"

    def v_quantifier(self, tree: Tree, env: Env) -> tuple[Type, str]:
        quant = str(tree.children[0])
        names = [str(c) for c in tree.children[1:-2]]
        domain_tree, body_tree = tree.children[-2], tree.children[-1]
        dom_t, dom = self.visit(domain_tree, env)
        if not is_collection(dom_t):
            raise _err(domain_tree, f"{quant}() ranges over a list, got a {dom_t}")
        if len(set(names)) != len(names):
            raise _err(tree, f"{quant}() binds each name once")
        self.depth += 1
        local = env
        pyvars = []
        for n in names:
            if n in FUNCTIONS:
                raise _err(tree, f"{n!r} is a function name and cannot be bound")
            var = f"v{self.depth}_{n}"
            pyvars.append(var)
            local = local.bind(n, dom_t.item or ANY, var)
        body_t, body = self.visit(body_tree, local)
        self.depth -= 1
        if quant == "filter" and len(pyvars) != 1:
            raise _err(tree, "filter() binds one name")
        if quant == "sum":
            if body_t != INT:
                raise _err(body_tree, f"sum() adds numbers, got a {body_t}")
        elif body_t != BOOL:
            raise _err(body_tree, f"the condition of {quant}() must be a boolean, got a {body_t}")
        if len(pyvars) == 1:
            target, source = pyvars[0], dom
        else:
            target = "(" + ", ".join(pyvars) + ")"
            helper = "COMB" if quant in ("count", "sum") else "PERM"
            source = f"{helper}({dom}, {len(pyvars)})"
        # Over a list the context holds, an empty list answers without running the loop.
        plain = len(pyvars) == 1 and _PLAIN_NAME.fullmatch(dom) is not None
        if quant == "filter":
            src = f"[{target} for {target} in {source} if {body}]"
            return list_of(dom_t.item or ANY), f"({src} if {dom} else [])" if plain else src
        if quant in ("any", "exists", "all") and len(pyvars) == 1 and dom in TILE_LIST_MASKS:
            mask = _tile_mask(pyvars[0], body)
            if mask is not None:
                if quant == "all":
                    return BOOL, f"(not ({TILE_LIST_MASKS[dom]} & {ALL_TILES_MASK & ~mask}))"
                return BOOL, f"(({TILE_LIST_MASKS[dom]} & {mask}) != 0)"
        if quant in ("any", "exists"):
            src = f"any({body} for {target} in {source})"
            return BOOL, f"({src} if {dom} else False)" if plain else src
        if quant == "all":
            src = f"all({body} for {target} in {source})"
            return BOOL, f"({src} if {dom} else True)" if plain else src
        if quant == "count":
            counted = _counted_kinds(pyvars, dom, body) or _counted_by_attribute(pyvars, dom, body)
            if counted is not None:
                return INT, counted
            src = f"len([1 for {target} in {source} if {body}])"
            return INT, f"({src} if {dom} else 0)" if plain else src
        src = f"sum({body} for {target} in {source})"
        return INT, f"({src} if {dom} else 0)" if plain else src


#: Tile lists that a context also provides as a bit mask of the kinds they hold:
#: source of the list -> source of its mask (bit k set when a tile of kind k is in the list).
#: A context module registers its names here; ``any``/``all`` over such a list with a
#: condition on the tile alone then compile to one mask test (see :func:`_tile_mask`).
TILE_LIST_MASKS: dict[str, str] = {}
#: Likewise, tile lists whose copies per kind the context keeps: source of the list ->
#: source of a list of counts indexed by kind (one more entry, 0, for "no tile").
TILE_LIST_COUNTS: dict[str, str] = {}
ALL_TILES_MASK = (1 << len(TILES)) - 1


_PLAIN_NAME = re.compile(r"c\.[A-Za-z_]\w*")


def _counted_kinds(pyvars: list[str], dom: str, body: str) -> str | None:
    """``count(k in kinds(L): copies(k, L) == n)`` (n > 0) as ``COUNTS.count(n)`` when the
    context keeps the copies per kind of ``L``: the kinds held exactly n times."""
    if len(pyvars) != 1 or not (dom.startswith("F_kinds(") and dom.endswith(")")):
        return None
    counts = TILE_LIST_COUNTS.get(dom[len("F_kinds("):-1])
    if counts is None:
        return None
    m = re.fullmatch(re.escape(f"({counts}[getattr({pyvars[0]}, 'kind', {len(TILES)})] == ") + r"(\d+)\)", body)
    if m is None or int(m.group(1)) == 0:
        return None
    return f"{counts}.count({int(m.group(1))})"


#: attribute -> value -> the kinds of the tiles with that value (counting by attribute).
_KINDS_BY: dict[str, dict[Any, tuple[int, ...]]] = {
    attr: {v: tuple(t.kind for t in TILES if getattr(t, attr) == v) for v in {getattr(t, attr) for t in TILES}}
    for attr in ("rank", "suit")}


def _tally(counts: list[int], attr: str, value: Any) -> int:
    """The tiles whose ``attr`` is ``value``, from copies per kind."""
    return sum(map(counts.__getitem__, _KINDS_BY[attr].get(value, ())))


def _counted_by_attribute(pyvars: list[str], dom: str, body: str) -> str | None:
    """``count(t in L: t.rank == e)`` (or ``t.suit``), ``e`` not reading ``t``, as a sum of
    the copies of a few kinds when the context keeps the copies per kind of ``L``: no loop
    over the tiles, for a count whose value the enclosing expression chooses."""
    counts = TILE_LIST_COUNTS.get(dom)
    if len(pyvars) != 1 or counts is None:
        return None
    var = re.escape(pyvars[0])
    m = re.fullmatch(rf"\({var}\.(rank|suit) == (.+)\)", body)
    if m is None or re.search(rf"\b{var}\b", m.group(2)) or not _balanced(m.group(2)):
        return None
    return f"TALLY({counts}, {m.group(1)!r}, {m.group(2)})"


def _balanced(src: str) -> bool:
    depth = 0
    for ch in src:
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth < 0:
            return False
    return depth == 0


def _tile_mask(var: str, body: str) -> int | None:
    """The kinds for which ``body`` holds, when it depends on the bound tile ``var`` alone.

    The condition is evaluated for every tile kind at compile time; a condition that
    reads anything else (the context, an outer bound name) fails to evaluate and is left
    as a loop. Evaluating all kinds covers every value the tile can take, so the mask is
    exact whatever the condition's short-circuits.
    """
    try:
        fn = eval(compile(f"lambda {var}: {body}", "<tile condition>", "eval"), dict(BASE_NAMESPACE))  # noqa: S307
        mask = 0
        for tile in TILES:
            result = fn(tile)
            if not isinstance(result, bool):
                return None
            if result:
                mask |= 1 << tile.kind
        return mask
    except Exception:  # noqa: BLE001 - any failure means "not a condition on the tile alone"
        return None


def _pow(base: int, exp: int) -> int:
    if exp < 0 or exp > 64:
        raise ArithmeticError(f"exponent {exp} out of range 0..64")
    return base ** exp


def _divmod(a: int, b: int, op: str) -> int:
    if b == 0:
        raise ArithmeticError("division by zero")
    return a // b if op == "//" else a % b


BASE_NAMESPACE: dict[str, Any] = {
    "T": TILES, "P": _pow, "D": _divmod, "PERM": permutations, "COMB": combinations, "TALLY": _tally,
    "__builtins__": {"any": any, "all": all, "sum": sum, "frozenset": frozenset, "len": len, "range": range,
                     "getattr": getattr},
}
BASE_NAMESPACE.update({"F_" + name: fn.impl for name, fn in FUNCTIONS.items()})


class Compiled:
    """A checked expression: its type, generated source and the function ``fn(c)``.

    ``names`` are the context names the expression reads (definitions expanded), so an
    engine can tell conditions on the whole hand from conditions on one arrangement.
    ``matches`` exists when the expression is a count over choices of groups,
    ``count(a, b in chows: ...)``: ``matches(c)`` returns the list counted over and the
    index tuples of every choice counted, so an engine can tell which groups each
    counted choice used (see compiler/scoring/patterns.py, combination patterns); ``domain`` is
    the source of that list and ``choice`` the condition on one choice (on G[i0], ...).
    ``consts`` are the namespace additions the source needs (none: an engine may paste
    the source into its own generated code, as compiler/scoring/codegen.py does).
    """

    __slots__ = ("text", "type", "source", "names", "arity", "domain", "choice", "consts", "_fn", "_matches",
                 "_matcher", "_filename", "_compile")

    def __init__(self, text: str, type: Type, source: str, fn: Callable[[Any], Any] | None = None,
                 names: frozenset[str] = frozenset(), matches: Callable[[Any], Any] | None = None,
                 arity: int = 0, domain: str | None = None, choice: str | None = None, *,
                 consts: dict[str, Any] | None = None, matcher: str | None = None,
                 filename: str = "<variant>", compile_code: Callable[[str, str, str], Any] = compile) -> None:
        self.text = text
        self.type = type
        self.source = source
        self.names = names
        self.arity = arity
        self.domain = domain
        self.choice = choice
        self.consts = consts or {}
        self._fn = fn
        self._matches = matches
        self._matcher = matcher
        self._filename = filename
        self._compile = compile_code  # e.g. a compile cache's store of code objects (compiler/loading/cache.py)

    def _namespace(self) -> dict[str, Any]:
        namespace = dict(BASE_NAMESPACE)
        namespace.update(self.consts)
        return namespace

    @property
    def fn(self) -> Callable[[Any], Any]:
        if self._fn is None:
            code = self._compile(f"lambda c: {self.source}", self._filename, "eval")
            self._fn = eval(code, self._namespace())  # noqa: S307 - source generated by _Checker
        return self._fn

    @property
    def matches(self) -> Callable[[Any], tuple[Any, list[tuple[int, ...]]]] | None:
        if self._matches is None and self._matcher is not None:
            scope: dict[str, Any] = {}
            exec(self._compile(self._matcher, self._filename, "exec"), self._namespace(), scope)  # noqa: S102
            self._matches = scope["matches"]
        return self._matches

    def __call__(self, context: Any) -> Any:
        return self.fn(context)

    def __repr__(self) -> str:
        return f"Compiled({self.text!r}: {self.type})"


def check(text: str, env: Env, want: Type | None = None, what: str = "the expression") -> tuple[Type, str, dict[str, Any]]:
    """Type-check ``text`` in ``env``; return (type, Python source, namespace additions)."""
    tree = parse(text)
    checker = _Checker({})
    t, src = checker.visit(tree, env)
    if want is not None and not compatible(t, want):
        raise ExpressionError(f"{what} must be a {want}, got a {t}", *_pos(tree))
    return t, src, checker.consts


_CONTEXT_NAME = re.compile(r"\bc\.([A-Za-z_][A-Za-z0-9_]*)")


def _group_count_matcher(tree: Tree, env: Env, consts: dict[str, Any]) -> tuple[str | None, int]:
    """For ``count(a, b in L: cond)`` over a list of groups, the source of the function
    listing the choices (``def matches(c)``), and how many groups each choice holds."""
    if tree.data != "quantifier" or str(tree.children[0]) != "count":
        return None, 0
    names = [str(c) for c in tree.children[1:-2]]
    checker = _Checker(consts)
    dom_t, dom = checker.visit(tree.children[-2], env)
    if not is_collection(dom_t) or dom_t.item != GROUP:
        return None, 0
    local = env
    idx = [f"i{j}" for j in range(len(names))]
    for j, n in enumerate(names):
        local = local.bind(n, GROUP, f"G[{idx[j]}]")
    _, body = checker.visit(tree.children[-1], local)
    k = len(names)
    lines = ["def matches(c):", f"    G = {dom}", "    n = len(G)", "    out = []"]
    if k:
        lines.append(f"    if n < {k}:")
        lines.append("        return G, out")
    for j in range(k):
        start = "0" if j == 0 else f"{idx[j - 1]} + 1"
        lines.append("    " * (j + 1) + f"for {idx[j]} in range({start}, n):")
    lines.append("    " * (k + 1) + f"if {body}:")
    lines.append("    " * (k + 2) + f"out.append(({', '.join(idx)},))")
    lines.append("    return G, out")
    return "\n".join(lines), k


class Recipe(FrozenRecord):
    """A checked expression before Python compiles it: plain data (text, type, generated
    source), so a compiled variant can be cached on disk and rebuilt without parsing."""

    text: str
    type: Type
    source: str  # the body of ``lambda c: ...``
    consts: dict[str, Any]  # additions to the namespace of the generated code
    matcher: str | None  # ``def matches(c)`` for a count over choices of groups
    arity: int

    def __init__(self, text: str, type: Type, source: str, consts: dict[str, Any], matcher: str | None = None,
                 arity: int = 0) -> None:
        vars(self).update(text=text, type=type, source=source, consts=consts, matcher=matcher, arity=arity)


def generate(text: str, env: Env, want: Type | None = None, what: str = "the expression") -> Recipe:
    """Parse and type-check ``text`` in ``env``; raises :class:`ExpressionError`."""
    tree = parse(text)
    checker = _Checker({})
    t, src = checker.visit(tree, env)
    if want is not None and not compatible(t, want):
        raise ExpressionError(f"{what} must be a {want}, got a {t}", *_pos(tree))
    matcher, arity = _group_count_matcher(tree, env, checker.consts)
    return Recipe(text, t, src, dict(checker.consts), matcher, arity)


def build(recipe: Recipe, filename: str = "<variant>",
          compile_code: Callable[[str, str, str], Any] = compile) -> Compiled:
    """A :class:`Compiled` from a recipe, its functions compiled (by ``compile_code``, which
    a compile cache may answer from code objects it keeps)."""
    domain = choice = None
    if recipe.matcher is not None:
        # The layout of _group_count_matcher: "G = <domain>" second, "if <choice>:" third from last.
        lines = recipe.matcher.split("\n")
        domain = lines[1].strip()[len("G = "):]
        choice = lines[-3].strip()[len("if "):-1]
    compiled = Compiled(recipe.text, recipe.type, recipe.source, None, frozenset(_CONTEXT_NAME.findall(recipe.source)),
                        None, recipe.arity, domain, choice, consts=dict(recipe.consts), matcher=recipe.matcher,
                        filename=filename, compile_code=compile_code)
    _ = compiled.fn, compiled.matches  # compiled now: a damaged cache entry fails here, as the cache expects
    return compiled


def compile_expression(text: str, env: Env, want: Type | None = None, what: str = "the expression",
                       filename: str = "<variant>") -> Compiled:
    return build(generate(text, env, want, what), filename)


def tile_literal(code: str) -> int:
    """A tile code checked the way expressions check them (for YAML lists of tiles)."""
    return kind_of(code)


__all__ = [
    "ANY", "ATTRS", "BOOL", "PLAYER", "CODES", "Compiled", "Env", "ExpressionError", "FUNCTIONS", "GROUP", "INT", "STR",
    "Recipe", "TILE", "Type", "build", "check", "compile_expression", "generate", "list_of", "parse", "set_of",
]

"""Formulas and conditions of a variant file, rendered as sentences in any language.

A payment amount such as ``min(2 ** total, 32)`` or a condition such as
``not player.won and not player.ready`` is parsed with the compiler's own grammar
(:func:`compiler.language.parser.parse`) and the tree is walked: each construct has one
message ("{base} to the power of {exp}", "{a} plus {b}", "{a} and {b}", ...) and each
name of the formula's vocabulary one phrase. So a new formula in a variant file is
readable in every language without a new message, and a translator translates a few
dozen small pieces once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from lark import Token, Tree

from cardavia.compiler.language.parser import ExpressionError, parse

from .catalog import Translator

#: The vocabulary a formula is read with: number names give noun phrases; boolean names
#: give (affirmative, negative) clauses; ``var.attr`` pairs the same for attributes.
Phrase = Callable[[Translator, str], str]  # (translator, the unit word) -> phrase
Clause = Callable[[Translator], tuple[str, str]]


@dataclass(slots=True, frozen=True)
class Vocabulary:
    numbers: dict[str, Phrase] = field(default_factory=dict)
    flags: dict[str, Clause] = field(default_factory=dict)


# --------------------------------------------------------------- vocabularies

def _total(t: Translator, unit: str) -> str:
    return t._("the hand total in {unit}", unit=unit)


TOTAL = Vocabulary(numbers={"total": _total})

READY = Vocabulary(numbers={
    "total": lambda t, unit: t._("the ready hand's best total in {unit}", unit=unit),
    "base": lambda t, unit: t._("the base amount"),
})

WIN = Vocabulary(
    numbers={
        "total": _total,
        "base": lambda t, unit: t._("the base amount"),
        "winners": lambda t, unit: t._("the number of players winning on the same discard"),
        "tiles_left": lambda t, unit: t._("the tiles left in the wall"),
        "dealer_repeats": lambda t, unit: t._("the number of deals in a row the dealer has kept"),
    },
    flags={
        "self_drawn": lambda t: (t._("self-drawn win"), t._("win on a discard")),
        "robbing_kong": lambda t: (t._("win by robbing a kong"), t._("win not by robbing a kong")),
        "kong_replacement": lambda t: (t._("win on a kong replacement tile"),
                                       t._("win not on a kong replacement tile")),
        "last_wall_tile": lambda t: (t._("win with the last tile of the wall"),
                                     t._("win not with the last tile of the wall")),
        "first_turn": lambda t: (t._("win before the winner's first discard, with no claim or kong yet"),
                                 t._("win after the winner's first discard or a claim or kong")),
        "first_go_around": lambda t: (t._("win in the deal's first go-around"),
                                      t._("win after the deal's first go-around")),
        "dealer_first_discard": lambda t: (t._("win on the dealer's first discard"),
                                           t._("win not on the dealer's first discard")),
        "flower_replacement": lambda t: (t._("win on a flower replacement tile"),
                                         t._("win not on a flower replacement tile")),
    },
)

#: Kong payments: the tiles left in the wall (the players are read as in win payments).
KONG = Vocabulary(numbers={"tiles_left": lambda t, unit: t._("the tiles left in the wall")})

#: Player attributes in conditions ("every player who {clause}") and amounts.
PLAYER_FLAGS: dict[str, Clause] = {
    "won": lambda t: (t._("has won"), t._("has not won")),
    "active": lambda t: (t._("is still playing"), t._("is no longer playing")),
    "ready": lambda t: (t._("is ready (one tile from a winning hand)"), t._("is not ready")),
    "pig": lambda t: (t._("still holds a tile of the missing suit (a flower pig)"),
                      t._("is not a flower pig")),
}

#: Conditions on a named player of a payment ("the paying player is the dealer").
SUBJECT_FLAGS: dict[tuple[str, str], Clause] = {
    ("payer", "dealer"): lambda t: (t._("the paying player is the dealer"), t._("the paying player is not the dealer")),
    ("winner", "dealer"): lambda t: (t._("the winner is the dealer"), t._("the winner is not the dealer")),
    ("declarer", "dealer"): lambda t: (t._("the kong's owner is the dealer"),
                                       t._("the kong's owner is not the dealer")),
    ("payer", "discarder"): lambda t: (t._("the paying player discarded the winning tile"),
                                       t._("the paying player did not discard the winning tile")),
}

PLAYER_NUMBERS: dict[tuple[str, str], Phrase] = {
    ("payee", "ready_value"): lambda t, unit: t._("the most the receiving player's ready hand could win"),
    ("payer", "ready_value"): lambda t, unit: t._("the most the paying player's ready hand could win"),
    ("player", "ready_value"): lambda t, unit: t._("the most the player's ready hand could win"),
    ("payee", "kong_income"): lambda t, unit: t._("the receiving player's kong income"),
    ("payer", "kong_income"): lambda t, unit: t._("the paying player's kong income"),
    ("player", "kong_income"): lambda t, unit: t._("the player's kong income"),
}

PLAYER = Vocabulary()


class _Unreadable(Exception):
    """A construct this module has no sentence for: the formula is shown as written."""


def _num(n: int) -> str:
    return str(n)  # ASCII digits in every language


class _Reader:
    def __init__(self, t: Translator, vocab: Vocabulary, unit: str) -> None:
        self.t = t
        self.vocab = vocab
        self.unit = unit

    # ------------------------------------------------------------ numbers
    def number(self, tree: Tree | Token, top: bool = False) -> str:
        """A noun phrase for a number. ``top``: the whole formula, where "X, at most N" reads
        unambiguously; inside a larger formula a bound reads "the smaller of X and N"."""
        t = self.t
        if isinstance(tree, Token):
            raise _Unreadable(str(tree))
        kind = tree.data
        if kind == "int_":
            return _num(int(str(tree.children[0])))
        if kind == "name":
            name = str(tree.children[0])
            if name in self.vocab.numbers:
                return self.vocab.numbers[name](t, self.unit)
            raise _Unreadable(name)
        if kind == "attr":
            obj, attr = tree.children
            if isinstance(obj, Tree) and obj.data == "name":
                phrase = PLAYER_NUMBERS.get((str(obj.children[0]), str(attr)))
                if phrase:
                    return phrase(t, self.unit)
            raise _Unreadable(str(attr))
        if kind == "pow":
            return t._("{base} to the power of {exp}", base=self.operand(tree.children[0]),
                       exp=self.operand(tree.children[-1]))
        if kind == "neg":
            return t._("minus {a}", a=self.operand(tree.children[0]))
        if kind == "arith":
            return self.arith(tree)
        if kind == "call":
            return self.call(tree, top)
        if kind == "index":
            table, at = tree.children
            if isinstance(table, Tree) and table.data == "list_" and table.children:
                items = [self.number(c) for c in table.children if c is not None]
                return t._("the entry for {index} in the table {items} (the first entry is for 0)",
                           index=self.number(at), items=", ".join(items))
            raise _Unreadable(kind)
        if kind == "conditional":
            return t._("{then} if {condition}, otherwise {other}", then=self.number(tree.children[0]),
                       condition=self.condition(tree.children[1]), other=self.number(tree.children[2]))
        raise _Unreadable(kind)

    def operand(self, tree: Tree | Token) -> str:
        """A number inside a larger formula: compound sums get parentheses."""
        text = self.number(tree)
        if isinstance(tree, Tree) and tree.data in ("arith", "conditional"):
            return f"({text})"
        return text

    def arith(self, tree: Tree) -> str:
        t = self.t
        children = tree.children
        text = self.operand(children[0])
        left_is_int = isinstance(children[0], Tree) and children[0].data == "int_"
        for i in range(1, len(children), 2):
            op = str(children[i])
            right_tree = children[i + 1]
            right = self.operand(right_tree)
            if op == "+":
                text = t._("{a} plus {b}", a=text, b=right)
            elif op == "-":
                text = t._("{a} minus {b}", a=text, b=right)
            elif op == "*":
                # "3 times the base", whichever side the number is written on
                if not left_is_int and isinstance(right_tree, Tree) and right_tree.data == "int_":
                    text = t._("{a} times {b}", a=right, b=text)
                else:
                    text = t._("{a} times {b}", a=text, b=right)
            elif op == "//":
                text = t._("{a} divided by {b}, rounded down", a=text, b=right)
            elif op == "%":
                text = t._("the remainder of {a} divided by {b}", a=text, b=right)
            else:  # pragma: no cover - the grammar has no other operator
                raise _Unreadable(op)
            left_is_int = False
        return text

    def call(self, tree: Tree, top: bool = False) -> str:
        t = self.t
        name = str(tree.children[0])
        args = [c for c in tree.children[1:] if c is not None]
        if name in ("min", "max") and len(args) >= 2:
            consts = [a for a in args if isinstance(a, Tree) and a.data == "int_"]
            others = [a for a in args if a not in consts]
            if top and len(consts) == 1 and len(others) == 1:
                a, bound = self.number(others[0]), self.number(consts[0])
                if name == "min":
                    return t._("{a}, at most {bound}", a=a, bound=bound)
                return t._("{a}, at least {bound}", a=a, bound=bound)
            if len(args) == 2:
                a, b = (self.operand(x) for x in (others + consts if len(consts) == 1 else args))
                if name == "min":
                    return t._("the smaller of {a} and {b}", a=a, b=b)
                return t._("the larger of {a} and {b}", a=a, b=b)
            items = t.join([self.operand(a) for a in args])
            if name == "min":
                return t._("the smallest of {items}", items=items)
            return t._("the largest of {items}", items=items)
        if name == "abs" and len(args) == 1:
            return t._("the absolute value of {a}", a=self.number(args[0]))
        raise _Unreadable(name)

    def clauses(self, parts: list[str], either: bool) -> str:
        """Clauses joined with their own conjunction messages (CLDR list patterns are for
        nouns: Chinese joins clauses with 且/或, not with the noun 和)."""
        t = self.t
        head = parts[0]
        for part in parts[1:-1]:
            head = t._("{a}, {b}", a=head, b=part)
        if len(parts) == 1:
            return head
        if either:
            return t._("{a} or {b}", a=head, b=parts[-1])
        return t._("{a} and {b}", a=head, b=parts[-1])

    # --------------------------------------------------------- conditions
    def condition(self, tree: Tree | Token, negate: bool = False) -> str:
        t = self.t
        if isinstance(tree, Token):
            raise _Unreadable(str(tree))
        kind = tree.data
        if kind == "not_":
            return self.condition(tree.children[0], not negate)
        if kind == "name":
            name = str(tree.children[0])
            if name in self.vocab.flags:
                return self.vocab.flags[name](t)[1 if negate else 0]
            raise _Unreadable(name)
        if kind == "attr":
            obj, attr = tree.children
            subject = SUBJECT_FLAGS.get((str(obj.children[0]), str(attr))) if isinstance(obj, Tree) else None
            if subject is not None and obj.data == "name":
                return subject(t)[1 if negate else 0]
            clause = PLAYER_FLAGS.get(str(attr))
            if isinstance(obj, Tree) and obj.data == "name" and clause:
                return clause(t)[1 if negate else 0]
            raise _Unreadable(str(attr))
        if kind in ("and_", "or_"):
            parts = [self.condition(c, negate) for c in tree.children]
            # De Morgan: "not (a and b)" reads "not a or not b"
            return self.clauses(parts, either=(kind == "or_") != negate)
        if kind in ("true", "false"):
            holds = (kind == "true") != negate
            return t._("always") if holds else t._("never")
        if kind == "compare" and len(tree.children) == 3:
            left, op, right = tree.children
            op = " ".join(str(op).split())
            if negate:
                op = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">",
                      "in": "not in", "not in": "in"}[op]
            a, b = self.number(left), self.number(right)
            messages = {
                "==": t._("{a} is {b}", a=a, b=b), "!=": t._("{a} is not {b}", a=a, b=b),
                "<": t._("{a} is less than {b}", a=a, b=b), "<=": t._("{a} is at most {b}", a=a, b=b),
                ">": t._("{a} is more than {b}", a=a, b=b), ">=": t._("{a} is at least {b}", a=a, b=b),
            }
            if op in messages:
                return messages[op]
        raise _Unreadable(kind)


def _read(text: str, t: Translator, vocab: Vocabulary, how: str, unit: str) -> str:
    try:
        tree = parse(text)
        reader = _Reader(t, vocab, unit)
        return reader.number(tree, top=True) if how == "number" else reader.condition(tree)
    except (ExpressionError, _Unreadable, KeyError):
        return t._("the formula {formula}", formula=" ".join(str(text).split()))


def amount(text: str, t: Translator, vocab: Vocabulary = WIN, unit: str = "") -> str:
    """A number formula as a noun phrase: ``3 * base`` -> "3 times the base amount".
    ``unit`` is the variant's unit word in the translator's language ("the hand total in
    {unit}"): Chinese says 总番数 for faan but 总分 for points."""
    return _read(text, t, vocab, "number", unit)


def condition(text: str, t: Translator, vocab: Vocabulary = WIN, unit: str = "") -> str:
    """A condition as a clause: ``not player.won`` -> "has not won"."""
    return _read(text, t, vocab, "condition", unit)

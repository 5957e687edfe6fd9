"""Regenerate the vocabulary tables of docs/variant-language.md from the engine's own tables.

The names, attributes and functions an expression may use are defined in Python
(``compiler/scoring/context.py``, ``compiler/language/vocabulary.py``, ``compiler/settlement.py``) with a
description each; this script writes them, with one example per entry, between the
``<!-- vocabulary:start -->`` and ``<!-- vocabulary:end -->`` markers. Examples not listed
in ``EXAMPLES`` are made from the entry's type. ``tests/test_compiler_docs.py`` checks that
the document mentions every entry and that every example compiles.

    python docs/gen_vocabulary.py           # rewrite the block in place
    python docs/gen_vocabulary.py --check   # exit 1 if the block is out of date
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from cardavia.compiler.language.types import BOOL, GROUP, INT, STR, TILE, Type, list_of  # noqa: E402
from cardavia.compiler.language.vocabulary import FUNCTIONS, GROUP_ATTRS, PLAYER_ATTRS, TILE_ATTRS, Fact  # noqa: E402
from cardavia.compiler.scoring.context import PATTERN_FACTS  # noqa: E402
from cardavia.compiler.settlement import WIN_NAMES  # noqa: E402

DOC = ROOT / "docs" / "variant-language.md"
START, END = "<!-- vocabulary:start -->", "<!-- vocabulary:end -->"

#: Hand-picked examples (an expression each); the others are made from the type.
EXAMPLES: dict[str, str] = {
    "shape": 'shape == "seven_pairs"',
    "groups": "all(g in groups: g.outside)",
    "sets": "len(sets) == 4",
    "chows": "exists(a, b in chows: a.suit != b.suit and a.rank == b.rank)",
    "pungs": "count(s in pungs: s.dragon) == 2",
    "kongs": "len(kongs) >= 3",
    "pairs": "len(pairs) == 7",
    "pair": "pair.dragon",
    "knitted": "len(knitted) == 3",
    "declared": "all(s in declared: s.concealed)",
    "tiles": "len(suits(tiles)) == 1",
    "concealed_tiles": "all(t in concealed_tiles: t.simple)",
    "win": "win.terminal",
    "win_group": "win_group.pair",
    "wait": 'wait == "edge"',
    "waits": "len(waits) == 1",
    "seat_wind": "count(s in pungs: s.tile == seat_wind) > 0",
    "round_wind": "round_wind == 1z",
    "seat": "seat == 1",
    "flowers": "len(flowers) == 0",
    "missing_suit": 'missing_suit not in suits(tiles)',
    "tile.code": 'win.code == "5z"',
    "tile.suit": 'win.suit == "m"',
    "tile.rank": "win.rank == 5",
    "set.kind": 'win_group.kind == "chow"',
    "set.tile": "pair.tile == 5z",
    "set.middle": "all(s in chows: s.middle.rank == 5)",
    "set.tiles": "any(t in pair.tiles: t.simple)",
    "set.size": "all(s in sets: s.size == 3)",
    "set.suit": 'all(s in sets: s.suit == "p")',
    "set.rank": "exists(s in chows: s.rank == 7)",
    "player.seat": "payer.seat == 0",
    "player.ready_value": "payee.ready_value",
    "player.kong_income": "player.kong_income > 0",
    "player.dealer": "payer.dealer",
    "player.discarder": "payer.discarder",
    "dealer": "dealer and self_drawn and first_turn",
    "first_turn": "self_drawn and first_turn",
    "dealer_first_discard": "dealer_first_discard and not self_drawn",
    "flower_replacement": "kong_replacement or flower_replacement",
    "tiles_left": "tiles_left == 0",
    "dealer_repeats": "dealer_repeats >= 1",
    "payer": "2 * base if payer.dealer else base",
    "winner": "winner.dealer",
    "total": "min(2 ** total, 32)",
    "base": "3 * base",
    "winners": "winners == 1",
    "fn.len": "len(flowers) == 0",
    "fn.min": "min(len(kongs), 2) == 2",
    "fn.max": "max(len(chows), len(pungs)) == 4",
    "fn.abs": "abs(seat - 2) == 1",
    "fn.sorted": "sorted([pair.rank, win.rank]) == [2, 5]",
    "fn.tiles_of": "len(tiles_of(declared)) >= 6",
    "fn.same": "same(pair.suit, win.suit, win_group.suit)",
    "fn.distinct": "distinct(pair.suit, win.suit)",
}

#: What the names of win payments mean (they are typed in compiler/settlement.py).
WIN_MEANINGS = {
    "total": "the winner's total, capped",
    "base": "the base amount (settlement.base of the total)",
    "self_drawn": "the winning tile was drawn",
    "robbing_kong": "won on a tile added to another player's pung",
    "kong_replacement": "won on the replacement tile after a kong",
    "last_wall_tile": "won with the last tile of the wall",
    "winners": "how many players win on this same tile (more than 1 when several win on one discard)",
    "payer": "the player paying, one at a time: each rule is read once for each payer its `from` names",
    "winner": "the player paid",
    "first_turn": "as in pattern conditions: the winner had not discarded yet, no claim or kong in the deal",
    "first_go_around": "as in pattern conditions: the win comes in the deal's first go-around",
    "dealer_first_discard": "as in pattern conditions: the winning tile is the dealer's first discard",
    "flower_replacement": "as in pattern conditions: the winning tile replaced a flower",
    "tiles_left": "the tiles left in the wall",
    "dealer_repeats": "how many deals in a row the dealer has kept the deal",
}


def example_for(subject: str, name: str, t: Type) -> str:
    """An expression using ``name`` (reached as ``subject.name`` for attributes)."""
    expr = f"{subject}.{name}" if subject else name
    if t == BOOL:
        return expr
    if t == INT:
        return f"{expr} >= 1"
    if t == STR:
        return f'{expr} != ""'
    if t == TILE:
        return f"{expr}.honor"
    if t == GROUP:
        return f"{expr}.pung"
    if t == list_of(GROUP):
        return f"count(s in {expr}: s.concealed) >= 2"
    if t == list_of(TILE):
        return f"all(t in {expr}: t.suited)"
    if t.item is not None:  # any other list or collection
        return f"len({expr}) >= 1"
    return expr


#: Where attributes are read in their examples: the subject whose attribute it is.
SUBJECTS = {"tile": "win", "set": "win_group", "player": "player"}


def rows() -> dict[str, list[tuple[str, str, str, str]]]:
    """Each table: (name, type, meaning, example)."""
    tables: dict[str, list[tuple[str, str, str, str]]] = {"names": [], "tile": [], "set": [], "player": [],
                                                        "settlement": [], "functions": []}
    for name, fact in PATTERN_FACTS.items():
        tables["names"].append((name, str(fact.type), fact.doc, EXAMPLES.get(name) or example_for("", name, fact.type)))
    for kind, attrs in (("tile", TILE_ATTRS), ("set", GROUP_ATTRS), ("player", PLAYER_ATTRS)):
        for name, (t, doc) in attrs.items():
            example = EXAMPLES.get(f"{kind}.{name}") or example_for(SUBJECTS[kind], name, t)
            tables[kind].append((name, str(t), doc, example))
    for name, named in WIN_NAMES.items():
        t = named.type if isinstance(named, Fact) else named
        example = EXAMPLES.get(name) or example_for("", name, t)
        tables["settlement"].append((name, str(t), WIN_MEANINGS.get(name, ""), example))
    for name, fn in FUNCTIONS.items():
        meaning, _, example = fn.doc.partition(": ")
        tables["functions"].append((name, "", meaning.strip(), EXAMPLES.get(f"fn.{name}") or example.strip()))
    return tables


def _table(header: tuple[str, ...], lines: list[tuple[str, ...]]) -> str:
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for cells in lines:
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
    return "\n".join(out)


def block() -> str:
    t = rows()
    parts = [
        START,
        "<!-- generated by docs/gen_vocabulary.py from the engine's tables: edit those, then rerun -->",
        "",
        "### Names in pattern conditions and values",
        "",
        "What `when`, `count`, `value`, `valid_when` and `definitions` see: one arrangement of the",
        "winning hand and the circumstances of the win.",
        "",
        _table(("name", "type", "meaning", "example"),
               [(f"`{n}`", ty, m, f"`{e}`") for n, ty, m, e in t["names"]]),
        "",
        "### Attributes of a tile",
        "",
        "Written `tile.name`, e.g. `win.honor` or, inside a quantifier, `t.rank`.",
        "",
        _table(("attribute", "type", "meaning", "example"),
               [(f"`.{n}`", ty, m, f"`{e}`") for n, ty, m, e in t["tile"]]),
        "",
        "### Attributes of a set (or pair, or other group)",
        "",
        "Written `set.name`, e.g. `pair.dragon` or, inside a quantifier, `s.concealed`.",
        "",
        _table(("attribute", "type", "meaning", "example"), [(f"`.{n}`", ty, m, f"`{e}`") for n, ty, m, e in t["set"]]),
        "",
        "### Attributes of a player (payments)",
        "",
        "`player` in `refund_kongs`, `payer` and `payee`; `payer` and `payee` in `amount`; `payer` and",
        "`winner` in win payments, `payer` and `declarer` in kong payments.",
        "",
        _table(("attribute", "type", "meaning", "example"),
               [(f"`.{n}`", ty, m, f"`{e}`") for n, ty, m, e in t["player"]]),
        "",
        "### Names in win payments",
        "",
        "What the `when` and `amount` of `settlement.win` rules see (`base` also in `ready_value`;",
        "only `total` in `base`).",
        "",
        _table(("name", "type", "meaning", "example"),
               [(f"`{n}`", ty, m, f"`{e}`") for n, ty, m, e in t["settlement"]]),
        "",
        "### Functions",
        "",
        _table(("function", "meaning", "example"), [(f"`{n}()`", m, f"`{e}`") for n, _, m, e in t["functions"]]),
        "",
        END,
    ]
    return "\n".join(parts)


def updated(text: str) -> str:
    start, end = text.index(START), text.index(END) + len(END)
    return text[:start] + block() + text[end:]


def main(argv: list[str]) -> int:
    text = DOC.read_text(encoding="utf-8")
    new = updated(text)
    if "--check" in argv:
        if new != text:
            print(f"{DOC} is out of date: run python docs/gen_vocabulary.py", file=sys.stderr)
            return 1
        return 0
    if new != text:
        DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

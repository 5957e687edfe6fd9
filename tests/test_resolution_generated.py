"""The generated scorers against a plain reading of the table rules (tests/resolution_reference.py).

Random small tables mix whole-hand and combination patterns, exclusions in both
directions (an exclusion of a pattern listed earlier takes back what it had),
replacements in both directions, limits, a fallback and the principles; random hands are
scored by the compiled variant and by the reference, which must give the same fans.
"""

from __future__ import annotations

from typing import Any

import resolution_reference as reference
from cardavia.compiler import HandError, compile_text, parse_notation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_mcr_principles import HEAD as TOY_HEAD

HEAD = TOY_HEAD + "    - {id: pairs, kind: pairs, sets: 7}\n"

#: id -> (combination name or None, the condition line)
TEMPLATES: dict[str, tuple[str | None, str]] = {
    "straight": ("chows", 'count: "count(a, b, c in chows: same(a.suit, b.suit, c.suit) and a.rank == 1 '
                          'and b.rank == 4 and c.rank == 7)"'),
    "suited_chows": ("chows", 'count: "count(a, b in chows: a.suit == b.suit)"'),
    "twin_chows": ("chows", 'count: "count(a, b in chows: a.tile == b.tile)"'),
    "shifted_chows": ("chows", 'count: "count(a, b in chows: a.suit == b.suit and b.rank == a.rank + 1)"'),
    "each_chow": ("chows", 'count: "count(s in chows: true)"'),
    "each_pung": ("pungs", 'count: "count(s in pungs: true)"'),
    "two_pungs": ("pungs", 'count: "count(a, b in pungs: true)"'),
    "honor_pung": ("pungs", 'count: "count(s in pungs: s.honor)"'),
    "sets_of_a_suit": ("sets", 'count: "count(a, b in sets: a.suit == b.suit)"'),
    # Combinations reading the context: chosen in a loop on every arrangement, which
    # runs only when the part not reading the choice holds (here, the pair's).
    "pair_chows": ("chows", 'count: "count(a, b in chows: pair.terminal and a.suit == b.suit)"'),
    "drawn_chows": ("chows", 'count: "count(a, b in chows: self_drawn and a.rank == b.rank)"'),
    "win_chow": ("chows", 'count: "count(s in chows: s.suit == win.suit)"'),
    "self_drawn": (None, 'when: "self_drawn"'),
    "many_chows": (None, 'when: "len(chows) >= 2"'),
    "pung_count": (None, 'count: "count(s in sets: s.pung)"'),
    "concealed": (None, 'when: "len(declared) == 0"'),
    "terminal_pair": (None, 'when: "pair.terminal"'),
    "outside_sets": (None, 'when: "pair.outside and all(s in sets: s.outside)"'),
    "pair_count": (None, 'count: "len(pairs)"'),
}
IDS = sorted(TEMPLATES)


@st.composite
def tables(draw: Any) -> str:
    ids = draw(st.lists(st.sampled_from(IDS), min_size=2, max_size=8, unique=True))
    lines = ["  patterns:"]
    rank = {pid: j for j, pid in enumerate(draw(st.permutations(ids)))}  # replacements follow it: no cycle
    wholes = [pid for pid in ids if TEMPLATES[pid][0] is None]
    fallback = draw(st.sampled_from([None, *wholes])) if wholes else None
    limit = draw(st.sampled_from([None, *wholes])) if wholes and draw(st.integers(0, 4)) == 0 else None
    for pid in ids:
        combination, condition = TEMPLATES[pid]
        lines += [f"    - id: {pid}", f"      name: {pid}", "      description: A test pattern.",
                  f"      value: {draw(st.integers(1, 9))}", f"      {condition}"]
        if combination is not None:
            lines.append(f"      combination: {combination}")
        if pid == fallback:
            lines.append("      fallback: true")
            continue
        if pid == limit:
            lines.append("      limit: true")
            continue
        others = [q for q in ids if q not in (fallback, limit, pid)]
        excludes = draw(st.lists(st.sampled_from(others), max_size=3, unique=True)) if others else []
        if excludes:
            lines.append(f"      excludes: [{', '.join(excludes)}]")
        targets = [q for q in others if rank[q] > rank[pid]]
        if targets and draw(st.integers(0, 3)) == 0:
            lines.append(f"      replaces: {{{draw(st.sampled_from(targets))}: {draw(st.integers(1, 2))}}}")
    principles = {"account_once": draw(st.booleans()), "non_identical": draw(st.booleans())}
    head = "  principles: {" + ", ".join(f"{k}: {str(v).lower()}" for k, v in principles.items()) + "}\n"
    return head + "\n".join(lines) + "\n"


SUITS = "mps"


@st.composite
def hands(draw: Any) -> str:
    if draw(st.integers(0, 6)) == 0:  # seven pairs
        kinds = draw(st.lists(st.tuples(st.integers(1, 9), st.sampled_from(SUITS)), min_size=7, max_size=7,
                              unique=True))
        parts = [f"{r}{r}{s}" for r, s in kinds]
        win = parts[-1][1:]
        parts[-1] = parts[-1][1:]
        return " ".join(parts) + f" +{win}"
    groups = []
    for _ in range(4):
        suit = draw(st.sampled_from(SUITS + "z"))
        if suit != "z" and draw(st.integers(0, 2)):
            r = draw(st.integers(1, 7))
            groups.append(f"{r}{r + 1}{r + 2}{suit}")
        else:
            r = draw(st.integers(1, 7 if suit == "z" else 9))
            groups.append(f"{r}{r}{r}{suit}")
    suit = draw(st.sampled_from(SUITS + "z"))
    r = draw(st.integers(1, 7 if suit == "z" else 9))
    groups.append(f"{r}{r}{suit}")
    declared = draw(st.integers(0, 2))
    concealed = groups[declared:]
    win_group = draw(st.integers(0, len(concealed) - 1))
    text = concealed[win_group]
    at = draw(st.integers(0, len(text) - 2))
    win = text[at] + text[-1]
    concealed[win_group] = text[:at] + text[at + 1:]
    parts = [f"[{g}]" for g in groups[:declared]] + [g for g in concealed if len(g) > 1]
    return " ".join(parts) + f" +{win}" + (" " if draw(st.booleans()) else "")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.lists(st.tuples(hands(), st.booleans()), min_size=1, max_size=6))
def test_generated_scorer_agrees_with_the_plain_reading(table: str, cases: list[tuple[str, bool]]) -> None:
    variant = compile_text(HEAD + table, "toy.yaml")
    for text, self_drawn in cases:
        try:
            hand = parse_notation(text, self_drawn=self_drawn)
            variant.scorer.check_tiles(hand)
        except HandError:
            continue
        result = variant.scorer.score(hand)
        expected = reference.score(variant, hand)
        got = [(f.id, f.value, f.count) for f in result.fans] if result.arrangement is not None else None
        assert got == expected, (table, text)


def _table_of(ids: list[str], principles: str = "{account_once: false, non_identical: false}") -> str:
    lines = [f"  principles: {principles}", "  patterns:"]
    for pid in ids:
        combination, condition = TEMPLATES[pid]
        lines += [f"    - id: {pid}", f"      name: {pid}", "      description: A test pattern.", "      value: 2",
                  f"      {condition}"]
        if combination is not None:
            lines.append(f"      combination: {combination}")
    return "\n".join(lines) + "\n"


def test_a_choice_loop_reading_the_context_tests_each_condition_whole() -> None:
    # Both conditions have a part the choice does not change (the pair's, self_drawn): the
    # loop runs because one holds, and must not count the other's choices.
    variant = compile_text(HEAD + _table_of(["pair_chows", "drawn_chows", "self_drawn"]), "toy.yaml")
    for text, self_drawn in [("123m 456m 123p 789s 5p +5p", True), ("123m 456m 123p 789s 9p +9p", False),
                             ("123m 123p 456p 789s 9p +9p", True)]:
        hand = parse_notation(text, self_drawn=self_drawn)
        got = [(f.id, f.value, f.count) for f in variant.scorer.score(hand).fans]
        assert got == reference.score(variant, hand), text


def test_covers_of_different_lists_meet_in_the_arrangements_numbering() -> None:
    # A pattern over sets excludes one over chows within its cover: the two lists number
    # their groups differently (a pung comes first among the sets), so the covers must be
    # read in the arrangement's numbering, not each list's own.
    table = """  principles: {account_once: false, non_identical: false}
  patterns:
    - id: pung_and_chow
      name: pung_and_chow
      description: A test pattern.
      value: 3
      count: "count(a, b in sets: a.pung and b.chow and a.suit == b.suit)"
      combination: sets
      excludes: [two_chows]
    - id: two_chows
      name: two_chows
      description: A test pattern.
      value: 2
      count: "count(a, b in chows: a.suit == b.suit)"
      combination: chows
"""
    variant = compile_text(HEAD + table, "toy.yaml")
    hand = parse_notation("111m 234m 567m 789m 5s +5s")
    got = [(f.id, f.value, f.count) for f in variant.scorer.score(hand).fans]
    assert got == reference.score(variant, hand) == [("pung_and_chow", 3, 3), ("two_chows", 2, 3)]


def test_choices_kept_for_a_list_of_groups_depend_on_the_context_they_read() -> None:
    # win_chow reads the winning tile: two hands with the same chows but winning tiles of
    # different suits must not share what was worked out for the first.
    variant = compile_text(HEAD + _table_of(["win_chow"]), "toy.yaml")
    for text, expected in [("123m 456p 789s 123s 1z +1z", []), ("23m 456p 789s 123s 11z +1m", [("win_chow", 2, 1)]),
                           ("123m 456p 789s 123s 1z +1z", [])]:
        hand = parse_notation(text)
        got = [(f.id, f.value, f.count) for f in variant.scorer.score(hand).fans]
        assert got == reference.score(variant, hand) == expected, text


def test_an_excluded_pattern_is_not_scored_whatever_its_condition_costs() -> None:
    # outside_sets has a cheap part (the pair's) and a loop; excluded by self_drawn, it
    # must score only on a discard.
    lines = _table_of(["self_drawn", "outside_sets", "terminal_pair"]).replace(
        "      when: \"self_drawn\"\n", "      when: \"self_drawn\"\n      excludes: [outside_sets, terminal_pair]\n")
    variant = compile_text(HEAD + lines, "toy.yaml")
    for self_drawn in (True, False):
        hand = parse_notation("123m 789m 111p 999s 1z +1z", self_drawn=self_drawn)
        got = [(f.id, f.value, f.count) for f in variant.scorer.score(hand).fans]
        assert got == reference.score(variant, hand), self_drawn
        assert ("outside_sets", 2, 1) in got if not self_drawn else got == [("self_drawn", 2, 1)]

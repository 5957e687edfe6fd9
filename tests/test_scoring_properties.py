"""Scoring properties over generated hands, for every shipped variant (hypothesis).

Hands are generated from what each variant file declares (its shapes, its tile set,
whether chows may be claimed), not from a per-variant list:

* every generated winning hand is recognised as a winning shape;
* scoring never raises on a legal hand;
* the total is the sum of the listed fans (value x count), capped: min(sum, cap);
* a hand is invalid exactly when it is not a winning shape (checked by an independent
  decomposer written here), is below the minimum, or (Sichuan) holds the missing suit.
"""

from __future__ import annotations

from functools import cache
from itertools import permutations
from typing import Any

import pytest
from cardavia.compiler import from_json, load_variant
from cardavia.compiler.model.tiles import CODES
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

VARIANTS = ("hk", "mcr", "sichuan")
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Shape kinds this file can generate and check independently; others are skipped.
KNOWN_KINDS = ("sets_and_pair", "pairs", "unique_plus_pair", "knitted_and_honors", "knitted_sets_and_pair")


@cache
def variant(name: str) -> Any:
    return load_variant(name)


def knitted(perm: tuple[int, ...]) -> list[int]:
    """The nine kinds of a knitted straight: ranks 1-4-7 in suit perm[0], 2-5-8 in perm[1], 3-6-9 in perm[2]."""
    return [perm[offset] * 9 + offset + 3 * step for offset in range(3) for step in range(3)]


KNITTED = [knitted(p) for p in permutations(range(3))]


# ------------------------------------------------------------ the oracle

@cache
def _splits(counts: tuple[int, ...], sets: int, pairs: int) -> bool:
    """Whether counts (34 kinds) are exactly ``sets`` pungs/chows and ``pairs`` pairs."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return sets == 0 and pairs == 0
    c = list(counts)
    if c[i] >= 3 and sets:
        c[i] -= 3
        if _splits(tuple(c), sets - 1, pairs):
            return True
        c[i] += 3
    if c[i] >= 2 and pairs:
        c[i] -= 2
        if _splits(tuple(c), sets, pairs - 1):
            return True
        c[i] += 2
    if sets and i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if _splits(tuple(c), sets - 1, pairs):
            return True
    return False


def wins(shape: Any, counts: list[int], melds: int) -> bool:
    """An independent check of one declared shape on the concealed counts (winning tile included)."""
    total = sum(counts)
    if shape.kind == "sets_and_pair":
        need = shape.sets - melds
        return need >= 0 and total == 3 * need + 2 and _splits(tuple(counts), need, 1)
    if melds and shape.kind != "knitted_sets_and_pair":
        return False
    if shape.kind == "pairs":
        ok = all(c in (0, 2) or (c == 4 and shape.quads_as_two_pairs) for c in counts)
        return ok and total == 2 * shape.sets
    if shape.kind == "unique_plus_pair":
        wanted = set(shape.tiles)
        return (total == len(wanted) + 1 and all(counts[k] >= 1 for k in wanted)
                and all(c == 0 for k, c in enumerate(counts) if k not in wanted))
    if shape.kind == "knitted_and_honors":
        suited = {k for k in range(27) if counts[k]}
        return total == 14 and max(counts) == 1 and any(suited <= set(ks) for ks in KNITTED)
    if shape.kind == "knitted_sets_and_pair":
        if melds > shape.max_melds:
            return False
        need = shape.sets - 3 - melds
        for ks in KNITTED:
            if all(counts[k] for k in ks):
                rest = list(counts)
                for k in ks:
                    rest[k] -= 1
                if sum(rest) == 3 * need + 2 and _splits(tuple(rest), need, 1):
                    return True
        return False
    raise AssertionError(shape.kind)


def is_winning_shape(v: Any, request: dict[str, Any]) -> bool:
    """The oracle's answer; a hand it cannot decide (a shape kind unknown here) is skipped."""
    counts = [0] * 34
    for code in request["hand"] + [request["win_tile"]]:
        counts[CODES.index(code)] += 1
    melds = len(request.get("melds", []))
    if any(wins(s, counts, melds) for s in v.scoring.shapes if s.kind in KNOWN_KINDS):
        return True
    assume(all(s.kind in KNOWN_KINDS for s in v.scoring.shapes))
    return False


def suits_of(request: dict[str, Any]) -> set[str]:
    codes = request["hand"] + [request["win_tile"]] + [t for m in request.get("melds", []) for t in m["tiles"]]
    return {c[1] for c in codes if c[1] in "mps"}


# ------------------------------------------------------------ generators

class _Tiles:
    """Draws tile kinds while keeping within the variant's copies."""

    def __init__(self, draw: Any, v: Any, kinds: list[int]) -> None:
        self.draw = draw
        self.kinds = kinds
        self.copies = v.scorer.copies
        self.used = [0] * 42

    def fits(self, kinds: list[int]) -> bool:
        need: dict[int, int] = {}
        for k in kinds:
            need[k] = need.get(k, 0) + 1
        return all(k in self.kinds and self.used[k] + n <= self.copies[k] for k, n in need.items())

    def take(self, options: list[list[int]]) -> list[int]:
        options = [o for o in options if self.fits(o)]
        assume(options)
        chosen = self.draw(st.sampled_from(options))
        for k in chosen:
            self.used[k] += 1
        return chosen

    def set_options(self, kind: str) -> list[list[int]]:
        if kind == "chow":
            return [[k, k + 1, k + 2] for k in self.kinds if k < 27 and k % 9 <= 6]
        size = {"pung": 3, "kong": 4, "pair": 2}[kind]
        return [[k] * size for k in self.kinds]


def _base_kinds(draw: Any, v: Any) -> tuple[list[int], str | None]:
    """The kinds a hand may use; with a missing-suit rule, one suit is left out (and maybe declared)."""
    kinds = sorted(v.scorer.playable)
    if v.play.missing_suit is None:
        return kinds, None
    missing = draw(st.sampled_from("mps"))
    kinds = [k for k in kinds if k >= 27 or "mps"[k // 9] != missing]
    return kinds, draw(st.sampled_from([missing, None]))


@st.composite
def winning_requests(draw: Any, name: str) -> dict[str, Any]:
    """A JSON scoring request whose tiles form one of the variant's shapes."""
    v = variant(name)
    shapes = [s for s in v.scoring.shapes if s.kind in KNOWN_KINDS]
    shape = draw(st.sampled_from(shapes))
    kinds, missing = _base_kinds(draw, v)
    tiles = _Tiles(draw, v, kinds)
    concealed: list[int] = []
    melds: list[dict[str, Any]] = []
    chow_claims = v.play.chow != "none"

    def add_sets(n: int, may_declare: int) -> None:
        for _ in range(n):
            # Weighted toward chows, as real hands are; a kong is always declared.
            kind = draw(st.sampled_from(["chow", "chow", "chow", "pung", "pung"] + (["kong"] if may_declare else [])))
            group = tiles.take(tiles.set_options(kind))
            declare = kind == "kong" or (may_declare and draw(st.booleans()) and (kind == "pung" or chow_claims))
            if declare and may_declare:
                may_declare -= 1
                melds.append({"type": kind, "tiles": [CODES[k] for k in group],
                              "concealed": kind == "kong" and draw(st.booleans())})
            else:
                concealed.extend(group)

    if shape.kind == "sets_and_pair":
        add_sets(shape.sets, shape.sets)
        concealed.extend(tiles.take(tiles.set_options("pair")))
    elif shape.kind == "pairs":
        for _ in range(shape.sets):
            options = tiles.set_options("pair")
            if not shape.quads_as_two_pairs:
                options = [o for o in options if tiles.used[o[0]] == 0]
            concealed.extend(tiles.take(options))
    elif shape.kind == "unique_plus_pair":
        assume(tiles.fits(list(shape.tiles)))
        concealed.extend(tiles.take([list(shape.tiles)]))
        concealed.extend(tiles.take([[k] for k in shape.tiles]))
    elif shape.kind == "knitted_and_honors":
        pool = draw(st.sampled_from(KNITTED)) + list(range(27, 34))
        chosen = draw(st.lists(st.sampled_from(pool), min_size=14, max_size=14, unique=True))
        concealed.extend(tiles.take([chosen]))
    else:  # knitted_sets_and_pair
        concealed.extend(tiles.take([draw(st.sampled_from(KNITTED))]))
        add_sets(shape.sets - 3, shape.max_melds)
        concealed.extend(tiles.take(tiles.set_options("pair")))

    win = concealed.pop(draw(st.integers(0, len(concealed) - 1)))
    has_kong = any(m["type"] == "kong" for m in melds)
    self_drawn = draw(st.booleans())
    request: dict[str, Any] = {
        "hand": [CODES[k] for k in draw(st.permutations(concealed))],
        "win_tile": CODES[win],
        "melds": melds,
        "self_drawn": self_drawn,
        "seat_wind": draw(st.sampled_from("ESWN")),
        "round_wind": draw(st.sampled_from("ESWN")),
        "last_tile_of_kind": draw(st.booleans()),
        "kong_replacement": self_drawn and has_kong and draw(st.booleans()),
        "last_wall_tile": draw(st.booleans()),
        "missing_suit": missing,
    }
    request["robbing_kong"] = not self_drawn and draw(st.booleans())
    if v.tiles.has_bonus():
        request["flowers"] = [CODES[k] for k in draw(st.lists(st.integers(34, 41), max_size=8, unique=True))]
    return request


# ------------------------------------------------------------ the checks

def check_result(v: Any, result: Any) -> None:
    """Total = capped sum of value x count; valid exactly when the minimum is met."""
    raw = sum(f.value * f.count for f in result.fans)
    toward = sum(f.value * f.count for f in result.fans if v.scoring.table.by_id[f.id].toward_minimum)
    assert all(f.count >= 1 for f in result.fans)
    assert len({f.id for f in result.fans}) == len(result.fans)
    assert result.uncapped == raw
    cap = v.scoring.cap
    assert result.total == (raw if cap is None else min(raw, cap))
    assert result.valid == (toward >= v.scoring.minimum)
    limits = [f for f in result.fans if v.scoring.table.by_id[f.id].limit]
    assert not limits or len(result.fans) == 1


@pytest.mark.parametrize("name", VARIANTS)
def test_generated_winning_hands_are_recognised_and_totals_add_up(name):
    v = variant(name)

    @SETTINGS
    @given(winning_requests(name))
    def check(request: dict[str, Any]) -> None:
        assert is_winning_shape(v, request)  # the generator and the oracle agree
        result = v.scorer.score(from_json(request))
        assert result.arrangement is not None, result.reason
        assert result.reason != "not a winning shape"
        check_result(v, result)

    check()


@st.composite
def changed_requests(draw: Any, name: str) -> dict[str, Any]:
    """A winning request with its winning tile (or one held tile) swapped for another kind."""
    request = draw(winning_requests(name))
    v = variant(name)
    kinds = sorted(v.scorer.playable)
    new = CODES[draw(st.sampled_from(kinds))]
    all_codes = request["hand"] + [request["win_tile"]] + [t for m in request["melds"] for t in m["tiles"]]
    assume(all_codes.count(new) < v.scorer.copies[CODES.index(new)])
    if draw(st.booleans()) or not request["hand"]:
        request["win_tile"] = new
    else:
        hand = list(request["hand"])
        hand[draw(st.integers(0, len(hand) - 1))] = new
        request["hand"] = hand
    return request


@pytest.mark.parametrize("name", VARIANTS)
def test_invalid_exactly_when_not_a_winning_shape_or_below_minimum(name):
    v = variant(name)

    @SETTINGS
    @given(changed_requests(name))
    def check(request: dict[str, Any]) -> None:
        result = v.scorer.score(from_json(request))
        holds_missing = v.play.missing_suit is not None and (
            request["missing_suit"] in suits_of(request) or len(suits_of(request)) == 3)
        if not is_winning_shape(v, request) or holds_missing:
            assert (result.valid, result.total, result.fans) == (False, 0, [])
        else:
            assert result.arrangement is not None
            check_result(v, result)

    check()


@st.composite
def sichuan_with_missing_suit_held(draw: Any) -> dict[str, Any]:
    """A Sichuan winning shape whose declared missing suit is one the hand holds."""
    request = draw(winning_requests("sichuan"))
    held = sorted(suits_of(request))
    request["missing_suit"] = draw(st.sampled_from(held))
    return request


@SETTINGS
@given(sichuan_with_missing_suit_held())
def test_sichuan_hand_holding_the_missing_suit_is_not_a_win(request):
    result = variant("sichuan").scorer.score(from_json(request))
    assert (result.valid, result.total, result.fans) == (False, 0, [])


@SETTINGS
@given(st.data())
def test_sichuan_hand_with_three_suits_and_no_declared_suit_is_not_a_win(data):
    # 123 of each suit, a fourth chow, and a pair: three suits, no declared missing suit.
    suits = data.draw(st.permutations("mps"))
    start = data.draw(st.integers(1, 7))
    pair = data.draw(st.sampled_from([f"{r}{s}" for r in "2468" for s in "mps"]))
    hand = [f"{r}{s}" for s in suits for r in "123"] + [f"{r}{suits[0]}" for r in range(start, start + 3)] + [pair]
    request = {"hand": hand, "win_tile": pair}
    result = variant("sichuan").scorer.score(from_json(request))
    assert (result.valid, result.total, result.fans) == (False, 0, [])


@pytest.mark.parametrize("name", VARIANTS)
def test_scoring_does_not_depend_on_tile_order(name):
    v = variant(name)

    @settings(max_examples=40, deadline=None)
    @given(winning_requests(name), st.randoms(use_true_random=False))
    def check(request: dict[str, Any], rnd: Any) -> None:
        first = v.scorer.score(from_json(request)).as_json()
        shuffled = dict(request, hand=rnd.sample(request["hand"], len(request["hand"])))
        shuffled["melds"] = [dict(m, tiles=rnd.sample(m["tiles"], len(m["tiles"]))) for m in request["melds"]]
        assert v.scorer.score(from_json(shuffled)).as_json() == first

    check()


def _normal(hand: Any) -> tuple:
    """A hand with its concealed tiles, melds and flowers in a canonical order."""
    return (sorted(hand.concealed), sorted((m.kind, m.tiles, m.concealed) for m in hand.melds), hand.win_tile,
            sorted(hand.flowers), hand.self_drawn, hand.seat_wind, hand.round_wind, hand.last_tile_of_kind,
            hand.kong_replacement, hand.robbing_kong, hand.last_wall_tile, hand.missing_suit)


@pytest.mark.parametrize("name", VARIANTS)
def test_notation_and_json_round_trip(name):
    from cardavia.compiler import parse_notation
    from cardavia.compiler.model.hand import to_json

    @settings(max_examples=60, deadline=None)
    @given(winning_requests(name))
    def check(request: dict[str, Any]) -> None:
        hand = from_json(request)
        assert _normal(from_json(to_json(hand))) == _normal(hand)
        flags = {k: v for k, v in to_json(hand).items() if k not in ("hand", "melds", "win_tile", "flowers")}
        assert _normal(parse_notation(hand.notation(), **flags)) == _normal(hand)

    check()

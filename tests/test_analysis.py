"""The hand analysis (runtime/analysis.py) against brute force, in every shipped variant.

Waits and their values are checked against every tile kind tried with the scorer; the
shanten against the compiler's own test of a complete hand; the useful tiles and the
discards (worked out from tables) against the shanten of every hand one draw or one
discard away (worked out one hand at a time).
"""

from __future__ import annotations

import pytest
from cardavia.compiler import load_variant
from cardavia.compiler.model.hand import Hand, Meld
from cardavia.compiler.model.tiles import SUITS, parse_tiles
from cardavia.compiler.shapes.arrangements import completes
from cardavia.runtime.analysis import Analyst, View, analyst
from cardavia.runtime.deal import Deal
from cardavia.runtime.wall import shuffled_wall
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

VARIANTS = ("hk", "mcr", "sichuan")
#: One knitted straight's kinds (147m 258p 369s): knitted shapes get close with them.
KNITTED = (0, 3, 6, 10, 13, 16, 20, 23, 26)


def _views(name: str, data: st.DataObject, size: int) -> tuple[Analyst, View] | None:
    """A random view of ``size`` tiles (13: one short; 14: holding the extra tile), its
    tiles within the variant's copies, often close to a shape (one suit, a knitted
    straight, all different) so that ready and complete hands are frequent."""
    v = load_variant(name)
    a = analyst(v)
    pool = [k for k in v.tiles.kinds if k < 34]
    style = data.draw(st.sampled_from(["any", "one_suit", "one_suit", "knitted", "distinct"]))
    if style == "one_suit":
        pool = [k for k in pool if k < 9 or k >= 27]
    elif style == "knitted":
        pool = [k for k in pool if k in KNITTED or k >= 27] + [k for k in pool if k < 9 and k not in KNITTED]
    elif style == "distinct":
        pool = sorted(set(pool))
    melds: list[Meld] = []
    if data.draw(st.integers(0, 3)) == 0:  # a declared pung of a kind the pool holds three times or more
        kinds = sorted({k for k in pool if pool.count(k) >= 3})
        if kinds:
            k = data.draw(st.sampled_from(kinds))
            melds.append(Meld("pung", (k, k, k)))
            for _ in range(3):
                pool.remove(k)
    tiles = size - 3 * len(melds)
    hand = data.draw(st.permutations(pool))[:tiles]
    if len(hand) < tiles:
        return None
    missing = None
    if v.play.missing_suit is not None:
        missing = data.draw(st.sampled_from([None, *SUITS]))
    flowers: tuple[int, ...] = ()
    if v.tiles.has_bonus():
        flowers = tuple(data.draw(st.sets(st.integers(34, 41), max_size=3)))
    winds = data.draw(st.tuples(st.integers(27, 30), st.integers(27, 30)))
    return a, View(tuple(hand), tuple(melds), flowers, winds[0], winds[1], missing)


def _held(view: View) -> list[int]:
    counts = view.counts()
    for m in view.melds:
        for k in m.tiles:
            counts[k] += 1
    return counts


def _missing_tiles(view: View) -> int:
    if view.missing_suit is None:
        return 0
    suit = SUITS.index(view.missing_suit)
    return sum(1 for k in view.concealed if k < 27 and k // 9 == suit)


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_waits_and_their_values_are_every_kind_tried_with_the_scorer(name: str, data: st.DataObject) -> None:
    got = _views(name, data, 13)
    if got is None:
        return
    a, view = got
    scorer = a.scorer
    held = _held(view)
    counts = view.counts()
    expected = {}
    for k in sorted(scorer.playable):
        if k >= 34 or held[k] >= scorer.copies[k]:
            continue
        counts[k] += 1
        if completes(counts, len(view.melds), a.shapes):
            values = []
            for self_drawn in (False, True):
                r = scorer.score(Hand(view.concealed, view.melds, k, view.flowers, self_drawn=self_drawn,
                                      seat_wind=view.seat_wind, round_wind=view.round_wind,
                                      missing_suit=view.missing_suit))
                values.append((r.valid, r.total, r.reason))
            expected[k] = tuple(values)
        counts[k] -= 1
    waits = a.waits(view)
    assert [w.tile for w in waits] == sorted(expected)
    for w in waits:
        assert ((w.discard.valid, w.discard.total, w.discard.reason),
                (w.self_drawn.valid, w.self_drawn.total, w.self_drawn.reason)) == expected[w.tile]
        assert w.unseen == scorer.copies[w.tile] - held[w.tile]
        for value in (w.discard, w.self_drawn):
            if value.below_minimum:
                assert value.reason == (f"below the minimum: {value.counted} {a.variant.scoring.unit} "
                                        f"counted toward it, {a.minimum} needed")
    ready = a.shanten(view) == 0
    dead = _missing_tiles(view)
    counts = view.counts()
    assert ready == (not dead and any(completes([c + (i == k) for i, c in enumerate(counts)], len(view.melds),
                                                a.shapes) for k in range(34)))
    analysis = a.analyse(view)
    assert analysis.waits == waits and analysis.shanten == a.shanten(view)


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_useful_tiles_are_the_draws_that_lower_the_shanten(name: str, data: st.DataObject) -> None:
    got = _views(name, data, 13)
    if got is None:
        return
    a, view = got
    now = a.shanten(view)
    held = _held(view)
    suit = SUITS.index(view.missing_suit) if view.missing_suit else -1
    expected = []
    for k in sorted(a.scorer.playable):
        if k >= 34 or held[k] >= 4 or (k < 27 and k // 9 == suit):
            continue
        drawn = View(view.concealed + (k,), view.melds, view.flowers, view.seat_wind, view.round_wind,
                     view.missing_suit)
        if a.shanten(drawn) < now:
            expected.append(k)
    assert list(a.useful(view)) == expected


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_each_discard_leaves_the_shanten_and_useful_tiles_of_the_hand_without_it(name: str,
                                                                                 data: st.DataObject) -> None:
    got = _views(name, data, 14)
    if got is None:
        return
    a, view = got
    counts = view.counts()
    shanten = a.shanten(view)
    dead = _missing_tiles(view)
    assert (shanten == -1) == (not dead and completes(counts, len(view.melds), a.shapes))
    analysis = a.analyse(view)
    discards = analysis.discards
    assert sorted(d.tile for d in discards) == sorted(set(view.concealed))
    assert min(d.shanten for d in discards) == max(shanten, 0) or shanten == -1
    unseen = a.unseen(view)
    for d in discards:
        rest = list(view.concealed)
        rest.remove(d.tile)
        left = View(tuple(rest), view.melds, view.flowers, view.seat_wind, view.round_wind, view.missing_suit)
        assert d.shanten == a.shanten(left)
        assert d.useful == a.useful(left)
        assert d.unseen == sum(unseen[k] for k in d.useful)
    order = [(d.shanten, -d.unseen, d.tile) for d in discards]
    assert order == sorted(order)
    if completes(counts, len(view.melds), a.shapes):
        assert analysis.complete is not None
    else:
        assert analysis.complete is None


def test_a_ready_hand_below_the_minimum_says_why() -> None:
    """Hong Kong, 3-faan minimum: 33m 444p 55p with a chow and a pung declared and a seat
    flower waits on 3m and 5p, worth 1 faan on a discard."""
    a = analyst(load_variant("hk"))
    view = View(tuple(parse_tiles("33m44455p")), (Meld("chow", (6, 7, 8)), Meld("pung", (15, 15, 15))), (34,))
    waits = a.waits(view)
    assert [w.tile for w in waits] == parse_tiles("3m5p")
    for w in waits:
        assert not w.discard.valid and w.discard.below_minimum
        assert w.discard.reason == "below the minimum: 1 faan counted toward it, 3 needed"


def test_sichuan_a_complete_hand_with_the_missing_suit_is_refused_and_says_why() -> None:
    a = analyst(load_variant("sichuan"))
    view = View(tuple(parse_tiles("123m456p789p11p555s")), missing_suit="s")
    analysis = a.analyse(view, drawn=parse_tiles("5s")[0])
    assert analysis.shanten == 2  # three tiles of the missing suit to discard, one of them now
    assert analysis.complete is not None and not analysis.complete.valid
    assert analysis.complete.reason == "the hand still holds a tile of the declared missing suit"
    assert [d.tile for d in analysis.discards][:1] == parse_tiles("5s")


def test_the_view_of_a_seat_counts_only_what_it_can_see() -> None:
    v = load_variant("hk")
    deal = Deal(v, shuffled_wall(v.tiles, 7), 0)
    view = View.of_seat(deal, 1)
    assert sorted(view.concealed) == sorted(deal.kinds[t] for t in deal.hands[1])
    unseen = analyst(v).unseen(view)
    # nothing is on the table yet: every copy not in seat 1's hand is unseen
    assert unseen == [4 - view.concealed.count(k) for k in range(34)]

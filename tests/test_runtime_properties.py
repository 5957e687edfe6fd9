"""Properties of the runtime over random walls and random legal decisions (hypothesis).

Checked at every step: tiles conserved and each decision among the legal options;
at the end, by the independent validator: every move legal, every win a valid hand,
payments zero-sum; and replaying the recorded decisions reproduces the same events.
"""

from __future__ import annotations

import random

import pytest
from cardavia.compiler import load_variant
from cardavia.compiler.shapes.arrangements import completes
from cardavia.compiler.shapes.waits import held_waits
from cardavia.runtime.actions import Action, IllegalAction
from cardavia.runtime.bots import BaselineBot, RandomBot
from cardavia.runtime.deal import Deal
from cardavia.runtime.replay import replay
from cardavia.runtime.shanten import shanten, standard_shanten, suit_keys
from cardavia.runtime.validator import validate
from cardavia.runtime.wall import shuffled_wall
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

VARIANTS = ("hk", "mcr", "sichuan")


def placed(deal: Deal) -> list[int]:
    ids = list(deal.wall[deal.front:deal.back])
    for s in range(deal.n):
        ids += deal.hands[s] + deal.rivers[s] + deal.flowers[s] + [t for m in deal.melds[s] for t in m.ids]
    return ids


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32), mix=st.integers(0, 15))
def test_random_legal_play_keeps_every_invariant(name: str, seed: int, mix: int) -> None:
    v = load_variant(name)
    wall = shuffled_wall(v.tiles, seed)
    dealer = seed % 4
    deal = Deal(v, wall, dealer)
    # A mix of random players and baseline bots, so claims, kongs and wins all happen.
    players = [RandomBot(seed + s) if mix >> s & 1 else BaselineBot(seed + s) for s in range(4)]
    everything = list(range(len(v.tiles)))
    steps = 0
    while not deal.over:
        for decision in deal.pending():
            action = players[decision.seat].choose(deal, decision)
            assert decision.find(action) is not None  # among the legal options
            deal.act(decision.seat, action)
            steps += 1
            assert sorted(placed(deal)) == everything
            if deal.over:
                break
    assert sum(deal.deltas()) == 0
    assert validate(v, wall, dealer, deal.events, deal.deltas()) == []
    for w in deal.wins:
        assert w.result.valid
    again = replay({"variant": name, "dealer": dealer, "wall_ids": wall, "actions": deal.record})
    assert again["events"] == deal.events
    assert again["deltas"] == deal.deltas()


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2 ** 32), pick=st.integers(0, 10 ** 6))
def test_an_illegal_answer_is_refused_and_changes_nothing(name: str, seed: int, pick: int) -> None:
    v = load_variant(name)
    deal = Deal(v, shuffled_wall(v.tiles, seed), 0)
    rng = random.Random(pick)
    bot = BaselineBot(seed)
    for _ in range(rng.randrange(0, 40)):
        if deal.over:
            return
        d = deal.pending()[0]
        deal.act(d.seat, bot.choose(deal, d))
    if deal.over:
        return
    d = deal.pending()[0]
    before = deal.to_json()
    not_held = next(k for k in range(34) if deal.counts[d.seat][k] == 0)
    wrong = [Action("discard", tile=not_held), Action("chow", tiles=(0, 1)), Action("missing_suit", suit="m"),
             Action("kong", tile=not_held)]
    if not any(o.do == "win" for o in d.options):
        wrong.append(Action("win"))
    for action in wrong:
        if d.find(action) is not None:
            continue
        with pytest.raises(IllegalAction):
            deal.act(d.seat, action)
        assert deal.to_json() == before
    other = (d.seat + 1) % 4
    if deal.decision_for(other) is None:
        with pytest.raises(IllegalAction):
            deal.act(other, Action("pass"))
        assert deal.to_json() == before


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_shanten_tables_agree_with_the_compiler_on_complete_and_ready_hands(name: str, data: st.DataObject) -> None:
    v = load_variant(name)
    # the shapes the runtime counts (a shanten of -1 is then a complete hand)
    shapes = [s for s in v.scoring.shapes if s.shanten([0] * 34, 0, standard_shanten) is not None]
    playable = sorted({k for k in v.tiles.kinds if k < 34})
    pool = [k for k in v.tiles.kinds if k < 34]
    if data.draw(st.booleans()):
        pool = [k for k in pool if k < 9 or k >= 27]  # one suit and honors: ready hands are frequent
    melds = data.draw(st.sampled_from([0, 0, 1, 2]))
    hand = data.draw(st.permutations(pool))[:14 - 3 * melds]
    counts = [0] * 34
    for k in hand:
        counts[k] += 1
    assert (shanten(counts, melds, shapes) == -1) == completes(counts, melds, shapes)
    counts[hand[-1]] -= 1
    expected = set()  # kinds completing the hand, a fifth copy included (shanten counts it)
    for k in playable:
        counts[k] += 1
        if completes(counts, melds, shapes):
            expected.add(k)
        counts[k] -= 1
    ready = shanten(counts, melds, shapes) == 0
    assert ready == bool(expected)
    if ready:
        expected = {k for k in expected if counts[k] < 4}  # no fifth copy exists: never a wait
        held = sum(1 << k for k in range(34) if counts[k])
        assert {k for k in held_waits(counts, held, melds, shapes) if k in playable and counts[k] < 4} == expected


@pytest.mark.parametrize("name", VARIANTS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_seats_cached_waits_agree_with_the_compiler_for_every_shape(name: str, data: st.DataObject) -> None:
    """Deal.waits (suit-key tables, special shapes from their definitions) is exactly the kinds that complete."""
    v = load_variant(name)
    deal = Deal(v, shuffled_wall(v.tiles, data.draw(st.integers(0, 2 ** 32))), 0)
    playable = sorted({k for k in v.tiles.kinds if k < 34})
    pool = [k for k in v.tiles.kinds if k < 34]
    style = data.draw(st.sampled_from(["any", "one_suit", "knitted", "distinct"]))
    if style == "one_suit":
        pool = [k for k in pool if k < 9 or k >= 27]
    elif style == "knitted":  # one knitted straight's kinds, honors and a few more: knitted shapes get close
        # (the other characters once more: never more than four copies of a kind)
        knitted = (0, 3, 6, 10, 13, 16, 20, 23, 26)
        pool = [k for k in pool if k in knitted or k >= 27] + [k for k in pool if k < 9 and k not in knitted]
    elif style == "distinct":
        pool = sorted(set(pool))
    if not pool:
        return
    melds = data.draw(st.sampled_from([0, 0, 0, 1]))
    hand = data.draw(st.permutations(pool))[:13 - 3 * melds]
    if len(hand) < 13 - 3 * melds:
        return
    seat = 1
    deal.counts[seat] = counts = [0] * 34
    for k in hand:
        counts[k] += 1
    deal.keys[seat] = suit_keys(counts)
    deal.melds[seat] = [None] * melds  # type: ignore[list-item] - only their number matters here
    expected = set()
    for k in playable:
        if counts[k] < 4:
            counts[k] += 1
            if completes(counts, melds, v.scoring.shapes):
                expected.add(k)
            counts[k] -= 1
    assert set(deal.waits(seat)) == expected
    assert deal.waits(seat) is deal.waits(seat)  # cached for the unchanged hand


def _reference_shanten(counts: list[int], sets: int) -> int:
    """Standard shanten by plain search over every decomposition (sets, partial sets, one pair)."""
    best = 0

    def search(i: int, m: int, t: int, p: int) -> None:
        nonlocal best
        while i < 34 and not counts[i]:
            i += 1
        if i == 34:
            mm = min(m, sets)
            best = max(best, 2 * mm + min(t, sets - mm) + p)
            return
        suited = i < 27
        r = i % 9
        if counts[i] >= 3:
            counts[i] -= 3
            search(i, m + 1, t, p)
            counts[i] += 3
        if counts[i] >= 2:
            counts[i] -= 2
            if not p:
                search(i, m, t, 1)
            search(i, m, t + 1, p)
            counts[i] += 2
        if suited and r <= 6 and counts[i + 1] and counts[i + 2]:
            for k in (i, i + 1, i + 2):
                counts[k] -= 1
            search(i, m + 1, t, p)
            for k in (i, i + 1, i + 2):
                counts[k] += 1
        for d in (1, 2):
            if suited and r + d <= 8 and counts[i + d]:
                counts[i] -= 1
                counts[i + d] -= 1
                search(i, m, t + 1, p)
                counts[i] += 1
                counts[i + d] += 1
        counts[i] -= 1
        search(i, m, t, p)
        counts[i] += 1

    search(0, 0, 0, 0)
    return 2 * sets - best


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_suit_key_tables_give_the_exact_standard_shanten(data: st.DataObject) -> None:
    """The bit-mask split tables, merged and evaluated by id, equal a plain search (any shanten)."""
    from cardavia.runtime.shanten import standard_shanten

    pool = [k for k in range(34) for _ in range(4)]
    if data.draw(st.booleans()):
        pool = [k for k in pool if k < 9 or k >= 27]
    size = data.draw(st.sampled_from([2, 4, 5, 7, 8, 10, 11, 13, 14]))
    hand = data.draw(st.permutations(pool))[:size]
    counts = [0] * 34
    for k in hand:
        counts[k] += 1
    sets = size // 3
    assert standard_shanten(counts, sets) == _reference_shanten(list(counts), sets)


@pytest.mark.parametrize("name", ("hk", "mcr"))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32))
def test_the_bots_claim_shortcut_never_changes_its_choice(name: str, seed: int) -> None:
    v = load_variant(name)
    deal = Deal(v, shuffled_wall(v.tiles, seed), seed % 4)
    bots = [BaselineBot(seed + s) for s in range(4)]
    full = BaselineBot(0)
    full.claim_bound = False
    while not deal.over:
        for decision in deal.pending():
            action = bots[decision.seat].choose(deal, decision)
            if decision.kind == "claim":
                assert full.choose(deal, decision) == action
            deal.act(decision.seat, action)
            if deal.over:
                break

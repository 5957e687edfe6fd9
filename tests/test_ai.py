"""The AI (runtime/ai) through its public interface: legal moves at every level in every
variant, valid wins taken, hand-built positions with a known best choice, and its reasons.

Positions are dealt from walls written for them (seat by seat, the dealer's extra tile,
the rest in tile order, flowers last), so that each test reads as the hand it is about.
Strength and speed are measured in bench/bench_ai.py, not here.
"""

from __future__ import annotations

from collections.abc import Sequence
from copy import copy
from dataclasses import replace

import pytest
from cardavia.compiler import compile_text, load_variant, shipped_variants
from cardavia.compiler.model.tiles import CODES, SUITS, parse_tiles
from cardavia.runtime.actions import Action, Decision
from cardavia.runtime.ai import LEVELS, AIPlayer
from cardavia.runtime.ai.defence import threats
from cardavia.runtime.ai.hands import draw_ahead
from cardavia.runtime.ai.player import rules_of
from cardavia.runtime.ai.value import Rules, seen_of
from cardavia.runtime.analysis import View, analyst
from cardavia.runtime.bots import KINDS, make_controller
from cardavia.runtime.controllers import play_deal
from cardavia.runtime.deal import Deal
from cardavia.runtime.replay import replay
from cardavia.runtime.simulate import deal_seed, simulate
from cardavia.runtime.wall import shuffled_wall, wall_from_codes
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

#: Every shipped variant, and Sichuan with its exchange of three tiles before play.
VARIANTS = [(name, None) for name in shipped_variants()] + [("sichuan", {"exchange": "on"})]


def table(variant: str, hands: dict[int, str], extra: str, draws: str = "") -> Deal:
    """A deal (dealer seat 0) whose seats hold ``hands`` (13 tiles each, the others from the
    rest in tile order), the dealer's 14th tile ``extra`` and then ``draws`` from the front."""
    v = load_variant(variant)
    pool = sorted(v.tiles.kinds)
    taken = {s: parse_tiles(text) for s, text in hands.items()}
    for kinds in [*taken.values(), parse_tiles(extra), parse_tiles(draws)]:
        for k in kinds:
            pool.remove(k)
    rest = [k for k in pool if k < 34]
    flowers = [k for k in pool if k >= 34]
    seats = []
    for s in range(v.table.players):
        if s not in taken:
            taken[s], rest = rest[:13], rest[13:]
        seats.extend(taken[s])
    order = seats + parse_tiles(extra) + parse_tiles(draws) + rest + flowers
    return Deal(v, wall_from_codes(v.tiles, [CODES[k] for k in order]), 0)


def ask(deal: Deal, seat: int, level: str = "normal") -> tuple[Action, AIPlayer]:
    decision = next(d for d in deal.pending() if d.seat == seat)
    ai = AIPlayer(level, 0)
    action = ai.choose(deal, decision)
    assert decision.find(action) is not None
    return action, ai


# ------------------------------------------------------------------ properties

class _Checked:
    """Plays a controller, checking each answer is an option and each valid win offered is
    taken (by an AI, unless it holds its hand for a far larger win, and says so)."""

    def __init__(self, kind: str, seed: int) -> None:
        self.kind = kind
        self.controller = make_controller(kind, seed)
        self.wins_offered = 0

    def choose(self, deal: Deal, decision: Decision) -> Action:
        action = self.controller.choose(deal, decision)
        assert decision.find(action) is not None, f"{self.kind}: {action.label()} is not an option"
        if any(o.do == "win" for o in decision.options):
            self.wins_offered += 1
            if self.kind.startswith("ai"):
                reason = getattr(self.controller, "reason", None) or ""
                assert action.do == "win" or reason.startswith("pass the win"), f"{self.kind} passed a valid win"
        return action


@pytest.mark.parametrize("name, options", VARIANTS)
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32), kinds=st.permutations(["ai:easy", "ai", "ai:strong", "baseline"]))
def test_every_level_plays_legal_moves_and_takes_its_wins(name: str, options: dict[str, str] | None, seed: int,
                                                           kinds: Sequence[str]) -> None:
    v = load_variant(name, options)
    n = v.table.players
    players = [_Checked(k, seed + s) for s, k in enumerate(kinds[:n])]
    deal = play_deal(Deal(v, shuffled_wall(v.tiles, seed), seed % n), players)
    assert deal.over and sum(deal.deltas()) == 0


def test_the_kinds_and_levels() -> None:
    assert set(LEVELS) == {"easy", "normal", "strong"}
    for kind in ("ai", "ai:normal", "ai:easy", "ai:strong"):
        assert kind in KINDS and isinstance(make_controller(kind, 1), AIPlayer)
    assert make_controller("ai", 1).level.name == "normal"
    with pytest.raises(ValueError, match="unknown AI level 'wizard'"):
        AIPlayer("wizard")


def test_the_same_seed_plays_the_same_deal() -> None:
    v = load_variant("mcr")
    runs = []
    for _ in range(2):
        deal = Deal(v, shuffled_wall(v.tiles, 7), 1)
        kinds = ["ai", "ai:strong", "ai:easy", "ai"]
        play_deal(deal, [make_controller(k, deal_seed(7, s)) for s, k in enumerate(kinds)])
        runs.append(deal.record)
    assert runs[0] == runs[1]


# ------------------------------------------------------------------ known positions

def test_a_ready_hand_keeps_its_wait() -> None:
    # 111m 234m 567m 789m and 5m wait on a second 5m (a full flush); the 9p is the stray tile.
    deal = table("hk", {0: "111m234m567m789m5m"}, "9p")
    for level in LEVELS:
        action, _ = ask(deal, 0, level)
        assert action == Action("discard", tile=parse_tiles("9p")[0], id=action.id)


@pytest.mark.parametrize("hand", ["1m8m9m9m2p1s5s9s9s1z1z5z5z", "1m3m3m7m6p6p7p2s2s7s3z5z5z"])
def test_a_hong_kong_hand_keeps_its_only_faan(hand: str) -> None:
    # The red dragon pung is the hand's one sure faan (three are needed): shanten and
    # useful tiles alone would give up a red dragon; the AI keeps the pung.
    deal = table("hk", {0: hand}, "5z")
    red = parse_tiles("5z")[0]
    for level in ("normal", "strong"):
        action, _ = ask(deal, 0, level)
        assert action.do == "discard" and action.tile != red
    speed, _ = ask(deal, 0, "easy")  # what speed alone prefers, without the noise's luck
    assert speed.do == "discard"


def test_one_step_from_ready_the_ai_keeps_the_shape_that_leads_to_good_waits() -> None:
    # 444m 345p 234s, 67s, a loose 2s beside the 234s, and two strays, 9m and 8p: one step
    # from ready whichever of 2s, 9m or 8p goes. Throwing the 2s keeps a tile more to draw
    # (14: 5s 8s, or a pair for either stray) but the 5s or 8s that finishes 67s then
    # leaves a wait on one stray's last three copies. Throwing a stray keeps 2s2s3s4s:
    # 5s makes 2s2s3s4s5s6s7s, waiting on 2s 5s 8s, and 8s a wait on 2s 5s. Judged one
    # draw ahead the AI throws a stray; without the look-ahead the hands left are worth
    # alike and the tile more to draw decides: it throws the 2s.
    deal = table("hk", {0: "4m4m4m9m3p4p8p2s2s3s4s6s7s"}, "5p")
    two, strays = parse_tiles("2s")[0], set(parse_tiles("9m8p"))
    action, ai = ask(deal, 0)
    assert action.do == "discard" and action.tile in strays, ai.reason
    decision = next(d for d in deal.pending() if d.seat == 0)
    flat = AIPlayer("normal", 0)
    flat.level = replace(LEVELS["normal"], ahead=0)
    action = flat.choose(deal, decision)
    assert action.do == "discard" and action.tile == two, flat.reason


def _declare_missing_suits(deal: Deal) -> None:
    """Seat 0's missing suit chosen by the AI, the others' by the baseline bot."""
    while deal.pending()[0].kind == "missing_suit":
        decision = deal.pending()[0]
        action = ask(deal, 0)[0] if decision.seat == 0 else make_controller("baseline", 1).choose(deal, decision)
        deal.act(decision.seat, action)


def test_a_pair_any_player_may_pung_into_is_kept_over_a_shape_only_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    # Sichuan, no chow claims: 222p 789p 44p 88m and 1m 3m 5m 7m. Giving up a pair (8m)
    # keeps 1m 3m 5m 7m 8m (partial chows, the 7m in either of two) and as many tiles to
    # draw (16) as giving up the 1m, which keeps both pairs (44p, 88m). But a pair's third tile may also be
    # pung'd from any of three players' discards, a partial chow's only drawn: counting
    # the claims, the AI keeps the pairs; counted at one typical rate for every tile, it
    # would break the 8m pair.
    hand, extra = "1m3m5m7m8m8m2p2p2p4p4p7p8p", "9p"
    deal = table("sichuan", {0: hand}, extra)
    _declare_missing_suits(deal)
    eight = parse_tiles("8m")[0]
    action, ai = ask(deal, 0)
    assert action.do == "discard" and action.tile != eight, ai.reason
    deal = table("sichuan", {0: hand}, extra)
    _declare_missing_suits(deal)
    monkeypatch.setattr(Rules, "claimable", lambda *_: None)  # every tile at the typical rate
    action, ai = ask(deal, 0)
    assert action.do == "discard" and action.tile == eight, ai.reason


@pytest.mark.parametrize("others, kept", [("ppm", "5p"), ("mmp", "5m")])
def test_a_single_wait_is_kept_in_the_suit_other_players_throw(others: str, kept: str) -> None:
    # Sichuan: pungs of 1m 9m 1p 9p and a single 5m and 5p, ready whichever goes, on the
    # other's three unseen copies. A player whose declared missing suit holds the wait
    # throws every copy it draws: the AI waits in the suit two opponents have given up.
    deal = table("sichuan", {0: "1m1m1m9m9m9m1p1p1p9p9p9p5m"}, "5p")
    while deal.pending()[0].kind == "missing_suit":
        decision = deal.pending()[0]
        suit = "s" if decision.seat == 0 else others[decision.seat - 1]
        deal.act(decision.seat, Action("missing_suit", suit=suit))
    action, ai = ask(deal, 0)
    assert action.do == "discard" and action.tile != parse_tiles(kept)[0], ai.reason


def test_a_pung_that_keeps_the_shanten_is_taken_when_it_heads_for_the_hands_value() -> None:
    # Hong Kong: four pairs (three in circles, one of East) and little else. Punging 5p
    # leaves the hand as far from ready as it was (shanten 2), but gives it a set for free
    # and points it at a mixed one-suit hand in circles and honours (3 faan).
    deal = table("hk", {1: "2p2p5p5p9p9p2s4s6s8s1z1z3z"}, "5p")
    deal.act(0, Action("discard", tile=parse_tiles("5p")[0]))
    action, ai = ask(deal, 1)
    assert action.do == "pung", ai.reason
    assert ai.reason is not None and "p and honors" in ai.reason


def test_a_tile_a_player_has_thrown_counts_more_of_its_discards_to_come() -> None:
    # Hong Kong: seat 1 throws the 5m it draws; seat 0 then expects more 5m than 5p from
    # the other players (seat 1 has no use for it), and the same of both before.
    deal = table("hk", {0: "1m1m1m9m9m9m1p1p1p9p9p9p5m"}, "1z", draws="5m")
    five_m, five_p = parse_tiles("5m5p")
    rules = rules_of(deal.variant)
    before = seen_of(deal, 0, rules)
    assert before.throws(five_m) == before.throws(five_p)
    deal.act(0, Action("discard", tile=parse_tiles("1z")[0]))
    while deal.pending()[0].seat != 1 or deal.pending()[0].kind != "turn":
        decision = deal.pending()[0]
        deal.act(decision.seat, Action("pass"))
    deal.act(1, Action("discard", tile=five_m))
    after = seen_of(deal, 0, rules)
    assert after.throws(five_m) > after.throws(five_p)


def test_a_sichuan_hand_gives_up_its_shortest_suit_and_discards_it_first() -> None:
    deal = table("sichuan", {0: "1m2m3m4m5m6m7s8s9s2s2s1p9m"}, "5p")
    action, _ = ask(deal, 0)
    assert action == Action("missing_suit", suit="p")
    _declare_missing_suits(deal)
    action, _ = ask(deal, 0)
    assert action.do == "discard" and action.tile in parse_tiles("1p5p")


def test_an_mcr_hand_keeps_its_concealed_points() -> None:
    # Seat 1 could chow 123m on the dealer's 3m and come closer, but the open hand could no
    # longer reach 8 points; concealed it can (fully concealed and self-drawn among them).
    # The hand is far from the groups of chows the pattern table pays for: near one (with
    # 5m6m7m, 123m leads toward 123m 345m 567m, worth 16) the chow can be right.
    deal = table("mcr", {1: "1m2m5m5m6m6m9m9m9m3p6s7s9s"}, "3m")
    deal.act(0, Action("discard", tile=parse_tiles("3m")[0]))
    easy = next(d for d in deal.pending() if d.seat == 1)
    assert any(o.do == "chow" for o in easy.options)
    assert ask(deal, 1, "easy")[0].do == "chow"
    action, ai = ask(deal, 1)
    assert action.do == "pass", ai.reason


def test_an_mcr_hand_steers_toward_a_group_of_chows_the_pattern_table_pays(monkeypatch: pytest.MonkeyPatch) -> None:
    # 234m 234p 234s is a Mixed Triple Chow (8 points): the AI keeps the three chows and
    # gives up the 1p; the cheapest completions alone (no targets) keep the 1p-4p run and
    # break the group, for a hand worth far less.
    deal = table("mcr", {0: "2m3m4m5m1p2p3p4p2s3s4s9s3z"}, "7s")
    group = set(parse_tiles("2m3m4m2p3p4p2s3s4s"))
    action, ai = ask(deal, 0)
    assert action.do == "discard" and action.tile not in group, ai.reason
    assert ai.reason is not None and "target 2m-2p-2s" in ai.reason
    monkeypatch.setattr(rules_of(deal.variant), "targets", [])
    action, ai = ask(deal, 0)
    assert action.do == "discard" and action.tile in group, ai.reason


def test_targets_come_from_the_pattern_table() -> None:
    # MCR pays for groups of chows (Mixed Triple Chow, Mixed Straight, Pure Straight...);
    # Hong Kong's and Sichuan's tables pay for no particular chows.
    targets = rules_of(load_variant("mcr")).targets
    found = {tuple(CODES[c] for c in group) for group, _ in targets}
    assert {("2m", "2p", "2s"), ("1m", "4p", "7s"), ("1m", "4m", "7m"), ("1m", "2p", "3s")} <= found
    assert ("1m", "2m", "6m") not in found
    assert rules_of(load_variant("hk")).targets == [] and rules_of(load_variant("sichuan")).targets == []


def test_flowers_paid_by_number_are_weighed_as_one() -> None:
    # MCR pays each flower the same point (len(flowers)): the AI weighs the chance of a
    # flower before a win as one outcome; a table that tells flowers apart (Hong Kong's
    # seat flowers, or a pattern reading a flower's rank) has each flower weighed.
    first_flower = ("extends: mcr\nid: mcr_first_flower\nscoring:\n  patterns:\n    - {id: first_flower, "
                    "name: First flower, description: The first flower., value: 1, "
                    "when: 'count(t in flowers: t.rank == 1) > 0'}\n")
    assert load_variant("mcr").scoring.reads_length_only("flowers")
    assert not load_variant("hk").scoring.reads_length_only("flowers")
    assert not compile_text(first_flower).scoring.reads_length_only("flowers")
    assert compile_text(first_flower.replace("count(t in flowers: t.rank == 1) > 0", "len(flowers) > 1")
                        ).scoring.reads_length_only("flowers")
    # The same worths either way, for two wins of a hand with all eight flowers still to come.
    deal = table("mcr", {0: "1m2m3m4p5p6p7s8s9s1z1z2z2z"}, "3z")
    rules = rules_of(deal.variant)
    assert rules.flowers_by_number
    seen = seen_of(deal, 0, rules)
    assert len(seen.flowers_left) == 8
    each = copy(rules)
    each.flowers_by_number = False
    for hand, win in [("1m2m3m4p5p6p7s8s9s1z1z1z2z2z", "1z"), ("1m2m3m4p5p6p7s8s9s1z1z2z2z2z", "2z")]:
        final = tuple(parse_tiles(hand).count(k) for k in range(34))
        one = rules.outcomes(seen, (), final, parse_tiles(win)[0], 0.4)
        every = each.outcomes(seen, (), final, parse_tiles(win)[0], 0.4)
        assert len(one) == 2 and len(every) == 9 and one[1][1][0] > one[0][1][0] > 0  # a flower adds a point
        for pick in (0, 1):
            assert sum(p * t[pick] for p, t in one) == pytest.approx(sum(p * t[pick] for p, t in every))


def test_strong_judges_its_close_discards_one_draw_ahead() -> None:
    # Two steps from ready, 9m and 1s are close for the normal level; the strong level
    # judges each again one draw ahead (every useful draw, then its best discard) and takes
    # the better, with the score that look-ahead gives.
    deal = table("hk", {0: "2m3m4m6m7m9m1p2p4p6p1s3z3z"}, "6m")
    normal, _ = ask(deal, 0, "normal")
    strong, ai = ask(deal, 0, "strong")
    rules = rules_of(deal.variant, LEVELS["strong"])
    seen = seen_of(deal, 0, rules)
    floor = rules.unseen_value(seen)
    ahead = {}
    for tile in parse_tiles("9m1s"):
        counts = list(seen.counts)
        counts[tile] -= 1
        ahead[tile] = draw_ahead(rules, seen, counts, seen.melds, LEVELS["strong"].depth, floor)
    assert normal.tile in ahead and strong.tile == max(ahead, key=lambda k: (ahead[k], -k)), ai.reason
    assert ahead[strong.tile] != ahead[normal.tile]
    assert ai.reason is not None and float(ai.reason.split()[2]) == pytest.approx(ahead[strong.tile], abs=0.01)


def _offered_the_dealers_discard(dealer: str, seat1: str, extra: str,
                                 tile: str) -> tuple[Deal, Action, Action, AIPlayer]:
    """A Hong Kong deal where the dealer (holding ``dealer`` and ``extra``) discards ``tile``:
    the deal, the normal and the strong level's answers for seat 1, and the strong player."""
    deal = table("hk", {0: dealer, 1: seat1}, extra)
    deal.act(0, Action("discard", tile=parse_tiles(tile)[0]))
    normal, _ = ask(deal, 1, "normal")
    strong, ai = ask(deal, 1, "strong")
    return deal, normal, strong, ai


def test_strong_weighs_a_claim_two_steps_from_ready_one_draw_ahead() -> None:
    # Two steps from ready (seven pairs, or sets), seat 1 is offered the dealer's 3p for a
    # chow with 1p2p: it leaves a hand one step from ready whose completions make no valid
    # win, where passing keeps the concealed hand's pairs. The normal level judges the chow
    # one draw ahead (its best discard is one step from ready) and passing as it is, and
    # chows; the strong level judges passing one draw ahead too, and passes, with the score
    # that look-ahead gives. (Here the hand is a large one: both levels count the same bonus.)
    deal, normal, strong, ai = _offered_the_dealers_discard("2m8m3p3p6p7p8p9p1z1z2z4z5z", "3m3m4m5m5m7m9m9m1p2p6p6p7p",
                                                            "2z", "3p")
    assert normal.do == "chow" and strong.do == "pass", ai.reason
    rules = rules_of(deal.variant)
    seen = seen_of(deal, 1, rules)
    passing = draw_ahead(rules, seen, list(seen.counts), seen.melds, LEVELS["strong"].depth)
    assert ai.reason is not None and float(ai.reason.split()[1]) == pytest.approx(passing, abs=0.01)


def test_further_from_ready_strong_discards_as_normal_does(monkeypatch: pytest.MonkeyPatch) -> None:
    # Five steps from ready in the plan it heads for (characters and honors), 4p, 5p, 8p
    # and 1s are equal for the normal level; so far away the draws to try multiply and the
    # look-ahead is not taken: the strong level keeps the choice and reason of the normal
    # level counting the strong level's win bonus.
    monkeypatch.setitem(LEVELS, "normal", replace(LEVELS["normal"], bonus=LEVELS["strong"].bonus))
    deal = table("hk", {0: "2m4m4m8m4p5p8p1s8s2z3z4z4z"}, "5m")
    normal, plain = ask(deal, 0, "normal")
    strong, ai = ask(deal, 0, "strong")
    assert plain.reason is not None and "shanten 5" in plain.reason
    assert strong == normal and ai.reason == plain.reason


def test_strong_plays_for_the_bigger_hand_where_play_goes_on_after_a_win() -> None:
    # Sichuan, bamboo missing for everyone: circles with a 4m5m5m corner. Throwing 5p
    # leaves the hand one step from ready; the strong level counts a win's flat worth
    # less where play goes on after a win, and gives up the characters for a full flush.
    deal = table("sichuan", {0: "4m5m5m2p2p4p5p6p7p8p8p9p9p"}, "5p")
    while deal.pending()[0].kind == "missing_suit":
        deal.act(deal.pending()[0].seat, Action("missing_suit", suit="s"))
    normal, _ = ask(deal, 0, "normal")
    strong, ai = ask(deal, 0, "strong")
    assert normal.tile == parse_tiles("5p")[0]
    assert strong.tile in parse_tiles("4m5m"), ai.reason
    assert ai.reason is not None and "(p only)" in ai.reason


def test_each_level_counts_its_own_win_bonus() -> None:
    strong, normal = LEVELS["strong"], LEVELS["normal"]
    assert strong.bonus > normal.bonus and strong.continuing_bonus < normal.continuing_bonus
    hk, sichuan = load_variant("hk"), load_variant("sichuan")
    assert rules_of(hk, normal) is rules_of(hk)
    assert rules_of(hk, strong).win_bonus == strong.bonus
    assert rules_of(sichuan, strong).win_bonus == strong.continuing_bonus
    assert rules_of(sichuan, normal).win_bonus == normal.continuing_bonus
    assert rules_of(sichuan, strong).scorer is rules_of(sichuan, normal).scorer


def test_strong_plays_the_faster_hand_where_a_win_ends_the_deal() -> None:
    # Hong Kong, three steps from a half flush in characters and its one honor, two from
    # any hand: the normal level keeps the honor for the flush's faan; the strong level,
    # counting winning at all for more, throws it for the faster hand.
    deal = table("hk", {0: "1m2m3m3m4m5m5m8m9m2p9p9p2s"}, "2z")
    normal, ai_normal = ask(deal, 0, "normal")
    strong, ai_strong = ask(deal, 0, "strong")
    assert normal.tile != parse_tiles("2z")[0], ai_normal.reason
    assert ai_normal.reason is not None and "(m and honors)" in ai_normal.reason
    assert strong.tile == parse_tiles("2z")[0], ai_strong.reason


def test_strong_keeps_a_large_hand_for_its_value(monkeypatch: pytest.MonkeyPatch) -> None:
    # Hong Kong, two steps from a half flush in bamboos with two honors, whose likeliest win
    # pays 7 faan or more, and from a faster hand without them: judged as a large hand the
    # strong level keeps the honors, as the normal level does; counting its own bonus on
    # every hand, it would throw one for the faster, smaller win.
    hand, extra = "7m4p7p3s3s3s4s5s6s6s7s8s4z", "6z"
    honors = parse_tiles("4z6z")
    strong, ai_strong = ask(table("hk", {0: hand}, extra), 0, "strong")
    normal, _ = ask(table("hk", {0: hand}, extra), 0, "normal")
    assert strong.tile not in honors and normal.tile not in honors, ai_strong.reason
    assert ai_strong.reason is not None and "a large hand" in ai_strong.reason
    monkeypatch.setitem(LEVELS, "strong", replace(LEVELS["strong"], large=0.0))
    fast, ai_fast = ask(table("hk", {0: hand}, extra), 0, "strong")
    assert fast.tile in honors, ai_fast.reason


def test_a_discard_does_not_deal_into_an_obvious_flush() -> None:
    """Seat 2 pungs 8p, 5p and 2p in turn, throwing honors: dots are its suit. The AI (seat
    0) is then ready whichever of its strays it throws, 9p or 5m: speed alone keeps the wait
    with more tiles left (5m: a 9p is on the table) and throws the 9p; the AI throws the 5m."""
    deal = table("hk", {0: "8p9p5m1m2m3m7m8m9m1s2s3s7s", 1: "2p1m2m3m6m4s5s6s9s9s1z2z3z",
                        2: "2p2p5p5p8p8p6p7p9p1z2z3z4z", 3: "5p3m4m6m8m4s6s1s3s6z6z6z4z"},
                 "8s", draws="7z9p7z7z7z9s")
    pungs = set(parse_tiles("2p5p8p"))
    first = {0: parse_tiles("8p")[0], 1: parse_tiles("2p")[0], 3: parse_tiles("5p")[0]}
    while True:
        decision = deal.pending()[0]
        seat = decision.seat
        if seat == 0 and decision.kind == "turn" and len(deal.melds[2]) == 3:
            break
        if decision.kind == "turn":
            if seat == 2:
                tile = next(k for k in range(27, 34) if deal.counts[2][k])
            elif deal.counts[seat][first.get(seat, -1)]:
                tile = first[seat]
            else:
                assert decision.drawn is not None
                tile = deal.kinds[decision.drawn]
            deal.act(seat, Action("discard", tile=tile))
        else:
            pung = seat == 2 and decision.tile in pungs
            deal.act(seat, Action("pung") if pung else Action("pass"))
    nine, five = parse_tiles("9p5m")
    assert deal.counts[0][nine] and deal.counts[0][five]
    speed = analyst(deal.variant).discards(View.of_seat(deal, 0))
    assert speed[0].tile == nine and speed[0].shanten == 0
    action, ai = ask(deal, 0)
    assert action.do == "discard" and action.tile == five, ai.reason
    assert "risk" in (ai.reason or "")


def _seat_2_pungs_two_dragons() -> Deal:
    """Hong Kong: seat 1 throws 5z and 6z in turn and seat 2 pungs both; stops at seat 0's
    turn, its hand 1m2m3m 5m6m7m 2p3p4p 7s8s, 1s, 4s and the third dragon, 7z."""
    deal = table("hk", {0: "1m2m3m5m6m7m2p3p4p7s8s1s7z", 1: "5z6z1m4m7m1p4p7p1s4s7s2z3z",
                        2: "5z5z6z6z2m3m9m9m5p6p3s5s1z"}, "9p", draws="2z4z4z2s2s4s")
    dragons = parse_tiles("5z6z")
    throws = {0: parse_tiles("9p"), 1: list(dragons), 2: parse_tiles("1z3s")}
    while True:
        decision = deal.pending()[0]
        seat = decision.seat
        if seat == 0 and decision.kind == "turn" and len(deal.melds[2]) == 2:
            return deal
        if decision.kind == "turn" and throws.get(seat):
            deal.act(seat, Action("discard", tile=throws[seat].pop(0)))
        elif decision.kind == "turn":
            assert decision.drawn is not None
            deal.act(seat, Action("discard", tile=deal.kinds[decision.drawn]))
        else:
            deal.act(seat, Action("pung") if seat == 2 and decision.tile in dragons else Action("pass"))


def test_strong_does_not_throw_the_third_dragon(monkeypatch: pytest.MonkeyPatch) -> None:
    """Against two declared dragon pungs a win on the third dragon is a limit hand (great
    three dragons): reading what a win on each tile would cost, the strong level keeps its
    7z and throws a stray; the normal level, and the strong level without that reading,
    throw the 7z (a plausible win of that table is small)."""
    seven = parse_tiles("7z")[0]
    deal = _seat_2_pungs_two_dragons()
    rules = rules_of(deal.variant)
    found = threats(deal, 0, rules, seen_of(deal, 0, rules), per_tile=True)
    two = next(t for t in found if t.seat == 2)
    assert two.big and two.cost_of(seven) > 100 * two.cost
    strong, ai = ask(deal, 0, "strong")
    assert strong.do == "discard" and strong.tile != seven, ai.reason
    assert "risk" in (ai.reason or "")
    normal, ai_normal = ask(deal, 0, "normal")
    assert normal.tile == seven, ai_normal.reason
    monkeypatch.setitem(LEVELS, "strong", replace(LEVELS["strong"], per_tile=False))
    unread, ai_unread = ask(deal, 0, "strong")
    assert unread.tile == seven, ai_unread.reason


def _seat_2_pungs_dots(deal: Deal, throws: dict[int, str]) -> Decision:
    """Play ``deal`` on: seats 0, 1 and 3 throw the tiles given, in turn; seat 2 pungs every
    tile it can and throws honors. Stops at seat 0's claim decision on seat 3's last throw."""
    left = {seat: parse_tiles(text) for seat, text in throws.items()}
    while True:
        decision = deal.pending()[0]
        seat = decision.seat
        if decision.kind == "turn":
            tile = next(k for k in range(27, 34) if deal.counts[2][k]) if seat == 2 else left[seat].pop(0)
            deal.act(seat, Action("discard", tile=tile))
        elif seat == 0 and not left[3]:
            return decision
        else:
            pung = seat == 2 and any(o.do == "pung" for o in decision.options)
            deal.act(seat, Action("pung") if pung else Action("pass"))


def test_passing_a_claim_while_defending_counts_the_discard_still_to_come() -> None:
    """Seat 2 pungs 8p, 5p and 2p, throwing honors: dots are its suit. The AI (seat 0) holds
    dots alone, 1p 33p 444p 567p 7p8p 99p, one step from ready, and seat 3 throws a 3p: the
    pung makes it ready (throwing the 1p, waiting on 6p 9p), a better hand, but that 1p is
    a dot thrown into the flush. Passing is no safer: the next draw leads to a dot thrown
    too, at least as risky as the safest one held (the 8p, every other copy seen). Weighed
    so, the pung wins; were only the pung's discard charged, passing would look better."""
    deal = table("hk", {0: "1p3p3p4p4p4p5p6p7p7p8p9p9p", 1: "8p1m2m3m4m5m6m7m1s2s3s4s5s",
                        2: "2p2p5p5p8p8p1z1z2z2z3z3z4z", 3: "2p3p5p1m2m3m4m5m6m7m1s2s3s"},
                 "7z", draws="6s7s8s9s")
    decision = _seat_2_pungs_dots(deal, {0: "7z", 1: "8p", 3: "5p2p3p"})
    assert len(deal.melds[2]) == 3 and decision.tile == parse_tiles("3p")[0]
    action, ai = ask(deal, 0)
    assert action.do == "pung", ai.reason



def test_a_kong_claimed_while_defending_counts_the_discard_still_to_come() -> None:
    """Seat 2 pungs 8p and 5p, throwing honors: dots are its suit. The AI (seat 0) holds dots
    alone, 11p 33p 666p 77p 8p 999p, and seat 3 throws the fourth 9p. The kong is followed
    by a replacement draw and a dot thrown into the flush, just as passing is followed by a
    draw and a dot thrown: charged that discard too, the kong gains nothing on passing
    (were only passing charged, the kong would look better and be taken)."""
    deal = table("hk", {0: "1p1p3p3p6p6p6p7p7p8p9p9p9p", 1: "8p1m2m3m4m5m6m7m1s2s3s4s5s",
                        2: "8p8p5p5p1z1z2z2z3z3z4z4z6z", 3: "5p9p1m2m3m4m5m6m7m1s2s3s4s"},
                 "7z", draws="6s7s8s")
    decision = _seat_2_pungs_dots(deal, {0: "7z", 1: "8p", 3: "5p9p"})
    assert len(deal.melds[2]) == 2 and any(o.do == "kong" for o in decision.options)
    action, ai = ask(deal, 0)
    assert action.do == "pass", ai.reason



def test_a_deal_in_costs_what_it_adds_to_the_payments_a_ready_win_makes_anyway() -> None:
    """A ready player not given its tile may still win in the draws left, and then one pays
    too: in MCR a self-draw costs each player what a discard costs its thrower, in Hong
    Kong the thrower pays for all. Defence charges a deal-in what it adds: less in MCR
    than in Hong Kong, and in each less early (the win likely comes anyway) than late."""
    nobody = (False,) * 4
    added = {}
    for variant in ("hk", "mcr"):
        rules = Rules(load_variant(variant))
        total = max(rules.minimum, 0) + 1
        paid = rules.paid_by_discarder(total, 1, 0, nobody)
        otherwise = rules.paid_otherwise(total, 1, 0, nobody)
        assert 0 < otherwise < paid
        added[variant] = (paid - otherwise) / paid
        deal = table(variant, {}, "1z")
        early = seen_of(deal, 0, rules)
        late = replace(early, draws=1.0, lateness=0.95)
        now, later = threats(deal, 0, rules, early), threats(deal, 0, rules, late)
        assert len(now) == 3
        assert all(a.cost < b.cost and a.kept < b.kept for a, b in zip(now, later))
    assert added["mcr"] < added["hk"]


def test_candidate_completions_are_the_cheapest_and_give_up_lone_ends_first() -> None:
    # 555m 6m6m 789m 77s and strays 1m 2s 5s 9s: the sets still to make come from the
    # middle tiles (5s), not from the lone 1m, and the cheapest completions come first.
    from cardavia.runtime.ai.completions import sets_and_pair

    counts = [0] * 34
    for k in parse_tiles("1m5m5m5m6m6m7m8m9m2s5s7s7s9s"):
        counts[k] += 1
    found = sets_and_pair(counts, 4, (1 << 34) - 1, limit=3)
    assert len(found) == 3
    assert [cost for cost, _, _ in found] == sorted(cost for cost, _, _ in found)
    one, five = parse_tiles("1m5s")
    assert all(final[one] == 0 and final[five] for _, final, _ in found)


# ------------------------------------------------------------------ reasons

def test_each_decision_says_why_and_replay_shows_it() -> None:
    out = replay({"variant": "sichuan", "seed": 3, "autoplay": "ai", "actions": [{"seat": 1, "do": "missing_suit",
                                                                                 "suit": "p"}]},
                 players=["ai", "ai:strong", "ai:easy", "baseline"], explain=True)
    decisions = out["decisions"]
    scripted = next(d for d in decisions if d["seat"] == 1 and d["do"] == "missing_suit")
    assert "why" not in scripted
    assert all("why" not in d for d in decisions if d["seat"] == 3)  # the baseline says nothing
    said = [d["why"] for d in decisions if d["seat"] in (0, 2) and d["do"] == "discard"]
    assert said and all(w.startswith("discard ") for w in said)
    assert any("useful" in w for w in said)
    plain = replay({"variant": "sichuan", "seed": 3, "autoplay": "ai", "actions": [{"seat": 1, "do": "missing_suit",
                                                                                   "suit": "p"}]},
                   players=["ai", "ai:strong", "ai:easy", "baseline"])
    assert all("why" not in d for d in plain["decisions"])
    assert [{k: v for k, v in d.items() if k != "why"} for d in decisions] == plain["decisions"]


def test_simulate_reports_each_kinds_decision_time() -> None:
    out = simulate("sichuan", 2, seed=5, players=["ai", "ai:easy", "ai:strong", "baseline"])
    for kind in ("ai", "ai:easy", "ai:strong", "baseline"):
        ms = out["by_kind"][kind]["decision_ms"]
        assert 0 < ms["median"] <= ms["p99"]


def test_the_missing_suit_is_a_suit_held_fewest_times() -> None:
    v = load_variant("sichuan")
    for seed in range(12):  # at seed 8 one more held would have looked worth it
        deal = Deal(v, shuffled_wall(v.tiles, seed), 0)
        while deal.pending() and deal.pending()[0].kind == "missing_suit":
            decision = deal.pending()[0]
            action, _ = ask(deal, decision.seat)
            held = [sum(deal.counts[decision.seat][9 * s:9 * s + 9]) for s in range(3)]
            assert held[SUITS.index(action.suit or "")] == min(held)
            deal.act(decision.seat, action)


def test_a_scenarios_players_are_checked() -> None:
    from cardavia.runtime.replay import ScenarioError

    for players, message in (([" ai"] * 4, "unknown kind"), (["ai"] * 3, "expected 4 controller kinds"),
                             ("ai", "expected 4 controller kinds")):
        with pytest.raises(ScenarioError, match=message):
            replay({"variant": "hk", "seed": 1, "autoplay": "ai", "players": players})
    out = replay({"variant": "hk", "seed": 1, "players": ["baseline"] * 4})  # autoplay drawn-tile: players unused
    assert out["end"] in ("win", "exhausted")


def test_a_hand_that_counts_on_having_no_flowers_is_worth_less_while_flowers_may_come() -> None:
    # Ready on 2s or 5s: concealed, all chows and no flowers make Hong Kong's 3 faan on a discard;
    # a flower drawn before the win (seven of eight are not the seat's own) leaves 2 and
    # only a self-draw valid. With the eight flowers still unseen the hand is worth less
    # than the same hand once every flower is shown.
    deal = table("hk", {0: "1m2m3m4m5m6m7p8p9p2s3s4s5s"}, "1z")
    rules = rules_of(deal.variant)
    seen = seen_of(deal, 0, rules)
    assert len(seen.flowers_left) == 8 and seen.flower_chance(1.0) > 0.5
    counts = list(seen.counts)
    counts[parse_tiles("1z")[0]] -= 1
    unsure = rules.ready(seen, counts, seen.melds)
    sure = rules.ready(replace(seen, flowers_left=()), counts, seen.melds)
    assert unsure.useful == sure.useful == 6  # 2s and 5s, three unseen each
    assert 0 < unsure.ev < sure.ev and unsure.value < sure.value
    sichuan = table("sichuan", {}, "1m")
    assert seen_of(sichuan, 0, rules_of(sichuan.variant)).flowers_left == ()


def test_strong_holds_a_hand_that_is_a_limit_hand_self_drawn(monkeypatch: pytest.MonkeyPatch) -> None:
    # Seat 1 holds four concealed pungs' shape waiting on 5s and 7z. Won on the dealer's 5s
    # it is all pungs; self-drawn, either wait makes it a limit hand (24,576 points). The
    # normal level wins at once; the strong level passes, three copies still unseen, and
    # takes the win when it holds only for more than the kept hand is worth.
    deal, normal, strong, ai = _offered_the_dealers_discard("5s1p2p3p4p5p6p7p8p1z2z3z4z", "1m1m1m9p9p9p2s2s2s5s5s7z7z",
                                                            "6z", "5s")
    assert normal.do == "win" and strong.do == "pass", ai.reason
    rules = rules_of(deal.variant)
    seen = seen_of(deal, 1, rules)
    final = list(seen.counts)
    final[parse_tiles("5s")[0]] += 1
    on_discard, self_drawn = rules.totals(seen, seen.melds, tuple(final), parse_tiles("5s")[0])
    now = rules.income(on_discard, False, 1, seen.out)
    assert self_drawn == 13 and on_discard < 13
    est = rules.ready(seen, list(seen.counts), seen.melds, points=True)
    kept = est.ev
    assert ai.reason == f"pass the win on 5s (collects {now}): the hand kept collects {kept:.0f} ({est.summary()})"
    assert kept > LEVELS["strong"].holds_for * now
    monkeypatch.setitem(LEVELS, "strong", replace(LEVELS["strong"], holds_for=kept / now + 1))
    strong, ai = ask(deal, 1, "strong")
    assert strong.do == "win", ai.reason

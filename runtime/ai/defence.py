"""Defence: how likely a discard is to hand another player a win, and what that would cost.

Read from the table only (what every player sees): each opponent's declared sets, discards
and missing suit, and how far the wall has gone. For each opponent still in the deal:

* the chance it is ready, growing with its turns and its declared sets;
* the suit its sets point to: when every declared set lies in one suit (honors aside),
  it is likely playing that suit alone, whose tiles are then the dangerous ones; so too
  when, after eight discards, it has thrown none of one suit and plenty of the others;
* what a win on one's discard would cost: the variant's scorer asked about a plausible
  completion of that player's declared sets (tiles of its suit, when three or more of
  them lie there: measured, with two the wins average well below a one-suit hand's), at
  least the variant's minimum, through the variant's payment rules; less what one would
  pay anyway were that win to come later another way (a ready player wins in the draws
  left at the chance a typical ready hand has): a self-draw, or another player's
  discard, costs the same in some variants.

A tile's danger against one opponent, were it ready: none for a tile of its missing suit;
less for a tile it discarded itself (it did not want it then), for one whose other copies
are all on the table or in one's hand (no pair or pung can wait on it) and for the ends of
a suit and the honors (fewer waits reach them); more for a tile of the suit its sets point
to. The risk of a discard is the sum over opponents of chance ready x danger x cost, the
cost counting, where a win ends the deal, what the discarding hand was worth (that part
too only where the win would not have come anyway).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardavia.compiler.model.hand import Hand, HandError, Meld
from cardavia.compiler.model.tiles import SUITS

from .value import TYPICAL_USEFUL

if TYPE_CHECKING:
    from ..deal import Deal
    from .value import Rules, Seen

#: A suited tile's danger by rank (1-9), were its holder ready: the share of ready hands
#: that wait on it (the middle ranks complete more chows).
_RANK_DANGER = (0.05, 0.06, 0.075, 0.08, 0.08, 0.08, 0.075, 0.06, 0.05)
_HONOR_DANGER = 0.045
#: The chance an opponent is ready: this much, plus so much a turn and a declared set.
READY_BASE = -0.12
READY_TURN = 0.03
READY_SET = 0.08
#: And this much more for each declared set past the second (a hand of four tiles or one:
#: measured, such hands are nearly always ready a few turns on).
READY_LATE_SET = 0.3
#: How a tile's danger changes (measured: the waits of ready opponents, baseline bots and
#: AI players, in every variant): for a tile its holder discarded itself (it wants it no
#: more, and rarely waits on it again); for a tile of the suit its declared sets point to,
#: by the number of those sets (two, three or more); for a suited tile of another suit.
DISCARDED = 0.15
SUIT_SETS = (1.0, 1.0, 1.5, 2.5)
OTHER_SUIT = 0.4


@dataclass(slots=True, frozen=True)
class Threat:
    """One opponent as the table shows it."""

    seat: int
    ready: float  # the chance it is ready
    suit: int | None  # the suit (0-2) its declared sets point to, if any
    sets: int  # its declared sets in that suit
    honors: bool  # its sets include honors (a suit plus honors is possible)
    leaning: int | None  # the suit (0-2) its discards point to (it throws none of it), if any
    cost: float  # what a win on one's discard would cost, less what it would cost anyway
    kept: float  # the chance the win would not have come anyway (the share of a stake at risk)
    discarded: frozenset[int]  # kinds it discarded
    missing: int | None  # its missing suit (0-2), tiles of which never win for it

    @property
    def weight(self) -> float:
        return self.ready * self.cost


def _suit_of(kind: int) -> int:
    return kind // 9 if kind < 27 else 3


def threats(deal: Deal, seat: int, rules: Rules, seen: Seen) -> list[Threat]:
    """Every opponent still in the deal, as ``seat`` (which sees ``seen``) sees it."""
    out = []
    anyway, _ = rules.chance(0, TYPICAL_USEFUL[0], seen)
    kinds = deal.kinds
    out_of = tuple(deal.out)
    for o in range(deal.n):
        if o == seat or out_of[o]:
            continue
        melds = deal.melds[o]
        river = deal.rivers[o]
        turns = len(river) + len(melds)
        exposed = [m for m in melds if not m.concealed]
        suits = {_suit_of(kinds[m.ids[0]]) for m in melds}
        suited = suits - {3}
        suit = next(iter(suited)) if len(suited) == 1 and len(exposed) >= 2 else None
        leaning = _kept_suit(kinds, river, suited, rules.suits) if suit is None and len(suited) <= 1 else None
        honors = 3 in suits
        ready = min(0.9, max(0.0, READY_BASE + READY_TURN * turns + READY_SET * len(exposed)
                             + READY_LATE_SET * max(0, len(exposed) - 2)))
        if deal.won[o]:
            ready = 1.0  # a winner still in (winners stay in): its locked hand waits still
        lack = deal.missing[o]
        missing = SUITS.index(lack) if lack is not None else None
        sets = sum(1 for m in melds if _suit_of(kinds[m.ids[0]]) == suit) if suit is not None else 0
        total = _plausible_total(deal, o, suit if sets >= 3 else None, rules)
        paid = rules.paid_by_discarder(total, o, seat, out_of, deal.dealer)
        cost = -rules.utility(-(paid - anyway * rules.paid_otherwise(total, o, seat, out_of, deal.dealer)))
        out.append(Threat(o, ready, suit, sets, honors, leaning, cost, 1.0 - anyway, frozenset(kinds[t] for t in river),
                          missing))
    return out


def _kept_suit(kinds: Sequence[int], river: Sequence[int], declared: set[int], have: Sequence[bool]) -> int | None:
    """The suit a player's discards point to: after eight discards or more, a suit of
    which it threw none while throwing the other suits (and none of its sets in another
    suit) is likely the one it keeps."""
    if len(river) < 8:
        return None
    thrown = [0, 0, 0, 0]
    for t in river:
        thrown[_suit_of(kinds[t])] += 1
    suited = [s for s in range(3) if have[s]]
    if len(suited) < 3:
        return None  # with two suits (or a missing one) the discards say too little
    kept = [s for s in suited if thrown[s] == 0]
    if len(kept) != 1 or (declared and kept[0] not in declared):
        return None
    return kept[0] if all(thrown[s] >= 3 for s in suited if s != kept[0]) else None


def _plausible_total(deal: Deal, seat: int, suit: int | None, rules: Rules) -> int:
    """The total of a plausible win of ``seat``: its declared sets, completed with sets of
    its suit (or of middle tiles of every suit) and a pair, scored by the variant; at least
    the variant's minimum."""
    kinds = deal.kinds
    melds = tuple(Meld(m.kind, tuple(sorted(kinds[t] for t in m.ids)), m.concealed) for m in deal.melds[seat])
    flowers = tuple(kinds[t] for t in deal.flowers[seat])
    key = (tuple((m.kind, m.tiles, m.concealed) for m in melds), flowers, deal.seat_wind(seat), deal.missing[seat],
           suit)
    hit = rules.plausible.get(key)
    if hit is None:
        if len(rules.plausible) > 10_000:
            rules.plausible.clear()
        hit = rules.plausible[key] = _plausible(deal, seat, suit, rules, melds, flowers)
    return hit


def _plausible(deal: Deal, seat: int, suit: int | None, rules: Rules, melds: tuple[Meld, ...],
               flowers: tuple[int, ...]) -> int:
    sets = next((s.standard_sets for s in rules.shapes if s.standard_sets is not None), None)
    if sets is None or len(melds) > sets:
        return rules.minimum
    need = sets - len(melds)
    used = [0] * 34
    for m in melds:
        for k in m.tiles:
            used[k] += 1
    lack = deal.missing[seat]
    missing = SUITS.index(lack) if lack is not None else None
    open_suits = [s for s in range(3) if s != missing and rules.suits[s]]
    if not open_suits:
        return rules.minimum
    suits = [suit] if suit is not None else open_suits
    copies = rules.copies
    concealed: list[int] = []
    # Chows of the suit(s), from the middle out, where copies are left; then a pair.
    for i in range(need):
        base = 9 * suits[i % len(suits)]
        lo = next((base + r for r in (3, 0, 6, 1, 5, 2, 4) if all(used[base + r + j] < copies[base + r + j]
                                                                 for j in range(3))), None)
        if lo is None:
            return rules.minimum
        for k in (lo, lo + 1, lo + 2):
            used[k] += 1
            concealed.append(k)
    base = 9 * suits[-1]
    pair = next((base + r for r in (4, 7, 1, 6, 2, 8, 0, 5, 3) if used[base + r] + 2 <= copies[base + r]), None)
    if pair is None:
        return rules.minimum
    concealed.extend((pair, pair))
    win = concealed.pop()
    hand = Hand(tuple(concealed), melds, win, flowers,
                seat_wind=deal.seat_wind(seat), round_wind=deal.variant.table.round_wind,
                missing_suit=deal.missing[seat])
    try:
        valid, total, _, _, _ = rules.scorer.evaluate_hand(hand)
    except HandError:
        return rules.minimum
    return max(total if valid else 0, rules.minimum)


def danger(kind: int, threat: Threat, unseen: Sequence[int]) -> float:
    """The chance that ``kind`` completes ``threat``'s hand, were it ready."""
    suit = _suit_of(kind)
    if threat.missing is not None and suit == threat.missing:
        return 0.0
    if suit == 3:
        base = _HONOR_DANGER if unseen[kind] >= 2 else 0.015 if unseen[kind] else 0.0
    else:
        base = _RANK_DANGER[kind % 9]
        if not unseen[kind]:
            base *= 0.5  # only a chow can wait on it
    if kind in threat.discarded:
        base *= DISCARDED
    if threat.suit is not None:
        if suit == threat.suit:
            base *= SUIT_SETS[min(threat.sets, len(SUIT_SETS) - 1)]
        elif suit == 3:
            base *= 1.5 if threat.honors else 0.5
        else:
            base *= OTHER_SUIT
    elif threat.leaning is not None:
        base *= 1.8 if suit == threat.leaning else 1.0 if suit == 3 else 0.5
    return base


def risk(kind: int, found: Sequence[Threat], unseen: Sequence[int], stake: float = 0.0) -> float:
    """The expected cost of discarding ``kind`` now: what a win on it would cost, and
    ``stake``, what the hand kept would have been worth (where a win ends the deal)."""
    return sum(t.ready * danger(kind, t, unseen) * (t.cost + stake * t.kept) for t in found)

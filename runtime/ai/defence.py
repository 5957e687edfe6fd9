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
  discard, costs the same in some variants;
* and, read tile by tile (the strong level; :func:`threats`' ``per_tile``), for an
  opponent with two declared sets or more: what a win on each tile would cost, its sets
  completed into plausible wins on that tile (the tile completing a pung, the pair or a
  chow, each where the unseen copies allow, their costs averaged; the rest completed as
  for the plausible win). The third dragon against two declared dragon pungs then costs
  a limit hand, where a plausible win of that table is small; such an opponent is a big
  threat (:attr:`Threat.big`), defended against at once. Completing two declared sets of
  one suit in that suit too (80% of the wins of such tables in Hong Kong among normal AI
  players are flushes) gave up 0.2 points of the strong level's share of wins at each
  of three seeds, in duplicate play against three normal levels, for no points seen.

A tile's danger against one opponent, were it ready: none for a tile of its missing suit;
less for a tile it discarded itself (it did not want it then), for one whose other copies
are all on the table or in one's hand (no pair or pung can wait on it) and for the ends of
a suit and the honors (fewer waits reach them); more for a tile of the suit its sets point
to. The risk of a discard is the sum over opponents of chance ready x danger x cost (of a
win on that tile, where read tile by tile), the cost counting, where a win ends the deal,
what the discarding hand was worth (that part too only where the win would not have come
anyway).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
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
#: Declared sets from which an opponent's table is read tile by tile (threats' ``per_tile``):
#: with fewer, the plausible wins on each tile differ little.
READ_SETS = 2
#: An opponent is a big threat when a win on some tile would cost this many times a plausible win.
BIG = 8.0


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
    #: The same for a win on each kind (index: kind), where read from its declared sets (None: ``cost``).
    costs: tuple[float, ...] | None
    kept: float  # the chance the win would not have come anyway (the share of a stake at risk)
    discarded: frozenset[int]  # kinds it discarded
    missing: int | None  # its missing suit (0-2), tiles of which never win for it

    @property
    def weight(self) -> float:
        return self.ready * self.cost

    def cost_of(self, kind: int) -> float:
        """What a win on ``kind`` would cost."""
        return self.costs[kind] if self.costs is not None else self.cost

    @property
    def big(self) -> bool:
        """Whether a win on some tile would cost far more than a plausible win (:data:`BIG`;
        never where the plausible win costs nothing more than it would anyway)."""
        return self.costs is not None and self.cost > 0 and max(self.costs) >= BIG * self.cost


def _suit_of(kind: int) -> int:
    return kind // 9 if kind < 27 else 3


def _chow_start(kind: int) -> int:
    """The first kind of the chow a suited ``kind`` completes: it in the middle, or at an end."""
    rank = kind % 9
    return kind - (1 if 1 <= rank <= 7 else 2 if rank == 8 else 0)


def threats(deal: Deal, seat: int, rules: Rules, seen: Seen, per_tile: bool = False) -> list[Threat]:
    """Every opponent still in the deal, as ``seat`` (which sees ``seen``) sees it;
    ``per_tile``: what a win on each tile would cost read from the declared sets of an
    opponent with :data:`READ_SETS` or more (:func:`_tile_costs`)."""
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
        cost_of = partial(_cost, rules, o, seat, out_of, deal.dealer, anyway)
        cost = cost_of(total)
        costs = None
        if per_tile and len(melds) >= READ_SETS:
            costs = _tile_costs(_tile_totals(deal, o, suit if sets >= 3 else None, rules), seen.unseen, cost, cost_of)
        out.append(Threat(o, ready, suit, sets, honors, leaning, cost, costs, 1.0 - anyway,
                          frozenset(kinds[t] for t in river), missing))
    return out


def _cost(rules: Rules, winner: int, seat: int, out: tuple[bool, ...], dealer: int, anyway: float,
          total: int) -> float:
    """What ``winner``'s win of ``total`` on ``seat``'s discard would cost ``seat``, less what
    it would pay were the win to come anyway (at the chance ``anyway``) another way."""
    paid = rules.paid_by_discarder(total, winner, seat, out, dealer)
    return -rules.utility(-(paid - anyway * rules.paid_otherwise(total, winner, seat, out, dealer)))


def _tile_costs(totals: Sequence[tuple[int, int, int]], unseen: Sequence[int], cost: float,
                cost_of: Callable[[int], float]) -> tuple[float, ...]:
    """What a win on each kind would cost: the mean over the shapes it may complete (a pung
    needs two unseen copies, the pair one, a chow the other two kinds), or ``cost`` where
    none may."""
    memo: dict[int, float] = {}

    def of(total: int) -> float:
        hit = memo.get(total)
        if hit is None:
            hit = memo[total] = cost_of(total)
        return hit

    out = []
    for kind, shapes in enumerate(totals):
        got = []
        pung, pair, chow = shapes
        if pung >= 0 and unseen[kind] >= 2:
            got.append(of(pung))
        if pair >= 0 and unseen[kind] >= 1:
            got.append(of(pair))
        if chow >= 0:
            lo = _chow_start(kind)
            if all(unseen[k] for k in range(lo, lo + 3) if k != kind):
                got.append(of(chow))
        out.append(sum(got) / len(got) if got else cost)
    return tuple(out)


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


def _key(deal: Deal, seat: int, suit: int | None) -> tuple[object, ...]:
    """What a plausible win of ``seat`` depends on: its declared sets, flowers, seat wind,
    missing suit, and the suit its sets point to."""
    kinds = deal.kinds
    sets = tuple((m.kind, tuple(sorted(kinds[t] for t in m.ids)), m.concealed) for m in deal.melds[seat])
    return sets, tuple(kinds[t] for t in deal.flowers[seat]), deal.seat_wind(seat), deal.missing[seat], suit


def _plausible_total(deal: Deal, seat: int, suit: int | None, rules: Rules) -> int:
    """The total of a plausible win of ``seat``: its declared sets, completed with sets of
    its suit (or of middle tiles of every suit) and a pair, scored by the variant; at least
    the variant's minimum."""
    key = _key(deal, seat, suit)
    hit = rules.plausible.get(key)
    if hit is None:
        if len(rules.plausible) > 10_000:
            rules.plausible.clear()
        hit = rules.plausible[key] = _Table(deal, seat, rules).total(suit)
    return hit


def _tile_totals(deal: Deal, seat: int, suit: int | None, rules: Rules) -> tuple[tuple[int, int, int], ...]:
    """For each kind, the totals of plausible wins of ``seat`` on it, completing a pung, the
    pair or a chow (-1 where its copies or its suit rule the shape out)."""
    key = _key(deal, seat, suit)
    hit = rules.plausible_by_tile.get(key)
    if hit is None:
        if len(rules.plausible_by_tile) > 2_000:
            rules.plausible_by_tile.clear()
        table = _Table(deal, seat, rules)
        hit = rules.plausible_by_tile[key] = tuple(table.on(kind, suit) for kind in range(34))
    return hit


class _Table:
    """One player's declared sets and flowers, completed into plausible wins and scored."""

    def __init__(self, deal: Deal, seat: int, rules: Rules) -> None:
        kinds = deal.kinds
        self.deal, self.seat, self.rules = deal, seat, rules
        self.melds = tuple(Meld(m.kind, tuple(sorted(kinds[t] for t in m.ids)), m.concealed) for m in deal.melds[seat])
        self.flowers = tuple(kinds[t] for t in deal.flowers[seat])
        sets = next((s.standard_sets for s in rules.shapes if s.standard_sets is not None), None)
        self.need = -1 if sets is None or len(self.melds) > sets else sets - len(self.melds)
        self.used = [0] * 34
        for m in self.melds:
            for k in m.tiles:
                self.used[k] += 1
        lack = deal.missing[seat]
        self.missing = SUITS.index(lack) if lack is not None else None
        self.open_suits = [s for s in range(3) if s != self.missing and rules.suits[s]]

    def total(self, suit: int | None) -> int:
        """The plausible win's total: the sets completed with chows of the suit(s), from the
        middle out, where copies are left, then a pair."""
        if self.need < 0 or not self.open_suits:
            return self.rules.minimum
        concealed = self._complete(list(self.used), [], self.need, True, suit)
        if concealed is None:
            return self.rules.minimum
        win = concealed.pop()
        return max(self._score(concealed, win), self.rules.minimum)

    def on(self, kind: int, suit: int | None) -> tuple[int, int, int]:
        """The totals of wins on ``kind`` completing a pung, the pair, a chow (-1: no such win).
        The rest is completed in the suit the sets point to when ``kind`` may belong to that
        hand (of the suit, or an honor), else as :meth:`total` does."""
        if self.need < 0 or not self.open_suits or _suit_of(kind) == self.missing:
            return -1, -1, -1
        fill = suit if suit is not None and _suit_of(kind) in (suit, 3) else None
        copies = self.rules.copies
        got = []
        shapes: list[tuple[list[int], int, bool]] = [([kind, kind], 1, True), ([kind], 0, False)]
        if kind < 27:
            lo = _chow_start(kind)
            shapes.append(([k for k in range(lo, lo + 3) if k != kind], 1, True))
        for held, sets_done, pair in shapes:
            used = list(self.used)
            for k in (*held, kind):
                used[k] += 1
            if any(used[k] > copies[k] for k in (*held, kind)) or sets_done > self.need:
                got.append(-1)
                continue
            concealed = self._complete(used, list(held), self.need - sets_done, pair, fill)
            got.append(-1 if concealed is None else max(self._score(concealed, kind), self.rules.minimum))
        got += [-1] * (3 - len(got))
        return got[0], got[1], got[2]

    def _complete(self, used: list[int], concealed: list[int], need: int, pair: bool,
                  suit: int | None) -> list[int] | None:
        suits = [suit] if suit is not None else self.open_suits
        copies = self.rules.copies
        for i in range(need):
            base = 9 * suits[i % len(suits)]
            lo = next((base + r for r in (3, 0, 6, 1, 5, 2, 4)
                       if all(used[base + r + j] < copies[base + r + j] for j in range(3))), None)
            if lo is None:
                return None
            for k in (lo, lo + 1, lo + 2):
                used[k] += 1
                concealed.append(k)
        if pair:
            base = 9 * suits[-1]
            kind = next((base + r for r in (4, 7, 1, 6, 2, 8, 0, 5, 3) if used[base + r] + 2 <= copies[base + r]), None)
            if kind is None:
                return None
            used[kind] += 2
            concealed.extend((kind, kind))
        return concealed

    def _score(self, concealed: list[int], win: int) -> int:
        deal = self.deal
        hand = Hand(tuple(concealed), self.melds, win, self.flowers, seat_wind=deal.seat_wind(self.seat),
                    round_wind=deal.variant.table.round_wind, missing_suit=deal.missing[self.seat])
        try:
            valid, total, _, _, _ = self.rules.scorer.evaluate_hand(hand)
        except HandError:
            return self.rules.minimum
        return total if valid else 0


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
    return sum(t.ready * danger(kind, t, unseen) * (t.cost_of(kind) + stake * t.kept) for t in found)

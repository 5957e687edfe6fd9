"""What a hand is worth to the player holding it: how likely it is to win in the draws left,
and what its wins would collect, from the compiled variant alone.

* Speed: the shanten and the useful tiles still unseen (the hand analysis's tables, for a
  plan's shapes: plans.py), turned into the chance to win in the draws left by a chain of
  steps, one a useful tile: the first at the rate of the hand's own useful tiles, each
  with the claims that can take it (a pair's third tile from any player's discard, a
  chow's only from the player before), the later ones at a typical rate for their
  shanten, claims adding to the draws, the last step helped by the other players'
  discards (more of a tile a player has thrown before, and of one whose suit a player has
  declared missing: it throws every one), the deal ending meanwhile by another player's
  win (more likely as the wall goes). Its constants were fitted to the baseline bots'
  hands (how often a hand at a shanten with so many useful tiles completed). A ready hand
  is counted wait by wait: only the waits that make a valid win count, each at its unseen
  copies.
* Value: the plan's candidate completions (completions.py), each scored by the variant's
  own scorer self-drawn and on a discard, and turned into what that win collects through
  the variant's payment rules; a completion below the minimum (or refused by a
  ``valid_when`` rule) is worth nothing. Completions are weighted by the chance their
  missing tiles come, and the value is their weighted mean: a fast hand whose likely
  completions pay nothing is worth little. Where the variant has flowers, a flower may come
  before the win and change its score (a hand counting on having none, or on a given one,
  is not sure of it): each completion and each wait is scored with the flowers held and,
  at the chance of drawing one in part of the draws left, with each unseen flower added
  (one standing for all where the pattern table counts the flowers only by number).
  A valid win is also worth a flat amount (:meth:`Rules.flat`): where play goes on after a
  win, what winning saves (the payments for the others' later wins), and a bonus
  (:data:`FLAT_WIN`, or the level's own: player.Level.bonus where a win ends the deal,
  player.Level.continuing_bonus where play goes on): winning at all counts for more than
  the difference between two wins.
  Gains are measured by a utility that grows slowly past the variant's usual wins (limit
  hands are not chased as their payment alone would say); losses in full.
* The end of the wall: where the settlement pays ready hands when the wall runs out, a
  hand likely to be ready then is worth that payment too (found by asking the settlement
  about one ready player and one not, not by reading its rules).

Nothing here names a variant, a pattern or a suit's role: the payment rules, the shapes and
the pattern table say everything. Scores and payments are cached per compiled variant
(pure functions of their keys: a cache never changes a decision).
"""

from __future__ import annotations

from collections.abc import Sequence
from copy import copy
from dataclasses import dataclass
from math import log
from typing import TYPE_CHECKING

from cardavia.compiler.model.hand import Hand, HandError, Meld
from cardavia.compiler.model.tiles import SUITS

from ..analysis import View, analyst
from ..payments import PlayerFacts, _Names, exhausted_payments, kong_payments, win_payments
from .completions import Completion, adds_of, shape_completions
from .plans import Plan, make_plans
from .targets import find_targets, target_masks, target_plans

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant

    from ..deal import Deal

#: What any valid win is worth beside what it collects, in the utility's scale, where a
#: win ends the deal: it stands for the others' wins it forestalls (which nothing else
#: counts there) and for winning at all counting for more than the difference between two
#: wins. Where play goes on after a win, what winning saves is counted apart
#: (:meth:`Rules.exit_value`). Each level may count its own, where a win ends the deal and
#: where play goes on (player.Level.bonus, player.Level.continuing_bonus).
FLAT_WIN = 3.0
#: The scale of :meth:`Rules.utility`, in what a self-drawn win two above the minimum collects.
UTILITY_SCALE = 0.5
#: Unseen useful tiles a hand of sets and a pair typically has at each shanten (index:
#: shanten), the most a later step of the chain counts (see :meth:`Rules.chance`).
TYPICAL_USEFUL = (4, 13, 22, 31, 40, 49, 58, 67)
#: The share of each other player's discards that could be a given wait (they hold back some).
DISCARD_SHARE = 0.5
#: The same for a player whose declared missing suit holds the tile: it throws each it
#: draws (1), and its hand hides none of them from the others (fitted in duplicate play
#: against three baselines in Sichuan: 0.5 -> 3 took the deals won from 66.6% to 68.3%,
#: and more changed nothing).
MISSING_THROWN = 3.0
#: How much likelier a tile is drawn for each other player who keeps none of its kind
#: (its copies are not held back in that hand; 1 took the deals won from 66.7% to 67.7%).
SPARED_DRAWS = 1.0
#: The further discards of a kind expected from each other player who has thrown one (it
#: has no use for it; fitted in duplicate play against three baselines: 0 -> 0.5 took the
#: share of wins from 37.7% to 38.2% in Hong Kong and from 39.0% to 39.6% in MCR).
AGAIN_SHARE = 0.5
#: What claims add to the draws for the steps before ready, per other player.
CLAIM_SHARE = 0.2
#: For shapes that take no claimed sets (special hands of singles and pairs), the share of
#: the later steps' useful tiles left by then: their tiles are the ones the other players
#: throw early (ends and honors), and none of their discards help before the win.
SPECIAL_DEPLETION = 0.6
#: The chance, per round and other player, that the deal ends by its win where a win ends
#: the deal, halfway through the wall (it grows with the wall drawn: ready hands come late).
END_HAZARD = 0.01
#: Where play goes on after a win: the chance a round that another player still in the
#: deal wins (over half of them win, in about fifteen rounds).
LATER_WIN_RATE = 0.04
#: The same where play goes on after a win and another win would not end the deal yet
#: (it ends once enough have won: then :data:`END_HAZARD` holds, see :meth:`Rules.ends_next`).
LATE_END_HAZARD = 0.002
#: What a hand whose candidate completions make no valid win is still taken to be worth,
#: as a share of a win at the minimum (see :meth:`Rules.unseen_value`).
UNSEEN_SHARE = 0.15
#: Plans toward targets (targets.py) judged for a hand, at most; and the most tiles a
#: target may still lack.
TARGET_PLANS = 4
TARGET_REACH = 3
#: The share of the draws left that pass, on average, before a ready hand wins (the draws
#: in which a flower may come and change its score).
READY_DRAWS = 0.25


#: A scored completion: (its missing tiles as (kind, copies), its final counts, what its
#: win collects and how often that win is valid (:meth:`Rules.worth_parts`), its best total).
Scored = tuple[tuple[tuple[int, int], ...], tuple[int, ...], float, float, int]


@dataclass(slots=True)
class Seen:
    """What one seat knows when it decides: its own hand and what is on the table."""

    seat: int
    counts: list[int]  # own concealed tiles, 34 counts
    melds: tuple[Meld, ...]
    flowers: tuple[int, ...]
    seat_wind: int
    round_wind: int
    missing: str | None
    unseen: list[int]  # copies of each kind neither in this hand nor on the table
    pool: int  # their sum: the tiles this seat cannot see
    draws: float  # this seat's draws left, about
    active: int  # players still in the deal
    out: tuple[bool, ...]  # who has left the deal (a winner, unless winners stay in): pays no more
    dealer: int
    lateness: float  # 0 at the first draw, 1 when the wall is empty
    flowers_left: tuple[int, ...] = ()  # the flowers (bonus tiles) nobody has shown yet, one entry a copy
    #: For each kind, the other players still in who keep none of it (its suit is their
    #: declared missing suit); () where nobody has declared one.
    spared: tuple[int, ...] = ()
    dropped: tuple[int, ...] = ()  # for each kind, the other players still in who have thrown one

    def throws(self, kind: int) -> float:
        """The other players' discards of ``kind`` to be expected, in players: a share of
        each one's (:data:`DISCARD_SHARE`), more from those who keep none of it
        (:data:`MISSING_THROWN`) and from those who have thrown one (:data:`AGAIN_SHARE`)."""
        spared = self.spared[kind] if self.spared else 0
        dropped = self.dropped[kind] if self.dropped else 0
        return DISCARD_SHARE * (self.active - 1 - spared) + MISSING_THROWN * spared + AGAIN_SHARE * dropped

    def context(self, melds: tuple[Meld, ...], extra: int = -1) -> tuple[object, ...]:
        """What a win's score depends on besides its concealed tiles (``extra``: a flower
        drawn before the win, -1 for none)."""
        return (tuple((m.kind, m.tiles, m.concealed) for m in melds), self.flowers, self.seat_wind,
                self.round_wind, self.missing, extra)

    def flower_chance(self, share: float) -> float:
        """The chance of drawing a flower in ``share`` of the draws left (each replaced, but
        shown, and so counted in the win's score)."""
        left = len(self.flowers_left)
        if not left:
            return 0.0
        return 1.0 - (1.0 - left / (self.pool + left)) ** (self.draws * share)

    @property
    def missing_index(self) -> int | None:
        return SUITS.index(self.missing) if self.missing is not None else None


def seen_of(deal: Deal, seat: int, rules: Rules) -> Seen:
    """What ``seat`` knows of ``deal``: its own hand (the analysis's :class:`View`) and the table."""
    view = View.of_seat(deal, seat)
    counts = view.counts()
    table = view.table()
    unseen = [max(0, c - t - o) for c, t, o in zip(rules.copies, table, counts)]
    active = deal.n - sum(deal.out)
    wall = deal.wall_left()
    start = rules.wall_start
    left = list(rules.flower_kinds)
    for shown in deal.flowers:
        for t in shown:
            left.remove(deal.kinds[t])
    dropped = [0] * 34
    for other in range(deal.n):
        if other != seat and not deal.out[other]:
            for k in {deal.kinds[t] for t in deal.rivers[other]}:
                if k < 34:
                    dropped[k] += 1
    spared = [0] * 34
    # Missing suits are declared together: none is known while they are being chosen.
    if deal.phase != "missing_suit":
        for other in range(deal.n):
            suit = deal.missing[other]
            if other != seat and not deal.out[other] and suit:
                lo = 9 * SUITS.index(suit)
                for k in range(lo, lo + 9):
                    spared[k] += 1
    return Seen(seat, counts, view.melds, view.flowers, view.seat_wind, view.round_wind, view.missing_suit,
                unseen, sum(unseen), wall / max(active, 1), active, tuple(deal.out), deal.dealer,
                min(1.0, max(0.0, 1.0 - wall / start)) if start > 0 else 1.0, tuple(left),
                tuple(spared) if any(spared) else (), tuple(dropped))


@dataclass(slots=True)
class Estimate:
    """A hand one tile short of complete (its extra tile discarded), judged."""

    shanten: int
    useful: int  # unseen copies of the kinds that lower the shanten (for a ready hand: its valid waits)
    p_win: float  # the chance to win it in the draws left
    value: float  # what a win it becomes collects, on average (0: none would be valid)
    ev: float  # p_win * value, plus the end-of-wall value of being ready
    best: int = -1  # the total of the likeliest valuable completion (-1: none found)
    plan: str = ""  # the plan judged best (plans.py), "" for a ready hand or none

    def summary(self) -> str:
        what = "ready" if self.shanten == 0 else f"shanten {self.shanten}"
        plan = f" ({self.plan})" if self.plan and self.plan != "all" else ""
        return f"{what}{plan}, {self.useful} useful, win {self.p_win:.2f} x {self.value:.1f}"


class Rules:
    """One compiled variant's scorer, shapes and payments, with the caches every AI player shares."""

    def __init__(self, variant: CompiledVariant) -> None:
        self.variant = variant
        #: What any valid win is worth beside what it collects (:data:`FLAT_WIN`, or a level's
        #: own: :meth:`with_bonus`).
        self.win_bonus = FLAT_WIN
        self.analyst = analyst(variant)
        self.evaluator = self.analyst.evaluator
        self.scorer = variant.scorer
        self.settlement = variant.settlement
        self.shapes = variant.scoring.shapes
        self.minimum = variant.scoring.minimum
        self.players = variant.table.players
        self.copies = list(self.analyst.copies)
        #: The variant's flowers (bonus tiles), one entry a copy.
        self.flower_kinds = tuple(sorted(k for k in variant.tiles.kinds if k >= 34))
        self.playable = [k for k in range(34) if self.copies[k]]
        self.playable_mask = sum(1 << k for k in self.playable)
        #: Which of the four suits (m, p, s, honors) the variant has tiles of.
        self.suits = tuple(any(self.copies[k] for k in range(lo, hi))
                           for lo, hi in ((0, 9), (9, 18), (18, 27), (27, 34)))
        table = variant.table
        dealt = table.other_tiles * self.players + table.dealer_tiles - table.other_tiles
        self.wall_start = len(variant.tiles.kinds) - dealt
        self.continues = variant.play.after_win == "continue"
        self.chow_claims = variant.play.chow != "none"
        self.max_winners = variant.play.max_winners if self.continues else 1
        self._plans: dict[int | None, list[Plan]] = {}
        standard = [sh.standard_sets for sh in self.shapes if sh.standard_sets is not None]
        #: Groups of chows the pattern table pays for (targets.py).
        self.targets = find_targets(variant, max(standard), self.copies) if standard else []
        self.target_masks = target_masks(self.targets)
        #: Whether the pattern table counts the flowers only by number (outcomes).
        self.flowers_by_number = variant.scoring.reads_length_only("flowers")
        #: Scored completions by plan and hand (hands.py), shared by every player of the variant.
        self.scored: dict[tuple[object, ...], list[Scored]] = {}
        self._scores: dict[tuple[object, ...], dict[tuple[tuple[int, ...], int], tuple[int, int]]] = {}
        self._income: dict[tuple[int, int, bool, tuple[bool, ...], int], int] = {}
        self._otherwise: dict[tuple[int, int, int, tuple[bool, ...], int], float] = {}
        self._chains: dict[tuple[int, int, int, int, int, bool, int, int, bool], tuple[float, float]] = {}
        self._ready_bonus: dict[tuple[int, int], float] = {}
        self.has_exhausted_rules = bool(self.settlement.exhausted)
        self._tails: dict[tuple[int, int], tuple[tuple[float, ...], ...]] = {}
        #: A plausible win's total for an opponent's table (defence.py), by what it depends on.
        self.plausible: dict[tuple[object, ...], int] = {}
        #: The same for a win on each kind, completing a pung, the pair or a chow.
        self.plausible_by_tile: dict[tuple[object, ...], tuple[tuple[int, int, int], ...]] = {}
        nobody = (False,) * self.players
        pays = win_payments(self.settlement, 0, None, max(self.minimum, 0) + 1, {"self_drawn": True}, 1, nobody)
        #: What one opponent pays for a self-drawn win one above the minimum.
        self.typical_paid = max((p.amount for p in pays), default=0)
        # The scale past which more money counts less (see :meth:`utility`).
        self.scale = UTILITY_SCALE * max(1, self.income(max(self.minimum, 0) + 2, True, 0, (False,) * self.players))

    def with_bonus(self, bonus: float) -> Rules:
        """The same rules with another :attr:`win_bonus`, sharing every cache (none holds
        a worth counting the bonus)."""
        twin = copy(self)
        twin.win_bonus = bonus
        return twin

    # ---------------------------------------------------------------- payments

    def income(self, total: int, self_drawn: bool, seat: int, out: tuple[bool, ...], dealer: int = 0) -> int:
        """What a win worth ``total`` collects (on a discard: from the next seat still in)."""
        key = (seat, total, self_drawn, out, dealer)
        hit = self._income.get(key)
        if hit is None:
            n = self.players
            frm = None
            if not self_drawn:
                frm = next((s for s in ((seat + i) % n for i in range(1, n)) if not out[s]), (seat + 1) % n)
            pays = win_payments(self.settlement, seat, frm, total, {"self_drawn": self_drawn}, 1, out, dealer=dealer)
            hit = self._income[key] = sum(p.amount for p in pays if p.payee == seat)
        return hit

    def paid_by_discarder(self, total: int, winner: int, discarder: int, out: tuple[bool, ...],
                          dealer: int = 0) -> int:
        """What ``discarder`` pays when ``winner`` wins on its discard with ``total``."""
        pays = win_payments(self.settlement, winner, discarder, total, {"self_drawn": False}, 1, out, dealer=dealer)
        return sum(p.amount for p in pays if p.payer == discarder)

    def paid_otherwise(self, total: int, winner: int, seat: int, out: tuple[bool, ...], dealer: int = 0) -> float:
        """What ``seat`` pays, on average, when ``winner`` wins with ``total`` not on its
        discard: self-drawn, or on another player's discard (the first other seat still in),
        weighed as :meth:`worth` weighs them."""
        key = (total, winner, seat, out, dealer)
        hit = self._otherwise.get(key)
        if hit is not None:
            return hit
        n = self.players
        share = DISCARD_SHARE * max(sum(1 for s in range(n) if not out[s]) - 2, 0)
        own = win_payments(self.settlement, winner, None, total, {"self_drawn": True}, 1, out, dealer=dealer)
        paid = float(sum(p.amount for p in own if p.payer == seat))
        other = next((s for s in range(n) if s not in (winner, seat) and not out[s]), None)
        if other is not None and share:
            pays = win_payments(self.settlement, winner, other, total, {"self_drawn": False}, 1, out, dealer=dealer)
            paid += share * sum(p.amount for p in pays if p.payer == seat)
        hit = self._otherwise[key] = paid / (1.0 + share)
        return hit

    def kong_income(self, kong: str, seat: int, from_seat: int | None, out: tuple[bool, ...], dealer: int = 0) -> int:
        """What declaring a kong collects at once (the settlement's kong rules)."""
        pays = kong_payments(self.settlement, kong, seat, from_seat, out, dealer)
        return sum(p.amount for p in pays if p.payee == seat) - sum(p.amount for p in pays if p.payer == seat)

    def ready_bonus(self, total: int, active: int) -> float:
        """What being ready when the wall runs out is worth over not being ready (0 for a
        variant whose settlement pays nothing then): the end-of-wall rules asked about one
        player ready with a hand worth ``total`` and not ready, the other active players
        not ready."""
        key = (total, active)
        hit = self._ready_bonus.get(key)
        if hit is not None:
            return hit
        if not self.has_exhausted_rules:
            self._ready_bonus[key] = 0.0
            return 0.0
        base = int(self.settlement.base.fn(_Names(total=total)))
        value = int(self.settlement.ready_value.fn(_Names(total=total, base=base)))

        def net(ready: bool) -> int:
            players = [PlayerFacts(s, s >= active, s < active, ready and s == 0, False,
                                   value if ready and s == 0 else 0, 0) for s in range(self.players)]
            pays = exhausted_payments(self.settlement, players, [])
            return sum(p.amount for p in pays if p.payee == 0) - sum(p.amount for p in pays if p.payer == 0)

        hit = self._ready_bonus[key] = float(net(True) - net(False))
        return hit

    # ---------------------------------------------------------------- scoring

    def totals(self, seen: Seen, melds: tuple[Meld, ...], final: tuple[int, ...], win: int,
               extra: int = -1) -> tuple[int, int]:
        """(total on a discard, total self-drawn) of the win ``final`` (34 concealed counts,
        the winning tile included) makes with ``win`` as its last tile; -1 where that win
        is not valid; ``extra``: a flower drawn before the win (-1: none)."""
        ctx = seen.context(melds, extra)
        table = self._scores.get(ctx)
        if table is None:
            if len(self._scores) > 1024:
                self._scores.clear()
            table = self._scores[ctx] = {}
        key = (final, win)
        hit = table.get(key)
        if hit is not None:
            return hit
        if len(table) > 20_000:
            table.clear()
        concealed: list[int] = []
        for k in range(34):
            c = final[k]
            if c:
                concealed.extend([k] * c)
        concealed.remove(win)
        out: list[int] = []
        # Self-drawn first: a win that is not valid self-drawn is taken as not valid on a
        # discard either (no variant's patterns pay a discard more), which saves its scoring.
        for self_drawn in (True, False):
            if not self_drawn and out[0] < 0:
                out.append(-1)
                break
            flowers = seen.flowers if extra < 0 else (*seen.flowers, extra)
            hand = Hand(tuple(concealed), melds, win, flowers, self_drawn=self_drawn, seat_wind=seen.seat_wind,
                        round_wind=seen.round_wind, missing_suit=seen.missing)
            try:
                valid, total, _, _, _ = self.scorer.evaluate_hand(hand)
            except HandError:
                valid, total = False, 0
            out.append(total if valid else -1)
        hit = table[key] = (out[1], out[0])
        return hit

    def outcomes(self, seen: Seen, melds: tuple[Meld, ...], final: tuple[int, ...], win: int,
                 p: float) -> list[tuple[float, tuple[int, int]]]:
        """The totals of a win (as :meth:`totals`), each with its chance, where a flower
        comes before it at the chance ``p`` (:meth:`Seen.flower_chance`): a hand counting on
        having no flowers, or on a given one, is not sure of it. One flower at most is weighed."""
        base = self.totals(seen, melds, final, win)
        if p <= 0.0:
            return [(1.0, base)]
        left = seen.flowers_left
        out = [(1.0 - p, base)]
        if self.flowers_by_number:  # any flower scores as any other: one stands for all
            out.append((p, self.totals(seen, melds, final, win, min(left))))
            return out
        for f in sorted(set(left)):
            out.append((p * left.count(f) / len(left), self.totals(seen, melds, final, win, f)))
        return out

    def ends_next(self, seen: Seen) -> bool:
        """Whether another player's win would end the deal (where play goes on after a win,
        once all but one of the winners it allows have won)."""
        return not self.continues or sum(seen.out) >= self.max_winners - 1

    def utility(self, amount: float) -> float:
        """What an amount is worth to the player: a gain is the amount itself up to about
        the variant's usual wins, then grows slowly (a limit hand a thousand times a usual
        win is not worth chasing a thousand times as hard: the chances of far hands are
        rough, and a player's results should not hang on rare huge wins); a loss counts in
        full (a big hand dealt into is lost whole)."""
        if amount < 0:
            return amount
        return self.scale * log(1.0 + amount / self.scale)

    def points(self, total: int, self_drawn: bool, seen: Seen) -> float:
        """What a win worth ``total`` collects, in points (0 for an invalid one, -1)."""
        return float(self.income(total, self_drawn, seen.seat, seen.out, seen.dealer)) if total >= 0 else 0.0

    def collected(self, total: int, self_drawn: bool, seen: Seen) -> float:
        """The utility of what a win worth ``total`` collects (0 for an invalid one, -1)."""
        return self.utility(self.points(total, self_drawn, seen))

    def exit_value(self, seen: Seen) -> float:
        """Where play goes on after a win, what winning also saves: the payments a player
        still in the deal would make for the others' later wins (each other player
        winning at :data:`LATER_WIN_RATE` a round, paying what one opponent pays for a
        self-drawn win one above the minimum, over the draws left); 0 where a win ends it."""
        if not self.continues:
            return 0.0
        return self.utility(LATER_WIN_RATE * (seen.active - 1) * self.typical_paid * seen.draws)

    def flat(self, seen: Seen) -> float:
        """What any valid win is worth beside what it collects: what winning saves
        (:meth:`exit_value`) and the win bonus (:attr:`win_bonus`)."""
        return self.exit_value(seen) + self.win_bonus * self.scale

    def worth_parts(self, seen: Seen, totals: tuple[int, int]) -> tuple[float, float]:
        """A win's :meth:`worth` in two parts, (what it collects, how often it is valid),
        a self-draw and the other players' discards each weighed by how often they come:
        the worth is ``collects + flat * valid`` (:meth:`flat`). Unlike the flat part
        (what winning saves hangs on the draws left), both depend only on the totals and
        the seats, and are cached with a hand's completions."""
        d, s = totals
        share = DISCARD_SHARE * (seen.active - 1)
        own = self.collected(s, True, seen) if s >= 0 else 0.0
        other = self.collected(d, False, seen) if d >= 0 else 0.0
        valid = (1.0 if s >= 0 else 0.0) + (share if d >= 0 else 0.0)
        return (own + share * other) / (1.0 + share), valid / (1.0 + share)

    def worth(self, seen: Seen, totals: tuple[int, int]) -> float:
        """What a win of these totals is worth on average, a self-draw and the other
        players' discards each weighed by how often they come (0 where not valid), with
        what winning saves (:meth:`flat`)."""
        collects, valid = self.worth_parts(seen, totals)
        return collects + self.flat(seen) * valid

    def unseen_value(self, seen: Seen) -> float:
        """The least a hand not yet ready is taken to be worth: its candidate completions
        are a few of many, and when none of them makes a valid win others may
        (:data:`UNSEEN_SHARE` of a win at the minimum)."""
        least = max(self.minimum, 0)
        return UNSEEN_SHARE * self.worth(seen, (least, least))

    def tails(self, seen: Seen) -> tuple[tuple[float, ...], ...]:
        """``tails(seen)[needed][copies]``: the chance to get ``needed`` of ``copies`` unseen
        tiles of a kind in the draws left (claims counted as extra draws), a binomial tail;
        ``needed`` and ``copies`` up to 4, cached by the draws and the unseen tiles."""
        draws = int(seen.draws * (1.0 + CLAIM_SHARE * (seen.active - 1)) + 0.5)
        pool = max(seen.pool, 1)
        key = (draws, pool)
        hit = self._tails.get(key)
        if hit is not None:
            return hit
        rows = []
        for needed in range(5):
            row = []
            for copies in range(5):
                p = min(copies / pool, 1.0)
                miss = 0.0
                term = (1.0 - p) ** draws
                for j in range(needed):
                    miss += term
                    term = term * (draws - j) / (j + 1) * (p / (1.0 - p)) if p < 1.0 else 0.0
                row.append(max(0.0, 1.0 - miss) if copies >= needed else 0.0)
            rows.append(tuple(row))
        if len(self._tails) > 10_000:
            self._tails.clear()
        hit = self._tails[key] = tuple(rows)
        return hit

    # ---------------------------------------------------------------- speed

    def chance(self, shanten: int, useful: int, seen: Seen, claims: bool = True,
               first: float | None = None) -> tuple[float, float]:
        """(the chance to win, the chance to be ready) within the draws left, for a hand at
        ``shanten`` with ``useful`` unseen useful tiles: a chain of ``shanten + 1`` steps,
        each taken with its rate at each draw (see the module docstring), the deal ending
        meanwhile by another player's win at :data:`END_HAZARD` a round. ``claims``: the
        steps before ready may claim discards (a shape of sets). ``first``: the first
        step's useful tiles with the claims that can take them counted (:meth:`claimable`),
        for a hand not yet ready, in place of ``useful`` at the typical claim rate."""
        draws = int(seen.draws + 0.5)
        pool = max(seen.pool, 1) // 4 * 4 + 2
        useful = useful if useful <= 16 else min(80, useful // 4 * 4 + 2)
        lead = -1  # -1: the first step's rate from ``useful`` at the typical claim rate
        if first is not None and shanten > 0:
            lead = int(first + 0.5)
            lead = lead if lead <= 16 else min(160, lead // 4 * 4 + 2)
        tenths = int(seen.lateness * 10)
        ends = self.ends_next(seen)
        key = (shanten, useful, draws, pool, seen.active, claims, tenths, lead, ends)
        hit = self._chains.get(key)
        if hit is not None:
            return hit
        if shanten < 0:
            return 1.0, 1.0
        others = seen.active - 1
        mid = 1.0 + CLAIM_SHARE * others if claims else 1.0
        last = 1.0 + DISCARD_SHARE * others
        step_late = seen.active / max(self.wall_start, 1)
        hazard = END_HAZARD if ends else LATE_END_HAZARD
        rates = []
        top = len(TYPICAL_USEFUL) - 1
        for step in range(shanten + 1):
            left = shanten - step  # the shanten this step starts from
            if step == 0 and lead >= 0:
                rates.append(min(lead / pool, 0.95))
                continue
            if step == 0:
                count = float(useful)
            elif claims:
                count = TYPICAL_USEFUL[min(left, top)]
            else:
                # Special shapes: their useful tiles shrink with their shanten, and are the
                # ones the other players throw early.
                count = min(TYPICAL_USEFUL[min(left, top)], useful * (left + 1) / (shanten + 1)) * SPECIAL_DEPLETION
            rates.append(min(count * (last if left == 0 else mid) / pool, 0.95))
        probs = [1.0] + [0.0] * len(rates)
        late = (tenths + 0.5) / 10
        for _ in range(draws):
            for i in range(len(rates) - 1, -1, -1):
                moved = probs[i] * rates[i]
                probs[i] -= moved
                probs[i + 1] += moved
            alive = 1.0 - hazard * others * 2.0 * late
            for i in range(len(rates)):
                probs[i] *= alive
            late = min(1.0, late + step_late)
        if len(self._chains) > 100_000:
            self._chains.clear()
        hit = self._chains[key] = (probs[-1], probs[-1] + probs[-2])
        return hit

    def claimable(self, seen: Seen, counts: Sequence[int], mask: int, plan_claims: bool, chows: bool) -> float:
        """The unseen tiles of ``mask`` (a step's useful kinds, ``counts`` the hand), each
        counted once for the draws and again for the other players' discards that may
        bring it (``plan_claims``: the plan takes claimed sets): a kind held twice can be
        pung'd from any player (:meth:`Seen.throws`), one that makes a chow only from the
        player before (where the variant has chow claims and the plan ``chows``). Where
        other players keep none of a kind, it is likelier drawn too (:data:`SPARED_DRAWS`)."""
        unseen = seen.unseen
        chow = 1.0 + DISCARD_SHARE if self.chow_claims and chows else 1.0
        total = 0.0
        k = 0
        while mask:
            if mask & 1 and unseen[k]:
                if not plan_claims:
                    total += unseen[k]
                elif counts[k] >= 2:
                    total += unseen[k] * (1.0 + seen.throws(k))
                elif k < 27:
                    total += unseen[k] * chow
                else:
                    total += unseen[k]
                if seen.spared:
                    total += SPARED_DRAWS * seen.spared[k] * unseen[k]
            mask >>= 1
            k += 1
        return total

    # ---------------------------------------------------------------- hands

    def kept_suits(self, seen: Seen) -> tuple[bool, ...]:
        """The suits a completion may keep: the variant's, less the declared missing suit."""
        missing = seen.missing_index
        return tuple(have and i != missing for i, have in enumerate(self.suits))

    def plans(self, seen: Seen) -> list[Plan]:
        """The plans open to a player with this missing suit (plans.py)."""
        missing = seen.missing_index
        got = self._plans.get(missing)
        if got is None:
            got = self._plans[missing] = make_plans(self.shapes, self.suits, missing)
        return got

    def completions(self, plan: Plan, counts: Sequence[int], melds: int, bound: int, live: int,
                    limit: int) -> list[Completion]:
        """Plausible completions of ``counts`` in the plan (at most ``limit`` a shape, a
        special shape's at most ``bound`` tiles away)."""
        out: list[Completion] = []
        target = plan.target
        if target:
            # The target's tiles aside, the rest completed with its sets counted as made.
            rest = [c - min(c, t) for c, t in zip(counts, target)]
            for shape in plan.shapes:
                for _, final, _ in shape_completions(shape, rest, melds + plan.target_sets, bound, live, plan.suits,
                                                     limit, plan.chows):
                    whole = tuple(f + t for f, t in zip(final, target))
                    if max(whole) > 4:
                        continue
                    adds = adds_of(counts, whole)
                    out.append((sum(n for _, n in adds), whole, adds))
            return out
        for shape in plan.shapes:
            out.extend(shape_completions(shape, counts, melds, bound, live, plan.suits, limit, plan.chows))
        return out

    def target_plans(self, seen: Seen, counts: Sequence[int], melds: tuple[Meld, ...]) -> list[Plan]:
        """Plans toward the targets nearest the hand (targets.py)."""
        if not self.targets:
            return []
        base = next((p for p in self.plans(seen) if p.name == "all"), None)
        if base is None:
            return []
        return target_plans(base, self.targets, self.target_masks, counts, melds, seen.unseen, TARGET_PLANS,
                            TARGET_REACH)

    def end_value(self, seen: Seen, p_win: float, p_ready: float, total: int) -> float:
        """The end-of-wall value of a hand: ready when the wall runs out (not having won)."""
        if not self.has_exhausted_rules or p_ready <= 0:
            return 0.0
        bonus = self.ready_bonus(max(total, 0), seen.active)
        if bonus <= 0:
            return 0.0
        return self.utility(bonus) * max(0.0, p_ready - p_win) * (0.3 + 0.7 * seen.lateness)

    def ready(self, seen: Seen, counts: list[int], melds: tuple[Meld, ...], points: bool = False) -> Estimate:
        """A ready hand judged wait by wait: each wait that makes a valid win, at its unseen
        copies, by the share of draws and discards it can win on. ``points``: its worth in
        points, what its wins collect and nothing else (no utility, no flat worth, nothing
        for being ready at the end)."""
        view = View(tuple(k for k in range(34) for _ in range(counts[k])), melds, seen.flowers, seen.seat_wind,
                    seen.round_wind, seen.missing)
        kinds = self.analyst.wait_kinds(view)
        unseen = seen.unseen
        share = DISCARD_SHARE * (seen.active - 1)
        flat = 0.0 if points else self.flat(seen)
        gain = self.points if points else self.collected
        useful = 0
        rate = 0.0
        paid = 0.0
        best = -1
        best_u = 0
        base = tuple(counts)
        flower = seen.flower_chance(READY_DRAWS)
        for k in kinds:
            u = unseen[k]
            if not u:
                continue
            final = list(base)
            final[k] += 1
            outcomes = self.outcomes(seen, melds, tuple(final), k, flower)
            if all(d < 0 and s < 0 for _, (d, s) in outcomes):
                continue
            useful += u
            thrown = seen.throws(k)
            for p, (d, s) in outcomes:
                own = p if s >= 0 else 0.0
                other = p * thrown if d >= 0 else 0.0
                rate += u * (own + other)
                paid += u * (p * gain(s, True, seen) + other * gain(d, False, seen) + (own + other) * flat)
            if u > best_u:
                best_u, best = u, max(outcomes[0][1])
        if not useful:
            return Estimate(0, 0, 0.0, 0.0, self.end_value(seen, 0.0, 1.0, 0) if kinds and not points else 0.0, -1)
        p_win, _ = self.chance(0, round(rate / (1.0 + share)), seen)
        value = paid / rate
        end = 0.0 if points else self.end_value(seen, p_win, 1.0, best)
        return Estimate(0, useful, p_win, value, p_win * value + end, best)

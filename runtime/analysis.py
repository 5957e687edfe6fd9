"""Hand analysis: what one player can know of their own hand, for people and programs.

One analysis serves the terminal game's hints, ``cardavia waits``, the web app and the
computer players. It reads a :class:`View`, one player's view of a deal: their concealed
tiles, declared sets, flowers, winds and missing suit, and the tiles on the table (every
discard and every declared set); never another player's hidden tiles. From it
(:class:`Analyst`, one per compiled variant):

* the shanten number, tiles away from ready (0: ready, -1: complete), over every shape
  the variant declares (:class:`Evaluator`: sets and a pair from the suit-key tables of
  runtime/shanten.py, every other shape from its own count, compiler/shapes);
* for a hand that must discard, each discard with the shanten it leaves and the tiles
  that would then lower it, counted in copies the player has not seen;
* for a hand one tile short, every wait (compiler/shapes/waits.py, the compiler's one
  answer, no trial per tile) with what a win on it is worth on a discard and self-drawn,
  as the scorer gives it: valid or not and why (below the minimum; a rule of the
  variant's ``valid_when``, such as a missing suit still held), total and patterns;
* for a complete hand, the same for the win it holds.

A declared missing suit makes its tiles dead wood: each must go before the hand can win,
so the shanten is at least their number (less one when the hand holds the extra tile
it is about to discard), and a tile of that suit is never a useful draw.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardavia.compiler.model.hand import Hand, Meld
from cardavia.compiler.model.tiles import CODES, SUITS
from cardavia.compiler.scoring.patterns import Fan
from cardavia.compiler.shapes.arrangements import completes
from cardavia.compiler.shapes.base import Shape
from cardavia.compiler.shapes.suits import kinds_in
from cardavia.compiler.shapes.waits import held_wait_mask

from .per_variant import PerVariant
from .shanten import (
    _DROPS,
    _EVAL_IDS,
    _KEY_TABLE,
    SUIT_OF,
    WEIGHT,
    eval_ids,
    rests_of,
    standard_draws,
    standard_shanten,
    standard_shanten_keys,
    suit_adds,
    suit_drops,
    suit_keys,
    table_of,
)

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant

    from .deal import Deal

#: The shanten of a hand no declared shape can become (too many declared sets).
NEVER = 99

#: The useful-draw masks of standard shapes, by the four suit keys after a discard, the
#: shanten to beat and the sets still to make (a cache: hands come back, a drawn tile
#: discarded again).
_USEFUL: dict[tuple[int, ...], int] = {}
#: Shanten and draws rows already worked out, by shapes, declared sets and suit keys
#: packed in one integer (:meth:`Evaluator._memo`): a player's look-ahead meets the same
#: hands again and again, and the suit keys are the counts, so a kept entry is exact.
#: Rows are bytes (each shanten plus one); at most :data:`_MEMO_MOST` entries each.
_SHANTEN: dict[int, int] = {}
_DRAWS: dict[int, bytes] = {}
_MEMO_MOST = 60_000
#: A number for each set of shapes evaluated (equal shapes, one number: a player made for
#: each deal meets the hands kept by the players before it).
_TAG_OF: dict[tuple[Shape, ...], int] = {}


class Evaluator:
    """Shanten of a hand over the given shapes: shapes of sets and a pair from the suit-key
    tables of :mod:`runtime.shanten`, the others as each counts itself (``Shape.shanten``)."""

    def __init__(self, shapes: Sequence[Shape]) -> None:
        self.shapes = tuple(shapes)
        self.standard = [s.standard_sets for s in shapes if s.standard_sets is not None]
        self.special = [s for s in shapes if s.standard_sets is None]
        self._tag = _TAG_OF.setdefault(self.shapes, len(_TAG_OF))

    def _special(self, counts: Sequence[int], melds: int) -> int:
        best = NEVER
        for shape in self.special:
            value = shape.shanten(counts, melds, standard_shanten)
            if value is not None and value < best:
                best = value
        return best

    def shanten(self, counts: Sequence[int], melds: int, keys: Sequence[int] | None = None) -> int:
        if keys is None:
            keys = suit_keys(counts)
        if not self.special:
            return self._standard(keys, melds)
        memo = self._memo(melds, keys)
        hit = _SHANTEN.get(memo)
        if hit is None:
            hit = min(self._special(counts, melds), self._standard(keys, melds))
            if memo >= 0:
                if len(_SHANTEN) >= _MEMO_MOST:
                    _SHANTEN.clear()
                _SHANTEN[memo] = hit
        return hit

    def _memo(self, melds: int, keys: Sequence[int]) -> int:
        """The shapes, the declared sets (under 16) and the suit keys (each under 2**22)
        as one integer; -1 (kept nowhere) for more declared sets than any hand makes."""
        if not 0 <= melds < 16:
            return -1
        return ((((self._tag << 4 | melds) << 22 | keys[0]) << 22 | keys[1]) << 22 | keys[2]) << 22 | keys[3]

    def _standard(self, keys: Sequence[int], melds: int) -> int:
        best = NEVER
        if self.standard:
            for sets in self.standard:
                if sets >= melds:
                    value = standard_shanten_keys(keys, sets - melds)
                    if value < best:
                        best = value
        return best

    def discards(self, counts: list[int], melds: int, kinds: Sequence[int],
                 keys: Sequence[int] | None = None) -> dict[int, int]:
        """Shanten after discarding one tile of each kind in ``kinds`` (see :meth:`values`)."""
        return dict(zip(kinds, self.values(counts, melds, kinds, keys)))

    def values(self, counts: list[int], melds: int, kinds: Sequence[int],
               keys: Sequence[int] | None = None) -> list[int]:
        """Shanten after discarding one tile of each kind in ``kinds``, in that order.

        Standard shapes first: per suit, one cached row (the shanten after discarding each
        offset of that suit, against the merged table of the other suits); each other shape
        only when its bound (a discard never lowers its shanten below the value for the
        whole hand) could still beat the best standard result, from its own closed form
        (``Shape.discard_shanten``).
        """
        out = [NEVER] * len(kinds)
        needs = [sets - melds for sets in self.standard if sets >= melds]
        if needs:
            if keys is None:
                keys = suit_keys(counts)
            get = _KEY_TABLE.get
            t0, t1, t2, t3 = get(keys[0]), get(keys[1]), get(keys[2]), get(keys[3])
            if t0 is None or t1 is None or t2 is None or t3 is None:
                t0, t1, t2, t3 = (table_of(key) for key in keys)
            rests = rests_of((t0, t1, t2, t3))
            drops: list[Any] = [None, None, None, None]
            evals = _EVAL_IDS
            for i, k in enumerate(kinds):
                suit = SUIT_OF[k]
                row = drops[suit]
                if row is None:
                    row = drops[suit] = _DROPS.get(keys[suit]) or suit_drops(keys[suit])
                new = row[k - 9 * suit]
                rest = rests[suit]
                best = NEVER
                for need in needs:
                    value = evals.get((rest << 16 | new) << 3 | need)
                    if value is None:
                        value = eval_ids(rest, new, need)
                    if value < best:
                        best = value
                out[i] = best
        if not self.special:
            return out
        lowest = min(out, default=NEVER)
        for shape in self.special:
            now = shape.shanten(counts, melds, standard_shanten)
            if now is None or now > lowest:
                continue  # no discard takes this shape below the best standard result
            row = shape.discard_shanten(counts, kinds, melds, standard_shanten)
            if row is not None:
                out = [a if a < b else b for a, b in zip(out, row)]
        return out

    def useful_after(self, counts: list[int], melds: int, kinds: Sequence[int], values: Sequence[int],
                     keys: Sequence[int] | None = None) -> list[int]:
        """For each discard of ``kinds`` (held), leaving the shanten in ``values`` (as
        :meth:`values` gives it): the kinds whose draw would then lower the shanten, as a
        34-bit mask (no kind the hand would then hold four of).

        Standard shapes: per discard, the merged tables of the other suits and one cached
        row of the suit's table after each draw, per suit (the discard's own suit from its
        key less the discard). Another shape only after a discard that leaves it at the
        best shanten: a draw lowers a shanten by one at most, so only those shapes can
        give a useful draw the standard shapes miss.
        """
        out = [0] * len(kinds)
        needs = [sets - melds for sets in self.standard if sets >= melds]
        if needs:
            if keys is None:
                keys = suit_keys(counts)
            tabs = [table_of(key) for key in keys]
            one = needs[0] if len(needs) == 1 else -1
            for i, k in enumerate(kinds):
                target = values[i]
                suit = SUIT_OF[k]
                after = list(keys)
                after[suit] -= WEIGHT[k]
                cache_key = (after[0], after[1], after[2], after[3], target, *needs)
                hit = _USEFUL.get(cache_key)
                if hit is not None:
                    out[i] = hit
                    continue
                changed = list(tabs)
                changed[suit] = table_of(after[suit])
                rests = rests_of(changed)
                mask = 0
                for s in range(4):
                    rest = rests[s]
                    base = 9 * s
                    for offset, new in enumerate(suit_adds(after[s])):
                        if new < 0:
                            continue
                        if one >= 0:
                            value = eval_ids(rest, new, one)
                        else:
                            value = min(eval_ids(rest, new, need) for need in needs)
                        if value < target:
                            mask |= 1 << (base + offset)
                if len(_USEFUL) > 200_000:
                    _USEFUL.clear()
                _USEFUL[cache_key] = mask
                out[i] = mask
        for shape in self.special:
            row = shape.discard_shanten(counts, kinds, melds, standard_shanten)
            if row is None:
                continue
            for i, k in enumerate(kinds):
                if row[i] > values[i]:
                    continue
                counts[k] -= 1
                drawn = shape.draw_shanten(counts, melds, standard_shanten, standard_draws)
                counts[k] += 1
                if drawn is None:
                    continue
                mask = out[i]
                for j, value in enumerate(drawn):
                    if value < values[i]:
                        mask |= 1 << j
                out[i] = mask
        return out

    def draws(self, counts: list[int], melds: int, keys: Sequence[int] | None = None) -> list[int]:
        """The shanten after drawing one tile of each of the 34 kinds (:data:`NEVER` for a
        kind held four times: there is no fifth).

        Standard shapes: per suit, one cached row of the suit's table after each draw,
        against the merged table of the other suits. Another shape is counted only where
        it could beat that (a draw lowers a shanten by one at most), tile by tile.
        """
        if keys is None:
            keys = suit_keys(counts)
        memo = self._memo(melds, keys)
        hit = _DRAWS.get(memo)
        if hit is not None:
            return [v - 1 for v in hit]
        out = [NEVER] * 34
        needs = [sets - melds for sets in self.standard if sets >= melds]
        if needs:
            rests = rests_of([table_of(key) for key in keys])
            for suit in range(4):
                base = 9 * suit
                rest = rests[suit]
                for offset, new in enumerate(suit_adds(keys[suit])):
                    if new >= 0:
                        out[base + offset] = min(eval_ids(rest, new, need) for need in needs)
        worst = max((v for v in out if v != NEVER), default=NEVER)
        for shape in self.special:
            now = shape.shanten(counts, melds, standard_shanten)
            if now is None or now - 1 >= worst:
                continue  # a draw lowers its shanten by one at most: it beats the standard shapes after none
            row = shape.draw_shanten(counts, melds, standard_shanten, standard_draws)
            if row is not None:
                out = [a if a < b else b for a, b in zip(out, row)]
        if memo >= 0:
            if len(_DRAWS) >= _MEMO_MOST:
                _DRAWS.clear()
            _DRAWS[memo] = bytes(v + 1 for v in out)
        return out


# ------------------------------------------------------------------ records

@dataclass(slots=True, frozen=True)
class View:
    """One player's view of a deal: what the analysis reads.

    ``concealed``: the kinds in hand; ``melds``: the player's declared sets; ``visible``:
    34 counts of the tiles on the table (every discard and every declared set, the
    player's own included), or None when only the player's own tiles are known (the
    player's sets are then the only tiles on the table).
    """

    concealed: tuple[int, ...]
    melds: tuple[Meld, ...] = ()
    flowers: tuple[int, ...] = ()
    seat_wind: int = 27
    round_wind: int = 27
    missing_suit: str | None = None
    visible: tuple[int, ...] | None = None

    @classmethod
    def of_seat(cls, deal: Deal, seat: int) -> View:
        """What ``seat`` sees of ``deal``: its own hand, sets and flowers, and the table."""
        kinds = deal.kinds
        melds = tuple(Meld(m.kind, tuple(sorted(kinds[t] for t in m.ids)), m.concealed) for m in deal.melds[seat])
        return cls(tuple(sorted(kinds[t] for t in deal.hands[seat])), melds,
                   tuple(kinds[t] for t in deal.flowers[seat]), deal.seat_wind(seat), deal.variant.table.round_wind,
                   deal.missing[seat], tuple(deal.visible))

    def table(self) -> list[int]:
        """34 counts of the tiles on the table (the player's own sets at least)."""
        if self.visible is not None:
            return list(self.visible)
        out = [0] * 34
        for m in self.melds:
            for k in m.tiles:
                out[k] += 1
        return out

    def counts(self) -> list[int]:
        """34 counts of the concealed tiles."""
        out = [0] * 34
        for k in self.concealed:
            out[k] += 1
        return out


@dataclass(slots=True, frozen=True)
class WinValue:
    """What a win would be worth, as ``cardavia score`` gives it: ``valid`` and ``total``,
    the patterns, and for a refused win ``reason`` (the scorer's words) with ``counted``,
    the part of the total that counts toward the minimum (``minimum``: the variant's), so
    that a message can say "1 faan counted toward it, 3 needed" in any language. A
    refusal by one of the variant's ``valid_when`` rules has no patterns: ``reason`` is
    that rule's text."""

    valid: bool
    total: int
    fans: tuple[Fan, ...]
    counted: int
    minimum: int
    reason: str | None

    @property
    def below_minimum(self) -> bool:
        """A winning shape refused only because it is worth too little."""
        return not self.valid and bool(self.fans) and self.counted < self.minimum

    def as_json(self) -> dict[str, Any]:
        return {"valid": self.valid, "total": self.total}


@dataclass(slots=True, frozen=True)
class Wait:
    """A tile that completes the hand: how many copies the player has not seen, and what a
    win on it is worth on a discard and self-drawn."""

    tile: int
    unseen: int
    discard: WinValue
    self_drawn: WinValue

    def as_json(self) -> dict[str, Any]:
        """The contract's form (``cardavia waits --jsonl``)."""
        return {"tile": CODES[self.tile], "discard": self.discard.as_json(), "self_drawn": self.self_drawn.as_json()}


@dataclass(slots=True, frozen=True)
class Discard:
    """One discard: the shanten it leaves, and the kinds that would then lower it (the
    waits, when it leaves the hand ready) with their unseen copies in all."""

    tile: int
    shanten: int
    useful: tuple[int, ...]
    unseen: int


@dataclass(slots=True, frozen=True)
class Analysis:
    """Everything :meth:`Analyst.analyse` found for one view.

    A hand one tile short fills ``waits`` (when ready) and ``useful`` (the kinds that would
    lower its shanten, with ``unseen`` copies of them); a hand holding its extra tile fills
    ``discards`` (best first: lowest shanten, then most unseen useful tiles) and, when it
    is a complete shape, ``complete``: the self-drawn win it holds (valid or not, and why).
    """

    shanten: int
    waits: tuple[Wait, ...] = ()
    useful: tuple[int, ...] = ()
    unseen: int = 0
    discards: tuple[Discard, ...] = ()
    complete: WinValue | None = None

    @property
    def ready(self) -> bool:
        return bool(self.waits)


# ------------------------------------------------------------------ the analyst

class Analyst:
    """The analysis of hands in one compiled variant; its tables are shared by every view."""

    def __init__(self, variant: CompiledVariant) -> None:
        self.variant = variant
        self.scorer = variant.scorer
        self.shapes = variant.scoring.shapes
        self.minimum = variant.scoring.minimum
        self.evaluator = Evaluator(self.shapes)
        self.hand_size = variant.scorer.hand_size
        self.copies = list(variant.scorer.copies[:34])
        self.playable_mask = sum(1 << k for k in variant.scorer.playable if k < 34)

    # ---------------------------------------------------------- helpers

    def extra(self, view: View) -> bool:
        """Whether the hand holds its extra tile (it must discard, or it may be complete)."""
        return len(view.concealed) + 3 * len(view.melds) == self.hand_size

    @staticmethod
    def _missing_mask(view: View) -> int:
        if view.missing_suit is None:
            return 0
        return 0x1FF << 9 * SUITS.index(view.missing_suit)

    def _split(self, view: View, counts: list[int]) -> tuple[list[int], int]:
        """(the counts without the missing suit's tiles, how many of those the hand holds)."""
        mask = self._missing_mask(view)
        if not mask:
            return counts, 0
        good = list(counts)
        junk = 0
        for k in kinds_in(mask):
            junk += good[k]
            good[k] = 0
        return good, junk

    def _exhausted(self, view: View, counts: Sequence[int]) -> int:
        """The kinds of which the hand (``counts``) and its sets hold every copy, as a mask."""
        out = 0
        held = list(counts)
        for m in view.melds:
            for k in m.tiles:
                held[k] += 1
        for k in range(34):
            if held[k] >= self.copies[k]:
                out |= 1 << k
        return out

    def unseen(self, view: View) -> list[int]:
        """34 counts: the copies of each kind the player has not seen (neither in hand nor on the table)."""
        table = view.table()
        own = view.counts()
        return [max(0, c - t - o) for c, t, o in zip(self.copies, table, own)]

    def _shanten(self, good: list[int], junk: int, melds: int, extra: bool) -> int:
        value = self.evaluator.shanten(good, melds)
        if junk:
            value = max(value, junk - extra)
        return value

    # ---------------------------------------------------------- the questions

    def shanten(self, view: View) -> int:
        """Tiles away from ready (0: ready, -1: a complete shape), dead wood counted."""
        good, junk = self._split(view, view.counts())
        return self._shanten(good, junk, len(view.melds), self.extra(view))

    def win_value(self, view: View, tile: int, self_drawn: bool, on_table: bool = False) -> WinValue:
        """What winning on ``tile`` is worth (the hand one tile short of it). ``on_table``:
        the tile is a discard already on the table (so counted in ``view.visible``). The
        win is the last tile of its kind when every other copy is on the table."""
        table = view.table()
        last = table[tile] - on_table == self.copies[tile] - 1
        hand = Hand(view.concealed, view.melds, tile, view.flowers, self_drawn=self_drawn,
                    seat_wind=view.seat_wind, round_wind=view.round_wind, last_tile_of_kind=last,
                    missing_suit=view.missing_suit)
        valid, total, ev, _, reason = self.scorer.evaluate_hand(hand)
        if ev is None:
            return WinValue(valid, total, (), 0, self.minimum, reason)
        return WinValue(valid, total, tuple(ev.fans), ev.minimum_points, self.minimum, reason)

    def wait_kinds(self, view: View) -> list[int]:
        """The kinds completing a hand one tile short into a winning shape of the variant,
        ascending; never a kind the hand and its sets hold every copy of."""
        counts = view.counts()
        held = 0
        for k in view.concealed:
            held |= 1 << k
        mask = held_wait_mask(counts, held, len(view.melds), self.shapes) & self.playable_mask
        if not mask:
            return []
        for m in view.melds:
            for k in m.tiles:
                counts[k] += 1
        return [k for k in kinds_in(mask) if counts[k] < self.copies[k]]

    def waits(self, view: View) -> tuple[Wait, ...]:
        """Every wait of a hand one tile short, in tile-code order, with its values."""
        kinds = self.wait_kinds(view)
        if not kinds:
            return ()
        unseen = self.unseen(view)
        return tuple(Wait(k, unseen[k], self.win_value(view, k, False), self.win_value(view, k, True))
                     for k in kinds)

    def useful(self, view: View) -> tuple[int, ...]:
        """The kinds whose draw would lower the shanten of a hand one tile short."""
        counts = view.counts()
        good, junk = self._split(view, counts)
        return tuple(self._useful(counts, good, junk, len(view.melds), self._shanten(good, junk, len(view.melds),
                                                                                     False), view))

    def _useful(self, counts: list[int], good: list[int], junk: int, melds: int, now: int, view: View) -> list[int]:
        if now == NEVER:
            return []
        avoid = self._missing_mask(view) | self._exhausted(view, counts)
        if now == 0:  # ready: the useful draws are the waits, from the compiler's one answer
            held = 0
            for k in range(34):
                if counts[k]:
                    held |= 1 << k
            mask = held_wait_mask(counts, held, melds, self.shapes) & self.playable_mask & ~avoid
            return kinds_in(mask)
        after = self.evaluator.draws(good, melds)
        out = []
        playable = self.playable_mask & ~avoid
        for k in range(34):
            if playable >> k & 1:
                value = after[k]
                if junk and value < junk - 1:
                    value = junk - 1
                if value < now:
                    out.append(k)
        return out

    def discards(self, view: View, allowed: Iterable[int] | None = None) -> tuple[Discard, ...]:
        """Each discard of a hand holding its extra tile (``allowed``: the kinds it may
        discard, default every kind held), best first: the lowest shanten left, then the
        most unseen useful tiles, then tile-code order."""
        counts = view.counts()
        melds = len(view.melds)
        kinds = sorted({k for k in view.concealed} if allowed is None
                       else {k for k in allowed if counts[k]})
        if not kinds:
            return ()
        good, junk = self._split(view, counts)
        if good is counts:
            good = list(counts)  # both change below, one tile at a time
        avoid = self._missing_mask(view)
        if not junk:
            values = self.evaluator.values(good, melds, kinds)
        else:
            values = []
            for k in kinds:
                counts[k] -= 1
                left, dead = self._split(view, counts)
                values.append(self._shanten(left, dead, melds, False))
                counts[k] += 1
        unseen = self.unseen(view)
        out = []
        if not junk:
            # The tables give each discard's useful draws at once; a discard leaving the hand
            # ready takes its waits from the compiler's one answer, as ``useful`` does.
            masks = self.evaluator.useful_after(good, melds, kinds, values)
            for k, value, mask in zip(kinds, values, masks):
                counts[k] -= 1
                if value == 0 or value >= NEVER:
                    useful = self._useful(counts, counts, 0, melds, value, view)
                else:
                    useful = kinds_in(mask & self.playable_mask & ~avoid & ~self._exhausted(view, counts))
                counts[k] += 1
                out.append(Discard(k, value, tuple(useful), sum(unseen[u] for u in useful)))
            out.sort(key=lambda d: (d.shanten, -d.unseen, d.tile))
            return tuple(out)
        for k, value in zip(kinds, values):
            counts[k] -= 1
            if avoid >> k & 1:
                left, dead = good, junk - 1
            else:
                good[k] -= 1
                left, dead = good, junk
            useful = self._useful(counts, left, dead, melds, value, view)
            if not avoid >> k & 1:
                good[k] += 1
            counts[k] += 1
            out.append(Discard(k, value, tuple(useful), sum(unseen[u] for u in useful)))
        out.sort(key=lambda d: (d.shanten, -d.unseen, d.tile))
        return tuple(out)

    def complete_value(self, view: View, tile: int) -> WinValue | None:
        """The self-drawn win a hand holding its extra tile makes with ``tile`` as the
        winning tile, or None when it is no winning shape."""
        counts = view.counts()
        if not counts[tile] or not completes(counts, len(view.melds), self.shapes):
            return None
        concealed = list(view.concealed)
        concealed.remove(tile)
        return self.win_value(View(tuple(concealed), view.melds, view.flowers, view.seat_wind, view.round_wind,
                                   view.missing_suit, view.visible), tile, True)

    def analyse(self, view: View, allowed: Iterable[int] | None = None, drawn: int | None = None) -> Analysis:
        """The whole analysis of a view (see :class:`Analysis`). ``allowed``: the kinds the
        hand may discard now; ``drawn``: the kind just drawn (the winning tile of a
        complete hand; default the last concealed tile)."""
        counts = view.counts()
        good, junk = self._split(view, counts)
        melds = len(view.melds)
        if self.extra(view):
            shanten = self._shanten(good, junk, melds, True)
            complete = None
            if view.concealed:
                complete = self.complete_value(view, drawn if drawn is not None else view.concealed[-1])
            return Analysis(shanten, discards=self.discards(view, allowed), complete=complete)
        shanten = self._shanten(good, junk, melds, False)
        waits = self.waits(view)
        useful = self._useful(counts, good, junk, melds, shanten, view)
        unseen = self.unseen(view)
        return Analysis(shanten, waits, tuple(useful), sum(unseen[k] for k in useful))


#: The variant's analyst (made once per compiled variant and kept).
analyst: PerVariant[Analyst] = PerVariant(Analyst)

"""One deal of any compiled variant, as a state machine.

The deal asks for decisions (:meth:`Deal.pending`), each with its legal options computed
here from the compiled variant (``tiles``, ``table``, ``play``, ``scoring``, ``settlement``),
and applies the answers (:meth:`Deal.act`) after checking them: an answer that is not
among the options raises :class:`IllegalAction` and leaves the state unchanged.

Phases: ``missing_suit`` (when the variant declares one) -> ``turn`` (the seat to act holds
a drawn tile, or must discard after a claim) -> ``claim`` (every seat that can claim a
discard answers; all answers are collected, then resolved win > pung/kong > chow in seat
order after the discarder) or ``rob`` (seats that can win on a tile added to a kong) ->
... -> ``over``. Every change is an event naming physical tile ids; the deal is fully
determined by (variant, wall, dealer, decisions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardavia.compiler.model.hand import Hand, HandError, Meld
from cardavia.compiler.model.tiles import CODES, SUITS
from cardavia.compiler.scoring.scorer import ScoreResult
from cardavia.compiler.shapes.suits import kinds_in
from cardavia.compiler.shapes.waits import held_wait_mask

from . import exchange as exchanges
from .actions import Action, Decision, IllegalAction
from .payments import Payment, PlayerFacts, deltas, exhausted_payments, kong_payments, win_payments
from .shanten import EMPTY_KEYS, SUIT_OF, WEIGHT

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant

_WINNER_WORDS = {1: "one_won", 2: "two_won", 3: "three_won"}

#: Options are immutable: one object per discard kind is enough.
_DISCARDS = tuple(Action("discard", tile=k) for k in range(34))
_WIN = Action("win")
_PASS = Action("pass")
#: For each suited kind, the pairs of kinds from hand that chow it.
_CHOW_PAIRS = tuple(tuple((k + a, k + b) for a, b in ((-2, -1), (-1, 1), (1, 2)) if k % 9 + a >= 0 and k % 9 + b <= 8)
                    if k < 27 else () for k in range(34))

#: A possible win: the score, the event flags it was scored with (those its event and
#: record show) and the events of the deal it was scored with (``Hand.extra["deal"]``).
_Win = tuple[ScoreResult, dict[str, bool], dict[str, Any]]


@dataclass(slots=True)
class MeldRec:
    """A declared set on the table: physical ids, and where a claimed tile came from."""

    kind: str  # chow, pung, kong
    ids: list[int]
    concealed: bool = False
    from_seat: int | None = None
    claimed: int | None = None
    kong: str | None = None  # exposed, added, concealed

    def to_json(self, codes: Sequence[str]) -> dict[str, Any]:
        return {"type": self.kind, "ids": list(self.ids), "tiles": [codes[i] for i in self.ids],
                "concealed": self.concealed, "from": self.from_seat, "claimed": self.claimed, "kong": self.kong}


@dataclass(slots=True, frozen=True)
class WinRec:
    seat: int
    from_seat: int | None
    tile: int
    id: int
    result: ScoreResult
    flags: dict[str, bool]
    payments: list[Payment] = field(default_factory=list)
    deal: dict[str, Any] = field(default_factory=dict)  # the events of the deal it was scored with

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "from": self.from_seat, "total": self.result.total,
                "fans": [f.as_json() for f in self.result.fans], "tile": CODES[self.tile], "id": self.id,
                **{k: v for k, v in self.flags.items() if v},
                "payments": [p.to_json() for p in self.payments]}


# Not frozen, like Decision: one is made for every discard that someone can claim.
@dataclass(slots=True)
class _Claim:
    kind: str  # "claim" (a discard) or "rob" (a tile added to a kong)
    seat: int  # the discarder, or the player adding to a kong
    id: int
    tile: int
    decisions: dict[int, Decision]
    results: dict[int, _Win]
    responses: dict[int, Action] = field(default_factory=dict)
    meld: MeldRec | None = None


#: A seat's counts (one byte per kind) -> b"1" where held, b"0" where not: read backwards in
#: base 2, the kinds held as a mask.
_HELD = bytes([0x30] + [0x31] * 255)
#: The same, b"1" only where all four copies are held (a kind that is then never a wait).
_ALL_FOUR = bytes(0x31 if c >= 4 else 0x30 for c in range(256))


class Deal:
    """The state of one deal; see the module docstring for the phases."""

    def __init__(self, variant: CompiledVariant, wall: Sequence[int], dealer: int = 0, repeats: int = 0) -> None:
        self.variant = variant
        self.kinds: tuple[int, ...] = variant.tiles.kinds
        self.codes = [CODES[k] for k in self.kinds]
        self.n = variant.table.players
        if not 0 <= dealer < self.n:
            raise ValueError(f"dealer must be a seat 0-{self.n - 1}, got {dealer!r}")
        self.dealer = dealer
        self.repeats = repeats  # how many deals in a row the dealer has kept the deal
        self.play = variant.play
        self.scorer = variant.scorer
        self.shapes = variant.scoring.shapes
        self.settlement = variant.settlement
        self.copies = [0] * 42
        for k in self.kinds:
            self.copies[k] += 1
        self.playable = sorted({k for k in self.kinds if k < 34})
        ms = self.play.missing_suit
        self.blocks: frozenset[str] = frozenset(ms.get("blocks", ())) if ms else frozenset()
        self.discard_first = bool(ms.get("discard_first", True)) if ms else False

        self.wall = list(wall)
        self.front = 0
        self.back = len(self.wall)
        self.hands: list[list[int]] = [[] for _ in range(self.n)]
        self.counts: list[list[int]] = [[0] * 34 for _ in range(self.n)]
        self.melds: list[list[MeldRec]] = [[] for _ in range(self.n)]
        self.flowers: list[list[int]] = [[] for _ in range(self.n)]
        self.rivers: list[list[int]] = [[] for _ in range(self.n)]
        self.missing: list[str | None] = [None] * self.n
        self._missing_index: list[int | None] = [None] * self.n  # the missing suit as 0-2
        self._after = [tuple((seat + i) % self.n for i in range(1, self.n)) for seat in range(self.n)]
        self._chows = self.play.chow == "previous_player" and "chow" not in self.blocks
        self.won = [False] * self.n
        # Who has left the deal: a winner with after_win continue or end_deal. With stay (Blood
        # River) a winner stays in: its winning tiles are laid aside (``aside``), its hand is
        # locked, and it may win again.
        self.stay = self.play.after_win == "stay"
        self.out = [False] * self.n
        self.aside: list[list[int]] = [[] for _ in range(self.n)]
        # The events of the deal that wins may read: a claim or a kong ends the first turns;
        # each seat's discards; the seat whose discard is being claimed.
        self.interrupted = False
        self.discards = [0] * self.n
        self._discarder: int | None = None
        # What the last kong collected, and (for the discard made right after its replacement
        # draw) the same, which a win on that discard may take (settlement.kong_transfer).
        self._last_kong: list[Payment] = []
        self._kong_discard: list[Payment] = []
        #: Per seat, the tiles that completed its hand but were refused: below the minimum.
        self.refused = [0] * self.n
        self.visible = [0] * 34
        self.wins: list[WinRec] = []
        self.payments: list[Payment] = []
        self.kong_paid: list[Payment] = []
        self.events: list[dict[str, Any]] = []
        self._record: list[tuple[int, Action, int | None]] = []  # (seat, option, physical id)
        self.phase = "deal"
        self.turn = dealer
        self.drawn: int | None = None
        self.after_kong = False
        self.after_flower = False  # the tile just drawn replaced a flower
        self.after_claim = False
        self.end: str | None = None
        self.claim: _Claim | None = None
        self._turn_decision: Decision | None = None
        self._turn_discards: frozenset[int] = frozenset()
        self._turn_win: _Win | None = None
        self._ms_order: list[int] = []
        # The exchange before play: each seat's decision, and the tiles each has chosen.
        self._exchange: dict[int, Decision] = {}
        self._passing: dict[int, tuple[int, ...]] = {}
        # Each seat's four suit keys (base-5 counts per suit, see runtime.shanten), kept up to date
        # with ``counts``; the kinds that would complete a seat's hand, cached for the hand they
        # were computed for: (keys and number of sets) -> kinds.
        self.keys: list[list[int]] = [list(EMPTY_KEYS) for _ in range(self.n)]
        self._playable_mask = sum(1 << k for k in self.playable)
        # Each seat's waits with the hand they were computed for (suit keys and number of sets):
        # a hand that comes back (the drawn tile discarded) finds them again.
        self._waits: list[tuple[tuple[int, ...], frozenset[int]] | None] = [None] * self.n
        kongs = self.play.kongs
        self._kong_concealed = bool(kongs.get("concealed", True))
        self._kong_added = bool(kongs.get("added", True))
        self._kong_exposed = bool(kongs.get("exposed", True))
        self._block_win = "win" in self.blocks
        self._block_pung = "pung" in self.blocks
        self._block_kong = "kong" in self.blocks
        self._start()

    # ------------------------------------------------------------------ queries

    @property
    def over(self) -> bool:
        return self.end is not None

    def wall_left(self) -> int:
        return self.back - self.front

    def seat_wind(self, seat: int) -> int:
        return 27 + (seat - self.dealer) % self.n

    def order_after(self, seat: int) -> list[int]:
        return list(self._after[seat])

    def next_active(self, seat: int) -> int | None:
        out = self.out
        for s in self._after[seat]:
            if not out[s]:
                return s
        return None

    def holds_missing(self, seat: int) -> bool:
        suit = self._missing_index[seat]
        return suit is not None and self.keys[seat][suit] != 0

    def _missing_kind(self, seat: int, kind: int) -> bool:
        suit = self._missing_index[seat]
        return suit is not None and kind < 27 and kind // 9 == suit

    @property
    def record(self) -> list[dict[str, Any]]:
        """The decisions taken, in order, as scenario actions (with the physical id of each discard)."""
        out = []
        for seat, option, tid in self._record:
            entry = {"seat": seat, **option.to_json()}
            if tid is not None:
                entry["id"] = tid
            out.append(entry)
        return out

    def pending(self) -> list[Decision]:
        """The decisions waiting for an answer (several only while a discard is being claimed)."""
        if self.phase == "exchange":
            return [d for s, d in self._exchange.items() if s not in self._passing]
        if self.phase == "missing_suit":
            seat = self._ms_order[0]
            return [Decision(seat, "missing_suit", [Action("missing_suit", suit=s) for s in SUITS])]
        if self.phase == "turn":
            assert self._turn_decision is not None
            return [self._turn_decision]
        if self.phase in ("claim", "rob"):
            assert self.claim is not None
            return [d for s, d in self.claim.decisions.items() if s not in self.claim.responses]
        return []

    def decision_for(self, seat: int) -> Decision | None:
        return next((d for d in self.pending() if d.seat == seat), None)

    # ------------------------------------------------------------------ acting

    def act(self, seat: int, action: Action) -> None:
        """Apply ``seat``'s answer, or raise :class:`IllegalAction` with the state unchanged."""
        if self.over:
            raise IllegalAction(f"the deal is over ({self.end}); seat {seat} cannot {action.label()}")
        decision = self._turn_decision
        if decision is None or decision.seat != seat:
            claim = self.claim
            decision = claim.decisions.get(seat) if claim is not None and seat not in claim.responses else None
            if decision is None:
                decision = self.decision_for(seat)
            if decision is None:
                asked = "; ".join(d.describe() for d in self.pending())
                raise IllegalAction(f"seat {seat} is not asked to decide now ({asked})")
        option: Action | None
        if decision is self._turn_decision and action.do == "discard" and action.tile in self._turn_discards:
            option = _DISCARDS[action.tile]  # the option itself (a set lookup)
        else:
            option = decision.find(action)
            if option is None:
                raise IllegalAction(f"{action.label()} is not a legal answer: {decision.describe()}")
        # The ignores below: an option names what its ``do`` needs (a discard or kong its tile, a
        # missing_suit its suit), which Action's optional fields cannot say, and this path runs
        # once per decision, so it does not test them again.
        tid = None
        if action.do == "discard":
            tid = self._discard_id(seat, option.tile, action.id)  # type: ignore[arg-type]  # a discard: tile set
        self._record.append((seat, option, tid))
        if decision.kind == "exchange":
            self._passing[seat] = option.tiles
            if len(self._passing) == len(self._exchange):
                self._apply_exchange()
        elif decision.kind == "missing_suit":
            self._declare_missing(seat, option.suit)  # type: ignore[arg-type]  # a missing_suit: suit set
        elif decision.kind == "turn":
            if option.do == "discard":
                self._discard(seat, tid)  # type: ignore[arg-type]  # set above for a discard
            elif option.do == "kong":
                self._own_kong(seat, option.tile)  # type: ignore[arg-type]  # a kong: tile set
            else:
                self._self_drawn_win(seat)
        else:
            assert self.claim is not None
            self.claim.responses[seat] = option
            if len(self.claim.responses) == len(self.claim.decisions):
                self._resolve()

    def _discard_id(self, seat: int, kind: int, tid: int | None) -> int:
        hand = self.hands[seat]
        if tid is not None:
            if tid not in hand:
                raise IllegalAction(f"tile id {tid} is not in seat {seat}'s hand")
            if self.kinds[tid] != kind:
                raise IllegalAction(f"tile id {tid} is {self.codes[tid]}, not {CODES[kind]}")
            return tid
        if self.drawn is not None and self.kinds[self.drawn] == kind and self.drawn in hand:
            return self.drawn
        return min(t for t in hand if self.kinds[t] == kind)

    # ------------------------------------------------------------------ the deal

    def _event(self, **fields: Any) -> None:
        self.events.append(fields)

    def _take(self, back: bool) -> int | None:
        if self.front >= self.back:
            return None
        if back:
            self.back -= 1
            return self.wall[self.back]
        self.front += 1
        return self.wall[self.front - 1]

    def _add(self, seat: int, tid: int) -> None:
        kind = self.kinds[tid]
        self.hands[seat].append(tid)
        self.counts[seat][kind] += 1
        self.keys[seat][SUIT_OF[kind]] += WEIGHT[kind]

    def _remove(self, seat: int, tid: int) -> None:
        kind = self.kinds[tid]
        self.hands[seat].remove(tid)
        self.counts[seat][kind] -= 1
        self.keys[seat][SUIT_OF[kind]] -= WEIGHT[kind]

    def waits(self, seat: int) -> frozenset[int]:
        """The kinds that would complete the seat's hand as it is (a hand waiting for a tile).

        Cached for the hand it was computed for (its suit keys and number of sets): a seat's
        waits are worked out once per change of its hand, by the compiler's one answer for
        every shape (``compiler.shapes.waits``), less the kinds it already holds four of.
        """
        keys = self.keys[seat]
        state = (keys[0], keys[1], keys[2], keys[3], len(self.melds[seat]))
        hit = self._waits[seat]
        if hit is not None and hit[0] == state:
            return hit[1]
        waits = self._compute_waits(seat)
        self._waits[seat] = (state, waits)
        return waits

    def _compute_waits(self, seat: int) -> frozenset[int]:
        counts = bytes(self.counts[seat])
        held = int(counts.translate(_HELD)[::-1], 2)
        found = held_wait_mask(counts, held, len(self.melds[seat]), self.shapes)
        if found:
            found &= self._playable_mask & ~int(counts.translate(_ALL_FOUR)[::-1], 2)
        return frozenset(kinds_in(found))

    def _completes(self, seat: int, kind: int | None) -> bool:
        """Whether the seat's hand plus ``kind`` (or, when None, the hand holding its drawn tile) wins."""
        if kind is not None:
            return kind in self.waits(seat)
        assert self.drawn is not None
        kind = self.kinds[self.drawn]
        counts = self.counts[seat]
        keys = self.keys[seat]
        suit = SUIT_OF[kind]
        counts[kind] -= 1
        keys[suit] -= WEIGHT[kind]
        try:
            return kind in self.waits(seat)  # the hand before the draw: usually cached already
        finally:
            counts[kind] += 1
            keys[suit] += WEIGHT[kind]

    def _ids_of(self, seat: int, kind: int, n: int) -> list[int]:
        ids = sorted(t for t in self.hands[seat] if self.kinds[t] == kind)
        return ids[:n]

    def _draw(self, seat: int, back: bool) -> bool:
        """Draw one tile, exposing flowers and replacing them from the end; False: the wall ran out."""
        events = self.events
        self.after_flower = False
        while True:
            if self.front >= self.back:
                return False
            if back:
                self.back -= 1
                tid = self.wall[self.back]
            else:
                tid = self.wall[self.front]
                self.front += 1
            code = self.codes[tid]
            events.append({"type": "draw", "seat": seat, "tile": code, "id": tid, "end": "back" if back else "front"})
            if self.kinds[tid] >= 34:
                self.flowers[seat].append(tid)
                events.append({"type": "flower", "seat": seat, "tile": code, "id": tid})
                back = self.after_flower = True
                continue
            self._add(seat, tid)
            self.drawn = tid
            return True

    def _start(self) -> None:
        table = self.variant.table
        seats = [(self.dealer + i) % self.n for i in range(self.n)]
        for seat in seats:
            ids = self.wall[self.front:self.front + table.other_tiles]  # the compiler checks the deal fits
            self.front += len(ids)
            self.hands[seat] = ids
            self._event(type="deal", seat=seat, ids=list(ids), tiles=[self.codes[t] for t in ids])
        extra = None
        extra_replaced = False
        for _ in range(table.dealer_tiles - table.other_tiles):
            extra = self._take(False)
            assert extra is not None
            self.hands[self.dealer].append(extra)
            self._event(type="draw", seat=self.dealer, tile=self.codes[extra], id=extra, end="front")
        for seat in seats:
            hand = self.hands[seat]
            for tid in hand:
                kind = self.kinds[tid]
                if kind < 34:
                    self.counts[seat][kind] += 1
                    self.keys[seat][SUIT_OF[kind]] += WEIGHT[kind]
            for tid in [t for t in hand if self.kinds[t] >= 34]:
                hand.remove(tid)
                self.flowers[seat].append(tid)
                self._event(type="flower", seat=seat, tile=self.codes[tid], id=tid)
                if not self._draw(seat, back=True):
                    self._finish("exhausted")
                    return
                if tid == extra:
                    extra = self.drawn  # the replacement of the dealer's 14th tile counts as just drawn
                    extra_replaced = True
        self.drawn = extra
        self.after_flower = extra_replaced
        exchange = self.play.exchange
        if exchange is not None:
            n, same = int(exchange["tiles"]), bool(exchange["same_suit"])
            for seat in seats:
                opts = exchanges.options(self.counts[seat], n, same)
                if not opts:  # no suit holds enough: nothing that seat can pass, so no exchange
                    self._exchange.clear()
                    break
                self._exchange[seat] = Decision(seat, "exchange", opts)
            if self._exchange:
                self.phase = "exchange"
                return
        self._after_exchange()

    def _after_exchange(self) -> None:
        if self.play.missing_suit is not None:
            self._ms_order = [(self.dealer + i) % self.n for i in range(self.n)]
            self.phase = "missing_suit"
        else:
            self._enter_turn(self.dealer)

    def _apply_exchange(self) -> None:
        """Every seat's chosen tiles move at once to the seat the direction names."""
        assert self.play.exchange is not None
        direction = exchanges.direction_of(self.play.exchange, self.wall)
        moving = {seat: [self._ids_of(seat, k, kinds.count(k))[kinds[:i].count(k)] for i, k in enumerate(kinds)]
                  for seat, kinds in self._passing.items()}
        received: dict[int, list[int]] = {}
        for seat in sorted(moving, key=lambda s: (s - self.dealer) % self.n):
            to = exchanges.target(seat, direction, self.n)
            for tid in moving[seat]:
                self._remove(seat, tid)
            received[to] = moving[seat]
            self._event(type="exchange", seat=seat, to=to, ids=list(moving[seat]),
                        tiles=[self.codes[t] for t in moving[seat]], direction=direction)
        for to, ids in received.items():
            for tid in ids:
                self._add(to, tid)
        if self.drawn is not None and self.drawn not in self.hands[self.dealer]:
            self.drawn = received[self.dealer][0]  # the dealer's fourteenth tile went: one it got stands for it
            self.after_flower = False
        self._exchange.clear()
        self._after_exchange()

    def _declare_missing(self, seat: int, suit: str) -> None:
        self.missing[seat] = suit
        self._missing_index[seat] = SUITS.index(suit)
        self._event(type="missing_suit", seat=seat, suit=suit)
        self._ms_order.pop(0)
        if not self._ms_order:
            self._enter_turn(self.dealer)

    def _enter_turn(self, seat: int) -> None:
        self.turn = seat
        self.phase = "turn"
        self.claim = None
        self._turn_win = None
        if self.stay and self.won[seat]:
            self._enter_locked_turn(seat)
            return
        opts: list[Action] = []
        counts = self.counts[seat]
        holding_missing = self.holds_missing(seat)
        if not self.after_claim:
            if self.drawn is not None and not (holding_missing and self._block_win):
                res = self._try_win(seat, self.kinds[self.drawn], self_drawn=True)
                if res is not None:
                    self._turn_win = res
                    opts.append(_WIN)
            if self.back > self.front and not (holding_missing and self._block_kong):
                if self._kong_concealed and 4 in counts:
                    opts.extend(Action("kong", tile=k) for k in range(34)
                                if counts[k] == 4 and not self._missing_kind(seat, k))
                if self._kong_added and self.melds[seat]:
                    opts.extend(Action("kong", tile=self.kinds[m.ids[0]])
                                for m in self.melds[seat]
                                if m.kind == "pung" and counts[self.kinds[m.ids[0]]] >= 1)
        allowed = [k for k in self.playable if counts[k]]
        if self.discard_first and holding_missing:
            allowed = [k for k in allowed if self._missing_kind(seat, k)]
        opts.extend([_DISCARDS[k] for k in allowed])
        self._turn_discards = frozenset(allowed)
        self._turn_decision = Decision(seat, "turn", opts, drawn=self.drawn if not self.after_claim else None,
                                       extra={"after_claim": self.after_claim, "after_kong": self.after_kong})

    def _enter_locked_turn(self, seat: int) -> None:
        """The turn of a winner whose hand is locked (after_win: stay): win with the drawn
        tile, declare a kong with it where the hand's waits stay the same, or discard it."""
        drawn = self.drawn
        assert drawn is not None  # a locked hand claims only wins, so its turns start with a draw
        kind = self.kinds[drawn]
        counts = self.counts[seat]
        opts: list[Action] = []
        res = self._try_win(seat, kind, self_drawn=True)
        if res is not None:
            self._turn_win = res
            opts.append(_WIN)
        if self.back > self.front:
            if self._kong_concealed and counts[kind] == 4 and self._kong_keeps_waits(seat, kind):
                opts.append(Action("kong", tile=kind))
            if self._kong_added and any(m.kind == "pung" and self.kinds[m.ids[0]] == kind for m in self.melds[seat]):
                opts.append(Action("kong", tile=kind))
        opts.append(_DISCARDS[kind])
        self._turn_discards = frozenset((kind,))
        self._turn_decision = Decision(seat, "turn", opts, drawn=drawn,
                                       extra={"after_claim": False, "after_kong": self.after_kong})

    def _kong_keeps_waits(self, seat: int, kind: int) -> bool:
        """Whether a concealed kong of ``kind`` (three held and the one drawn) leaves the
        locked hand waiting on the same tiles."""
        before = self.waits_without(seat, kind, 1, 0)
        after = self.waits_without(seat, kind, 4, 1)
        return before == after

    def waits_without(self, seat: int, kind: int, n: int, melds: int) -> frozenset[int]:
        """The seat's waits with ``n`` tiles of ``kind`` taken out of its hand and ``melds``
        more declared sets (a hand being considered, not changed)."""
        counts = self.counts[seat]
        counts[kind] -= n
        try:
            raw = bytes(counts)
            held = int(raw.translate(_HELD)[::-1], 2)
            found = held_wait_mask(raw, held, len(self.melds[seat]) + melds, self.shapes)
            if found:
                found &= self._playable_mask & ~int(raw.translate(_ALL_FOUR)[::-1], 2)
            return frozenset(kinds_in(found))
        finally:
            counts[kind] += n

    def _begin_draw(self, seat: int) -> None:
        self.after_claim = False
        self.after_kong = False
        self.drawn = None
        if not self._draw(seat, back=False):
            self._finish("exhausted")
            return
        self._enter_turn(seat)

    def _replacement(self, seat: int) -> None:
        self.after_claim = False
        self.drawn = None
        if not self._draw(seat, back=True):
            self._finish("exhausted")
            return
        self.after_kong = True
        self._enter_turn(seat)

    # ------------------------------------------------------------------ wins

    def _hand(self, seat: int, kind: int, self_drawn: bool, *, kong_replacement: bool = False,
              robbing_kong: bool = False, last_wall_tile: bool = False, last_tile_of_kind: bool = False,
              deal: dict[str, Any] | None = None) -> Hand:
        concealed = [self.kinds[t] for t in self.hands[seat]]
        if self_drawn:
            concealed.remove(kind)
        melds = tuple(Meld(m.kind, tuple(sorted(self.kinds[t] for t in m.ids)), m.concealed)
                      for m in self.melds[seat])
        return Hand(tuple(concealed), melds, kind, tuple(self.kinds[t] for t in self.flowers[seat]),
                    self_drawn=self_drawn, seat_wind=self.seat_wind(seat),
                    round_wind=self.variant.table.round_wind, missing_suit=self.missing[seat],
                    kong_replacement=kong_replacement, robbing_kong=robbing_kong, last_wall_tile=last_wall_tile,
                    last_tile_of_kind=last_tile_of_kind, extra={"deal": deal} if deal else None)

    def _try_win(self, seat: int, kind: int, self_drawn: bool, robbing: bool = False) -> _Win | None:
        """The score of ``seat`` winning on ``kind`` now, or None when that is not a valid win."""
        if "win" in self.blocks and self.missing[seat] is not None and (
                self.holds_missing(seat) or self._missing_kind(seat, kind)):
            return None
        if not self._completes(seat, None if self_drawn else kind):
            return None
        others_visible = self.visible[kind] - (0 if self_drawn or robbing else 1)
        events = self.deal_events(seat, self_drawn, robbing)
        flags = {
            "kong_replacement": self_drawn and self.after_kong,
            "robbing_kong": robbing,
            "last_wall_tile": self.wall_left() == 0,
            "last_tile_of_kind": others_visible == self.copies[kind] - 1,
        }
        try:
            result = self.scorer.score(self._hand(seat, kind, self_drawn, **flags, deal=events))
        except HandError:
            return None
        if not result.valid:
            if result.arrangement is not None:  # a winning shape worth less than the minimum
                self.refused[seat] += 1
            return None
        flags["self_drawn"] = self_drawn
        return result, flags, events

    def deal_events(self, seat: int, self_drawn: bool, robbing: bool = False) -> dict[str, Any]:
        """The events of the deal a win by ``seat`` now would be scored and paid with
        (compiler.model.hand.DEAL_EVENTS): on a discard, the one being claimed."""
        on_discard = not self_drawn and not robbing
        before = sum(self.discards) - (1 if on_discard else 0)
        fresh = not self.interrupted
        return {"first_turn": fresh and self.discards[seat] == 0,
                "first_go_around": fresh and before < self.n,
                "dealer_first_discard": fresh and on_discard and self._discarder == self.dealer
                and self.discards[self.dealer] == 1,
                "flower_replacement": self_drawn and not robbing and self.after_flower,
                "dealer": seat == self.dealer, "tiles_left": self.wall_left(), "dealer_repeats": self.repeats}

    def _self_drawn_win(self, seat: int) -> None:
        assert self.drawn is not None and self._turn_win is not None
        self._apply_wins([(seat, self._turn_win)], None, self.drawn)

    def _apply_wins(self, winners: list[tuple[int, _Win]], from_seat: int | None, tid: int) -> None:
        kind = self.kinds[tid]
        won_before = list(self.out)
        for i, (seat, (result, flags, events)) in enumerate(winners):
            takes = i == 0 and from_seat is not None
            if takes:
                assert from_seat is not None
                if flags["robbing_kong"]:
                    self._remove(from_seat, tid)
                else:
                    self.rivers[from_seat].remove(tid)
                    self.visible[kind] -= 1
                if self.stay:  # laid aside: the hand stays as it was
                    self.aside[seat].append(tid)
                    self.visible[kind] += 1
                else:
                    self._add(seat, tid)
            elif self.stay and from_seat is None:
                self._remove(seat, tid)
                self.aside[seat].append(tid)
                self.visible[kind] += 1
            pays = win_payments(self.settlement, seat, from_seat, result.total, flags, len(winners), won_before,
                                events, self.dealer)
            rec = WinRec(seat, from_seat, kind, tid, result, flags, pays, events)
            self.wins.append(rec)
            self._event(type="win", seat=seat, **{"from": from_seat}, tile=self.codes[tid], id=tid,
                        takes=takes or from_seat is None, total=result.total,
                        fans=[f.id for f in result.fans], **{k: v for k, v in flags.items() if v})
            self._pay(pays)
        transfer = self.settlement.kong_transfer
        robbed = winners[0][1][1]["robbing_kong"]
        if transfer is not None and from_seat is not None and self._kong_discard and not robbed:
            self._transfer_kong(from_seat, [seat for seat, _ in winners], transfer.several_winners, transfer.reason)
        for seat, _ in winners:
            self.won[seat] = True
            self.out[seat] = not self.stay
        if self.stay:
            self.drawn = None
            nxt = self.next_active(winners[-1][0])
            assert nxt is not None
            self._begin_draw(nxt)
            return
        if self.play.after_win != "continue":
            self._finish("win")
            return
        if sum(self.won) >= self.play.max_winners:
            self._finish(_WINNER_WORDS.get(self.play.max_winners, f"{self.play.max_winners}_won"))
            return
        nxt = self.next_active(winners[-1][0])
        if nxt is None:  # pragma: no cover - max_winners < players keeps someone active
            self._finish("exhausted")
            return
        self._begin_draw(nxt)

    def _transfer_kong(self, owner: int, winners: list[int], several: str, reason: str) -> None:
        """Call transfer: what the kong collected goes from its owner to the winner(s) on the
        discard that followed its replacement draw; it is no longer the owner's to refund."""
        taken = self._kong_discard
        self._kong_discard = []
        total = sum(p.amount for p in taken)
        for p in taken:
            self.kong_paid.remove(p)
        if several == "first":
            shares = [total] + [0] * (len(winners) - 1)
        else:
            q, r = divmod(total, len(winners))
            shares = [q + (1 if i < r else 0) for i in range(len(winners))]
        self._pay([Payment(owner, w, share, reason) for w, share in zip(winners, shares) if share > 0])

    def _pay(self, pays: list[Payment]) -> None:
        for p in pays:
            self.payments.append(p)
            self._event(type="pay", **p.to_json())

    # ------------------------------------------------------------------ discards and claims

    def _discard(self, seat: int, tid: int) -> None:
        kind = self.kinds[tid]
        self._remove(seat, tid)
        self.rivers[seat].append(tid)
        self.visible[kind] += 1
        self.discards[seat] += 1
        self._discarder = seat
        self._kong_discard = self._last_kong if self.after_kong else []
        self.drawn = None
        self.after_kong = False
        self.after_claim = False
        self._turn_decision = None
        self.events.append({"type": "discard", "seat": seat, "tile": self.codes[tid], "id": tid})
        decisions: dict[int, Decision] = {}
        results: dict[int, _Win] = {}
        nxt = self._after[seat][0]
        pairs = _CHOW_PAIRS[kind] if self._chows else ()
        out, won, stay = self.out, self.won, self.stay
        for other in self._after[seat]:
            if out[other]:
                continue
            if stay and won[other]:  # a locked hand claims nothing but a win
                if kind in self.waits(other):
                    res = self._try_win(other, kind, self_drawn=False)
                    if res is not None:
                        results[other] = res
                        decisions[other] = Decision(other, "claim", [_WIN, _PASS], tile=kind, from_seat=seat)
                continue
            # Only a seat that could claim is asked: a pair or more of the kind, the next seat
            # holding two tiles that chow it where chows are allowed, or the kind among its waits.
            counts = self.counts[other]
            if not (counts[kind] >= 2 or (other == nxt and any(counts[a] and counts[b] for a, b in pairs))
                    or kind in self.waits(other)):
                continue
            opts = self._claim_options(other, seat, kind, results)
            if opts:
                decisions[other] = Decision(other, "claim", opts, tile=kind, from_seat=seat)
        if decisions:
            self.claim = _Claim("claim", seat, tid, kind, decisions, results)
            self.phase = "claim"
            return
        self._after_discard(seat)

    def _after_discard(self, seat: int) -> None:
        nxt = self.next_active(seat)
        if nxt is None:  # pragma: no cover
            self._finish("exhausted")
            return
        self._begin_draw(nxt)

    def _claim_options(self, seat: int, discarder: int, kind: int, results: dict[int, _Win]) -> list[Action]:
        opts: list[Action] = []
        counts = self.counts[seat]
        holding_missing = self.holds_missing(seat)
        if not (holding_missing and self._block_win):
            res = self._try_win(seat, kind, self_drawn=False)
            if res is not None:
                results[seat] = res
                opts.append(_WIN)
        if kind < 34 and not self._missing_kind(seat, kind):
            if counts[kind] >= 2 and not (holding_missing and self._block_pung):
                opts.append(Action("pung", tile=kind))
            if (counts[kind] == 3 and self._kong_exposed and self.wall_left() > 0
                    and not (holding_missing and self._block_kong)):
                opts.append(Action("kong", tile=kind))
        if self.play.chow == "previous_player" and seat == (discarder + 1) % self.n and kind < 27 \
                and "chow" not in self.blocks:
            rank = kind % 9
            for a, b in ((-2, -1), (-1, 1), (1, 2)):
                if rank + a >= 0 and rank + b <= 8 and counts[kind + a] and counts[kind + b]:
                    opts.append(Action("chow", tiles=(kind + a, kind + b)))
        if opts:
            opts.append(_PASS)
        return opts

    def _resolve(self) -> None:
        claim = self.claim
        assert claim is not None
        order = [s for s in self.order_after(claim.seat) if s in claim.responses]
        winners = [(s, claim.results[s]) for s in order if claim.responses[s].do == "win"]
        if winners:
            if self.play.discard_win != "all":
                winners = winners[:1]
            self.claim = None
            self._apply_wins(winners, claim.seat, claim.id)
            return
        if claim.kind == "rob":
            assert claim.meld is not None
            self.claim = None
            self._complete_added_kong(claim.seat, claim.id, claim.meld)
            return
        for do in ("kong", "pung", "chow"):
            for s in order:
                answer = claim.responses[s]
                if answer.do == do:
                    self.claim = None
                    self._take_discard(s, claim.seat, claim.id, answer)
                    return
        self.claim = None
        self._after_discard(claim.seat)

    def _take_discard(self, seat: int, discarder: int, tid: int, answer: Action) -> None:
        kind = self.kinds[tid]
        self.interrupted = True
        self.rivers[discarder].remove(tid)
        if answer.do == "chow":
            own = [self._ids_of(seat, k, 1)[0] for k in answer.tiles]
        else:
            own = self._ids_of(seat, kind, 3 if answer.do == "kong" else 2)
        for t in own:
            self._remove(seat, t)
            self.visible[self.kinds[t]] += 1
        ids = sorted(own + [tid], key=lambda t: (self.kinds[t], t))
        meld = MeldRec(answer.do, ids, False, discarder, tid, "exposed" if answer.do == "kong" else None)
        self.melds[seat].append(meld)
        self._event(type=answer.do, seat=seat, **{"from": discarder}, ids=list(ids), tiles=[self.codes[t] for t in ids],
                    claimed=tid, **({"kong": "exposed"} if answer.do == "kong" else {}))
        if answer.do == "kong":
            self._kong_paid("exposed", seat, discarder)
            self._replacement(seat)
            return
        self.after_claim = True
        self.after_kong = False
        self.drawn = None
        self._enter_turn(seat)

    # ------------------------------------------------------------------ kongs

    def _kong_paid(self, kong: str, seat: int, from_seat: int | None) -> None:
        pays = kong_payments(self.settlement, kong, seat, from_seat, self.out, self.dealer, self.wall_left())
        self._last_kong = pays
        self.kong_paid.extend(pays)
        self._pay(pays)

    def _own_kong(self, seat: int, kind: int) -> None:
        self._turn_decision = None
        self.interrupted = True
        if self.counts[seat][kind] == 4:
            ids = self._ids_of(seat, kind, 4)
            for t in ids:
                self._remove(seat, t)
            self.visible[kind] += 4
            self.melds[seat].append(MeldRec("kong", ids, True, None, None, "concealed"))
            self._event(type="kong", seat=seat, kong="concealed", ids=list(ids), tiles=[self.codes[t] for t in ids])
            self._kong_paid("concealed", seat, None)
            self._replacement(seat)
            return
        meld = next(m for m in self.melds[seat] if m.kind == "pung" and self.kinds[m.ids[0]] == kind)
        if self.drawn is not None and self.kinds[self.drawn] == kind:
            tid = self.drawn
        else:
            tid = self._ids_of(seat, kind, 1)[0]
        if self.play.kongs.get("robbing", True):
            decisions: dict[int, Decision] = {}
            results: dict[int, _Win] = {}
            for other in self.order_after(seat):
                if self.out[other] or (self.holds_missing(other) and "win" in self.blocks):
                    continue
                res = self._try_win(other, kind, self_drawn=False, robbing=True)
                if res is not None:
                    results[other] = res
                    decisions[other] = Decision(other, "rob", [Action("win"), Action("pass")], tile=kind,
                                                from_seat=seat)
            if decisions:
                self.claim = _Claim("rob", seat, tid, kind, decisions, results, meld=meld)
                self.phase = "rob"
                return
        self._complete_added_kong(seat, tid, meld)

    def _complete_added_kong(self, seat: int, tid: int, meld: MeldRec) -> None:
        self._remove(seat, tid)
        self.visible[self.kinds[tid]] += 1
        meld.kind = "kong"
        meld.kong = "added"
        meld.ids.append(tid)
        self._event(type="kong", seat=seat, kong="added", ids=list(meld.ids), tiles=[self.codes[t] for t in meld.ids],
                    added=tid)
        self._kong_paid("added", seat, None)
        self._replacement(seat)

    # ------------------------------------------------------------------ the end

    def _finish(self, end: str) -> None:
        self.end = end
        self.phase = "over"
        self.claim = None
        self._turn_decision = None
        if end == "exhausted" and self.settlement.exhausted:
            self._pay(exhausted_payments(self.settlement, self.player_facts(), self.kong_paid))
        self._event(type="end", end=end)

    def ready_value(self, seat: int) -> tuple[bool, int, list[int]]:
        """(ready, the most the ready hand could win, the kinds it waits on), without event flags."""
        if self.won[seat] or (self.holds_missing(seat) and "win" in self.blocks):
            return False, 0, []
        best = None
        waits = []
        for k in sorted(self.waits(seat)):
            try:
                result = self.scorer.score(self._hand(seat, k, False))
            except HandError:
                continue
            if not result.valid:
                continue
            waits.append(k)
            from .payments import _Names
            value = int(self.settlement.ready_value.fn(
                _Names(total=result.total, base=int(self.settlement.base.fn(_Names(total=result.total))))))
            best = value if best is None else max(best, value)
        return best is not None, best or 0, waits

    def player_facts(self) -> list[PlayerFacts]:
        out = []
        for s in range(self.n):
            ready, value, _ = self.ready_value(s)
            income = sum(p.amount for p in self.kong_paid if p.payee == s)
            out.append(PlayerFacts(s, self.won[s], not self.out[s], ready,
                                   self.missing[s] is not None and self.holds_missing(s), value, income,
                                   dealer=s == self.dealer))
        return out

    # ------------------------------------------------------------------ output

    def deltas(self) -> list[int]:
        return deltas(self.payments, self.n)

    def result(self) -> dict[str, Any]:
        """The replay result object of docs/interfaces.md (with the decisions taken)."""
        return {
            "variant": self.variant.id,
            "dealer": self.dealer,
            **({"dealer_repeats": self.repeats} if self.repeats else {}),
            "end": self.end,
            "wins": [w.to_json() for w in self.wins],
            "payments": [p.to_json() for p in self.payments],
            "deltas": self.deltas(),
            "events": self.events,
            "decisions": self.record,
        }

    def to_json(self) -> dict[str, Any]:
        """The whole state, JSON-serialisable (the wall included, so hidden information too)."""
        return {
            "variant": self.variant.id,
            "dealer": self.dealer,
            "wall": [self.codes[t] for t in self.wall],
            "wall_ids": list(self.wall),
            "front": self.front,
            "back": self.back,
            "phase": self.phase,
            "turn": self.turn,
            "drawn": self.drawn,
            "after_claim": self.after_claim,
            "after_kong": self.after_kong,
            "hands": [sorted(h, key=lambda t: (self.kinds[t], t)) for h in self.hands],
            "melds": [[m.to_json(self.codes) for m in ms] for ms in self.melds],
            "flowers": [list(f) for f in self.flowers],
            "discards": [list(r) for r in self.rivers],
            "missing_suit": list(self.missing),
            "won": list(self.won),
            **({"aside": [list(a) for a in self.aside]} if self.stay else {}),
            "pending": [{"seat": d.seat, "kind": d.kind, "options": [o.to_json() for o in d.options]}
                        for d in self.pending()],
            "end": self.end,
            "wins": [w.to_json() for w in self.wins],
            "payments": [p.to_json() for p in self.payments],
            "deltas": self.deltas(),
            "events": self.events,
            "decisions": self.record,
        }

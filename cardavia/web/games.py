"""The games the server runs: you in seat 0 against the computer players, deal after deal.

The server is the only authority. A :class:`TableGame` holds the deal, asks the runtime
for the legal options and accepts only those; the computer players decide here, never in
the browser. Their moves are made when someone looks (a request), at most one visible
move per ``pace`` seconds, so the table unfolds at a readable pace without a background
task, and two tabs on one game see the same state. Every decision is stored as it is
applied (:mod:`cardavia.web.store`); a game not in memory is rebuilt from its rows.

Every refusal is a :class:`GameError` with an HTTP status and a message naming the
problem; the state is unchanged after one.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from cardavia.compiler import VariantError, load_variant, shipped_variants
from cardavia.compiler.errors import quoted
from cardavia.runtime.actions import Action, ActionError, Decision, IllegalAction
from cardavia.runtime.bots import make_controller
from cardavia.runtime.deal import Deal
from cardavia.runtime.simulate import deal_seed
from cardavia.runtime.wall import shuffled_wall

from .store import Store, StoredGame

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant
    from cardavia.runtime.controllers import Controller

#: Your seat.
HUMAN = 0
#: The default pause between two of the computer players' visible moves, in seconds.
DEFAULT_PACE = 0.5
#: The longest pace a game accepts (seconds).
MAX_PACE = 5.0
#: Games kept in memory (the others are rebuilt from the database when asked for).
CACHED = 256
#: Events the others' moves make visible; a move that makes none (a pass) costs no time.
VISIBLE = frozenset({"discard", "chow", "pung", "kong", "win", "flower", "end"})


class GameError(Exception):
    """A request refused: ``status`` is the HTTP status, ``code`` a word for programs."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {"error": self.message, "code": self.code}


def check_pace(value: object) -> float:
    """A pace from a request (seconds, 0 to MAX_PACE), or GameError."""
    try:
        pace = float(value)  # type: ignore[arg-type]  # checked by the conversion itself
    except (TypeError, ValueError):
        raise GameError(400, "bad_pace", f"pace is {quoted(value)}: expected seconds from 0 to {MAX_PACE:g}") from None
    if not 0 <= pace <= MAX_PACE:
        raise GameError(400, "bad_pace", f"pace is {quoted(value)}: expected seconds from 0 to {MAX_PACE:g}")
    return pace


def variant_for(sources: Mapping[str, str], name: str, options: Mapping[str, str] | None = None) -> CompiledVariant:
    """A served variant by its id (``sources`` maps each id to its name or path), with chosen
    options; GameError for anything else."""
    source = sources.get(name)
    if source is None:
        raise GameError(404, "unknown_variant",
                        f"no variant {quoted(name)}: expected one of {', '.join(sources)}")
    try:
        return load_variant(source, options=dict(options or {}))
    except VariantError as exc:
        raise GameError(400, "bad_option", "; ".join(p.message for p in exc.problems)) from None


class TableGame:
    """One game: its current deal, the totals of the deals before it, the computer players."""

    def __init__(self, game_id: str, variant: CompiledVariant, seed: int, pace: float, store: Store,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.id = game_id
        self.variant = variant
        self.seed = seed
        self.pace = pace
        self.store = store
        self.clock = clock
        self.lock = threading.Lock()
        self.number = 0
        self.past: list[int] = [0] * variant.table.players
        self.deal: Deal = self._deal(0, self.dealer_of(0))
        self.controllers: list[Controller | None] = self._controllers(0)
        self.due = clock()

    # ------------------------------------------------------------ set-up

    @property
    def n(self) -> int:
        return self.variant.table.players

    def dealer_of(self, number: int) -> int:
        return number % self.n if self.variant.table.rotate_dealer else 0

    def _deal(self, number: int, dealer: int) -> Deal:
        return Deal(self.variant, shuffled_wall(self.variant.tiles, deal_seed(self.seed, number)), dealer)

    def _controllers(self, number: int) -> list[Controller | None]:
        return [None if s == HUMAN else make_controller("ai", deal_seed(self.seed, number * self.n + s))
                for s in range(self.n)]

    # ------------------------------------------------------------ queries

    @property
    def version(self) -> str:
        """Changes with every decision and every new deal: an action names the version it answers."""
        return f"{self.number + 1}.{len(self.deal.events)}"

    @property
    def totals(self) -> list[int]:
        """Running totals, the current deal included once it is over."""
        if self.deal.over:
            return [a + b for a, b in zip(self.past, self.deal.deltas())]
        return list(self.past)

    def your_decision(self) -> Decision | None:
        return self.deal.decision_for(HUMAN)

    def waiting_on_others(self) -> bool:
        return not self.deal.over and self.your_decision() is None

    def next_move_in(self, now: float | None = None) -> float | None:
        """Seconds until the computer players' next move, or None when they wait for you (or the deal is over)."""
        if not self.waiting_on_others():
            return None
        now = self.clock() if now is None else now
        return max(0.0, self.due - now)

    # ------------------------------------------------------------ the others' moves

    def advance(self, now: float | None = None) -> None:
        """Make the computer players' moves that are due: answers that show nothing (a pass
        on a discard you may also claim) at once, then one visible move per ``pace``."""
        now = self.clock() if now is None else now
        deal = self.deal
        while not deal.over:
            pending = deal.pending()
            others = [d for d in pending if d.seat != HUMAN]
            if not others:
                return
            mine = len(others) < len(pending)
            if not mine and self.pace > 0 and now < self.due:
                return
            seen = len(deal.events)
            for decision in others:
                controller = self.controllers[decision.seat]
                assert controller is not None
                self._apply(decision.seat, controller.choose(deal, decision))
                if deal.over:
                    break
            if any(e["type"] in VISIBLE for e in deal.events[seen:]):
                self.due = now + self.pace

    def _apply(self, seat: int, action: Action) -> None:
        deal = self.deal
        deal.act(seat, action)
        record = deal.record
        self.store.decision(self.id, self.number, len(record) - 1, seat, record[-1])
        if deal.over:
            self.store.finish(self.id, self.number, deal.deltas())

    # ------------------------------------------------------------ your moves

    def act(self, version: object, body: Mapping[str, Any]) -> None:
        """Apply your answer, given as the JSON of an action (``do`` and its tile, tiles or suit;
        a discard names the physical tile by ``id``), or ``next-deal``; GameError otherwise."""
        self.advance()
        if version is None:
            raise GameError(400, "no_version", f"give the 'version' of the table the action answers (now "
                                               f"{self.version}, from GET /api/games/{self.id})")
        if version != self.version:
            raise GameError(409, "stale", f"the game has moved on: this action answers version {quoted(version)}, "
                                          f"the table is at version {self.version}; look again and choose anew")
        do = body.get("do")
        if do in ("next-deal", "next_deal"):
            self._next_deal()
            return
        if self.deal.over:
            raise GameError(409, "deal_over", f"the deal is over: only next-deal is possible, not {quoted(do)}")
        decision = self.your_decision()
        if decision is None:
            waiting = ", ".join(f"seat {d.seat}" for d in self.deal.pending())
            raise GameError(409, "not_your_turn", f"it is not your turn to decide: waiting for {waiting}")
        action = self._read(dict(body), decision)
        try:
            self._apply(HUMAN, action)
        except IllegalAction as exc:
            raise GameError(422, "illegal", str(exc)) from None
        self.due = self.clock() + self.pace
        self.advance()

    def _read(self, body: dict[str, Any], decision: Decision) -> Action:
        if body.get("do") == "missing-suit":
            body["do"] = "missing_suit"
        body.pop("version", None)
        if body.get("do") == "discard" and body.get("tile") is None and body.get("id") is not None:
            tid = body["id"]
            if not isinstance(tid, int) or isinstance(tid, bool) or not 0 <= tid < len(self.deal.kinds):
                raise GameError(400, "bad_tile", f"'id' is {quoted(tid)}: expected a physical tile id "
                                                 f"0-{len(self.deal.kinds) - 1}")
            body["tile"] = self.deal.codes[tid]
        try:
            action = Action.from_json(body)
        except ActionError as exc:
            raise GameError(400, "bad_action", str(exc)) from None
        if action.do == "discard" and action.id is not None and action.id not in self.deal.hands[HUMAN]:
            raise GameError(422, "bad_tile", f"tile id {action.id} is not in your hand")
        if decision.find(action) is None and decision.kind == "exchange":
            exchange = self.variant.play.exchange or {}
            raise GameError(422, "illegal", f"{action.label()} is not possible now: pass on "
                                            f"{len(decision.options[0].tiles)} tiles you hold"
                                            + (", of one suit" if exchange.get("same_suit") else ""))
        if decision.find(action) is None:
            options = ", ".join(dict.fromkeys(o.label() for o in decision.options))
            raise GameError(422, "illegal", f"{action.label()} is not possible now: your options are {options}")
        return action

    def _next_deal(self) -> None:
        if not self.deal.over:
            raise GameError(409, "deal_in_progress", "the deal is still being played: next-deal comes after its end")
        self.past = self.totals
        self.number += 1
        dealer = self.dealer_of(self.number)
        self.store.next_deal(self.id, self.number, dealer)
        self.deal = self._deal(self.number, dealer)
        self.controllers = self._controllers(self.number)
        self.due = self.clock() + self.pace
        self.advance()

    def set_pace(self, pace: float) -> None:
        self.pace = pace
        self.store.set_pace(self.id, pace)
        self.due = min(self.due, self.clock() + pace)

    # ------------------------------------------------------------ restoring

    @classmethod
    def restore(cls, stored: StoredGame, store: Store, sources: Mapping[str, str],
                clock: Callable[[], float] = time.monotonic) -> TableGame:
        """The game as its rows say, the current deal replayed decision by decision."""
        variant = variant_for(sources, stored.variant, stored.options)
        game = cls.__new__(cls)
        game.id, game.variant, game.seed, game.pace = stored.id, variant, stored.seed, stored.pace
        game.store, game.clock, game.lock = store, clock, threading.Lock()
        last = stored.deals[-1]
        game.number = last.number
        game.past = [0] * variant.table.players
        for d in stored.deals[:-1]:
            game.past = [a + b for a, b in zip(game.past, d.deltas or [])]
        game.deal = deal = game._deal(last.number, last.dealer)
        for seat, action in last.decisions:
            try:
                deal.act(seat, Action.from_json(action))
            except (ActionError, IllegalAction) as exc:  # the variant file changed under the game
                raise GameError(410, "unreadable_game", f"game {stored.id} cannot be replayed with the variant "
                                                        f"as it is now: {exc}") from None
        game.controllers = game._controllers(last.number)
        game.due = clock()
        return game


class Games:
    """Every game: the database, and the games in memory (the most recently used).
    ``sources``: the variants served, each id with its name or path (default: the shipped ones)."""

    def __init__(self, store: Store, pace: float = DEFAULT_PACE, clock: Callable[[], float] = time.monotonic,
                 sources: Mapping[str, str] | None = None) -> None:
        self.sources = dict(sources) if sources is not None else {name: name for name in shipped_variants()}
        self.store = store
        self.pace = pace
        self.clock = clock
        self._games: OrderedDict[str, TableGame] = OrderedDict()
        self._lock = threading.Lock()

    def start(self, name: str, options: Mapping[str, str] | None = None, pace: float | None = None,
              seed: int | None = None) -> TableGame:
        variant = variant_for(self.sources, name, options)
        game_id = secrets.token_urlsafe(16)
        seed = secrets.randbits(62) if seed is None else seed
        game = TableGame(game_id, variant, seed, self.pace if pace is None else pace, self.store, self.clock)
        self.store.create(game_id, variant.id, dict(variant.options), seed, game.pace, game.dealer_of(0))
        with game.lock:
            game.advance()
        self._keep(game)
        return game

    def get(self, game_id: str) -> TableGame:
        with self._lock:
            game = self._games.get(game_id)
            if game is not None:
                self._games.move_to_end(game_id)
                return game
        stored = self.store.load(game_id) if _plausible(game_id) else None
        if stored is None:
            raise GameError(404, "unknown_game", f"no game {quoted(game_id)}: start one at /play/VARIANT")
        game = TableGame.restore(stored, self.store, self.sources, self.clock)
        return self._keep(game)

    def _keep(self, game: TableGame) -> TableGame:
        with self._lock:
            kept = self._games.setdefault(game.id, game)
            self._games.move_to_end(game.id)
            while len(self._games) > CACHED:
                self._games.popitem(last=False)
            return kept

    def __len__(self) -> int:
        return len(self._games)


def _plausible(game_id: str) -> bool:
    """A game id as :func:`secrets.token_urlsafe` makes them (anything else is not looked up)."""
    return 10 <= len(game_id) <= 64 and all(c.isalnum() or c in "-_" for c in game_id)

"""What you see of a game: its state as JSON for programs (:func:`state`), and the same
state in words and tiles for the table page (:func:`table`), in the page's language.

Both show only what seat 0 may know: your concealed tiles, and of the others their
discards, sets, flowers and how many tiles they hold; the others' missing suits once every
seat has chosen; every hand face up once the deal is over.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardavia.compiler.model.tiles import CODES, SUITS
from cardavia.runtime.analysis import View, WinValue, analyst
from cardavia.runtime.exchange import baseline as exchange_suggestion
from cardavia.runtime.telling import Words, capital

from .games import HUMAN, TableGame
from .tiles import tile_name

if TYPE_CHECKING:
    from cardavia.runtime.actions import Decision
    from cardavia.runtime.deal import Deal

WINDS = "ESWN"


# ------------------------------------------------------------------ JSON

def _public(deal: Deal, index: int, e: dict[str, Any]) -> dict[str, Any] | None:
    """An event as seat 0 may see it, or None (another seat's dealt, drawn or passed tiles stay
    hidden until the deal is over)."""
    kind = e["type"]
    if kind == "deal":
        return {"n": index, "type": "deal", "seat": e["seat"], **({"tiles": e["tiles"]} if e["seat"] == HUMAN else {})}
    if kind == "draw":
        if e["seat"] == HUMAN or deal.over:
            return {"n": index, **e}
        return {"n": index, "type": "draw", "seat": e["seat"], "end": e["end"]}
    if kind == "missing_suit" and e["seat"] != HUMAN and deal.phase == "missing_suit":
        return None
    if kind == "exchange" and HUMAN not in (e["seat"], e["to"]) and not deal.over:
        return {"n": index, "type": "exchange", "seat": e["seat"], "to": e["to"], "n_tiles": len(e["ids"]),
                "direction": e["direction"]}
    return {"n": index, **e}


def _melds(deal: Deal, seat: int) -> list[dict[str, Any]]:
    return [{"type": m.kind, "tiles": [deal.codes[t] for t in m.ids], "ids": list(m.ids), "concealed": m.concealed,
             "from": m.from_seat} for m in deal.melds[seat]]


def _hand_order(deal: Deal) -> list[int]:
    """Your tiles in code order, the tile just drawn last."""
    drawn = deal.drawn if deal.turn == HUMAN and deal.phase == "turn" else None
    tiles = sorted((t for t in deal.hands[HUMAN] if t != drawn), key=lambda t: (deal.kinds[t], t))
    if drawn is not None and drawn in deal.hands[HUMAN]:
        tiles.append(drawn)
    return tiles


def _allowed(decision: Decision | None) -> set[int]:
    """The kinds you may select now: to discard on your turn, or to pass on in an exchange."""
    if decision is not None and decision.kind == "exchange":
        return {k for o in decision.options for k in o.tiles}
    if decision is None or decision.kind != "turn":
        return set()
    return {o.tile for o in decision.options if o.do == "discard" and o.tile is not None}


def _winds(game: TableGame) -> bool:
    return any(27 <= k < 31 for k in game.variant.tiles.kinds)


def state(game: TableGame) -> dict[str, Any]:
    """The game as seat 0 sees it (the JSON of ``GET /api/games/ID``)."""
    deal = game.deal
    decision = game.your_decision()
    allowed = _allowed(decision)
    winds = _winds(game)
    hidden = deal.phase == "missing_suit"

    def seat(s: int) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": s, "wind": WINDS[deal.seat_wind(s) - 27] if winds else None,
                               "tiles": len(deal.hands[s]), "melds": _melds(deal, s),
                               "flowers": [deal.codes[t] for t in deal.flowers[s]],
                               "discards": [deal.codes[t] for t in deal.rivers[s]], "won": deal.won[s],
                               "missing_suit": deal.missing[s] if (s == HUMAN or not hidden) else None}
        if s == HUMAN:
            out["hand"] = [{"id": t, "tile": deal.codes[t], "allowed": deal.kinds[t] in allowed}
                           for t in _hand_order(deal)]
            out["drawn"] = deal.drawn if deal.turn == HUMAN and deal.phase == "turn" else None
        elif deal.over:
            out["hand"] = [deal.codes[t] for t in sorted(deal.hands[s], key=lambda t: (deal.kinds[t], t))]
        return out

    asked = None
    if decision is not None:
        asked = {"kind": decision.kind, "tile": CODES[decision.tile] if decision.tile is not None else None,
                 "from": decision.from_seat, "options": [o.to_json() for o in decision.options]}
    result = None
    if deal.over:
        result = {"end": deal.end, "wins": [w.to_json() for w in deal.wins],
                  "payments": [p.to_json() for p in deal.payments], "deltas": deal.deltas()}
    return {
        "id": game.id, "variant": game.variant.id, "options": dict(game.variant.options), "version": game.version,
        "deal": game.number + 1, "dealer": deal.dealer,
        "round_wind": WINDS[game.variant.table.round_wind - 27] if winds else None,
        "wall": deal.wall_left(), "phase": deal.phase, "turn": deal.turn, "over": deal.over,
        "you": seat(HUMAN), "others": [seat(s) for s in range(deal.n) if s != HUMAN],
        "asked": asked, "waiting_for": [d.seat for d in deal.pending()],
        "next_move_in": game.next_move_in(), "pace": game.pace,
        "events": [p for i, e in enumerate(deal.events) if (p := _public(deal, i, e)) is not None],
        "result": result, "totals": game.totals,
    }


# ------------------------------------------------------------------ the page

@dataclass(slots=True)
class Tile:
    code: str
    name: str
    id: int | None = None
    allowed: bool = False
    drawn: bool = False
    newest: bool = False


@dataclass(slots=True)
class Button:
    action: str
    label: str
    data: dict[str, str] = field(default_factory=dict)
    primary: bool = False
    #: Acts on the tiles you select (disabled until they are selected): discard, pass on.
    selection: bool = False


@dataclass(slots=True)
class Seat:
    seat: int
    name: str
    facts: list[str]
    melds: list[list[Tile]]
    flowers: list[Tile]
    discards: list[Tile]
    current: bool
    won: bool
    count: int


@dataclass(slots=True)
class Line:
    n: int
    seat: int | None
    text: str


class Table:
    """The table page's content for one language (what the templates lay out)."""

    def __init__(self, game: TableGame, lang: str) -> None:
        self.game = game
        self.deal = deal = game.deal
        self.words = Words(game.variant, lang)
        self.t = self.words.t
        self.decision = game.your_decision()
        self.analyst = analyst(game.variant)
        allowed = _allowed(self.decision)
        last = deal.events[-1] if deal.events else None
        self.newest = last["id"] if last is not None and last["type"] == "discard" else None
        drawn = deal.drawn if deal.turn == HUMAN and deal.phase == "turn" else None
        self.hand = [Tile(deal.codes[t], self.name(deal.codes[t]), t, deal.kinds[t] in allowed, t == drawn)
                     for t in _hand_order(deal)]
        self.seats = [self._seat(s) for s in [*range(1, deal.n), HUMAN]]
        #: How many tiles a selection holds: those to pass on in an exchange, else one.
        self.pick = len(self.decision.options[0].tiles) if self.decision is not None and \
            self.decision.kind == "exchange" else 1

    # ------------------------------------------------------------ pieces

    def name(self, code: str) -> str:
        return tile_name(self.t, code)

    def tile(self, tid: int) -> Tile:
        code = self.deal.codes[tid]
        return Tile(code, self.name(code), newest=tid == self.newest)

    def tiles(self, codes: list[str]) -> list[Tile]:
        return [Tile(c, self.name(c)) for c in codes]

    def _seat(self, s: int) -> Seat:
        deal, t, words = self.deal, self.t, self.words
        facts = []
        if s != HUMAN:
            facts.append(t.npgettext("game", "{n} tile", "{n} tiles", len(deal.hands[s])))
        if s == deal.dealer:
            facts.append(t.pgettext("web", "dealer"))
        if deal.won[s]:
            facts.append(t.pgettext("game", "won"))
        missing = deal.missing[s]
        if missing and (s == HUMAN or deal.phase != "missing_suit"):
            facts.append(t.pgettext("game", "missing {suit}", suit=words.suit(missing)))
        current = not deal.over and any(d.seat == s for d in deal.pending())
        melds = [[self.tile(x) for x in m.ids] for m in deal.melds[s]]
        return Seat(s, capital(words.seat(deal, s)), facts, melds, [self.tile(x) for x in deal.flowers[s]],
                    [self.tile(x) for x in deal.rivers[s]], current, deal.won[s], len(deal.hands[s]))

    # ------------------------------------------------------------ the head of the table

    def status(self) -> list[str]:
        deal, t, words = self.deal, self.t, self.words
        out = [t.pgettext("game", "deal {n}", n=self.game.number + 1)]
        if words.winds:
            out.append(t.pgettext("game", "round wind {wind}", wind=words.wind(self.game.variant.table.round_wind)))
            out.append(t.pgettext("web", "your wind {wind}", wind=words.wind(deal.seat_wind(HUMAN))))
        out.append(t.pgettext("game", "dealer: {seat}", seat=words.seat(deal, deal.dealer)))
        out.append(t.pgettext("game", "wall {n}", n=deal.wall_left()))
        out[0] = capital(out[0])
        return out

    def prompt(self) -> str:
        """What is asked of you now, or whose turn it is."""
        deal, t, words, d = self.deal, self.t, self.words, self.decision
        if deal.over:
            return t.pgettext("game", "End of the deal: {why}.", why=words.ending(deal))
        if d is None:
            if deal.won[HUMAN]:
                return t.pgettext("web", "You have won: the others play on.")
            seats = sorted({x.seat for x in deal.pending()})
            if deal.phase == "missing_suit":
                return t.pgettext("web", "The others choose their missing suits.")
            if deal.phase == "exchange":
                return t.pgettext("web", "The others choose the tiles they pass on.")
            return t.pgettext("web", "{seat} to play.", seat=capital(words.seat(deal, seats[0])))
        if d.kind == "missing_suit":
            return t.pgettext("game", "Choose the suit you will give up: you must discard its tiles before any "
                                      "other, and you cannot win while you hold one.")
        if d.kind == "exchange":
            exchange = self.game.variant.play.exchange
            if exchange is not None and exchange["same_suit"]:
                return t.npgettext("web", "Select {n} tile of one suit to pass on, then Pass on.",
                                   "Select {n} tiles of one suit to pass on, then Pass on.", self.pick)
            return t.npgettext("web", "Select {n} tile to pass on, then Pass on.",
                               "Select {n} tiles to pass on, then Pass on.", self.pick)
        if d.kind == "turn":
            if any(o.do == "win" for o in d.options):
                return t.pgettext("web", "Your turn: you can win, self-drawn.")
            if d.drawn is not None:
                return t.pgettext("web", "Your turn: you drew {tile}. Select a tile, then Discard.",
                                  tile=self.name(deal.codes[d.drawn]))
            return t.pgettext("web", "Your turn: select a tile, then Discard.")
        assert d.tile is not None and d.from_seat is not None
        who = words.seat(deal, d.from_seat)
        if d.kind == "rob":
            return capital(t.pgettext("web", "{seat} adds {tile} to a pung: you can rob the kong.", seat=who,
                                      tile=self.name(CODES[d.tile])))
        return t.pgettext("web", "{seat} discards {tile}: claim it?", seat=capital(who), tile=self.name(CODES[d.tile]))

    def buttons(self) -> list[Button]:
        """One button per answer you may give now (``data-action`` as the page hooks say)."""
        deal, t, words, d = self.deal, self.t, self.words, self.decision
        if deal.over:
            return [Button("next-deal", t.pgettext("web", "Next deal"), primary=True)]
        if d is None:
            return []
        out: list[Button] = []
        if d.kind == "exchange":
            suggestion = exchange_suggestion(deal.counts[HUMAN], d)
            tiles = [CODES[k] for k in suggestion.tiles]
            return [Button("exchange", t.pgettext("web", "Pass on"), primary=True, selection=True),
                    Button("exchange", t.pgettext("web", "Pass on {tiles} (suggested)",
                                                  tiles=" ".join(tiles)),
                           {"tiles": ",".join(tiles)})]
        if d.kind == "missing_suit":
            counts = deal.counts[HUMAN]
            held = {s: sum(counts[i * 9:(i + 1) * 9]) for i, s in enumerate(SUITS)}
            fewest = min(SUITS, key=lambda s: held[s])
            return [Button("missing-suit", t.pgettext("web", "{suit} ({n} held)", suit=capital(words.suit(s)),
                                                      n=held[s]), {"suit": s}, s == fewest) for s in SUITS]
        for o in d.options:
            if o.do == "win":
                out.append(Button("win", t.pgettext("web", "Win"), primary=True))
            elif o.do == "pung":
                out.append(Button("pung", t.pgettext("web", "Pung")))
            elif o.do == "kong":
                assert o.tile is not None
                label = t.pgettext("web", "Kong") if d.kind != "turn" else t.pgettext(
                    "web", "Kong of {tile}", tile=self.name(CODES[o.tile]))
                out.append(Button("kong", label, {"tile": CODES[o.tile]}))
            elif o.do == "chow":
                assert d.tile is not None
                kinds = sorted([*o.tiles, d.tile])
                out.append(Button("chow", t.pgettext("web", "Chow {tiles}", tiles=" ".join(CODES[k] for k in kinds)),
                                  {"tiles": ",".join(CODES[k] for k in o.tiles)}))
            elif o.do == "pass":
                out.append(Button("pass", t.pgettext("web", "Pass")))
        if d.kind == "turn":
            out.append(Button("discard", t.pgettext("web", "Discard"), primary=not any(b.primary for b in out),
                              selection=True))
        return out

    def paces(self) -> list[tuple[str, str, bool]]:
        """The choices of pause between the others' moves: (seconds, label, chosen)."""
        values = sorted({0.0, 0.25, 0.5, 1.0, 2.0, self.game.pace})
        shown = [format(v, "g") for v in values]
        return [(n, self.t.pgettext("web", "{n} s", n=n), v == self.game.pace) for v, n in zip(values, shown)]

    def legend(self) -> list[str]:
        """What the tile codes of the hints mean."""
        return self.words.legend()

    # ------------------------------------------------------------ hints

    def hints(self) -> list[str]:
        """Ready or how far, the best discards, the waits and their values, why a win is refused."""
        deal, t, d = self.deal, self.t, self.decision
        if deal.over or deal.won[HUMAN] or deal.phase in ("missing_suit", "exchange"):
            return []
        a = self.analyst
        view = View.of_seat(deal, HUMAN)
        out: list[str] = []
        if d is not None and d.kind == "turn":
            allowed = sorted(_allowed(d))
            drawn = deal.kinds[d.drawn] if d.drawn is not None else None
            analysis = a.analyse(view, allowed, drawn)
            if analysis.complete is not None:
                if analysis.complete.valid:
                    out.append(t.pgettext("web", "Your hand is complete: a win worth {worth}.",
                                          worth=self.words.amount(analysis.complete.total)))
                else:
                    out.append(t.pgettext("game", "Your tiles make a winning shape, but {why}.",
                                          why=self.words.refusal(analysis.complete)))
            return out + self.words.turn_hints(a, view, analysis)
        return self.words.waiting_hints(a.analyse(view))

    def refused(self) -> str | None:
        """The last discard completes your hand but the rules refuse the win: why."""
        deal = self.deal
        last = deal.events[-1] if deal.events else None
        if deal.over or deal.won[HUMAN] or last is None or last["type"] != "discard" or last["seat"] == HUMAN:
            return None
        kind = deal.kinds[last["id"]]
        if kind not in deal.waits(HUMAN):
            return None
        if self.decision is not None and any(o.do == "win" for o in self.decision.options):
            return None
        value: WinValue = self.analyst.win_value(View.of_seat(deal, HUMAN), kind, False, on_table=True)
        if value.valid:
            return None
        return self.t.pgettext("game", "{tile} would complete your hand, but {why}: no win.",
                               tile=last["tile"], why=self.words.refusal(value))

    # ------------------------------------------------------------ the log

    def log(self) -> list[Line]:
        """What happened in this deal, in sentences (the others' moves are announced from it)."""
        deal = self.deal
        out = []
        for i, e in enumerate(deal.events):
            public = _public(deal, i, e)
            if public is None or e["type"] in ("deal", "pay", "end"):
                continue
            named = dict(e)
            if "tile" in named:
                named["tile"] = self.name(named["tile"])
            if "tiles" in named:
                named["tiles"] = [self.name(c) for c in named["tiles"]]
            if e["type"] == "missing_suit":
                text = self.t.pgettext("game", "{seat}: {suit}", seat=capital(self.words.seat(deal, e["seat"])),
                                       suit=self.words.suit(e["suit"]))
            else:
                line = self.words.event(deal, named)
                if line is None:
                    continue
                text = line
            out.append(Line(i, e.get("seat"), text))
        return out

    # ------------------------------------------------------------ the end

    def settlement(self) -> dict[str, Any] | None:
        deal, t, words = self.deal, self.t, self.words
        if not deal.over:
            return None
        wins = []
        for w in deal.wins:
            source = words.seat(deal, w.from_seat) if w.from_seat is not None else None
            tile = self.name(CODES[w.tile])
            worth = words.amount(w.result.total)
            if w.seat == HUMAN:
                head = (t.pgettext("game", "You won on {tile} from {source}: {worth}.", tile=tile, source=source,
                                   worth=worth) if source is not None else
                        t.pgettext("game", "You won, self-drawn on {tile}: {worth}.", tile=tile, worth=worth))
            else:
                who = words.seat(deal, w.seat)
                head = (t.pgettext("game", "{seat} won on {tile} from {source}: {worth}.", seat=who, tile=tile,
                                   source=source, worth=worth) if source is not None else
                        t.pgettext("game", "{seat} won, self-drawn on {tile}: {worth}.", seat=who, tile=tile,
                                   worth=worth))
            fans = [(words.pattern(f.id), f.value, f.count) for f in w.result.fans]
            wins.append({"seat": w.seat, "head": capital(head), "fans": fans})
        facts = deal.player_facts() if deal.end == "exhausted" else None
        hands = []
        for s in range(deal.n):
            ready = None
            if facts is not None and facts[s].ready:
                _, _, waits = deal.ready_value(s)
                best = max((w.discard.total for w in self.analyst.waits(View.of_seat(deal, s))
                            if w.tile in waits and w.discard.valid), default=0)
                ready = t.pgettext("game", "ready, waiting on {tiles}: best win {worth}, which pays {amount}",
                                   tiles=words.tiles(waits), worth=words.amount(best), amount=facts[s].ready_value)
            hands.append({"seat": s, "name": capital(words.seat(deal, s)),
                          "tiles": [self.tile(x) for x in sorted(deal.hands[s], key=lambda x: (deal.kinds[x], x))],
                          "melds": [[self.tile(x) for x in m.ids] for m in deal.melds[s]],
                          "flowers": [self.tile(x) for x in deal.flowers[s]], "won": deal.won[s], "ready": ready})
        deltas = deal.deltas()
        totals = self.game.totals
        rows = [{"name": capital(words.player(s)), "delta": format(deltas[s], "+d"), "total": format(totals[s], "+d")}
                for s in range(deal.n)]
        return {"why": t.pgettext("game", "End of the deal: {why}.", why=words.ending(deal)), "wins": wins,
                "nobody": not wins and deal.end != "exhausted",  # an exhausted wall's ending says it already
                "hands": hands, "payments": [words.payment(deal, p) for p in deal.payments], "rows": rows}



"""The terminal game: you in seat 0 against the computer players, one deal after another.

What the player sees is built to fit 80x24: the legend and the whole board once at the
start of a deal (and on ``b`` or ``?``), then only what changed: the other players' moves
as they happen (at ``--pace``), and before each decision your hand, numbered, with a
"ready" marker and its waits while your hand is ready. ``?`` shows the hand analysis
(runtime/analysis.py): how far from ready, the best discards and what they keep, the
waits and what a win on each is worth. A win the rules refuse (below the minimum, a
missing suit still held) is explained when the tile that would make it appears.

Wins are protected: before a question that offers a win or a claim, input typed ahead
is thrown away (where the input is a terminal), and passing on a win needs an explicit
answer. Discards and claims are confirmed, naming the tiles by code; an answer that is
not understood is asked again. Ctrl-C or q shows the running totals and stops.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from cardavia.compiler import load_variant
from cardavia.compiler.model.tiles import CODES, SUITS
from rich.text import Text

from cardavia.render.catalog import VARIANT_SUMMARY, VARIANT_TITLE, variant_text

from .actions import Action, Decision
from .analysis import Analyst, View, analyst
from .bots import make_controller
from .controllers import play_deal
from .deal import Deal
from .screen import DRAWN_STYLE, NEWEST_DISCARD_STYLE, Quit, Screen, _discard_typeahead, number
from .simulate import deal_seed
from .telling import HUMAN, Words, capital
from .wall import shuffled_wall

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant


class Game:
    """What the player's seat and the narrator share: the screen, the words, the analysis."""

    def __init__(self, variant: CompiledVariant, screen: Screen, words: Words) -> None:
        self.variant = variant
        self.screen = screen
        self.words = words
        self.analyst: Analyst = analyst(variant)

    @property
    def t(self) -> Any:
        return self.words.t

    # ------------------------------------------------------------ pieces of the screen

    def hand(self, deal: Deal) -> list[int]:
        """Your tiles in code order (physical ids), the tile just drawn last."""
        drawn = deal.drawn if deal.turn == HUMAN and deal.phase == "turn" else None
        tiles = sorted((t for t in deal.hands[HUMAN] if t != drawn), key=lambda t: (deal.kinds[t], t))
        if drawn is not None and drawn in deal.hands[HUMAN]:
            tiles.append(drawn)
        return tiles

    def sets(self, deal: Deal, seat: int) -> Text:
        """A seat's declared sets: ``[567p] {5555z}`` (or their Unicode tiles)."""
        return Text(" ").join(self.screen.meld([deal.kinds[t] for t in m.ids], m.concealed)
                              for m in deal.melds[seat])

    def with_sets(self, deal: Deal, seat: int) -> Text:
        """"sets [567p] ..." in the player's language."""
        return self.screen.fill(self.t.pgettext("game", "sets {sets}", sets="\0"), self.sets(deal, seat))

    def waits_now(self, deal: Deal) -> tuple[Any, ...]:
        """Your waits while your hand is one tile short (before a draw, the hand without it)."""
        view = View.of_seat(deal, HUMAN)
        if self.analyst.extra(view):
            if deal.turn != HUMAN or deal.drawn is None:
                return ()
            concealed = list(view.concealed)
            concealed.remove(deal.kinds[deal.drawn])
            view = View(tuple(concealed), view.melds, view.flowers, view.seat_wind, view.round_wind,
                        view.missing_suit, view.visible)
        return self.analyst.waits(view)

    def ready_marker(self, deal: Deal) -> Text | None:
        """"ready: 3m 6m" while your hand is ready (marked when no wait makes a valid win); a
        winner who stays in the deal (after_win: stay) keeps its marker, it may win again."""
        if deal.won[HUMAN] and not deal.stay:
            return None
        waits = self.waits_now(deal)
        if not waits:
            return None
        t = self.t
        marker = Text(t.pgettext("game", "READY") + ": ", style="bold" if self.screen.color else "")
        marker.append_text(self.screen.tiles([w.tile for w in waits]))
        if not any(w.discard.valid or w.self_drawn.valid for w in waits):
            marker.append(" (" + t.pgettext("game", "no valid win yet: ? says why") + ")")
        return marker

    def your_hand(self, deal: Deal) -> None:
        """Your hand, numbered (the tile just drawn marked), then your sets, flowers and marker."""
        screen = self.screen
        tiles = self.hand(deal)
        styles = {}
        if deal.turn == HUMAN and deal.phase == "turn" and deal.drawn is not None and tiles and \
                tiles[-1] == deal.drawn:
            styles[len(tiles) - 1] = DRAWN_STYLE
        for line in screen.numbered([deal.kinds[t] for t in tiles], styles):
            screen.say(line)
        extra = Text()
        t = self.t
        if deal.melds[HUMAN]:
            extra.append_text(self.with_sets(deal, HUMAN))
        if self.words.flowers and deal.flowers[HUMAN]:
            if extra:
                extra.append(screen.dot)
            extra.append(t.pgettext("game", "flowers") + " ")
            extra.append_text(screen.tiles([deal.kinds[f] for f in deal.flowers[HUMAN]]))
        marker = self.ready_marker(deal)
        if marker is not None and extra and extra.cell_len + len(screen.dot) + marker.cell_len <= screen.width:
            extra.append(screen.dot)
            extra.append_text(marker)
            marker = None
        if extra:
            screen.say(extra)
        if marker is not None:  # on a line of its own rather than wrapped
            screen.say(marker)

    def board(self, deal: Deal, number: int) -> None:
        """The whole table: the deal, then each seat's sets, flowers and discards."""
        screen = self.screen
        words = self.words
        t = self.t
        v = self.variant
        head = [variant_text(t, words.unit, VARIANT_TITLE, v.title), t.pgettext("game", "deal {n}", n=number)]
        if words.winds:
            head.append(t.pgettext("game", "round wind {wind}", wind=words.wind(v.table.round_wind)))
        head.append(t.pgettext("game", "dealer: {seat}", seat=words.seat(deal, deal.dealer)))
        head.append(t.pgettext("game", "wall {n}", n=deal.wall_left()))
        screen.say(Text(screen.dot.join(head), style="bold" if screen.color else ""))
        last = next((e for e in reversed(deal.events) if e.get("type") == "discard"), None)  # the newest discard
        hidden = deal.phase == "missing_suit"  # the others' choices are shown once everyone has chosen
        for seat in [*range(1, deal.n), HUMAN]:
            line = Text(capital(words.seat(deal, seat)), style="bold" if screen.color else "")
            parts: list[Text] = []
            if seat != HUMAN:
                parts.append(Text(t.npgettext("game", "{n} tile", "{n} tiles", len(deal.hands[seat]))))
            if deal.won[seat]:
                parts.append(Text(t.pgettext("game", "won")))
            if deal.missing[seat] and not (hidden and seat != HUMAN):
                parts.append(Text(t.pgettext("game", "missing {suit}", suit=words.suit(deal.missing[seat]))))
            if deal.melds[seat]:
                parts.append(self.with_sets(deal, seat))
            if words.flowers and deal.flowers[seat]:
                flowers = Text(t.pgettext("game", "flowers") + " ")
                flowers.append_text(screen.tiles([deal.kinds[f] for f in deal.flowers[seat]]))
                parts.append(flowers)
            for i, part in enumerate(parts):
                line.append(screen.dot if i else ": ")
                line.append_text(part)
            screen.say(line)
            river = deal.rivers[seat]
            discards = Text("  " + t.pgettext("game", "discards") + ": ")
            if river:
                styles = {len(river) - 1: NEWEST_DISCARD_STYLE} if last is not None and last["seat"] == seat \
                    and last["id"] == river[-1] else {}  # (unless claimed)
                discards.append_text(screen.tiles([deal.kinds[x] for x in river], styles))
            else:
                discards.append("-")
            screen.say(discards)

    # ------------------------------------------------------------ the hints

    def hints(self, deal: Deal, decision: Decision) -> None:
        """The analysis of your hand (``?``): the legend and keys, how far from ready, the best
        discards with the tiles they keep, the waits and what each win is worth, and why a
        win would be refused."""
        screen = self.screen
        words = self.words
        t = self.t
        for line in words.legend():
            screen.say(line)
        screen.say(t.pgettext("game", "Keys: a tile's number discards it (you confirm); w win; k kong; b board; "
                                      "r rules; q quit."))
        view = View.of_seat(deal, HUMAN)
        a = self.analyst
        if decision.kind == "missing_suit":
            screen.say(t.pgettext("game", "Choose the suit you will give up: you must discard its tiles before any "
                                          "other, and you cannot win while you hold one."))
            return
        if decision.kind == "turn":
            allowed = [o.tile for o in decision.options if o.do == "discard" and o.tile is not None]
            drawn = deal.kinds[decision.drawn] if decision.drawn is not None else None
            analysis = a.analyse(view, allowed, drawn)
            complete = analysis.complete
            if complete is not None:
                if complete.valid:
                    screen.say(t.pgettext("game", "Your hand is complete: w wins {worth}.",
                                          worth=words.amount(complete.total)))
                else:
                    screen.say(t.pgettext("game", "Your tiles make a winning shape, but {why}.",
                                          why=words.refusal(complete)))
            for line in words.turn_hints(a, view, analysis):
                screen.say(line)
            return
        for line in words.waiting_hints(a.analyse(view)):
            screen.say(line)

    def rules(self) -> None:
        """The variant in two lines, and where its whole rules page is."""
        t = self.t
        v = self.variant
        self.screen.say(variant_text(t, self.words.unit, VARIANT_SUMMARY, " ".join(v.summary.split())))
        minimum = v.scoring.minimum
        if minimum:
            self.screen.say(t.pgettext("game", "A win needs at least {minimum}.", minimum=self.words.amount(minimum)))
        self.screen.say(t.pgettext("game", "The whole rules: cardavia rules {variant} --lang {lang} --format txt",
                                   variant=v.id, lang=t.lang.tag))


class TerminalPlayer:
    """Seat 0's controller: shows your hand and reads your choice."""

    def __init__(self, game: Game, number: int) -> None:
        self.game = game
        self.number = number

    @property
    def screen(self) -> Screen:
        return self.game.screen

    @property
    def t(self) -> Any:
        return self.game.t

    def choose(self, deal: Deal, decision: Decision) -> Action:
        if decision.kind == "exchange":
            return self._exchange(deal, decision)
        if decision.kind == "missing_suit":
            return self._missing(deal, decision)
        if decision.kind == "turn":
            return self._turn(deal, decision)
        return self._claim(deal, decision)

    def _common(self, deal: Deal, decision: Decision, answer: str) -> bool:
        """Answer the keys every question knows (help, board, rules); True when handled."""
        low = answer.lower()
        if low in ("?", "h", "help"):
            self.game.hints(deal, decision)
            return True
        if low in ("b", "board"):
            self.game.board(deal, self.number)
            self.game.your_hand(deal)
            return True
        if low in ("r", "rules"):
            self.game.rules()
            return True
        return False

    def confirm(self, question: str) -> bool:
        """A yes-or-no question: Enter or y is yes, n is no; anything else is asked again."""
        t = self.t
        while True:
            answer = self.screen.ask(question + " " + t.pgettext("game", "[Enter/y = yes, n = no]")).lower()
            if answer in ("", "y", "yes"):
                return True
            if answer in ("n", "no"):
                return False
            self.screen.say(t.pgettext("game", "Please answer y or n."))

    # ------------------------------------------------------------ the exchange before play

    def _exchange(self, deal: Deal, decision: Decision) -> Action:
        """The tiles to pass on, typed as codes; Enter takes the computer players' choice."""
        from cardavia.compiler.model.tiles import TileError, parse_tiles

        from .exchange import baseline

        t = self.t
        suggestion = baseline(deal.counts[HUMAN], decision)
        n = len(suggestion.tiles)
        shown = " ".join(CODES[k] for k in suggestion.tiles)
        self.game.your_hand(deal)
        while True:
            answer = self.screen.ask(t.pgettext("game", "Pass on {n} tiles (codes, e.g. {tiles}); Enter = {tiles}:",
                                                n=n, tiles=shown))
            if not answer:
                return suggestion
            if self._common(deal, decision, answer):
                continue
            try:
                kinds = tuple(sorted(parse_tiles(answer)))
            except TileError:
                kinds = ()
            chosen = next((o for o in decision.options if o.tiles == kinds), None)
            if chosen is not None:
                return chosen
            self.screen.say(t.pgettext("game", "'{answer}' cannot be passed on: give {n} tiles you hold, of one suit "
                                               "where the rules say so.", answer=answer, n=n))

    # ------------------------------------------------------------ the missing suit

    def _missing(self, deal: Deal, decision: Decision) -> Action:
        t = self.t
        words = self.game.words
        counts = deal.counts[HUMAN]
        held = {s: sum(counts[i * 9:(i + 1) * 9]) for i, s in enumerate(SUITS)}
        fewest = min(SUITS, key=lambda s: held[s])
        self.game.your_hand(deal)
        menu = ", ".join(t.pgettext("game", "{letter} = {suit} ({n} held)", letter=s, suit=words.suit(s), n=held[s])
                         for s in SUITS)
        while True:
            answer = self.screen.ask(t.pgettext("game", "Choose your missing suit: {menu}; Enter = {fewest}:",
                                                menu=menu, fewest=fewest)).lower() or fewest
            if answer in SUITS:
                return Action("missing_suit", suit=answer)
            if not self._common(deal, decision, answer):
                self.screen.say(t.pgettext("game", "'{answer}' is not a suit: type m, p or s.", answer=answer))

    # ------------------------------------------------------------ your turn

    def _turn(self, deal: Deal, decision: Decision) -> Action:
        t = self.t
        game = self.game
        screen = self.screen
        tiles = game.hand(deal)
        allowed = {o.tile for o in decision.options if o.do == "discard" and o.tile is not None}
        kongs = [o for o in decision.options if o.do == "kong" and o.tile is not None]
        can_win = any(o.do == "win" for o in decision.options)
        drawn = decision.drawn
        head = [t.pgettext("game", "Your turn"), t.pgettext("game", "wall {n}", n=deal.wall_left())]
        if drawn is not None:
            head.append(t.pgettext("game", "you drew {tile}", tile=deal.codes[drawn]))
        line = screen.text(screen.dot.join(head))
        if screen.color:
            line.stylize("bold")
        screen.say(line)
        game.your_hand(deal)
        if drawn is not None and not can_win:
            self._refused_draw(deal, decision)
        default = drawn if drawn is not None and deal.kinds[drawn] in allowed and not can_win else None
        keys = [f"1-{len(tiles)}"]
        if default is not None:
            keys.append(t.pgettext("game", "Enter = {tile}", tile=deal.codes[default]))
        if kongs:
            keys.append(t.pgettext("game", "k = kong {tiles}", tiles=" ".join(CODES[o.tile] for o in kongs
                                                                                if o.tile is not None)))
        keys.append(t.pgettext("game", "? = help"))
        locked = deal.stay and deal.won[HUMAN]  # after a win the hand stays as it was
        if locked and drawn is not None:
            screen.say(t.pgettext("game", "Your hand is locked since your win: only the tile you drew, {tile}, may "
                                          "be discarded.", tile=deal.codes[drawn]))
        elif len(allowed) < len({deal.kinds[x] for x in tiles}):
            screen.say(t.pgettext("game", "Only {tiles} may be discarded now: the missing suit goes first.",
                                  tiles=" ".join(CODES[k] for k in sorted(allowed))))
        if can_win:
            value = game.analyst.complete_value(View.of_seat(deal, HUMAN), deal.kinds[drawn]) if drawn is not None \
                else None
            worth = game.words.amount(value.total) if value is not None else ""
            prompt = t.pgettext("game", "You can win, self-drawn: {worth}! w = win, or discard {keys}:",
                                worth=worth, keys=", ".join(keys))
        else:
            prompt = t.pgettext("game", "Discard which tile? {keys}:", keys=", ".join(keys))
        while True:
            answer = screen.ask(prompt, protect=can_win)
            low = answer.lower()
            if low in ("w", "win"):
                if can_win:
                    return Action("win")
                screen.say(t.pgettext("game", "You cannot win now: ? shows how far your hand is."))
                continue
            if low.startswith("k"):
                chosen = self._kong(low, kongs)
                if chosen is not None:
                    return chosen
                continue
            if self._common(deal, decision, answer):
                continue
            tid: int | None = None
            picked = number(answer)
            if not answer and default is not None:
                tid = default
            elif not answer and can_win:
                screen.say(t.pgettext("game", "To win, type w; to play on, type the number of the tile to discard."))
                continue
            elif not answer:
                screen.say(t.pgettext("game", "Type the number of the tile to discard, 1 to {n}, or ? for help.",
                                      n=len(tiles)))
                continue
            elif picked is not None and 1 <= picked <= len(tiles):
                tid = tiles[picked - 1]
            else:
                screen.say(t.pgettext("game", "'{answer}' is not understood: type a tile number from 1 to {n}, or ? "
                                              "for help.", answer=answer, n=len(tiles)))
                continue
            kind = deal.kinds[tid]
            if kind not in allowed:
                if locked:
                    screen.say(t.pgettext("game", "{tile} cannot be discarded: your hand is locked since your win.",
                                          tile=deal.codes[tid]))
                else:
                    screen.say(t.pgettext("game", "{tile} cannot be discarded now: the missing suit goes first.",
                                          tile=deal.codes[tid]))
                continue
            if can_win and not self.confirm(t.pgettext("game", "Discard {tile} and give up the win?",
                                                        tile=deal.codes[tid])):
                continue
            if can_win or self.confirm(t.pgettext("game", "Discard {tile}?", tile=deal.codes[tid])):
                return Action("discard", tile=kind, id=tid)

    def _kong(self, low: str, kongs: list[Action]) -> Action | None:
        t = self.t
        if not kongs:
            self.screen.say(t.pgettext("game", "No kong is possible now."))
            return None
        code = low[4:].strip() if low.startswith("kong") else low[1:].strip()
        match = [o for o in kongs if o.tile is not None and (not code or CODES[o.tile] == code)]
        if len(match) != 1:
            self.screen.say(t.pgettext("game", "Say which kong: {choices}.",
                                       choices=", ".join("k " + CODES[o.tile] for o in kongs if o.tile is not None)),
                            tiles=False)  # what the player types
            return None
        kong = match[0]
        assert kong.tile is not None
        if self.confirm(t.pgettext("game", "Declare a kong of {tile}?", tile=CODES[kong.tile])):
            return kong
        return None

    def _refused_draw(self, deal: Deal, decision: Decision) -> None:
        """Explain a drawn tile that makes a winning shape the rules refuse."""
        if decision.drawn is None:
            return
        view = View.of_seat(deal, HUMAN)
        value = self.game.analyst.complete_value(view, deal.kinds[decision.drawn])
        if value is not None and not value.valid:
            self.screen.say(self.t.pgettext("game", "{tile} completes your hand, but {why}: no win.",
                                            tile=deal.codes[decision.drawn], why=self.game.words.refusal(value)))

    # ------------------------------------------------------------ claims

    def _claim(self, deal: Deal, decision: Decision) -> Action:
        assert decision.tile is not None and decision.from_seat is not None  # a claim or rob names both
        t = self.t
        screen = self.screen
        words = self.game.words
        tile = CODES[decision.tile]
        who = words.seat(deal, decision.from_seat)
        self.game.your_hand(deal)
        menu: list[tuple[str, Action, str]] = []
        chows = [o for o in decision.options if o.do == "chow"]
        can_win = False
        for o in decision.options:
            if o.do == "win":
                can_win = True
                menu.append(("w", o, t.pgettext("game", "w = win")))
            elif o.do == "pung":
                menu.append(("p", o, t.pgettext("game", "p = pung")))
            elif o.do == "kong":
                menu.append(("k", o, t.pgettext("game", "k = kong")))
            elif o.do == "chow":
                key = "c" if len(chows) == 1 else f"c{chows.index(o) + 1}"
                menu.append((key, o, t.pgettext("game", "{key} = chow {tiles}", key=key,
                                                tiles=" ".join(CODES[k] for k in sorted([*o.tiles, decision.tile])))))
        if can_win:
            menu_text = "; ".join(label for _, _, label in menu) + "; " + t.pgettext("game", "x = pass")
        else:
            menu_text = "; ".join(label for _, _, label in menu) + "; " + t.pgettext("game", "Enter = pass")
        if decision.kind == "rob":
            question = capital(t.pgettext("game", "{seat} adds {tile} to a pung: rob the kong? {menu}:", seat=who,
                                          tile=tile, menu=menu_text))
        else:
            question = t.pgettext("game", "Claim {tile} from {seat}? {menu}:", seat=who, tile=tile, menu=menu_text)
        while True:
            answer = screen.ask(question, protect=True)
            low = answer.lower()
            if low in ("x", "pass") or (not low and not can_win):
                return Action("pass")
            if not low:
                screen.say(t.pgettext("game", "To pass on this win, type x; to win, type w."))
                continue
            if self._common(deal, decision, answer):
                continue
            if low == "c" and len(chows) > 1:
                keys = [entry[0] for entry in menu if entry[0].startswith("c")]
                screen.say(t.pgettext("game", "Say which chow: {choices}.", choices=", ".join(keys)))
                continue
            match = [(o, label) for key, o, label in menu if key == low]
            if not match:
                screen.say(t.pgettext("game", "'{answer}' is not one of the choices: {menu}.", answer=answer,
                                      menu=menu_text))
                continue
            option, _ = match[0]
            if option.do == "win":
                return option
            if option.do == "chow":
                what = t.pgettext("game", "Chow {tiles}?", tiles=" ".join(
                    CODES[k] for k in sorted([*option.tiles, decision.tile])))
            elif option.do == "pung":
                what = t.pgettext("game", "Pung {tile}?", tile=tile)
            else:
                what = t.pgettext("game", "Kong {tile}?", tile=tile)
            if self.confirm(what):
                return option


class Narrator:
    """Tells each move as it happens (never anyone's hidden tiles), the others' at the
    game's pace; holds back the missing suits until every seat has chosen; explains a
    discard that would complete your hand when the rules refuse the win."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.seen = 0
        self.held: list[dict[str, Any]] = []

    def __call__(self, deal: Deal, *_: Any) -> None:
        screen = self.game.screen
        words = self.game.words
        for e in deal.events[self.seen:]:
            if e["type"] == "missing_suit":
                self.held.append(e)
                continue
            line = words.event(deal, e)
            if line is None:
                continue
            if e.get("seat") == HUMAN:
                screen.say(line)
            else:
                screen.moved(line)
            if e["type"] == "discard" and e["seat"] != HUMAN:
                self._refused(deal, e)
        self.seen = len(deal.events)
        if self.held and deal.phase != "missing_suit":
            self.held = []
            screen.say(words.missing_suits(deal))

    def _refused(self, deal: Deal, e: dict[str, Any]) -> None:
        """A discard that completes your hand, where no win is offered: say why."""
        if deal.won[HUMAN]:
            return
        kind = deal.kinds[e["id"]]
        if kind not in deal.waits(HUMAN):
            return
        decision = deal.decision_for(HUMAN)
        if decision is not None and any(o.do == "win" for o in decision.options):
            return
        value = self.game.analyst.win_value(View.of_seat(deal, HUMAN), kind, False, on_table=True)
        if not value.valid:
            t = self.game.t
            self.game.screen.say(t.pgettext("game", "{tile} would complete your hand, but {why}: no win.",
                                            tile=e["tile"], why=self.game.words.refusal(value)))


def summary(game: Game, deal: Deal, totals: list[int]) -> None:
    """The end of a deal in words: why it ended, each win with its patterns and the winner's
    flowers, every hand face up, each payment with its reason, the ready hands and their
    waits behind a payment at the end of the wall, the deltas and the running totals."""
    screen = game.screen
    words = game.words
    t = game.t
    screen.say()
    screen.say(Text(t.pgettext("game", "End of the deal: {why}.", why=words.ending(deal)),
                    style="bold" if screen.color else ""))
    for w in deal.wins:
        source = words.seat(deal, w.from_seat) if w.from_seat is not None else None
        if w.seat == HUMAN:
            head = (t.pgettext("game", "You won on {tile} from {source}: {worth}.", tile=CODES[w.tile], source=source,
                               worth=words.amount(w.result.total)) if source is not None else
                    t.pgettext("game", "You won, self-drawn on {tile}: {worth}.", tile=CODES[w.tile],
                               worth=words.amount(w.result.total)))
        else:
            who = words.seat(deal, w.seat)
            head = (t.pgettext("game", "{seat} won on {tile} from {source}: {worth}.", seat=who, tile=CODES[w.tile],
                               source=source, worth=words.amount(w.result.total)) if source is not None else
                    t.pgettext("game", "{seat} won, self-drawn on {tile}: {worth}.", seat=who, tile=CODES[w.tile],
                               worth=words.amount(w.result.total)))
        screen.say(capital(head))
        fans = [f"{words.pattern(f.id)} {f.value}" + (f" x{f.count}" if f.count > 1 else "") for f in w.result.fans]
        for row in screen.columns(fans, "  "):
            screen.say(row)
        if words.flowers and deal.flowers[w.seat]:
            flowers = Text("  " + t.pgettext("game", "flowers") + " ")
            flowers.append_text(screen.tiles([deal.kinds[f] for f in deal.flowers[w.seat]]))
            screen.say(flowers)
    if not deal.wins and deal.end != "exhausted":  # an exhausted wall's ending already says nobody won
        screen.say(t.pgettext("game", "Nobody won."))
    screen.say(t.pgettext("game", "Every hand:"))
    facts = deal.player_facts() if deal.end == "exhausted" else None
    for seat in range(deal.n):
        line = Text("  " + capital(words.seat(deal, seat)) + ": ")
        line.append_text(screen.tiles(sorted(deal.kinds[x] for x in deal.hands[seat])))
        if deal.melds[seat]:
            line.append(" ")
            line.append_text(game.sets(deal, seat))
        screen.say(line)
        if facts is not None and facts[seat].ready:
            _, _, waits = deal.ready_value(seat)
            best = max((w.discard.total for w in game.analyst.waits(View.of_seat(deal, seat))
                        if w.tile in waits and w.discard.valid), default=0)
            screen.say("    " + t.pgettext("game", "ready, waiting on {tiles}: best win {worth}, which pays {amount}",
                                           tiles=words.tiles(waits), worth=words.amount(best),
                                           amount=facts[seat].ready_value))
    if deal.payments:
        screen.say(t.pgettext("game", "Payments:"))
        for p in deal.payments:
            screen.say("  " + words.payment(deal, p))
    else:
        screen.say(t.pgettext("game", "No payments."))
    parts = [t.pgettext("game", "{seat} {total}", seat=words.seat(deal, s), total=format(d, "+d"))
             for s, d in enumerate(deal.deltas())]
    screen.say(t.pgettext("game", "This deal: {list}.", list=", ".join(parts)))
    screen.say(words.totals(totals))


def play_session(variant_name: str, seed: int | None, inp: TextIO, out: TextIO, *, lang: str = "en",
                 color: bool | None = None, tiles: str = "text", pace: float = 0.0,
                 flush: Callable[[TextIO], None] = _discard_typeahead,
                 options: Mapping[str, str] | None = None, players: Sequence[str] | None = None) -> int:
    """Deals until the player quits; returns the exit status (130 after Ctrl-C). ``options``:
    the choices made among the variant's options; ``players``: the controller kinds of the
    other seats, in seat order (default the AI, ``ai``)."""
    variant = load_variant(variant_name, options)
    screen = Screen(inp, out, color=color, tiles=tiles, pace=pace, flush=flush)
    words = Words(variant, lang)
    game = Game(variant, screen, words)
    t = words.t
    if seed is None:
        seed = random.SystemRandom().randrange(10 ** 6)
    screen.say(Text(variant_text(t, words.unit, VARIANT_TITLE, variant.title), style="bold" if screen.color else ""))
    screen.say(t.npgettext("game", "You play seat 0 against {n} computer player. Seed {seed}. At any question: ? "
                                   "help and hints, b board, q quit.",
                           "You play seat 0 against {n} computer players. Seed {seed}. At any question: ? "
                           "help and hints, b board, q quit.", variant.table.players - 1, seed=seed))
    for line in words.legend():
        screen.say(line)
    n = variant.table.players
    totals = [0] * n
    number = 0
    deal: Deal | None = None
    told = False  # the running totals are the last thing shown (the end of a deal)
    status = 0
    try:
        while True:
            dealer = number % n if variant.table.rotate_dealer else 0
            deal = Deal(variant, shuffled_wall(variant.tiles, deal_seed(seed, number)), dealer)
            screen.say()
            narrator = Narrator(game)
            human = TerminalPlayer(game, number + 1)
            game.board(deal, number + 1)
            others = iter(players if players is not None else ["ai"] * (n - 1))
            controllers = [human if s == HUMAN else make_controller(next(others), deal_seed(seed, number * n + s))
                           for s in range(n)]
            narrator(deal)
            play_deal(deal, controllers, on_step=narrator)
            totals = [a + b for a, b in zip(totals, deal.deltas())]
            summary(game, deal, totals)
            deal = None
            told = True
            while True:
                answer = screen.ask(t.pgettext("game", "Enter = next deal, q = quit:")).lower()
                if answer in ("", "n", "next"):
                    break
                screen.say(t.pgettext("game", "'{answer}' is not understood: Enter for the next deal, q to quit.",
                                      answer=answer))
            told = False
            number += 1
    except Quit:
        pass
    except KeyboardInterrupt:
        screen.say()
        screen.say(t.pgettext("game", "Interrupted."))
        status = 130
    if deal is not None and not deal.over:
        screen.say(t.pgettext("game", "The deal in progress is not counted."))
    if not told:
        screen.say(words.totals(totals))
    screen.say(t.pgettext("game", "Thanks for playing."))
    return status

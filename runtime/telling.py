"""The terminal game's words: what happened, what a hand is worth and how a deal ended,
in the player's language.

Every sentence is a message of the gettext catalogs the rules pages use (context
``game``, cardavia/render/catalog.py; ``python -m cardavia.render.extract`` collects them
from this module and the terminal's), so it is translated once per language; pattern
names, units, validity reasons and settlement reasons come from the variant's own entries.
Your own moves and another player's are separate sentences ("you discard", "seat 2
discards"): no language has to build a verb around a name.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardavia.compiler.model.tiles import CODES, SUITS
from cardavia.compiler.settlement import kong_reason

from cardavia.render.catalog import (
    PATTERN_NAME,
    SETTLEMENT_REASON,
    VALIDITY_REASON,
    Translator,
    humanize,
    translator,
    unit_word,
    variant_text,
)

from .analysis import View

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant

    from .analysis import Analysis, Analyst, Wait, WinValue
    from .deal import Deal
    from .payments import Payment

#: The seat the person plays (the others are computer players).
HUMAN = 0
WINDS = "ESWN"
#: How many of the best discards the hints name, and how many useful tiles each names.
HINTED_DISCARDS = 3
NAMED_TILES = 9


def capital(sentence: str) -> str:
    """A sentence that starts with a name ("seat 2 discards 5p.") starts with a capital."""
    return sentence[:1].upper() + sentence[1:]


class Words:
    """The game's sentences in one language, for one variant."""

    def __init__(self, variant: CompiledVariant, lang: str = "en") -> None:
        self.variant = variant
        self.t: Translator = translator(lang)
        self.unit = variant.scoring.unit
        self.names = {p.id: p.name for p in variant.scoring.table.patterns}
        kinds = set(variant.tiles.kinds)
        #: Whether the variant has winds (then seats and the round have a wind) and flowers.
        self.winds = any(27 <= k < 31 for k in kinds)
        self.flowers = any(k >= 34 for k in kinds)

    # ------------------------------------------------------------ small pieces

    def amount(self, n: int) -> str:
        """``n`` in the variant's unit ("1 faan", "2 points")."""
        return self.t._("{n} {unit}", n=n, unit=unit_word(self.t, self.unit, n))

    def seat(self, deal: Deal, seat: int) -> str:
        """A seat's name: "you", or "seat 2" (with its wind where the variant has winds)."""
        if seat == HUMAN:
            return self.t.pgettext("game", "you")
        if self.winds:
            return self.t.pgettext("game", "seat {n} ({wind})", n=seat, wind=self.wind(deal.seat_wind(seat)))
        return self.t.pgettext("game", "seat {n}", n=seat)

    def wind(self, kind: int) -> str:
        """A wind's letter (E, S, W, N), as the players' language writes it."""
        letters = [self.t.pgettext("game", "E"), self.t.pgettext("game", "S"), self.t.pgettext("game", "W"),
                   self.t.pgettext("game", "N")]
        return letters[kind - 27]

    def suit(self, letter: str) -> str:
        names = {"m": self.t.pgettext("game", "characters"), "p": self.t.pgettext("game", "dots"),
                 "s": self.t.pgettext("game", "bamboo")}
        return names[letter]

    def pattern(self, fid: str) -> str:
        return variant_text(self.t, self.unit, PATTERN_NAME, self.names.get(fid, humanize(fid)))

    def tiles(self, kinds: Sequence[int]) -> str:
        return " ".join(CODES[k] for k in kinds)

    def legend(self) -> list[str]:
        """What the tile codes mean, for the groups the variant's tile set has."""
        kinds = set(self.variant.tiles.kinds)
        t = self.t
        parts = [f"{letter} {self.suit(letter)}" for i, letter in enumerate(SUITS)
                 if any(9 * i <= k < 9 * i + 9 for k in kinds)]
        if self.winds:
            parts.append(t.pgettext("game", "1z-4z winds E S W N"))
        if any(31 <= k < 34 for k in kinds):
            parts.append(t.pgettext("game", "5z 6z 7z dragons white, green, red"))
        if self.flowers:
            parts.append(t.pgettext("game", "1f-4f flowers, 5f-8f seasons"))
        return [t.pgettext("game", "Tiles: {groups}.", groups="; ".join(parts))]

    # ------------------------------------------------------------ why a win is refused

    def refusal(self, value: WinValue) -> str:
        """Why a win is not valid: worth too little, or a rule of the variant's."""
        if value.below_minimum:
            return self.t.pgettext("game", "it is worth {worth} toward the minimum, {minimum} needed",
                                   worth=self.amount(value.counted), minimum=self.amount(value.minimum))
        reason = value.reason or ""
        if reason == "not a winning shape":
            return self.t.pgettext("game", "it makes no winning shape")
        return variant_text(self.t, self.unit, VALIDITY_REASON, reason)

    def worth(self, value: WinValue) -> str:
        """A win's value in a few words: "4 faan", "1 faan, below the minimum", "5 points,
        below the minimum (3 points toward it)" where some points do not count toward it."""
        if value.valid:
            return self.amount(value.total)
        if value.below_minimum:
            if value.counted != value.total:  # bonus points (flowers) that do not count toward it
                return self.t.pgettext("game", "{worth}, below the minimum ({counted} toward it)",
                                       worth=self.amount(value.total), counted=self.amount(value.counted))
            return self.t.pgettext("game", "{worth}, below the minimum", worth=self.amount(value.total))
        return self.t.pgettext("game", "no valid win")

    # ------------------------------------------------------------ hints (terminal and web alike)

    def wait(self, wait: Wait) -> str:
        """A wait's copies left and the value of a win on it, on a discard and self-drawn."""
        t = self.t
        left = t.npgettext("game", "{n} left", "{n} left", wait.unseen)
        if wait.discard.valid == wait.self_drawn.valid and wait.discard.total == wait.self_drawn.total:
            return t.pgettext("game", "{tile} ({left}: {worth})", tile=CODES[wait.tile], left=left,
                              worth=self.worth(wait.discard))
        return t.pgettext("game", "{tile} ({left}: {worth}, self-drawn {drawn})", tile=CODES[wait.tile], left=left,
                          worth=self.worth(wait.discard), drawn=self.worth(wait.self_drawn))

    def distance(self, shanten: int, extra: bool) -> list[str]:
        """How far the hand is from ready (``extra``: it holds a tile to discard first)."""
        t = self.t
        if shanten >= 99:
            return [t.pgettext("game", "No winning shape can be made with these sets.")]
        if shanten == 0 and extra:
            return [t.pgettext("game", "The right discard leaves you ready.")]
        if shanten > 0:
            return [t.npgettext("game", "You are {n} tile away from ready.", "You are {n} tiles away from ready.",
                                shanten)]
        return []

    def useful(self, kinds: Sequence[int]) -> str:
        """The first useful tiles by code, "…" when there are more."""
        return " ".join(CODES[k] for k in kinds[:NAMED_TILES]) + (" …" if len(kinds) > NAMED_TILES else "")

    def turn_hints(self, analyst: Analyst, view: View, analysis: Analysis) -> list[str]:
        """On your turn: how far from ready and the best discards, each with its waits and
        their values or the useful tiles it keeps (a complete hand is told by the caller)."""
        t = self.t
        out = self.distance(analysis.shanten, True)
        for d in analysis.discards[:HINTED_DISCARDS]:
            if d.shanten == 0:
                rest = list(view.concealed)
                rest.remove(d.tile)
                waits = analyst.waits(View(tuple(rest), view.melds, view.flowers, view.seat_wind, view.round_wind,
                                           view.missing_suit, view.visible))
                out.append(t.pgettext("game", "Discard {tile}: ready on {waits}.", tile=CODES[d.tile],
                                      waits="; ".join(self.wait(w) for w in waits)))
            elif d.shanten < 99:
                out.append(t.npgettext("game", "Discard {tile}: {n} useful tile left ({kinds}).",
                                       "Discard {tile}: {n} useful tiles left ({kinds}).", d.unseen,
                                       tile=CODES[d.tile], kinds=self.useful(d.useful)))
        return out

    def waiting_hints(self, analysis: Analysis) -> list[str]:
        """Between your turns: the waits and their values and why a win on one would be
        refused, or how far from ready and the useful tiles."""
        t = self.t
        if analysis.waits:
            out = [t.pgettext("game", "You are ready. Waits: {waits}.",
                              waits="; ".join(self.wait(w) for w in analysis.waits))]
            for w in analysis.waits:
                refused = next((v for v in (w.discard, w.self_drawn) if not v.valid), None)
                if refused is not None:
                    out.append(t.pgettext("game", "A win on {tile} is refused: {why}.", tile=CODES[w.tile],
                                          why=self.refusal(refused)))
            return out
        out = self.distance(analysis.shanten, False)
        if analysis.useful:
            out.append(t.npgettext("game", "{n} useful tile left: {kinds}.", "{n} useful tiles left: {kinds}.",
                                   analysis.unseen, kinds=self.useful(analysis.useful)))
        return out

    # ------------------------------------------------------------ what happened

    def event(self, deal: Deal, e: dict[str, Any]) -> str | None:
        """One line for an event of the log, or None for those not told (draws, payments)."""
        line = self._event(deal, e)
        return capital(line) if line else None

    def _event(self, deal: Deal, e: dict[str, Any]) -> str | None:
        t = self.t
        kind = e["type"]
        seat = e.get("seat")
        you = seat == HUMAN
        who = self.seat(deal, seat) if seat is not None else ""
        if kind == "discard":
            if you:
                return t.pgettext("game", "You discard {tile}.", tile=e["tile"])
            return t.pgettext("game", "{seat} discards {tile}.", seat=who, tile=e["tile"])
        if kind in ("chow", "pung") or (kind == "kong" and e.get("kong") == "exposed"):
            tiles = " ".join(e["tiles"])
            source = self.seat(deal, e["from"])
            if kind == "chow":
                if you:
                    return t.pgettext("game", "You claim a chow from {source}: {tiles}.", source=source, tiles=tiles)
                return t.pgettext("game", "{seat} claims a chow from {source}: {tiles}.", seat=who, source=source,
                                  tiles=tiles)
            if kind == "pung":
                if you:
                    return t.pgettext("game", "You claim a pung from {source}: {tiles}.", source=source, tiles=tiles)
                return t.pgettext("game", "{seat} claims a pung from {source}: {tiles}.", seat=who, source=source,
                                  tiles=tiles)
            if you:
                return t.pgettext("game", "You claim a kong from {source}: {tiles}.", source=source, tiles=tiles)
            return t.pgettext("game", "{seat} claims a kong from {source}: {tiles}.", seat=who, source=source,
                              tiles=tiles)
        if kind == "kong":
            tile = e["tiles"][0]
            if e.get("kong") == "concealed":
                if you:
                    return t.pgettext("game", "You declare a concealed kong of {tile}.", tile=tile)
                return t.pgettext("game", "{seat} declares a concealed kong of {tile}.", seat=who, tile=tile)
            if you:
                return t.pgettext("game", "You add {tile} to your pung: a kong.", tile=tile)
            return t.pgettext("game", "{seat} adds {tile} to a pung: a kong.", seat=who, tile=tile)
        if kind == "flower":
            if you:
                return t.pgettext("game", "You show a flower, {tile}, and draw a replacement.", tile=e["tile"])
            return t.pgettext("game", "{seat} shows a flower, {tile}, and draws a replacement.", seat=who,
                              tile=e["tile"])
        if kind == "win":
            worth = self.amount(e["total"])
            if e.get("from") is None:
                if you:
                    return t.pgettext("game", "You win, self-drawn on {tile}: {worth}!", tile=e["tile"], worth=worth)
                return t.pgettext("game", "{seat} wins, self-drawn on {tile}: {worth}.", seat=who, tile=e["tile"],
                                  worth=worth)
            source = self.seat(deal, e["from"])
            if you:
                return t.pgettext("game", "You win on {tile} from {source}: {worth}!", tile=e["tile"], source=source,
                                  worth=worth)
            return t.pgettext("game", "{seat} wins on {tile} from {source}: {worth}.", seat=who, tile=e["tile"],
                              source=source, worth=worth)
        if kind == "exchange":  # only your own tiles are named: the others' stay hidden
            if you:
                return t.pgettext("game", "You pass {tiles} to {target}.", tiles=" ".join(e["tiles"]),
                                  target=self.seat(deal, e["to"]))
            if e["to"] == HUMAN:
                return t.pgettext("game", "{seat} passes you {tiles}.", seat=who, tiles=" ".join(e["tiles"]))
            return t.npgettext("game", "{seat} passes {n} tile to {target}.", "{seat} passes {n} tiles to {target}.",
                               len(e.get("ids", ())) or e.get("n_tiles", 0), seat=who, target=self.seat(deal, e["to"]))
        if kind == "draw" and you and e.get("end") == "back" and e["tile"][-1] != "f":
            return t.pgettext("game", "You draw a replacement tile: {tile}.", tile=e["tile"])
        return None

    def missing_suits(self, deal: Deal) -> str:
        """Every seat's missing suit, once all have chosen."""
        parts = [self.t.pgettext("game", "{seat}: {suit}", seat=self.seat(deal, s), suit=self.suit(m))
                 for s, m in enumerate(deal.missing) if m]
        return self.t.pgettext("game", "Missing suits: {list}.", list=self.t.join(parts))

    # ------------------------------------------------------------ the end of a deal

    def ending(self, deal: Deal) -> str:
        """Why the deal ended, in words."""
        t = self.t
        end = deal.end
        winners = len(deal.wins)
        if end == "exhausted":
            if winners:
                return t.pgettext("game", "the wall is exhausted")
            return t.pgettext("game", "the wall is exhausted and nobody won")
        if end == "win" and deal.wins:
            if deal.wins[0].seat == HUMAN:
                return t.pgettext("game", "you won")
            return t.pgettext("game", "{seat} won", seat=self.seat(deal, deal.wins[0].seat))
        if end and end.endswith("_won"):
            return t.npgettext("game", "{n} player won", "{n} players won", winners)
        return humanize(end or "")

    def reason(self, reason: str) -> str:
        """A payment's reason: the engine's own (a win, a kong) or one the variant names."""
        t = self.t
        own = {"win": t.pgettext("game", "win"), kong_reason("exposed"): t.pgettext("game", "exposed kong"),
               kong_reason("added"): t.pgettext("game", "added kong"),
               kong_reason("concealed"): t.pgettext("game", "concealed kong"),
               "kong_refund": t.pgettext("game", "kong refund")}
        if reason in own:
            return own[reason]
        return variant_text(t, self.unit, SETTLEMENT_REASON, humanize(reason))

    def payment(self, deal: Deal, p: Payment) -> str:
        return capital(self._payment(deal, p))

    def _payment(self, deal: Deal, p: Payment) -> str:
        t = self.t
        why = self.reason(p.reason)
        if p.payer == HUMAN:
            return t.pgettext("game", "You pay {payee} {amount} ({reason}).", payee=self.seat(deal, p.payee),
                              amount=p.amount, reason=why)
        if p.payee == HUMAN:
            return t.pgettext("game", "{payer} pays you {amount} ({reason}).", payer=self.seat(deal, p.payer),
                              amount=p.amount, reason=why)
        return t.pgettext("game", "{payer} pays {payee} {amount} ({reason}).", payer=self.seat(deal, p.payer),
                          payee=self.seat(deal, p.payee), amount=p.amount, reason=why)

    def player(self, seat: int) -> str:
        """A seat's name whatever the deal: "you", "seat 2" (winds move from deal to deal)."""
        if seat == HUMAN:
            return self.t.pgettext("game", "you")
        return self.t.pgettext("game", "seat {n}", n=seat)

    def totals(self, totals: Sequence[int]) -> str:
        parts = [self.t.pgettext("game", "{seat} {total}", seat=self.player(s), total=format(v, "+d"))
                 for s, v in enumerate(totals)]
        return self.t.pgettext("game", "Running totals: {list}.", list=", ".join(parts))

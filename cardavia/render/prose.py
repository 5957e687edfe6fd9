"""The words of a rules page, composed from a variant's facts in one language.

Every sentence is one catalog message chosen by a fact (``chow: previous_player`` picks
"Only the next player ... may claim a chow"), with the numbers, names and formulas of
the variant filled into its placeholders. Nothing here knows a particular variant: a
fact the variant file changes changes the sentence in every language.
"""

from __future__ import annotations

from cardavia.compiler.model.tiles import CODES, TILE_GROUPS, is_dragon, is_honor, is_terminal, is_wind

from . import catalog as roles
from . import formulas
from .catalog import Translator, humanize, unit_word, variant_text
from .document import Block, FamilyPage, Figure, GamePage, PatternRow, Section
from .facts import FamilyFacts, PatternFact, ShapeFact, TileGroupFact, VariantFacts
from .languages import language


def cap(text: str) -> str:
    """Capitalise the first letter (no-op for scripts without case)."""
    return text[:1].upper() + text[1:] if text else text


class Prose:
    """Sentences for one variant in one language."""

    def __init__(self, facts: VariantFacts, t: Translator) -> None:
        self.f = facts
        self.t = t

    # ------------------------------------------------------------- names
    def vtext(self, role: str, english: str) -> str:
        """A text of the variant file in this language (see :func:`catalog.variant_text`)."""
        return variant_text(self.t, self.f.unit, role, english)

    def unit(self, n: int) -> str:
        u = self.f.unit
        return unit_word(self.t, u, n)

    def amount_of(self, n: int) -> str:
        return self.t._("{n} {unit}", n=n, unit=self.unit(n))

    def pattern_name(self, p: PatternFact | str) -> str:
        fact = self.f.pattern(p) if isinstance(p, str) else p
        if fact is None:
            return ""
        return self.vtext(roles.PATTERN_NAME, fact.name)

    def shape_name(self, s: ShapeFact) -> str:
        return self.vtext(roles.SHAPE_NAME, s.name or humanize(s.id))

    def group_count(self, g: TileGroupFact) -> str:
        t, n = self.t, g.copies * g.kinds
        return {
            "characters": lambda: t.ngettext("{n} character", "{n} characters", n),
            "dots": lambda: t.ngettext("{n} dot", "{n} dots", n),
            "bamboo": lambda: t.ngettext("{n} bamboo", "{n} bamboo", n),
            "winds": lambda: t.ngettext("{n} wind", "{n} winds", n),
            "dragons": lambda: t.ngettext("{n} dragon", "{n} dragons", n),
            "flowers": lambda: t.ngettext("{n} flower", "{n} flowers", n),
            "seasons": lambda: t.ngettext("{n} season", "{n} seasons", n),
        }[g.group]()

    def group_name(self, group: str) -> str:
        t = self.t
        return {
            "characters": t._("characters"), "dots": t._("dots"), "bamboo": t._("bamboo"),
            "winds": t._("winds"), "dragons": t._("dragons"), "flowers": t._("flowers"),
            "seasons": t._("seasons"),
        }[group]

    def wind(self, letter: str) -> str:
        t = self.t
        return {"E": t._("East"), "S": t._("South"), "W": t._("West"), "N": t._("North")}[letter]

    def payer(self, who: str) -> str:
        t = self.t
        names = {
            "discarder": t._("the discarder"),
            "each_opponent": t._("each opponent"),
            "each_active_opponent": t._("each opponent still playing"),
            "other_opponents": t._("each other opponent"),
            "other_active_opponents": t._("each other opponent still playing"),
        }
        return names.get(who, who)

    def kong_kind(self, kind: str) -> str:
        t = self.t
        return {"exposed": t._("Exposed kong"), "added": t._("Added kong"),
                "concealed": t._("Concealed kong")}.get(kind, kind)

    def tiles_phrase(self, kinds: tuple[int, ...]) -> str:
        """A set of tile kinds in words, by the categories it is made of."""
        t = self.t
        want = set(kinds)
        categories = [
            ({k for k in range(27) if is_terminal(k)}, t._("every terminal (1 and 9 of each suit)")),
            ({k for k in range(34) if is_honor(k)}, t._("every honor")),
            ({k for k in range(34) if is_wind(k)}, t._("every wind")),
            ({k for k in range(34) if is_dragon(k)}, t._("every dragon")),
        ]
        parts: list[str] = []
        covered: set[int] = set()
        for kinds_, words in categories:
            if kinds_ <= want and not kinds_ <= covered:
                parts.append(words)
                covered |= kinds_
        rest = sorted(want - covered)
        if rest:
            parts.append(" ".join(CODES[k] for k in rest))
        return t.join(parts)

    # ---------------------------------------------------------- sections
    def objective(self) -> Section:
        t, f = self.t, self.f
        items = []
        if f.minimum > 0:
            items.append(t._("Complete a winning hand worth at least {amount} and declare the win before the others.",
                             amount=self.amount_of(f.minimum)))
        else:
            items.append(t._("Complete a winning hand and declare the win before the others; every winning hand "
                             "counts, there is no minimum."))
        if f.outside_minimum:
            items.append(t._("Not counted toward the minimum, but added to the total: {patterns}.",
                             patterns=t.join(self.pattern_name(p) for p in f.outside_minimum)))
        if f.after_win == "continue":
            items.append(t.ngettext(
                "A player who wins stops playing while the others go on. The deal ends when {n} player has won "
                "or the wall runs out.",
                "A player who wins stops playing while the others go on. The deal ends when {n} players have won "
                "or the wall runs out.", f.max_winners))
            items.append(t._("Each player's wins, kong payments and end-of-wall payments are added together."))
        elif f.after_win == "stay":
            items.append(t._("A player who wins stays in the deal and may win again; each win is paid at once. The "
                             "deal ends only when the wall runs out."))
            items.append(t._("Each player's wins, kong payments and end-of-wall payments are added together."))
        else:
            items.append(t._("All players compete separately; the first valid win ends the deal."))
        if not f.exhausted:
            items.append(t._("If the wall runs out with no winner, the deal is drawn, with no payments."))
        return Section(1, t._("Objective"), [Block(items=items)])

    def setup(self) -> Section:
        t, f = self.t, self.f
        items = [t._("The set has {n} tiles: {groups}.", n=f.tile_count,
                     groups=t.join(self.group_count(g) for g in f.tile_groups))]
        by_copies: dict[int, list[str]] = {}
        for g in f.tile_groups:
            by_copies.setdefault(g.copies, []).append(self.group_name(g.group))
        for copies, names in by_copies.items():
            items.append(t.ngettext("{groups}: {n} copy of each tile.", "{groups}: {n} copies of each tile.",
                                    copies, groups=cap(t.join(names))))
        for g in f.tile_groups:
            if g.ranks is not None:
                items.append(t._("{group}: only the ranks {ranks}.", group=cap(self.group_name(g.group)),
                                 ranks=t.join(str(r) for r in g.ranks)))
        absent = [self.group_name(g) for g in TILE_GROUPS if g not in f.has_group]
        if absent:
            items.append(t._("There are no {groups}.", groups=t.join(absent, style="or")))
        items.append(t._("The dealer (East) receives {dealer} tiles, every other player {other}.",
                         dealer=f.dealer_tiles, other=f.other_tiles))
        if f.has_bonus:
            bonus = sum(g.copies * g.kinds for g in f.tile_groups if g.group in ("flowers", "seasons"))
            items.append(t.ngettext(
                "The {n} bonus tile is exposed at once and replaced from the end of the wall; it is outside "
                "the hand structure.",
                "The {n} bonus tiles (flowers and seasons) are exposed at once and replaced from the end of the "
                "wall; they are outside the hand structure.", bonus))
            items.append(t._("Flower 1 and season 1 belong to East, 2 to South, 3 to West and 4 to North."))
        items.append(t._("You start as East, the dealer."))
        if f.rotate_dealer:
            items.append(t._("In each following independent deal, the dealer may pass to the next seat."))
        if f.has_winds:
            items.append(t._("The round wind is {wind}; seat winds run East, South, West, North from the dealer.",
                             wind=self.wind(f.round_wind)))
        items.append(t._("Draws come from the front of the wall, every replacement from its end. There is no "
                         "dead wall: the wall is exhausted when no tile is left."))
        if f.exchange is not None:
            directions = {"next": t._("to the next player"), "previous": t._("to the previous player"),
                          "across": t._("to the player across")}
            if f.exchange["direction"] == "dice":
                ways = t.join(t._("{totals} {direction}", totals=t.join(map(str, totals), "or"),
                                  direction=directions[d]) for d, totals in f.exchange["dice"].items())
                where = t._("as the total of two dice says: {ways}", ways=ways)
            else:
                where = directions[str(f.exchange["direction"])]
            if f.exchange["same_suit"]:
                items.append(t.ngettext("After the deal, every player passes {n} tile of one suit on, all at once, "
                                        "{direction}.",
                                        "After the deal, every player passes {n} tiles of one suit on, all at once, "
                                        "{direction}.", int(f.exchange["tiles"]), direction=where))
            else:
                items.append(t.ngettext("After the deal, every player passes {n} tile on, all at once, {direction}.",
                                        "After the deal, every player passes {n} tiles on, all at once, {direction}.",
                                        int(f.exchange["tiles"]), direction=where))
        if f.missing_suit is not None:
            items.append(t._("After the deal, each player, dealer first, declares a missing suit: characters, "
                             "dots or bamboo."))
            if f.missing_suit.get("discard_first"):
                items.append(t._("While a player holds any tile of the missing suit, such a tile must be "
                                 "discarded first."))
            blocks = f.missing_suit.get("blocks") or []
            actions = {"pung": t._("claim a pung"), "kong": t._("declare a kong"), "win": t._("win"),
                       "chow": t._("claim a chow")}
            if blocks:
                items.append(t._("Until then the player cannot {actions}.",
                                 actions=t.join((actions.get(b, b) for b in blocks), style="or")))
        return Section(2, t._("Setup"), [Block(items=items)])

    def turn(self) -> Section:
        t, f = self.t, self.f
        first = [
            t._("On your turn, draw a tile, then discard one: select a tile, then confirm."),
            t._("Matching copies keep separate identities: each of the {n} physical tiles has its own number, "
                "0 to {last}.", n=f.tile_count, last=f.tile_count - 1),
            t._("The dealer starts by discarding, or by declaring a kong or a win, with {n} tiles.",
                n=f.dealer_tiles),
        ]
        claims = [t._("a win"), t._("a pung")]
        if f.kongs.get("exposed"):
            claims.append(t._("an exposed kong (with three matching tiles in hand)"))
        second = [t._("A discard can be claimed for {claims}.", claims=t.join(claims, style="or"))]
        if f.chow == "previous_player":
            second.append(t._("Only the next player after the discarder may claim a chow: three consecutive "
                              "tiles of one suit."))
            second.append(t._("All responses are collected before the tile is awarded: a win beats a pung or "
                              "kong, which beats a chow."))
        else:
            second.append(t._("No chows can be claimed."))
            second.append(t._("All responses are collected before the tile is awarded: a win beats a pung or "
                              "kong."))
        second.append(t._("Claims of equal priority go by seat order after the discarder."))
        if f.discard_win == "all":
            second.append(t._("Several players may win on one discard, and every declared win is settled."))
        else:
            second.append(t._("If several players claim one discard for a win, only the first in seat order "
                              "after the discarder wins."))
        if f.after_win == "continue":
            second.append(t._("A player who has won no longer draws, discards or claims."))
        elif f.after_win == "stay":
            second.append(t._("A player who has won sets the winning tile aside and keeps the other tiles locked: "
                              "it discards every tile it draws unless it wins with it, claims a discard only to win "
                              "again, and may declare a kong with a drawn tile only where its hand still waits on "
                              "the same tiles."))
        third = []
        if f.kongs.get("concealed"):
            third.append(t._("Four matching tiles in hand may be declared as a concealed kong."))
        if f.kongs.get("added"):
            third.append(t._("A fourth tile may extend your own exposed pung into an added kong."))
        if any(f.kongs.get(k) for k in ("exposed", "concealed", "added")):
            third.append(t._("After any kong, draw a replacement from the end of the wall; then, as after any "
                             "draw, you may win, declare another kong or discard."))
            third.append(t._("A kong needs a replacement: with no tile left, no kong."))
        if f.kongs.get("robbing") and f.kongs.get("added"):
            third.append(t._("Another player may rob an added kong by winning on its tile; a concealed kong "
                             "cannot be robbed."))
        if f.chow == "previous_player":
            third.append(t._("After claiming a chow or a pung, discard before declaring a concealed or added kong."))
        else:
            third.append(t._("After claiming a pung, discard before declaring a concealed or added kong."))
        return Section(3, t._("Playing a turn"), [Block(items=first), Block(items=second), Block(items=third)])

    def shape_text(self, s: ShapeFact) -> str:
        t = self.t
        if s.sets and not s.knitted:
            what = t.ngettext("{n} set (chow, pung or kong) and a pair", "{n} sets (chows, pungs or kongs) and a pair",
                              s.sets)
        elif s.pairs and not (s.tiles or s.knitted):
            if s.quads_as_two_pairs:
                what = t.ngettext("{n} pair; four identical tiles count as two pairs",
                                  "{n} pairs; four identical tiles count as two pairs", s.pairs)
            else:
                what = t.ngettext("{n} different pair", "{n} different pairs", s.pairs)
        elif s.tiles:
            what = t._("one each of {tiles}, plus a second copy of one of them",
                       tiles=self.tiles_phrase(s.tiles))
        elif s.singles:
            what = t._("14 different single tiles, no pair: honors and tiles of one knitted sequence (1-4-7, "
                       "2-5-8 and 3-6-9, each run in a different suit)")
        elif s.knitted:
            what = t.ngettext(
                "the 9 tiles of a knitted straight (1-4-7, 2-5-8 and 3-6-9, each run in a different suit), held "
                "concealed, plus {n} set and a pair",
                "the 9 tiles of a knitted straight (1-4-7, 2-5-8 and 3-6-9, each run in a different suit), held "
                "concealed, plus {n} sets and a pair", s.sets)
            if s.max_melds:
                what += t.ngettext("; at most {n} set may be declared", "; at most {n} sets may be declared",
                                   s.max_melds)
        else:
            what = s.kind
        return t._("{name}: {what}.", name=self.shape_name(s), what=what)

    def pattern_row(self, p: PatternFact) -> PatternRow:
        t = self.t
        notes = []
        if p.limit:
            notes.append(t._("Limit hand: no other pattern counts."))
        if p.per_instance:
            notes.append(t._("Can count more than once in a hand."))
        if p.fallback:
            others = [x for x in self.f.outside_minimum if x.id != p.id]
            if others:
                notes.append(t._("Counts only when no other pattern does, {patterns} aside.",
                                 patterns=t.join(self.pattern_name(x) for x in others)))
            else:
                notes.append(t._("Counts only when no other pattern does."))
        if not p.toward_minimum:
            notes.append(t._("Not counted toward the minimum."))
        for other, k in p.replaces:
            if k == 1:
                notes.append(t._("Replaces {pattern}.", pattern=self.pattern_name(other)))
            else:
                notes.append(t._("Replaces {pattern} {n} times.", n=k, pattern=self.pattern_name(other)))
        if p.excludes:
            notes.append(t._("Excludes {patterns}.", patterns=t.join(self.pattern_name(x) for x in p.excludes)))
        if p.shapes:
            names = [self.shape_name(s) for s in self.f.shapes if s.id in p.shapes]
            notes.append(t._("Only with {shapes}.", shapes=t.join(names, style="or")))
        if p.value is not None:
            value = str(p.value)
        else:
            value = formulas.amount(p.value_formula or "", t, formulas.TOTAL, unit=self.unit(2))
        description = self.vtext(roles.PATTERN_DESCRIPTION, p.description) if p.description else ""
        return PatternRow(p.id, self.pattern_name(p), value, p.value, description, notes)

    def patterns(self) -> Section:
        t, f = self.t, self.f
        items = [self.shape_text(s) for s in f.shapes]
        intro = [t._("A winning hand takes one of these shapes:")]
        rules = []
        for reason in f.valid_reasons:
            rules.append(t._("A hand is not a win when {reason}.",
                             reason=self.vtext(roles.VALIDITY_REASON, reason)))
        rules.append(t._("Wherever a pattern speaks of pungs, a kong counts as a pung."))
        rules.append(t._("When a hand can be arranged in several ways, the arrangement with the highest total "
                         "counts."))
        limits = f.limit_patterns
        if limits:
            values = sorted({p.value for p in limits if p.value is not None})
            if len(values) == 1:
                rules.append(t._("Limit hands score exactly {amount} with no other pattern: {patterns}.",
                                 amount=self.amount_of(values[0]),
                                 patterns=t.join(self.pattern_name(p) for p in limits)))
            else:
                rules.append(t._("Limit hands score their own value with no other pattern: {patterns}.",
                                 patterns=t.join(self.pattern_name(p) for p in limits)))
            rules.append(t._("If two limit hands hold, the one listed first counts."))
        principles = f.principles
        if any(p.excludes for p in f.patterns):
            rules.append(t._("Non-repeat principle: a pattern that another one implies is not counted again; the "
                             "notes of a pattern name those it excludes."))
        if principles.get("account_once") is True:
            rules.append(t._("Non-separation principle: the sets of a combination are not split up to form other "
                             "combinations."))
            rules.append(t._("Account-once principle: a set already combined with others may join only one more "
                             "combination."))
        if principles.get("non_identical") is True:
            rules.append(t._("Non-identical principle: a set takes part in only one combination of each kind."))
        rules.append(t._("Every pattern that counts is listed with its value; patterns excluded or replaced by "
                         "another do not count."))
        rows = [self.pattern_row(p) for p in display_order(f.patterns)]
        caption = t._("Scoring patterns of {title}", title=self.vtext(roles.VARIANT_TITLE, f.title))
        table = Block(rows=rows, caption=caption,
                      headers=(t._("Pattern"), cap(self.unit(2)), t._("Description")))
        return Section(4, t._("Winning hands and scoring patterns"),
                       [Block(text=intro[0]), Block(items=items), Block(items=rules), table])

    def scoring(self) -> Section:
        t, f = self.t, self.f
        first = []
        if f.minimum > 0:
            first.append(t._("The minimum is {amount}.", amount=self.amount_of(f.minimum)))
        else:
            first.append(t._("There is no minimum."))
        if f.cap is not None:
            first.append(t._("The limit is {amount}: a higher total counts as {cap}.",
                             amount=self.amount_of(f.cap), cap=f.cap))
        base = formulas.amount(f.base, t, formulas.TOTAL, unit=self.unit(2))
        first.append(t._("Base amount: {formula}.", formula=base))
        for pay in f.win_payments:
            label = cap(formulas.condition(pay.when, t, unit=self.unit(2))) if pay.when else t._("Any win")
            first.append(t._("{condition}: {payer} pays {amount}.", condition=label, payer=self.payer(pay.payer),
                             amount=formulas.amount(pay.amount, t, unit=self.unit(2))))
        if f.kongs.get("robbing") and any(p.payer == "discarder" for p in f.win_payments):
            first.append(t._("Robbing a kong: the player whose kong was robbed pays as the discarder."))
        if f.discard_win == "all":
            first.append(t._("When several players win on one discard, each win is paid."))
        else:
            first.append(t._("If several players claim one discard for a win, only the first in seat order after "
                             "the discarder wins."))
        blocks = [Block(items=first)]
        kongs = []
        for pay in f.kong_payments:
            payer = t._("the player who discarded the tile") if pay.payer == "discarder" else self.payer(pay.payer)
            amount = formulas.amount(pay.amount, t, formulas.KONG, unit=self.unit(2))
            if pay.when:
                kongs.append(t._("{kong}: {payer} pays {amount} to its owner when it is declared, if {condition}.",
                                 kong=self.kong_kind(pay.kong or ""), payer=payer, amount=amount,
                                 condition=formulas.condition(pay.when, t, formulas.KONG, unit=self.unit(2))))
            else:
                kongs.append(t._("{kong}: {payer} pays {amount} to its owner when it is declared.",
                                 kong=self.kong_kind(pay.kong or ""), payer=payer, amount=amount))
        if f.kong_transfer == "first":
            kongs.append(t._("Call transfer: when the discard a player makes right after a kong's replacement draw "
                             "is won on, what that kong collected goes to the winner; with several winners, to the "
                             "first in turn order after the discarder."))
        elif f.kong_transfer == "split":
            kongs.append(t._("Call transfer: when the discard a player makes right after a kong's replacement draw "
                             "is won on, what that kong collected goes to the winner; several winners share it, the "
                             "first in turn order after the discarder taking what does not divide."))
        if kongs:
            if f.after_win == "continue" and winners_skip_kong_charges(f):
                kongs.append(t._("Players who have already won pay no later kong charges."))
            if f.kongs.get("robbing") and any(p.kong == "added" for p in f.kong_payments):
                kongs.append(t._("A robbed added kong collects nothing."))
            blocks.append(Block(items=kongs))
        end = []
        if f.exhausted:
            for rule in f.exhausted:
                if rule.refund_when is not None:
                    end.append(t._("{reason}: every player who {condition} refunds their kong income to those who "
                                   "paid it.", reason=self.vtext(roles.SETTLEMENT_REASON, humanize(rule.reason)),
                                   condition=formulas.condition(rule.refund_when, t, formulas.PLAYER,
                                                                unit=self.unit(2))))
                else:
                    end.append(t._("{reason}: every player who {payer} pays {amount} to every other player who "
                                   "{payee}.",
                                   reason=self.vtext(roles.SETTLEMENT_REASON, humanize(rule.reason)),
                                   payer=formulas.condition(rule.payer or "", t, formulas.PLAYER, unit=self.unit(2)),
                                   payee=formulas.condition(rule.payee or "", t, formulas.PLAYER, unit=self.unit(2)),
                                   amount=formulas.amount(rule.amount or "", t, formulas.PLAYER, unit=self.unit(2))))
            if f.ready_value is not None:
                end.append(t._("A ready hand's value is {formula}; its best total is taken over every tile it "
                               "waits on, even tiles no longer available, without self-draw or win events.",
                               formula=formulas.amount(f.ready_value, t, formulas.READY, unit=self.unit(2))))
            blocks.append(Block(text=t._("When the wall runs out:")))
            blocks.append(Block(items=end))
            if f.after_win == "continue":
                blocks.append(Block(text=t.ngettext(
                    "When the deal ends because {n} player has won, none of these payments is made.",
                    "When the deal ends because {n} players have won, none of these payments is made.",
                    f.max_winners)))
        elif f.after_win in ("continue", "stay"):
            blocks.append(Block(items=[t._("When the wall runs out, no further payments are made.")]))
        else:
            blocks.append(Block(items=[t._("If the wall runs out with no winner, the deal is drawn, with no "
                                           "payments.")]))
        return Section(5, t._("Scoring and end"), blocks)

    def options(self) -> Section | None:
        """The house rules the page follows, when the variant offers options."""
        t, f = self.t, self.f
        if not f.options:
            return None
        items = []
        for o in f.options:
            chosen = t._("{option}: {choice}.", option=self.vtext(roles.OPTION_NAME, o.name),
                         choice=self.vtext(roles.CHOICE_NAME, o.chosen.name))
            parts = [chosen]
            if o.chosen.description:
                parts.append(self.vtext(roles.CHOICE_DESCRIPTION, o.chosen.description))
            if o.others:
                parts.append(t._("Other choices: {choices}.", choices=t.join(
                    (self.vtext(roles.CHOICE_NAME, c.name) for c in o.others), style="or")))
            items.append(t.sentences(parts))
        intro = t._("This game offers house rules; this page follows the choices below.")
        return Section(6, t._("House rules"), [Block(text=intro), Block(items=items)])

    # --------------------------------------------------------------- page
    def frame(self) -> str:
        n = self.f.players
        return self.t.ngettext("{n} player · you against {ai} AI · one deal",
                               "{n} players · you against {ai} AI · one deal", n, ai=n - 1)

    def figures(self) -> list[Figure]:
        f, t = self.f, self.t
        out = [
            Figure("players", t._("Players"), f.players, str(f.players)),
            Figure("tiles", t._("Tiles"), f.tile_count, str(f.tile_count)),
            Figure("dealer_tiles", t._("Dealer's tiles"), f.dealer_tiles, str(f.dealer_tiles)),
            Figure("other_tiles", t._("Other players' tiles"), f.other_tiles, str(f.other_tiles)),
            Figure("minimum", t._("Minimum"), f.minimum,
                   self.amount_of(f.minimum) if f.minimum > 0 else t._("none")),
        ]
        if f.cap is not None:
            out.append(Figure("cap", t._("Limit"), f.cap, self.amount_of(f.cap)))
        return out

    def page(self) -> GamePage:
        f, t = self.f, self.t
        return GamePage(
            figures=self.figures(), figures_label=t._("At a glance"),
            variant=f.id, page=f.page or f.id, lang=t.lang.tag, name=self.vtext(roles.VARIANT_NAME, f.name),
            title=self.vtext(roles.VARIANT_TITLE, f.title), summary=self.vtext(roles.VARIANT_SUMMARY, f.summary),
            frame=self.frame(),
            sections=[s for s in (self.objective(), self.setup(), self.turn(), self.patterns(), self.scoring(),
                                  self.options()) if s is not None],
            rules_heading=t._("Rules"),
        )


def display_order(patterns: list[PatternFact]) -> list[PatternFact]:
    """The pattern table as a page shows it: limit hands first (in table order, which
    decides between two of them), then from the highest value down; equal values and
    formulas keep the table order."""
    limits = [p for p in patterns if p.limit]
    others = [p for p in patterns if not p.limit]
    return limits + sorted(others, key=lambda p: -(p.value if p.value is not None else 0))


def winners_skip_kong_charges(f: VariantFacts) -> bool:
    """True when no kong charge falls on a player who has won: every kong payment is
    made by the discarder (a player who has won discards no more) or by the opponents
    still playing, and at least one by the latter."""
    payers = {p.payer for p in f.kong_payments}
    return "each_active_opponent" in payers and payers <= {"each_active_opponent", "discarder"}


def game_page(facts: VariantFacts, t: Translator) -> GamePage:
    return Prose(facts, t).page()


def family_page(family: FamilyFacts, t: Translator) -> FamilyPage:
    name = t.pgettext(roles.FAMILY, humanize(family.id))
    prose = Prose(family.games[0], t)
    groups = [prose.group_count(g) for g in family.tile_groups]
    games = [game_page(g, t) for g in family.games]
    intro = t._("{groups}. Choose {games}.", groups=cap(t.join(groups)),
                games=t.join((g.name for g in games), style="or"))
    return FamilyPage(
        family=family.id, lang=t.lang.tag, heading=t._("{family} · {n} tiles", family=name, n=family.tile_count),
        intro=intro, games_heading=t._("Games"), games=games, wikipedia=language(t.lang.tag).wikipedia,
        wikipedia_label=t._("Wikipedia"),
    )

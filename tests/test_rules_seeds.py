"""Our pages carry the facts of the seed pages (tests/data/seeds/): the text of the pages our
rules pages were modelled on, machine-translated, as they were given to the project: the
Italian family page and Hong Kong page, the Portuguese Sichuan page, the Malay Hong Kong
page, the German MCR page.

Facts, not wording: each fact of a seed is listed below in a language-free form and
checked on our page in the seed's language: a number in the figures, a pattern row with
its value and the patterns it replaces or excludes, or the sentence of our catalog that
states a rule (so a mistranslated term in a seed is not copied, but a missing rule fails).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cardavia.compiler.registry import load_variant

from cardavia.render import formulas
from cardavia.render.catalog import (
    PATTERN_NAME,
    SHAPE_NAME,
    VARIANT_SUMMARY,
    Translator,
    humanize,
    translator,
    unit_word,
    variant_text,
)
from cardavia.render.pages import render_family, render_game
from cardavia.render.reader import PageReader, read_page

SEEDS = Path(__file__).resolve().parent / "data" / "seeds"


@dataclass(frozen=True)
class Fact:
    kind: str  # figure, pattern, replaces, excludes, limit, each, says, nsays, pays, kong_pays, formula, shape
    args: tuple[Any, ...]
    kw: tuple[tuple[str, Any], ...] = ()


def F(kind: str, *args: Any, **kw: Any) -> Fact:
    return Fact(kind, args, tuple(kw.items()))


TURN = [
    F("says", "On your turn, draw a tile, then discard one: select a tile, then confirm."),
    F("says", "Claims of equal priority go by seat order after the discarder."),
    F("says", "Four matching tiles in hand may be declared as a concealed kong."),
    F("says", "A fourth tile may extend your own exposed pung into an added kong."),
    F("says", "After any kong, draw a replacement from the end of the wall; then, as after any draw, you may win, "
              "declare another kong or discard."),
    F("says", "Another player may rob an added kong by winning on its tile; a concealed kong cannot be robbed."),
    F("says", "A kong needs a replacement: with no tile left, no kong."),
    F("figure", "dealer_tiles", 14), F("figure", "other_tiles", 13), F("figure", "players", 4),
]

CHOW_TABLE = [
    F("says", "Only the next player after the discarder may claim a chow: three consecutive tiles of one suit."),
    F("says", "All responses are collected before the tile is awarded: a win beats a pung or kong, "
              "which beats a chow."),
    F("says", "After claiming a chow or a pung, discard before declaring a concealed or added kong."),
    F("says", "If several players claim one discard for a win, only the first in seat order after the discarder wins."),
]

FLOWERS = [
    F("figure", "tiles", 144),
    F("nsays", "The {n} bonus tile is exposed at once and replaced from the end of the wall; it is outside the hand "
               "structure.",
      "The {n} bonus tiles (flowers and seasons) are exposed at once and replaced from the end of the wall; they are "
      "outside the hand structure.", 8),
]

HK = TURN + CHOW_TABLE + FLOWERS + [
    F("figure", "minimum", 3), F("figure", "cap", 13),
    F("says", "If the wall runs out with no winner, the deal is drawn, with no payments."),
    F("says", "You start as East, the dealer."),
    F("says", "In each following independent deal, the dealer may pass to the next seat."),
    F("says", "The round wind is {wind}; seat winds run East, South, West, North from the dealer.", wind="East"),
    F("shape", "seven_pairs"), F("shape", "thirteen_orphans"),
    F("pattern", "all_chows", 1), F("pattern", "concealed_hand", 1), F("pattern", "self_drawn", 1),
    F("pattern", "no_flowers", 1), F("pattern", "dragon_pung", 1), F("pattern", "seat_wind_pung", 1),
    F("pattern", "round_wind_pung", 1), F("pattern", "little_three_dragons", 5),
    F("replaces", "little_three_dragons", "dragon_pung"),
    F("pattern", "all_pungs", 3), F("pattern", "half_flush", 3), F("pattern", "full_flush", 7),
    F("pattern", "seven_pairs", 4), F("pattern", "seat_flower", 1), F("each", "seat_flower"),
    F("pattern", "all_flowers", 2), F("pattern", "all_seasons", 2),
    F("replaces", "all_flowers", "seat_flower"), F("replaces", "all_seasons", "seat_flower"),
    F("pattern", "kong_replacement", 1), F("pattern", "robbing_kong", 1), F("pattern", "last_wall_draw", 1),
    F("pattern", "last_discard", 1),
    F("limit", 13, "thirteen_orphans", "all_honors", "all_terminals", "great_three_dragons", "great_four_winds",
      "four_kongs", "nine_gates", "four_concealed_pungs"),
    F("formula", "2 ** total"),
    F("pays", "self_drawn", "each_opponent", "base"),
    F("pays", "not self_drawn", "discarder", "3 * base"),
]

MCR = TURN + CHOW_TABLE + FLOWERS + [
    F("figure", "minimum", 8),
    F("says", "Not counted toward the minimum, but added to the total: {patterns}.", patterns=("flower_tiles",)),
    F("says", "All players compete separately; the first valid win ends the deal."),
    F("says", "If the wall runs out with no winner, the deal is drawn, with no payments."),
    F("pattern", "flower_tiles", 1), F("each", "flower_tiles"),
    F("says", "The round wind is {wind}; seat winds run East, South, West, North from the dealer.", wind="East"),
    F("shape", "seven_pairs"), F("shape", "thirteen_orphans"), F("shape", "honors_and_knitted"),
    F("shape", "knitted_straight"),
    F("pattern", "seven_shifted_pairs", 88), F("pattern", "lesser_honors_and_knitted_tiles", 12),
    F("pattern", "greater_honors_and_knitted_tiles", 24), F("pattern", "knitted_straight", 12),
    F("says", "When a hand can be arranged in several ways, the arrangement with the highest total counts."),
    F("pattern", "dragon_pung", 2), F("pattern", "prevalent_wind", 2), F("pattern", "seat_wind", 2),
    F("pattern", "concealed_kong", 2), F("pattern", "edge_wait", 1), F("pattern", "self_drawn", 1),
    F("pays", "self_drawn", "each_opponent", "8 + total"),
    F("pays", "not self_drawn", "discarder", "8 + total"),
    F("pays", "not self_drawn", "other_opponents", "8"),
]

SICHUAN = TURN + [
    F("figure", "tiles", 108), F("figure", "cap", 5),
    F("says", "There are no {groups}.", groups=("winds", "dragons", "flowers", "seasons")),
    F("nsays", "A player who wins stops playing while the others go on. The deal ends when {n} player has won or the "
               "wall runs out.",
      "A player who wins stops playing while the others go on. The deal ends when {n} players have won or the wall "
      "runs out.", 3),
    F("says", "After the deal, each player, dealer first, declares a missing suit: characters, dots or bamboo."),
    F("says", "While a player holds any tile of the missing suit, such a tile must be discarded first."),
    F("says", "Until then the player cannot {actions}.", actions=("claim a pung", "declare a kong", "win")),
    F("says", "No chows can be claimed."),
    F("says", "All responses are collected before the tile is awarded: a win beats a pung or kong."),
    F("says", "Several players may win on one discard, and every declared win is settled."),
    F("says", "A player who has won no longer draws, discards or claims."),
    F("says", "Players who have already won pay no later kong charges."),
    F("shape", "standard"), F("shape", "seven_pairs"),
    F("nsays", "{n} pair; four identical tiles count as two pairs",
      "{n} pairs; four identical tiles count as two pairs", 7),
    F("pattern", "basic_hand", 0), F("pattern", "all_pungs", 1), F("pattern", "seven_pairs", 2),
    F("pattern", "outside_hand", 2), F("pattern", "all_258_pungs", 3), F("excludes", "all_258_pungs", "all_pungs"),
    F("pattern", "full_flush", 2), F("pattern", "single_wait_four_melds", 1), F("pattern", "root", 1),
    F("each", "root"), F("pattern", "kong_replacement", 1), F("pattern", "robbing_kong", 1),
    F("pattern", "last_tile", 1),
    F("formula", "min(2 ** total, 32)"),
    F("pays", "not self_drawn", "discarder", "base"),
    F("pays", "self_drawn", "each_active_opponent", "base + 1"),
    F("kong_pays", "exposed", "discarder", "2"), F("kong_pays", "added", "each_active_opponent", "1"),
    F("kong_pays", "concealed", "each_active_opponent", "2"),
    F("says", "A robbed added kong collects nothing."),
    F("exhausted", "not player.won and not player.ready"),
    F("exhausted", "player.pig", "not player.pig", "32"),
    F("exhausted", "not player.won and not player.ready and not player.pig", "player.ready and not player.won",
      "payee.ready_value"),
]

FACTS = {"hk": HK, "mcr": MCR, "sichuan": SICHUAN}


class Checker:
    """Checks facts of one variant on one rendered page in one language."""

    def __init__(self, page: PageReader, variant_id: str, t: Translator) -> None:
        self.page, self.vid, self.t = page, variant_id, t
        self.variant = load_variant(variant_id)
        self.unit = unit_word(t, self.variant.scoring.unit, 2)

    def name(self, pid: str) -> str:
        p = self.variant.scoring.table.by_id[pid]
        return variant_text(self.t, self.variant.scoring.unit, PATTERN_NAME, p.name)

    def words(self, english: tuple[str, ...], style: str = "standard") -> str:
        return self.t.join([self.t._(w) for w in english], style=style)

    def check(self, fact: Fact) -> None:
        t, page, kw = self.t, self.page, dict(fact.kw)
        text = page.text
        k, a = fact.kind, fact.args
        if k == "figure":
            assert page.figures.get(a[0]) == a[1], fact
        elif k == "pattern":
            assert page.rows[a[0]].value == str(a[1]), fact
        elif k in ("replaces", "excludes"):
            notes = page.rows[a[0]].cells[2]
            assert self.name(a[1]) in notes, (fact, notes)
        elif k == "each":
            assert t._("Can count more than once in a hand.") in page.rows[a[0]].cells[2], fact
        elif k == "limit":
            for pid in a[1:]:
                assert page.rows[pid].value == str(a[0]), (fact, pid)
                assert t._("Limit hand: no other pattern counts.") in page.rows[pid].cells[2], (fact, pid)
        elif k == "shape":
            raw = next(s for s in self.variant.data["scoring"]["shapes"] if s["id"] == a[0])
            shape = variant_text(t, self.variant.scoring.unit, SHAPE_NAME, raw.get("name") or humanize(a[0]))
            assert t._("{name}: {what}.", name=shape, what="").rstrip(".。 ") in text, fact
        elif k == "says":
            values = {}
            for key, value in kw.items():
                if key == "patterns":
                    values[key] = t.join(self.name(p) for p in value)
                elif key == "groups" or key == "actions":
                    values[key] = self.words(value, "or")
                else:
                    values[key] = t._(value)
            sentence = t._(a[0], **values)
            assert sentence in text, (fact, sentence)
        elif k == "nsays":
            sentence = t.ngettext(a[0], a[1], a[2])
            assert sentence in text, (fact, sentence)
        elif k == "formula":
            assert formulas.amount(a[0], t, formulas.TOTAL, unit=self.unit) in text, fact
        elif k == "pays":
            amount = formulas.amount(a[2], t, unit=self.unit)
            payer = {"discarder": "the discarder", "each_opponent": "each opponent",
                     "each_active_opponent": "each opponent still playing",
                     "other_opponents": "each other opponent"}[a[1]]
            condition = formulas.condition(a[0], t, unit=self.unit)
            sentence = t._("{condition}: {payer} pays {amount}.", condition=condition[:1].upper() + condition[1:],
                           payer=t._(payer), amount=amount)
            assert sentence in text, (fact, sentence)
        elif k == "kong_pays":
            kong = {"exposed": "Exposed kong", "added": "Added kong", "concealed": "Concealed kong"}[a[0]]
            payer = {"discarder": "the player who discarded the tile",
                     "each_active_opponent": "each opponent still playing"}[a[1]]
            sentence = t._("{kong}: {payer} pays {amount} to its owner when it is declared.", kong=t._(kong),
                           payer=t._(payer), amount=a[2])
            assert sentence in text, (fact, sentence)
        elif k == "exhausted":
            for cond in a[:2]:
                assert formulas.condition(cond, t, formulas.PLAYER, unit=self.unit) in text, (fact, cond)
            if len(a) > 2:
                assert formulas.amount(a[2], t, formulas.PLAYER, unit=self.unit) in text, fact
        else:  # pragma: no cover
            raise AssertionError(f"unknown fact kind {k}")


def _check_all(page: PageReader, variant_id: str, tag: str) -> None:
    checker = Checker(page, variant_id, translator(tag))
    for fact in FACTS[variant_id]:
        checker.check(fact)


@pytest.mark.parametrize("seed, tag, variant", [
    ("001_927b404f35602660.txt", "it", "hk"),
    ("002_6472a53d2106eba8.txt", "pt", "sichuan"),
    ("003_dcb7bf3c75a5abdc.txt", "ms", "hk"),
    ("004_0e0c88552141f2d2.txt", "de", "mcr"),
])
def test_game_page_carries_the_seed_facts(seed: str, tag: str, variant: str) -> None:
    assert (SEEDS / seed).is_file()  # the page these facts come from
    page = read_page(render_game(load_variant(variant), tag, "html"))
    _check_all(page, variant, tag)


def test_italian_family_page_carries_the_seed_facts() -> None:
    """Seed 000: "Cina · 144 tessere", the three games, each with its rules."""
    variants = [load_variant(v) for v in ("hk", "mcr", "sichuan")]
    html = render_family(variants, "it")
    page = read_page(html)
    t = translator("it")
    assert page.headings[0] == ("h1", t._("{family} · {n} tiles", family="Cina", n=144))
    assert t.ngettext("{n} flower", "{n} flowers", 4) in page.text and "stagioni" in page.text
    assert "Scegli Hong Kong, Cinese ufficiale o Sichuan." in page.text
    assert "wikipedia.org" in html
    for v in variants:
        # every game's rules are on the family page: check its facts on the section ids it owns
        game_html = render_game(v, "it", "html")
        _check_all(read_page(game_html), v.id, "it")
        summary = variant_text(t, v.scoring.unit, VARIANT_SUMMARY, v.summary)
        assert summary in page.text
        own = [text for level, text in read_page(game_html).headings if level == "h2"]
        assert own == [text for level, text in page.headings if level == "h4"][:5] or all(
            h in [text for level, text in page.headings if level == "h4"] for h in own)
    assert page.text.count(t.ngettext("{n} player · you against {ai} AI · one deal",
                                      "{n} players · you against {ai} AI · one deal", 4, ai=3)) == 3


@pytest.mark.parametrize("variant", ["hk", "mcr", "sichuan"])
def test_the_fact_lists_can_fail(variant: str) -> None:
    """A page that lost a pattern value or a rule fails its seed check."""
    v = load_variant(variant)
    page = read_page(render_game(v, "de", "html"))
    checker = Checker(page, variant, translator("de"))
    pid = next(f.args[0] for f in FACTS[variant] if f.kind == "pattern")
    page.rows[pid].value = "999"
    with pytest.raises(AssertionError):
        checker.check(next(f for f in FACTS[variant] if f.kind == "pattern" and f.args[0] == pid))
    page.text_parts[:] = ["nothing"]
    with pytest.raises(AssertionError):
        checker.check(next(f for f in FACTS[variant] if f.kind == "says"))

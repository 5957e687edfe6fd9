"""Every sentence of a rules page follows from the variant file.

The kong sentence only where the kong rules spare the players who have won; "can count
more than once" only on patterns that can; formulas with ``min``, ``max`` and
conditions read as a reader would say them, in every language; the unit word is the
variant's own.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cardavia.compiler import compile_file, load_variant, parse_notation
from cardavia.compiler.registry import variants_dir

from cardavia.render import formulas
from cardavia.render.bounds import can_repeat, most_counts
from cardavia.render.catalog import translator, unit_word
from cardavia.render.languages import LANGUAGES
from cardavia.render.pages import game_document, render_game
from cardavia.render.reader import read_page

TAGS = [lang.tag for lang in LANGUAGES]
KONG_SENTENCE = "Players who have already won pay no later kong charges."


def _compile_edited(tmp_path: Path, name: str, old: str, new: str):
    text = (variants_dir() / f"{name}.yaml").read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / f"{name}-edited.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return compile_file(path)


def _page_text(variant, tag: str) -> str:
    return read_page(render_game(variant, tag, "html")).text


# ------------------------------------------------------------------ kong charges

@pytest.mark.parametrize("tag", TAGS)
def test_the_kong_sentence_follows_the_kong_rules(tmp_path: Path, tag: str) -> None:
    sentence = translator(tag)._(KONG_SENTENCE)
    assert sentence in _page_text(load_variant("sichuan"), tag), "Sichuan's kong charges spare the winners"
    charged = _compile_edited(tmp_path, "sichuan", '{kong: concealed, from: each_active_opponent, amount: "2"}',
                              '{kong: concealed, from: each_opponent, amount: "2"}')
    assert sentence not in _page_text(charged, tag), "winners pay this variant's concealed kongs"
    for name in ("hk", "mcr"):  # play ends at the first win: nobody plays on after winning
        assert sentence not in _page_text(load_variant(name), tag)


def test_the_end_of_wall_settlement_says_when_it_is_not_made() -> None:
    t = translator("en")
    text = _page_text(load_variant("sichuan"), "en")
    assert t.ngettext("When the deal ends because {n} player has won, none of these payments is made.",
                      "When the deal ends because {n} players have won, none of these payments is made.", 3) in text


# ------------------------------------------------------------ instance wording

REPEATS = "Can count more than once in a hand."


@pytest.mark.parametrize("name, once, more", [
    ("hk", ["seat_wind_pung", "round_wind_pung"], ["dragon_pung", "seat_flower"]),
    ("mcr", ["big_four_winds", "big_three_dragons", "pure_straight", "two_dragons_pungs", "prevalent_wind",
             "seat_wind", "pure_triple_chow", "quadruple_chow"],
     ["pure_double_chow", "mixed_double_chow", "short_straight", "double_pung", "tile_hog", "flower_tiles",
      "pung_of_terminals_or_honors"]),
    ("sichuan", [], ["root"]),
])
def test_instance_wording_only_where_a_pattern_can_count_again(name: str, once: list[str], more: list[str]) -> None:
    variant = load_variant(name)
    page = read_page(render_game(variant, "en", "html"))
    by_id = variant.scoring.table.by_id
    for pid in once:
        assert by_id[pid].count is not None, f"{pid} is a count pattern"
        assert not can_repeat(by_id[pid], variant), pid
        assert REPEATS not in page.rows[pid].cells[2], pid
    for pid in more:
        assert can_repeat(by_id[pid], variant), pid
        assert REPEATS in page.rows[pid].cells[2], pid
    for p in variant.scoring.table.patterns:  # never on a pattern that counts once by its form
        if p.count is None:
            assert REPEATS not in page.rows[p.id].cells[2], p.id


@pytest.mark.parametrize("name, hand, pid", [
    ("hk", "555z 666z 123m 456m 9p +9p", "dragon_pung"),
    ("mcr", "[123m] [123m] [456p] [456p] 9s +9s", "pure_double_chow"),
    ("sichuan", "111m 123m 444m 456m 9m +9m", "root"),
])
def test_a_pattern_said_to_count_again_does_in_a_real_hand(name: str, hand: str, pid: str) -> None:
    variant = load_variant(name)
    result = variant.scorer.score(parse_notation(hand))
    counts = {f.id: f.count for f in result.fans}
    assert counts.get(pid) == 2, (pid, counts)
    assert can_repeat(variant.scoring.table.by_id[pid], variant)


def test_the_bound_reads_the_count_formula() -> None:
    common = dict(definitions={}, sets=4, copies=4)
    principles = {"account_once": True, "non_identical": True}
    assert most_counts("count(a, b, c in chows: same(a.suit, b.suit, c.suit))", principles=principles,
                       combination=True, **common) == 1
    assert most_counts("count(a, b in chows: a.tile == b.tile)", principles=principles, combination=True,
                       **common) == 2
    assert most_counts("count(a, b in pungs: a.dragon and b.dragon)", principles=principles, combination=True,
                       **common) == 1
    assert most_counts("count(s in pungs: s.tile == seat_wind)", principles={}, combination=False, **common) == 1
    assert most_counts("count(a, b, c in chows: true)", principles={}, combination=True, **common) == 4
    assert most_counts("len(flowers)", principles={}, combination=False, **common) is None


# -------------------------------------------------------------------- formulas

def _reading(t, unit: str, text: str) -> str:
    return formulas.amount(text, t, formulas.TOTAL, unit=unit)


@pytest.mark.parametrize("tag", TAGS)
def test_a_bound_inside_a_formula_reads_as_the_smaller_of_two(tag: str) -> None:
    t = translator(tag)
    unit = unit_word(t, "faan", 2)
    total = t._("the hand total in {unit}", unit=unit)
    inner = t._("the smaller of {a} and {b}", a=total, b="25")
    assert _reading(t, unit, "2 * min(total, 25)") == t._("{a} times {b}", a="2", b=inner)
    assert _reading(t, unit, "min(total, 25) * 2") == t._("{a} times {b}", a="2", b=inner)
    assert _reading(t, unit, "2 ** max(total, 3)") == t._(
        "{base} to the power of {exp}", base="2", exp=t._("the larger of {a} and {b}", a=total, b="3"))
    # at the top of a formula, "X, at most N" cannot be misread
    assert _reading(t, unit, "min(2 * total, 25)") == t._(
        "{a}, at most {bound}", a=t._("{a} times {b}", a="2", b=total), bound="25")


def test_the_english_readings_are_what_a_reader_would_say() -> None:
    t = translator("en")
    assert _reading(t, "faan", "2 * min(total, 25)") == "2 times the smaller of the hand total in faan and 25"
    assert _reading(t, "faan", "min(2 ** total, 32)") == "2 to the power of the hand total in faan, at most 32"
    assert formulas.amount("8 if self_drawn else 2 * base", t, unit="points") == (
        "8 if self-drawn win, otherwise 2 times the base amount")


@pytest.mark.parametrize("tag", TAGS)
def test_a_min_formula_on_a_page_reads_correctly_in_every_language(tmp_path: Path, tag: str) -> None:
    variant = _compile_edited(tmp_path, "hk", 'base: "2 ** total"', 'base: "2 * min(total, 25)"')
    t = translator(tag)
    unit = unit_word(t, "faan", 2)
    expected = t._("{a} times {b}", a="2", b=t._("the smaller of {a} and {b}",
                                                   a=t._("the hand total in {unit}", unit=unit), b="25"))
    scoring = " ".join(game_document(variant, tag).sections[4].blocks[0].items)
    assert t._("Base amount: {formula}.", formula=expected) in scoring
    assert t._("{a}, at most {bound}", a="X", bound="25").replace("X", "") not in scoring


# ----------------------------------------------------------------------- units

@pytest.mark.parametrize("tag", ["zh-Hans", "zh-Hant"])
def test_chinese_pages_use_the_variants_unit(tag: str) -> None:
    """MCR counts points (分), Hong Kong faan and Sichuan fan (番): a page never calls points 番."""
    mcr = _page_text(load_variant("mcr"), tag)
    scoring = " ".join(game_document(load_variant("mcr"), tag).sections[4].blocks[0].items)
    assert "8分" in mcr and "番" not in scoring
    assert "番" not in " ".join(f.text for f in game_document(load_variant("mcr"), tag).figures)
    assert "3番" in _page_text(load_variant("hk"), tag)


def test_no_minimum_is_shown_as_none() -> None:
    doc = game_document(load_variant("sichuan"), "en")
    minimum = next(f for f in doc.figures if f.key == "minimum")
    assert minimum.number == 0 and minimum.text == "none"
    assert not re.search(r"\b0 fan\b", " ".join(f.text for f in doc.figures))

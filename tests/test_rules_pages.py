"""Every variant in every language: the numbers on the page are the compiled variant's.

The variants are compiled at run time, so the check follows the YAML tables as they are
edited: every pattern of every table, its value and its name, on every page.
"""

from __future__ import annotations

import re
import unicodedata

import pytest
from cardavia.compiler.registry import load_variant, shipped_variants

from cardavia.render.catalog import PATTERN_DESCRIPTION, PATTERN_NAME, translator, variant_text
from cardavia.render.languages import LANGUAGES
from cardavia.render.pages import game_document, render_game
from cardavia.render.reader import has_number, read_page

VARIANTS = shipped_variants()
TAGS = [lang.tag for lang in LANGUAGES]


@pytest.fixture(scope="module", params=VARIANTS)
def variant(request: pytest.FixtureRequest):
    return load_variant(request.param)


def _section_text(doc, number: int) -> str:
    section = doc.sections[number - 1]
    parts = []
    for block in section.blocks:
        parts.append(block.text)
        parts.extend(block.items)
    return " ".join(parts)


@pytest.mark.parametrize("tag", TAGS)
def test_html_page_numbers_equal_the_compiled_variant(variant, tag: str) -> None:
    page = read_page(render_game(variant, tag, "html"))
    assert page.lang == tag
    assert page.figures["tiles"] == len(variant.tiles)
    assert page.figures["players"] == variant.table.players
    assert page.figures["dealer_tiles"] == variant.table.dealer_tiles
    assert page.figures["other_tiles"] == variant.table.other_tiles
    assert page.figures["minimum"] == variant.scoring.minimum
    if variant.scoring.cap is None:
        assert "cap" not in page.figures
    else:
        assert page.figures["cap"] == variant.scoring.cap
    patterns = variant.scoring.table.patterns
    assert sorted(page.row_order) == sorted(p.id for p in patterns), "every pattern, once"
    limits = [p.id for p in patterns if p.limit]
    assert page.row_order[:len(limits)] == limits, "limit hands first, in table order"
    values = [page.rows[pid].value for pid in page.row_order[len(limits):]]
    numbers = [int(v) for v in values if v is not None]
    assert numbers == sorted(numbers, reverse=True), "then from the highest value down"
    for p in patterns:
        row = page.rows[p.id]
        assert row.name, f"{p.id} has a name on the {tag} page"
        if isinstance(p.value, int):
            assert row.value == str(p.value), (tag, p.id)
            assert row.cells[1] == str(p.value)


@pytest.mark.parametrize("tag", TAGS)
def test_the_rules_text_states_the_numbers(variant, tag: str) -> None:
    doc = game_document(variant, tag)
    setup = _section_text(doc, 2)
    for n in (len(variant.tiles), variant.table.dealer_tiles, variant.table.other_tiles):
        assert has_number(setup, n), (tag, n, setup)
    scoring = _section_text(doc, 5)
    if variant.scoring.minimum:
        assert has_number(scoring, variant.scoring.minimum)
        assert has_number(_section_text(doc, 1), variant.scoring.minimum)
    if variant.scoring.cap is not None:
        assert has_number(scoring, variant.scoring.cap)
    assert has_number(doc.frame, variant.table.players)
    assert has_number(doc.frame, variant.table.players - 1)


@pytest.mark.parametrize("fmt", ["md", "txt"])
@pytest.mark.parametrize("tag", ["en", "de", "zh-Hant"])
def test_markdown_and_text_carry_every_pattern_and_value(variant, tag: str, fmt: str) -> None:
    text = render_game(variant, tag, fmt)
    doc = game_document(variant, tag)
    rows = next(b.rows for s in doc.sections for b in s.blocks if b.rows)
    for row in rows:
        if fmt == "md":
            cell = row.name.replace("|", "\\|")
            assert re.search(rf"^\| {re.escape(cell)} \| {re.escape(row.value)} \|", text, re.M), row.id
        else:
            assert f"{row.name} — {row.value}" in text, row.id
    colon = translator(tag)._("%(label)s: %(value)s") % {"label": "", "value": ""}
    for figure in doc.figures:
        assert f"{figure.label}{colon}" in text and figure.text in text


def test_names_and_descriptions_are_the_translations(variant) -> None:
    for tag in TAGS:
        t = translator(tag)
        page = read_page(render_game(variant, tag, "html"))
        for p in variant.scoring.table.patterns:
            name = variant_text(t, variant.scoring.unit, PATTERN_NAME, p.name)
            assert page.rows[p.id].name == name
            if p.description:
                description = variant_text(t, variant.scoring.unit, PATTERN_DESCRIPTION, p.description)
                assert page.rows[p.id].cells[2].startswith(" ".join(description.split()))


@pytest.mark.parametrize("tag", TAGS)
def test_only_ascii_digits(variant, tag: str) -> None:
    text = read_page(render_game(variant, tag, "html")).text
    odd = {c for c in text if unicodedata.category(c) == "Nd" and not c.isascii()}
    assert not odd, odd


def test_every_number_is_a_compiled_number_in_the_pattern_table(variant) -> None:
    """A changed value cannot hide: the table's value column is exactly the values."""
    page = read_page(render_game(variant, "zh-Hans", "html"))
    values = {p.id: int(page.rows[p.id].value) for p in variant.scoring.table.patterns if isinstance(p.value, int)}
    assert values == {p.id: p.value for p in variant.scoring.table.patterns if isinstance(p.value, int)}

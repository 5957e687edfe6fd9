"""Editing a variant file changes its pages in every language; a new pattern without
translations falls back to English and ``cardavia check`` lists what is missing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from cardavia.compiler import compile_file
from cardavia.compiler.registry import variants_dir

from cardavia.cli import main
from cardavia.render.catalog import (
    PATTERN_NAME,
    missing_translation_lines,
    missing_translations,
    translator,
    unit_word,
    variant_text,
)
from cardavia.render.languages import LANGUAGES
from cardavia.render.pages import game_document, render_game
from cardavia.render.reader import has_number, read_page

TAGS = [lang.tag for lang in LANGUAGES]


def _hk_text() -> str:
    return (variants_dir() / "hk.yaml").read_text(encoding="utf-8")


def _set_pattern_value(text: str, pid: str, value: int) -> str:
    """Change one pattern's ``value:`` line in the YAML text (keeping everything else)."""
    block = re.search(rf"^(\s*)- id: {re.escape(pid)}\s*$(.*?)(?=^\1- id: |\Z)", text, re.M | re.S)
    assert block, pid
    body = re.sub(r"^(\s*)value: \d+\s*$", rf"\g<1>value: {value}", block.group(2), count=1, flags=re.M)
    assert body != block.group(2), f"no value line in {pid}"
    return text[:block.start(2)] + body + text[block.end(2):]


def _pick_pattern(text: str) -> tuple[str, int]:
    """An ordinary (not limit) pattern of the shipped table, with its value."""
    data = yaml.safe_load(text)
    p = next(p for p in data["scoring"]["patterns"] if not p.get("limit") and isinstance(p["value"], int)
             and p["value"] > 1)
    return p["id"], p["value"]


@pytest.fixture(scope="module")
def changed(tmp_path_factory: pytest.TempPathFactory):
    text = _hk_text()
    pid, old = _pick_pattern(text)
    new_value = old + 17
    edited, n = re.subn(r"^(\s*)minimum: \d+\s*$", r"\g<1>minimum: 1", text, count=1, flags=re.M)
    assert n == 1
    edited = _set_pattern_value(edited, pid, new_value)
    path = tmp_path_factory.mktemp("variant") / "hk.yaml"
    path.write_text(edited, encoding="utf-8")
    variant = compile_file(path)
    assert variant.scoring.minimum == 1 and variant.scoring.table.by_id[pid].value == new_value
    return variant, pid, new_value


@pytest.mark.parametrize("tag", TAGS)
def test_a_changed_minimum_and_value_show_in_every_language(changed, tag: str) -> None:
    variant, pid, value = changed
    page = read_page(render_game(variant, tag, "html"))
    assert page.figures["minimum"] == 1
    assert page.rows[pid].value == str(value)
    doc = game_document(variant, tag)
    objective = " ".join(doc.sections[0].blocks[0].items)
    scoring = " ".join(doc.sections[4].blocks[0].items)
    assert has_number(objective, 1) and has_number(scoring, 1)
    original = game_document(compile_file(variants_dir() / "hk.yaml"), tag)
    assert " ".join(original.sections[0].blocks[0].items) != objective, "the sentence changed with the file"
    for fmt in ("md", "txt"):
        assert str(value) in render_game(variant, tag, fmt)


def test_the_singular_unit_follows_the_number(changed) -> None:
    variant, _, _ = changed
    t = translator("en")
    assert "at least 1 faan" in " ".join(game_document(variant, "en").sections[0].blocks[0].items)
    assert unit_word(t, "points", 1) == "point"


NEW_PATTERN = """
    - id: lucky_number_seven
      name: Lucky seven
      description: Every tile of the hand is a 7.
      value: 2
      when: "all(t in tiles: t.rank == 7)"
"""


@pytest.fixture(scope="module")
def extended(tmp_path_factory: pytest.TempPathFactory) -> Path:
    text = _hk_text()
    anchor = re.search(r"^  patterns:\s*$", text, re.M)
    assert anchor
    edited = text[:anchor.end()] + NEW_PATTERN.rstrip("\n") + text[anchor.end():]
    path = tmp_path_factory.mktemp("variant") / "hk-extended.yaml"
    path.write_text(edited, encoding="utf-8")
    return path


@pytest.mark.parametrize("tag", TAGS)
def test_a_pattern_without_translations_falls_back_to_english(extended: Path, tag: str) -> None:
    variant = compile_file(extended)
    page = read_page(render_game(variant, tag, "html"))
    row = page.rows["lucky_number_seven"]
    assert row.name == "Lucky seven" and row.value == "2"
    assert row.cells[2].startswith("Every tile of the hand is a 7.")
    if tag != "en":  # the rest of the page is still translated
        other = variant.scoring.table.patterns[1]
        assert page.rows[other.id].name == variant_text(translator(tag), "faan", PATTERN_NAME, other.name)


def test_missing_translations_are_listed(extended: Path) -> None:
    variant = compile_file(extended)
    missing = {m.where: tags for m, tags in missing_translations(variant)}
    others = sorted(lang.tag for lang in LANGUAGES if lang.tag != "en")
    assert sorted(missing) == ["pattern 'lucky_number_seven' description", "pattern 'lucky_number_seven' name"]
    assert all(sorted(tags) == others for tags in missing.values())
    lines = missing_translation_lines(variant)
    assert len(lines) == 1 and "2 texts" in lines[0] and "--verbose" in lines[0]
    lines = missing_translation_lines(variant, verbose=True)
    assert "2 texts" in lines[0]
    assert any("'Lucky seven'" in line and "zh-Hant" in line for line in lines)


def test_check_summarises_missing_translations_in_one_line(extended: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(extended)]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if "missing translations" in line] == [
        "  missing translations: 2 texts shown in English in it, pt, ms, de, zh-Hans, zh-Hant "
        "(--verbose lists them)"]
    assert "Lucky seven" not in out
    assert main(["check", "--verbose", str(extended)]) == 0
    out = capsys.readouterr().out
    assert "missing translations: 2 texts" in out
    assert "'Lucky seven'" in out and "'Every tile of the hand is a 7.'" in out


@pytest.mark.parametrize("source", ["hk", "mcr", "sichuan"])
def test_a_copy_under_a_new_id_keeps_its_translations(source: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Catalog entries are keyed by text: a copy with another id, and its own name,
    keeps the Italian name of every pattern (and every other text it did not change)."""
    text = (variants_dir() / f"{source}.yaml").read_text(encoding="utf-8")
    copied, n = re.subn(rf"^id: {source}\s*$", "id: my_copy", text, count=1, flags=re.M)
    assert n == 1
    copied = re.sub(r"^name: .*$", "name: My table rules", copied, count=1, flags=re.M)
    path = tmp_path / "my_copy.yaml"
    path.write_text(copied, encoding="utf-8")
    copy, original = compile_file(path), compile_file(variants_dir() / f"{source}.yaml")
    assert copy.id == "my_copy"
    mine, theirs = read_page(render_game(copy, "it", "html")), read_page(render_game(original, "it", "html"))
    for p in original.scoring.table.patterns:
        assert mine.rows[p.id].name == theirs.rows[p.id].name != p.name or p.name == theirs.rows[p.id].name, p.id
        assert mine.rows[p.id].cells == theirs.rows[p.id].cells, p.id
    translated = [p.id for p in original.scoring.table.patterns if theirs.rows[p.id].name != p.name]
    assert len(translated) > len(original.scoring.table.patterns) // 2, "the Italian names are Italian"
    assert [m.where for m, _ in missing_translations(copy)] == ["name"], "only the new name lacks a translation"
    assert main(["check", str(path)]) == 0
    assert "missing translations: 1 text shown in English" in capsys.readouterr().out


@pytest.mark.parametrize("name", ["hk", "mcr", "sichuan"])
def test_check_lists_nothing_for_the_shipped_variants(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", name]) == 0
    assert "missing translations" not in capsys.readouterr().out

"""Variants made of other variants: a file that ``extends`` another and holds only what
changes, and named ``options`` whose chosen changes apply on top."""

from __future__ import annotations

from pathlib import Path

import pytest
from cardavia.compiler import VariantError, compile_file, load_variant, parse_notation

ROOT = Path(__file__).resolve().parent.parent
ALL_SIMPLES = "234m 345p 456s 678s 5p 2f +5p"  # all chows, concealed, another seat's flower: 2 faan in HK


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_four_line_overlay_changes_only_what_it_says(tmp_path: Path) -> None:
    path = write(tmp_path, "hk-min1.yaml", "extends: hk\nid: hk_min1\nscoring:\n  minimum: 1\n")
    mine, hk = compile_file(path), load_variant("hk")
    assert (mine.id, mine.scoring.minimum, hk.scoring.minimum) == ("hk_min1", 1, 3)
    assert [p.id for p in mine.scoring.table.patterns] == [p.id for p in hk.scoring.table.patterns]
    assert mine.data["settlement"] == hk.data["settlement"] and mine.title == hk.title
    hand = parse_notation(ALL_SIMPLES)
    assert mine.scorer.score(hand).valid and not hk.scorer.score(hand).valid


def test_patterns_merge_by_id_removed_changed_added_and_moved(tmp_path: Path) -> None:
    path = write(tmp_path, "house.yaml", """\
extends: hk
id: house
scoring:
  patterns:
    - id: self_drawn
      value: 2
    - id: no_flowers
      remove: true
    - id: all_simples
      name: All simples
      value: 1
      when: "all(t in tiles: t.simple)"
      before: all_chows
    - id: concealed_hand
      after: self_drawn
""")
    ids = [p.id for p in compile_file(path).scoring.table.patterns]
    hk = [p.id for p in load_variant("hk").scoring.table.patterns]
    assert "no_flowers" in hk and "no_flowers" not in ids
    assert ids.index("all_simples") == ids.index("all_chows") - 1
    assert ids.index("concealed_hand") == ids.index("self_drawn") + 1
    assert compile_file(path).scoring.table.by_id["self_drawn"].value == 2
    assert sorted(ids) == sorted([i for i in hk if i != "no_flowers"] + ["all_simples"])


def test_a_problem_is_placed_in_the_file_that_holds_it(tmp_path: Path) -> None:
    base = write(tmp_path, "base.yaml", (ROOT / "variants" / "hk.yaml").read_text(encoding="utf-8"))
    over = write(tmp_path, "over.yaml", """\
extends: base.yaml
id: over
scoring:
  patterns:
    - id: self_drawn
      when: "self_drawn and chowz"
    - id: ghost
      remove: true
""")
    with pytest.raises(VariantError) as info:
        compile_file(over)
    text = "\n".join(map(str, info.value.problems))
    assert f"{over}:8:7: remove: there is no 'ghost'" in text
    assert str(base) not in text


def test_an_inherited_problem_names_the_base_file(tmp_path: Path) -> None:
    text = (ROOT / "variants" / "hk.yaml").read_text(encoding="utf-8").replace('"2 ** total"', '"2 ** totl"', 1)
    base = write(tmp_path, "base.yaml", text)
    over = write(tmp_path, "over.yaml", "extends: base.yaml\nid: over\n")
    with pytest.raises(VariantError) as info:
        compile_file(over)
    [problem] = info.value.problems
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "totl" in row)
    assert (problem.file, problem.line) == (str(base), line) and "'totl'" in problem.message


def test_the_same_overlay_in_two_folders_reads_its_own_base(tmp_path: Path) -> None:
    text = (ROOT / "variants" / "hk.yaml").read_text(encoding="utf-8")
    for folder, minimum in (("a", 3), ("b", 2)):
        (tmp_path / folder).mkdir()
        write(tmp_path / folder, "base.yaml", text.replace("  minimum: 3\n", f"  minimum: {minimum}\n", 1))
        write(tmp_path / folder, "over.yaml", "extends: base.yaml\nid: over\n")
    for _ in range(2):  # compiled, then from the cache
        assert compile_file(tmp_path / "a" / "over.yaml").scoring.minimum == 3
        assert compile_file(tmp_path / "b" / "over.yaml").scoring.minimum == 2


def test_a_changed_base_is_compiled_again(tmp_path: Path) -> None:
    text = (ROOT / "variants" / "hk.yaml").read_text(encoding="utf-8")
    base = write(tmp_path, "base.yaml", text)
    over = write(tmp_path, "over.yaml", "extends: base.yaml\nid: over\n")
    assert compile_file(over).scoring.minimum == 3
    assert compile_file(over).scoring.minimum == 3  # from the cache
    base.write_text(text.replace("  minimum: 3\n", "  minimum: 2\n", 1), encoding="utf-8")
    assert compile_file(over).scoring.minimum == 2


def test_a_loop_of_extends_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "extends: b.yaml\nid: a\n")
    write(tmp_path, "b.yaml", "extends: a.yaml\nid: b\n")
    with pytest.raises(VariantError) as info:
        compile_file(tmp_path / "a.yaml")
    assert "loop" in str(info.value) and "a.yaml" in str(info.value)


def test_an_unknown_base_is_placed_at_extends(tmp_path: Path) -> None:
    over = write(tmp_path, "over.yaml", "id: over\nextends: hongkong\n")
    with pytest.raises(VariantError) as info:
        compile_file(over)
    assert str(info.value).startswith(f"{over}:2:10: unknown variant 'hongkong'")


OPTIONS = """\
extends: hk
id: house
options:
  base:
    name: Base points
    default: full
    choices:
      full:
        name: Doubling
      half:
        name: Half spicy
        changes:
          settlement:
            base: "total + 1"
  minimum:
    default: three
    choices:
      three: {}
      one:
        changes:
          scoring:
            minimum: 1
"""


def test_options_apply_their_chosen_changes(tmp_path: Path) -> None:
    path = write(tmp_path, "house.yaml", OPTIONS)
    default = compile_file(path)
    # hk's own options come with it, at their defaults
    assert default.options == {"base_table": "full_spicy", "discard_pays": "discarder", "base": "full",
                               "minimum": "three"}
    assert default.settlement.base.text == "2 ** total" and default.scoring.minimum == 3
    half = compile_file(path, {"base": "half", "minimum": "one"})
    assert {k: half.options[k] for k in ("base", "minimum")} == {"base": "half", "minimum": "one"}
    assert half.settlement.base.text == "total + 1" and half.scoring.minimum == 1
    assert compile_file(path).settlement.base.text == "2 ** total"  # the cache keeps them apart


def test_an_unknown_option_or_choice_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "house.yaml", OPTIONS)
    with pytest.raises(VariantError) as info:
        compile_file(path, {"payout": "half"})
    assert "no option 'payout'" in str(info.value) and "base, minimum" in str(info.value)
    with pytest.raises(VariantError) as info:
        compile_file(path, {"base": "quarter"})
    assert "--option base=quarter: no such choice: expected one of full, half" in str(info.value)
    with pytest.raises(VariantError):
        load_variant("mcr", {"base": "half"})  # mcr declares no options


def test_a_key_given_null_is_removed(tmp_path: Path) -> None:
    path = write(tmp_path, "river.yaml", "extends: sichuan\nid: river\nplay:\n  after_win: stay\n  max_winners: ~\n")
    river = compile_file(path)
    assert river.play.after_win == "stay" and "max_winners" not in river.data["play"]
    kept = write(tmp_path, "kept.yaml", "extends: sichuan\nid: kept\nplay:\n  after_win: stay\n")
    with pytest.raises(VariantError) as info:
        compile_file(kept)  # sichuan's max_winners: 3 means nothing when winners stay in
    assert "expected no max_winners" in str(info.value) and "sichuan.yaml" in str(info.value)


def test_an_overlay_keeps_its_translations(tmp_path: Path) -> None:
    from cardavia.render.catalog import translator
    from cardavia.render.pages import render_game

    path = write(tmp_path, "hk-min1.yaml", "extends: hk\nid: hk_min1\nscoring:\n  minimum: 1\n")
    mine, hk = compile_file(path), load_variant("hk")
    for tag in ("de", "zh-Hant"):
        page, base = render_game(mine, tag, "txt"), render_game(hk, tag, "txt")
        t = translator(tag)
        assert t.has("pattern name", "Half flush") and t.pgettext("pattern name", "Half flush") in page
        assert base.splitlines()[0] == page.splitlines()[0]  # the title, translated alike
    assert compile_file(path).name == hk.name

"""Tile groups with chosen ranks (``ranks:`` on a suit): the tile set, the wall, every count
of copies and the rules page keep only those ranks; a bad rank is a located error."""

from __future__ import annotations

from pathlib import Path

import pytest
from cardavia.compiler import VariantError, compile_file
from cardavia.compiler.model.tiles import CODES, kind_of
from cardavia.runtime.simulate import simulate
from cardavia.runtime.wall import WallError, shuffled_wall, wall_from_codes

# A Japanese-style three-player set: characters 1 and 9 only, 108 tiles.
TERMINALS = """\
extends: hk
id: hk_terminal_characters
tiles:
  - {group: characters, copies: 4, ranks: [1, 9]}
  - {group: dots, copies: 4}
  - {group: bamboo, copies: 4}
  - {group: winds, copies: 4}
  - {group: dragons, copies: 4}
table:
  players: 3
scoring:
  minimum: 0
"""


def write(tmp_path: Path, text: str, name: str = "ranks.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_suit_keeps_only_its_ranks(tmp_path: Path) -> None:
    v = compile_file(write(tmp_path, TERMINALS))
    assert len(v.tiles) == 4 * (2 + 9 + 9 + 4 + 3) == 108
    characters = {CODES[k] for k in v.tiles.kinds if CODES[k].endswith("m")}
    assert characters == {"1m", "9m"}
    assert v.tiles.copies(kind_of("9m")) == 4 and v.tiles.copies(kind_of("5m")) == 0
    wall = shuffled_wall(v.tiles, 3)
    assert sorted(v.tiles.kinds[i] for i in wall) == sorted(v.tiles.kinds)


def test_the_wall_and_the_scorer_know_the_missing_ranks(tmp_path: Path) -> None:
    v = compile_file(write(tmp_path, TERMINALS))
    codes = [CODES[k] for k in v.tiles.kinds]
    assert len(wall_from_codes(v.tiles, codes)) == 108
    with pytest.raises(WallError, match=r"5m is not part of this variant's tile set"):
        wall_from_codes(v.tiles, ["5m", *codes[1:]])
    assert v.scorer.copies[kind_of("5m")] == 0 and v.scorer.copies[kind_of("1m")] == 4
    assert kind_of("5m") not in v.scorer.playable


def test_a_table_with_chosen_ranks_simulates_soundly(tmp_path: Path) -> None:
    out = simulate(write(tmp_path, TERMINALS), 200, seed=5)
    assert out["deals"] == 200 and out["invariant_violations"] == 0 and len(out["wins_by_seat"]) == 3


def test_a_rank_out_of_range_is_located(tmp_path: Path) -> None:
    text = TERMINALS.replace("ranks: [1, 9]", "ranks: [1, 10]")
    with pytest.raises(VariantError) as info:
        compile_file(write(tmp_path, text))
    (p,) = info.value.problems
    line = text.splitlines().index("  - {group: characters, copies: 4, ranks: [1, 10]}") + 1
    assert (p.file, p.line) == (write(tmp_path, text), line)
    assert "tiles[0].ranks[1]" in p.message and "10" in p.message


def test_ranks_on_honors_are_located(tmp_path: Path) -> None:
    text = TERMINALS.replace("{group: winds, copies: 4}", "{group: winds, copies: 4, ranks: [1, 2]}")
    with pytest.raises(VariantError) as info:
        compile_file(write(tmp_path, text))
    (p,) = info.value.problems
    assert p.line == text.splitlines().index("  - {group: winds, copies: 4, ranks: [1, 2]}") + 1
    assert "tile group 'winds' takes no ranks" in p.message


def test_the_rules_page_names_the_ranks_kept(tmp_path: Path) -> None:
    from cardavia.render.pages import render_game

    variant = compile_file(write(tmp_path, TERMINALS))

    def page(tag: str) -> str:
        return " ".join(render_game(variant, tag, "txt").split())

    assert "The set has 108 tiles: 8 characters, 36 dots" in page("en")
    assert "Characters: only the ranks 1 and 9." in page("en")
    assert "Zeichen: nur die Ränge 1 und 9." in page("de")
    assert "万子\uff1a只有1和9。" in page("zh-Hans").replace(" ", "")  # a full-width colon

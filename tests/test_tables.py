"""Tables other than four players of 13 tiles: three players (seats, winds and payments
follow) and 16-tile hands (five sets and a pair, 17/16 dealt), end to end."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from cardavia.compiler import VariantError, compile_file, load_variant
from cardavia.compiler.model.tiles import CODES
from cardavia.runtime.simulate import simulate
from scenarios.helpers import checked, run_cli, scenario

THREE = """\
extends: sichuan
id: sichuan_three
tiles:
  - {group: dots, copies: 4}
  - {group: bamboo, copies: 4}
table:
  players: 3
play:
  missing_suit: ~
  max_winners: 2
scoring:
  valid_when: []
"""

SIXTEEN = """\
extends: hk
id: hk_sixteen
table:
  dealer_tiles: 17
  other_tiles: 16
scoring:
  minimum: 0
  shapes:
    - {id: standard, sets: 5}
    - {id: seven_pairs, remove: true}
    - {id: thirteen_orphans, remove: true}
  patterns:
    - {id: seven_pairs, remove: true}
    - {id: thirteen_orphans, remove: true}
"""


def variant(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_three_player_deal(tmp_path: Path, capsys: Any) -> None:
    three = variant(tmp_path, "three.yaml", THREE)
    v = compile_file(three)
    assert (v.table.players, len(v.tiles), v.play.max_winners) == (3, 72, 2)
    hands = {0: "147p 258p 369s 147s 5s", 1: "111p 222p 333p 444s 5s", 2: ""}
    scn = scenario(three, hands, [{"seat": 0, "do": "discard", "tile": "5s"}, {"seat": 1, "do": "win"}],
                   dealer_draw="5s")
    status, r, err = run_cli(scn, tmp_path, capsys)
    assert status == 0, err
    checked(scn, r)
    assert [(w["seat"], w["from"], w["total"]) for w in r["wins"]] == [(1, 0, 1)]  # all pungs
    first = r["payments"][0]
    assert (first["from"], first["to"], first["amount"]) == (0, 1, 2)
    assert len(r["deltas"]) == 3 and sum(r["deltas"]) == 0
    assert {e["seat"] for e in r["events"] if e["type"] == "deal"} == {0, 1, 2}


def test_three_players_cannot_all_win(tmp_path: Path) -> None:
    with pytest.raises(VariantError, match="with 3 players the deal ends when at most 2 have won"):
        compile_file(variant(tmp_path, "three.yaml", THREE.replace("max_winners: 2", "max_winners: 3")))


def test_a_sixteen_tile_deal(tmp_path: Path, capsys: Any) -> None:
    sixteen = variant(tmp_path, "sixteen.yaml", SIXTEEN)
    hands = {0: "147s 258s 369s 1234z 567z", 1: "123m 456m 789m 123p 456p 9p", 2: "", 3: ""}
    scn = scenario(sixteen, hands, [{"seat": 0, "do": "discard", "tile": "9p"}, {"seat": 1, "do": "win"}],
                   dealer_draw="9p")
    status, r, err = run_cli(scn, tmp_path, capsys)
    assert status == 0, err
    checked(scn, r)
    deal = next(e for e in r["events"] if e["type"] == "deal" and e["seat"] == 1)
    assert len(deal["ids"]) == 16
    win = r["wins"][0]
    assert (win["seat"], win["from"], win["total"]) == (1, 0, 2)  # concealed hand, no flowers
    assert r["payments"] == [{"from": 0, "to": 1, "amount": 12, "reason": "win"}]  # 3 bases of 2 ** 2
    assert r["deltas"] == [-12, 12, 0, 0]


@pytest.mark.parametrize("name, text, players", [("three.yaml", THREE, 3), ("sixteen.yaml", SIXTEEN, 4)])
def test_other_tables_simulate_soundly(tmp_path: Path, name: str, text: str, players: int) -> None:
    out = simulate(variant(tmp_path, name, text), 200, seed=9)
    assert out["deals"] == 200 and out["invariant_violations"] == 0 and len(out["wins_by_seat"]) == players


def test_the_shipped_three_player_sichuan(capsys: Any) -> None:
    from cardavia.cli import main
    from cardavia.render.catalog import translator
    from cardavia.render.languages import LANGUAGES

    v = load_variant("sichuan-three")
    assert (v.table.players, len(v.tiles), v.play.max_winners, v.play.missing_suit) == (3, 72, 2, None)
    assert {CODES[k][1] for k in v.tiles.kinds} == {"p", "s"}  # the characters are out
    assert "exchange" not in (v.data.get("options") or {})
    out = simulate("sichuan-three", 200, seed=4)
    assert out["deals"] == 200 and out["invariant_violations"] == 0 and len(out["wins_by_seat"]) == 3
    for lang in LANGUAGES:
        assert main(["rules", "sichuan-three", "--lang", lang.tag, "--format", "txt"]) == 0
        page = capsys.readouterr().out
        assert page.splitlines()[0] == translator(lang.tag).pgettext("variant title", "Three-player Sichuan Mahjong")

"""The numbers of the rules come from the variant: a game dealing 11 and 10 tiles, won with
three sets and a pair, scores, replays, simulates and plays like the shipped ones.

The variant is Hong Kong's file with the deal and the standard shape changed and the other
shapes removed, written by :func:`eleven_tiles` into a temporary folder.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from cardavia.compiler import HandError, compile_file, parse_notation
from cardavia.runtime.simulate import simulate
from cardavia.runtime.terminal import play_session
from scenarios.helpers import checked, run_cli, scenario
from test_play_terminal import Player

from cardavia.cli import main

ROOT = Path(__file__).resolve().parent.parent


def eleven_tiles_text() -> str:
    """hk.yaml dealing 11 (dealer) and 10 tiles, with one shape: three sets and a pair."""
    text = (ROOT / "variants" / "hk.yaml").read_text(encoding="utf-8")
    for old, new in (("id: hk\n", "id: hk_eleven\n"), ("  dealer_tiles: 14\n", "  dealer_tiles: 11\n"),
                     ("  other_tiles: 13\n", "  other_tiles: 10\n"),
                     ("    - {id: standard, kind: sets_and_pair, sets: 4}\n"
                      "    - {id: seven_pairs, kind: pairs, sets: 7, quads_as_two_pairs: false}\n"
                      "    - {id: thirteen_orphans, kind: unique_plus_pair, tiles: \"19m19p19s1234567z\"}\n",
                      "    - {id: standard, kind: sets_and_pair, sets: 3}\n")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    for gone in ("thirteen_orphans", "seven_pairs"):  # patterns of the shapes it no longer has
        text, found = re.subn(rf"    - id: {gone}\n(?:      .*\n)+", "", text)
        assert found == 1, gone
    return text


@pytest.fixture(scope="module")
def eleven_tiles(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("variants") / "hk_eleven.yaml"
    path.write_text(eleven_tiles_text(), encoding="utf-8")
    return path


def test_it_compiles_with_the_tables_numbers(eleven_tiles: Path) -> None:
    v = compile_file(eleven_tiles)
    assert (v.table.dealer_tiles, v.table.other_tiles, v.table.hand_size) == (11, 10, 11)
    assert v.scorer.hand_size == 11
    assert [(s.id, s.size) for s in v.scoring.shapes] == [("standard", 11)]


def test_it_scores_hands_of_eleven_tiles(eleven_tiles: Path) -> None:
    scorer = compile_file(eleven_tiles).scorer
    full_flush = scorer.score(parse_notation("111m 234m 567m 9m +9m", 11))
    assert full_flush.valid and full_flush.shape == "standard"
    assert {f.id for f in full_flush.fans} >= {"full_flush", "concealed_hand"}
    with_a_set = scorer.score(parse_notation("234m 567m 9m [111m] +9m", 11, self_drawn=True))
    assert with_a_set.valid
    assert not scorer.score(parse_notation("123m 456m 789m 5p +6p", 11)).valid  # not a winning shape


def test_a_wrong_number_of_tiles_names_the_variants_numbers(eleven_tiles: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(HandError, match=re.escape("with 0 declared set(s) the hand holds 10 tiles plus the winning "
                                                  "tile, got 13 plus the winning tile")):
        parse_notation("123m 456m 789m 123p 5p +5p", 11)
    with pytest.raises(HandError, match=re.escape("with 1 declared set(s) the hand holds 7 tiles")):
        compile_file(eleven_tiles).scorer.score(parse_notation("123m 456m 789m 5p [111z] +5p"))
    assert main(["score", str(eleven_tiles), "123m 456m 789m 123p 5p +5p"]) == 2
    assert "the hand holds 10 tiles plus the winning tile, got 13" in capsys.readouterr().err


def test_score_jsonl_checks_the_variants_hand_size(eleven_tiles: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    eleven = {"hand": ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "9m"], "win_tile": "9m"}
    fourteen = {"hand": ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "8m", "8m", "9m"],
                "win_tile": "9m"}
    lines = "".join(json.dumps(r) + "\n" for r in (eleven, fourteen, {**eleven, "self_drawn": "yes"}))
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(lines.encode())))
    assert main(["score", str(eleven_tiles), "--jsonl"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert out[0]["valid"] is True
    assert out[1] == {"error": "line 2: wrong tile count: with 0 declared set(s) the hand holds 10 tiles plus "
                               "the winning tile, got 13 plus the winning tile"}
    assert "self_drawn: expected true or false" in out[2]["error"]


def test_a_deal_replays_from_a_fixed_wall(eleven_tiles: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """Seat 1 waits on 9m with a full flush; the dealer draws 9m as its eleventh tile and lets
    it go (autoplay discards the drawn tile); seat 1 wins on it."""
    scn = scenario(str(eleven_tiles), {1: "111m 234m 567m 9m"}, [{"seat": 1, "do": "win"}], dealer_draw="9m")
    assert len(scn["wall"]) == 144
    status, result, err = run_cli(scn, tmp_path, capsys)
    assert status == 0, err
    checked(scn, result)  # the independent validator: hand sizes of 10 and 11, every move, the win
    deal = [e for e in result["events"] if e["type"] == "deal"]
    assert [len(e["ids"]) for e in deal] == [10, 10, 10, 10]
    expected = compile_file(eleven_tiles).scorer.score(parse_notation("111m 234m 567m 9m +9m", 11))
    assert result["end"] == "win"
    assert [(w["seat"], w["from"], w["total"]) for w in result["wins"]] == [(1, 0, expected.total)]
    assert sum(result["deltas"]) == 0 and result["deltas"][1] > 0


def test_simulated_deals_keep_every_invariant(eleven_tiles: Path) -> None:
    out = simulate(str(eleven_tiles), 60, seed=3)
    assert out["invariant_violations"] == 0
    assert out["deals"] == 60 and sum(out["wins_by_seat"]) > 0
    assert sum(out["points_by_seat"]) == 0


def test_a_deal_plays_in_the_terminal(eleven_tiles: Path) -> None:
    out = io.StringIO()
    player = Player(out)
    assert play_session(str(eleven_tiles), 5, player, out) == 0
    text = out.getvalue()
    assert player.deals == 1 and "End of the deal:" in text
    shown = text[text.index("Every hand:"):text.index("Payments:")].splitlines()[1:]
    sizes = []
    for line in shown:  # "  Seat 2 (W): 1p 3p 7p 8p 8p 2z 5z [333z]": a kong counts as a set of three
        tiles = line.split(": ", 1)[1]
        sets = re.findall(r"\[(\d+)[mpsz]\]", tiles)
        loose = re.sub(r"\[[^\]]*\]", "", tiles)
        sizes.append(sum(len(d) for d in re.findall(r"(\d+)[mpsz]", loose)) + sum(min(len(d), 3) for d in sets))
    assert len(sizes) == 4 and set(sizes) <= {10, 11}, shown  # 10 dealt; the winner's with its winning tile
    deltas = re.search(r"This deal: (.*)", text).group(1)  # type: ignore[union-attr]
    assert sum(int(n) for n in re.findall(r"([+-]\d+)", deltas)) == 0

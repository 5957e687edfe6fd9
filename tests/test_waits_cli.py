"""``cardavia waits``: the contract's machine form on generated ready hands of the three
variants (winning hands of bench/corpus.py less their winning tile), its input and error
rules (those of ``score --jsonl``), ``--json`` and the form for people."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from cardavia.compiler import from_json, load_variant, shipped_variants
from cardavia.compiler.model.tiles import CODES
from cardavia.compiler.shapes.arrangements import completes
from cardavia.runtime.analysis import analyst

from bench.corpus import ready
from cardavia.cli import main
from cardavia.commands.waits import jsonl

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ("hk", "mcr", "sichuan")


def _answers(name: str, lines: list[str]) -> list[dict]:
    out = io.StringIO()
    source = io.BytesIO("".join(line + "\n" for line in lines).encode())
    assert jsonl(analyst(load_variant(name)), source, out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize("name", VARIANTS)
def test_generated_ready_hands_wait_on_their_winning_tile_valued_as_score_values_it(name: str) -> None:
    v = load_variant(name)
    requests = ready(name, 150, seed=3)
    answers = _answers(name, [json.dumps(r) for r in requests])
    assert len(answers) == len(requests)
    order = {code: k for k, code in enumerate(CODES)}
    for request, answer in zip(requests, answers):
        assert answer["ready"] is True and answer["waits"]
        tiles = [w["tile"] for w in answer["waits"]]
        assert tiles == sorted(tiles, key=order.__getitem__)
        assert request["completed_by"] in tiles
        held = [0] * 34
        counts = [0] * 34
        for code in request["hand"]:
            held[order[code]] += 1
            counts[order[code]] += 1
        for m in request.get("melds", ()):
            for code in m["tiles"]:
                held[order[code]] += 1
        expected = []
        for k in sorted(v.scorer.playable):
            if k < 34 and held[k] < v.scorer.copies[k]:
                counts[k] += 1
                if completes(counts, len(request.get("melds", ())), v.scoring.shapes):
                    expected.append(CODES[k])
                counts[k] -= 1
        assert tiles == expected
        for wait in answer["waits"]:
            for key, self_drawn in (("discard", False), ("self_drawn", True)):
                hand = from_json({**request, "win_tile": wait["tile"], "self_drawn": self_drawn}, v.scorer.hand_size)
                result = v.scorer.score(hand)
                assert wait[key] == {"valid": result.valid, "total": result.total}


def test_bad_lines_get_an_error_line_and_the_batch_goes_on() -> None:
    good = json.dumps({"hand": ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m"]})
    lines = [good, "", "not json", json.dumps({"hand": ["1m"]}), json.dumps({"melds": []}),
             json.dumps({"hand": ["1z"] * 5 + ["2z"] * 8}), json.dumps([1]), good]
    answers = _answers("mcr", lines)
    assert len(answers) == 7  # the blank line gets no answer
    assert answers[0] == answers[-1] and answers[0]["ready"]
    assert answers[1] == {"error": "line 3: not JSON: Expecting value at column 1"}
    assert answers[2] == {"error": "line 4: wrong tile count: with 0 declared set(s) a waiting hand holds 13 tiles, "
                                   "got 1"}
    assert answers[3] == {"error": "line 5: field 'hand' is required"}
    assert answers[4]["error"].startswith("line 6: 5 copies of 1z")
    assert answers[5] == {"error": "line 7: expected a JSON object"}


def test_the_flags_of_a_win_are_ignored_and_the_winds_count() -> None:
    base = {"hand": ["1z", "1z", "1z", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9p", "9p"]}
    plain = _answers("hk", [json.dumps(base)])[0]
    flagged = _answers("hk", [json.dumps({**base, "win_tile": "7z", "self_drawn": True, "robbing_kong": True,
                                          "kong_replacement": True, "last_tile_of_kind": True})])[0]
    assert plain == flagged and plain["ready"]
    south = _answers("hk", [json.dumps({**base, "seat_wind": "S"})])[0]
    assert south["waits"][0]["discard"]["total"] < plain["waits"][0]["discard"]["total"]  # 1z: no seat wind


def test_the_documented_examples_are_real(capsys: pytest.CaptureFixture[str]) -> None:
    page = (ROOT / "docs" / "interfaces.md").read_text(encoding="utf-8")
    for argv in (["waits", "hk", "33m 444p 55p [789m] [777p] 1f"], ["waits", "hk", "33m 444p 55p [789m] [777p] 1f",
                                                                     "--json"]):
        assert main(argv) == 0
        for line in capsys.readouterr().out.splitlines():
            assert f"\n    {line}\n" in page, line
    out = io.StringIO()
    source = io.BytesIO((ROOT / "docs" / "examples" / "waits.jsonl").read_bytes())
    jsonl(analyst(load_variant("hk")), source, out)
    for line in out.getvalue().splitlines():
        assert f"\n    {line}\n" in page, line


def test_hand_notation_errors_and_json_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "hk", "123m 456m 789m 123p 5p +5p"]) == 2
    assert "a waiting hand has no winning tile: leave out '+5p'" in capsys.readouterr().err
    assert main(["waits", "hk", "123m", "--json"]) == 2
    assert json.loads(capsys.readouterr().out) == {
        "error": "wrong tile count: with 0 declared set(s) a waiting hand holds 13 tiles, got 3"}
    assert main(["waits", "xx", "123m", "--json"]) == 2
    assert json.loads(capsys.readouterr().out) == {
        "error": f"unknown variant 'xx' (known: {', '.join(shipped_variants())})"}
    assert main(["waits", "sichuan", "1112345678999m", "--missing-suit", "m"]) == 0
    out = capsys.readouterr().out
    assert "0 fan, not a valid win: the hand still holds a tile of the declared missing suit" in out
    assert main(["waits", "hk", "147m258p369s1234z"]) == 0
    assert "not ready: 6 tiles from ready" in capsys.readouterr().out


def test_the_command_answers_line_by_line_in_a_process() -> None:
    proc = subprocess.run([sys.executable, "-m", "cardavia", "waits", "sichuan", "--jsonl"], cwd=ROOT,
                          input='{"hand": ["1m","1m","1m","2m","3m","4m","5m","6m","7m","8m","9m","9m","9m"]}\n{}\n',
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr == ""
    first, second = proc.stdout.splitlines()
    assert json.loads(first)["ready"] and json.loads(second) == {"error": "line 2: field 'hand' is required"}


def test_long_lines_huge_integers_and_a_failing_output_are_answered_as_score_answers_them() -> None:
    from cardavia.commands import StreamError
    from cardavia.commands.score import MAX_LINE_BYTES

    good = json.dumps({"hand": ["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m"]})
    huge = good[:-1] + ', "note": 1' + "0" * 5000 + "}"  # an ignored field of 5,001 digits
    long = '{"hand": [' + '"1m", ' * (MAX_LINE_BYTES // 6) + '"1m"]}'
    first, second = _answers("hk", [long, huge])
    assert first == {"error": f"line 1: longer than {MAX_LINE_BYTES:,} bytes: a request takes well under 1,000"}
    assert second == _answers("hk", [good])[0] and second["ready"]

    class Full(io.StringIO):
        def write(self, s: str) -> int:
            raise OSError(28, "No space left on device")

    with pytest.raises(StreamError, match="cannot write to standard output: No space left on device"):
        jsonl(analyst(load_variant("hk")), io.BytesIO((good + "\n").encode()), Full())


def test_a_hand_argument_with_jsonl_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["waits", "hk", "1112345678999m", "--jsonl"]) == 2
    assert capsys.readouterr().err == "error: --jsonl reads hands from standard input; give no HAND argument\n"

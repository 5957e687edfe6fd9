"""``cardavia score`` exactly as docs/interfaces.md specifies it.

Readable table by default, ``--json`` for one object, ``--jsonl`` batch mode on standard
input, every flag, and bad input (clear message, exit status 2, never a traceback).
Most tests call the CLI in-process; two run it as a real process on a pipe.
"""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
from pathlib import Path

import pytest

from cardavia.cli import main

ROOT = Path(__file__).resolve().parent.parent

HAND = "123m456m789m123p5p +5p"
REQUEST = {"hand": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "5p"], "win_tile": "5p"}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["score", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def run_jsonl(monkeypatch, capsys, variant: str, data: str | bytes) -> tuple[int, list[dict]]:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8"))
    code = main(["score", variant, "--jsonl"])
    out, err = capsys.readouterr()
    assert err == ""
    return code, [json.loads(line) for line in out.splitlines()]


# ------------------------------------------------------------ readable table

def test_table_lists_each_pattern_value_total_and_arrangement(capsys):
    code, out, _ = run(capsys, "hk", "555z666z77z123m45m +6m", "--self-drawn")
    assert code == 0
    groups = next(row for row in out.splitlines() if row.startswith("arrangement (standard): ")).split(": ")[1]
    assert sorted(groups.split()) == ["123m", "456m*", "555z", "666z", "77z"]
    for name, pid, value in [("Little three dragons", "little_three_dragons", 5), ("Half flush", "half_flush", 3),
                             ("Concealed hand", "concealed_hand", 1), ("Self-drawn", "self_drawn", 1)]:
        line = next(row for row in out.splitlines() if pid in row)
        assert name in line and line.rstrip().endswith(f"{value} faan")
    assert "total: 11 faan" in out
    assert "valid win" in out


def test_table_explains_a_hand_below_the_minimum(capsys):
    code, out, _ = run(capsys, "hk", "123m456m789m5p[123p] 3f +5p")
    assert code == 0
    assert "All chows" in out and "total: 1 faan" in out
    assert "not a valid win: below the minimum" in out and "3 needed" in out


def test_table_explains_a_shape_that_does_not_win(capsys):
    code, out, _ = run(capsys, "hk", "123m456m789m123p5p +6p")
    assert code == 0
    assert "total: 0 faan" in out
    assert "not a valid win: not a winning shape" in out and "seven pairs" in out


def test_table_shows_counts_and_the_cap(capsys):
    code, out, _ = run(capsys, "sichuan", "1111m2222m33m44m5m +5m")
    assert code == 0
    assert "1 x 2 = 2" in out and "total: 5 fan (capped from 6)" in out


# ------------------------------------------------------------------- --json

def test_json_is_one_object_in_the_contract_form(capsys):
    code, out, _ = run(capsys, "hk", HAND, "--json")
    assert code == 0
    assert len(out.strip().splitlines()) == 1
    obj = json.loads(out)
    assert obj["valid"] is True and obj["total"] == 3 and type(obj["total"]) is int
    assert obj["fans"] == [{"id": "all_chows", "value": 1, "count": 1},
                           {"id": "concealed_hand", "value": 1, "count": 1},
                           {"id": "no_flowers", "value": 1, "count": 1}]


def test_json_for_a_shape_that_does_not_win(capsys):
    code, out, _ = run(capsys, "hk", "123m456m789m123p5p +6p", "--json")
    obj = json.loads(out)
    assert code == 0 and (obj["valid"], obj["total"], obj["fans"]) == (False, 0, [])
    assert obj["reason"] == "not a winning shape"


def test_jsonl_line_for_a_shape_that_does_not_win_is_the_contract_object(monkeypatch, capsys):
    code, out = run_jsonl(monkeypatch, capsys, "hk", json.dumps({**REQUEST, "win_tile": "6p"}) + "\n")
    assert code == 0 and out == [{"valid": False, "total": 0, "fans": []}]


def test_json_below_the_minimum_keeps_total_and_fans(capsys):
    obj = json.loads(run(capsys, "hk", "123m456m789m5p[123p] 3f +5p", "--json")[1])
    assert obj["valid"] is False and obj["total"] == 1
    assert obj["fans"] == [{"id": "all_chows", "value": 1, "count": 1}]


def test_variant_as_a_path(capsys):
    code, out, _ = run(capsys, str(ROOT / "variants" / "hk.yaml"), HAND, "--json")
    assert code == 0 and json.loads(out)["total"] == 3


# --------------------------------------------------------------------- flags

@pytest.fixture(scope="module")
def flag_variant(tmp_path_factory) -> str:
    """The Hong Kong file with a pattern table that reports each input flag as a pattern."""
    text = (ROOT / "variants" / "hk.yaml").read_text(encoding="utf-8")
    head, _, rest = text.partition("\n  patterns:\n")
    _, _, tail = rest.partition("\nsettlement:")
    patterns = {
        "f_self_drawn": ("when", "self_drawn"),
        "f_seat": ("count", "seat"),
        "f_round": ("count", "round_wind.rank"),
        "f_last_tile_of_kind": ("when", "last_tile_of_kind"),
        "f_kong_replacement": ("when", "kong_replacement"),
        "f_robbing_kong": ("when", "robbing_kong"),
        "f_last_wall_tile": ("when", "last_wall_tile"),
        "f_missing_m": ("when", "missing_suit == 'm'"),
        "f_missing_p": ("when", "missing_suit == 'p'"),
        "f_missing_s": ("when", "missing_suit == 's'"),
    }
    body = "".join(
        f"    - id: {pid}\n      name: Flag {pid[2:]}\n      description: Reports a flag.\n"
        f"      value: 1\n      {key}: \"{expr}\"\n"
        for pid, (key, expr) in patterns.items())
    head = head.replace("  minimum: 3\n", "  minimum: 0\n")
    path = tmp_path_factory.mktemp("variant") / "flags.yaml"
    path.write_text(head + "\n  patterns:\n" + body + "\nsettlement:" + tail, encoding="utf-8")
    return str(path)


def flag_fans(capsys, variant: str, *flags: str) -> dict[str, int]:
    code, out, err = run(capsys, variant, "123m456m789m5p[1111z] +5p", *flags, "--json")
    assert code == 0, err
    return {f["id"]: f["count"] for f in json.loads(out)["fans"]}


def test_defaults_are_no_flags_and_east(capsys, flag_variant):
    assert flag_fans(capsys, flag_variant) == {"f_seat": 1, "f_round": 1}


@pytest.mark.parametrize("flags, expected", [
    (["--self-drawn"], {"f_self_drawn": 1}),
    (["--seat", "W"], {"f_seat": 3}),
    (["--round", "N"], {"f_round": 4}),
    (["--last-tile-of-kind"], {"f_last_tile_of_kind": 1}),
    (["--self-drawn", "--kong-replacement"], {"f_self_drawn": 1, "f_kong_replacement": 1}),
    (["--robbing-kong"], {"f_robbing_kong": 1}),
    (["--last-wall-tile"], {"f_last_wall_tile": 1}),
    (["--missing-suit", "m"], {"f_missing_m": 1}),
    (["--missing-suit", "s"], {"f_missing_s": 1}),
])
def test_each_flag_reaches_the_scorer(capsys, flag_variant, flags, expected):
    got = flag_fans(capsys, flag_variant, *flags)
    want = {"f_seat": 1, "f_round": 1}
    want.update(expected)
    assert got == want


def test_jsonl_fields_reach_the_scorer_like_the_flags(monkeypatch, capsys, flag_variant):
    base = {"hand": ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "5p"], "win_tile": "5p",
            "melds": [{"type": "kong", "tiles": ["1z"] * 4}]}
    requests = [
        base,
        {**base, "self_drawn": True, "kong_replacement": True, "seat_wind": "S", "round_wind": "W"},
        {**base, "robbing_kong": True, "last_wall_tile": True, "last_tile_of_kind": True, "missing_suit": "p"},
        {**base, "self_drawn": None, "seat_wind": None, "missing_suit": None, "melds": [
            {"type": "kong", "tiles": ["1z"] * 4, "concealed": True}]},
    ]
    code, out = run_jsonl(monkeypatch, capsys, flag_variant, "".join(json.dumps(r) + "\n" for r in requests))
    assert code == 0
    got = [{f["id"]: f["count"] for f in o["fans"]} for o in out]
    assert got[0] == {"f_seat": 1, "f_round": 1}
    assert got[1] == {"f_self_drawn": 1, "f_kong_replacement": 1, "f_seat": 2, "f_round": 3}
    assert got[2] == {"f_robbing_kong": 1, "f_last_wall_tile": 1, "f_last_tile_of_kind": 1, "f_missing_p": 1,
                      "f_seat": 1, "f_round": 1}
    assert got[3] == {"f_seat": 1, "f_round": 1}


# -------------------------------------------------------------------- --jsonl

def test_jsonl_one_line_per_request_in_order_errors_included(monkeypatch, capsys):
    lines = [
        json.dumps(REQUEST),
        "",
        "not json",
        json.dumps({**REQUEST, "win_tile": "6p"}),
        "   ",
        json.dumps({**REQUEST, "hand": REQUEST["hand"][:-1]}),
        json.dumps({**REQUEST, "variant": "hk", "comment": "unknown fields are ignored"}),
        json.dumps([1, 2]),
        json.dumps({**REQUEST, "self_drawn": True, "robbing_kong": True}),
        json.dumps({**REQUEST, "flowers": ["1f", "2f", "3f", "4f"]}),
    ]
    code, out = run_jsonl(monkeypatch, capsys, "hk", "\n".join(lines) + "\n")
    assert code == 0
    assert len(out) == 8
    assert out[0]["valid"] is True and out[0]["total"] == 3
    assert "error" in out[1] and "line 3" in out[1]["error"] and "not JSON" in out[1]["error"]
    assert (out[2]["valid"], out[2]["total"], out[2]["fans"]) == (False, 0, [])
    assert "wrong tile count" in out[3]["error"]
    assert out[4]["total"] == 3 and out[4]["fans"] == out[0]["fans"]
    assert "JSON object" in out[5]["error"]
    assert "robbing_kong" in out[6]["error"]
    assert {"id": "all_flowers", "value": 2, "count": 1} in out[7]["fans"]
    assert all(set(o) == {"error"} for o in out if "error" in o)


def test_jsonl_omitted_fields_equal_explicit_defaults(monkeypatch, capsys):
    explicit = {**REQUEST, "melds": [], "flowers": [], "self_drawn": False, "seat_wind": "E", "round_wind": "E",
                "last_tile_of_kind": False, "kong_replacement": False, "robbing_kong": False,
                "last_wall_tile": False, "missing_suit": None}
    data = json.dumps(REQUEST) + "\n" + json.dumps(explicit) + "\n"
    code, out = run_jsonl(monkeypatch, capsys, "hk", data)
    assert code == 0 and out[0] == out[1]


def test_jsonl_matches_single_hand_json(monkeypatch, capsys):
    single = json.loads(run(capsys, "hk", "555z666z77z123m45m +6m", "--self-drawn", "--json")[1])
    request = {"hand": ["5z", "5z", "5z", "6z", "6z", "6z", "7z", "7z", "1m", "2m", "3m", "4m", "5m"],
               "win_tile": "6m", "self_drawn": True}
    _, out = run_jsonl(monkeypatch, capsys, "hk", json.dumps(request) + "\n")
    assert {k: out[0][k] for k in ("valid", "total", "fans")} == {k: single[k] for k in ("valid", "total", "fans")}


@pytest.mark.parametrize("request_obj, message", [
    ({**REQUEST, "hand": ["1x"] + REQUEST["hand"][1:]}, "unknown tile '1x'"),
    ({**REQUEST, "hand": ["5p"] * 4 + REQUEST["hand"][4:]}, "6 copies of 5p"),
    ({**REQUEST, "hand": REQUEST["hand"] + ["9s"]}, "wrong tile count"),
    ({**REQUEST, "hand": REQUEST["hand"][:10], "melds": [{"type": "chow", "tiles": ["1s", "2s", "4s"]}]}, "chow"),
    ({**REQUEST, "hand": REQUEST["hand"][:10], "melds": [{"type": "set", "tiles": ["1s", "1s", "1s"]}]},
     "unknown set type"),
    ({**REQUEST, "self_drawn": True, "robbing_kong": True}, "robbing_kong"),
    ({**REQUEST, "kong_replacement": True, "robbing_kong": True}, "robbing_kong"),
    ({**REQUEST, "kong_replacement": True, "self_drawn": True}, "needs a declared kong"),
    ({**REQUEST, "self_drawn": "yes"}, "self_drawn: expected true or false"),
    ({**REQUEST, "seat_wind": "X"}, "unknown wind 'X'"),
    ({**REQUEST, "missing_suit": "z"}, "missing_suit"),
    ({"win_tile": "5p"}, "'hand' is required"),
    ({"hand": REQUEST["hand"]}, "'win_tile' is required"),
    ({**REQUEST, "flowers": ["1f", "1f"]}, "listed twice"),
])
def test_jsonl_bad_requests_get_a_clear_error_line(monkeypatch, capsys, request_obj, message):
    code, out = run_jsonl(monkeypatch, capsys, "hk", json.dumps(request_obj) + "\n" + json.dumps(REQUEST) + "\n")
    assert code == 0 and len(out) == 2
    assert message in out[0]["error"] and out[0]["error"].startswith("line 1: ")
    assert out[1]["valid"] is True  # the batch goes on


def test_jsonl_invalid_utf8_line_is_an_error_line(monkeypatch, capsys):
    data = b"\xff\xfe{}\n" + json.dumps(REQUEST).encode() + b"\n"
    code, out = run_jsonl(monkeypatch, capsys, "hk", data)
    assert code == 0 and "UTF-8" in out[0]["error"] and out[1]["valid"] is True


def test_jsonl_deep_nesting_is_an_error_line(monkeypatch, capsys):
    code, out = run_jsonl(monkeypatch, capsys, "hk", "[" * 100000 + "]" * 100000 + "\n" + json.dumps(REQUEST) + "\n")
    assert code == 0 and "error" in out[0] and out[1]["valid"] is True


def test_jsonl_sichuan_tiles_outside_the_set(monkeypatch, capsys):
    code, out = run_jsonl(monkeypatch, capsys, "sichuan", json.dumps(
        {**REQUEST, "hand": REQUEST["hand"][:-1] + ["1z"], "win_tile": "1z"}) + "\n")
    assert code == 0 and "not part of this variant" in out[0]["error"]


# ---------------------------------------------------------------- bad input

@pytest.mark.parametrize("hand, flags, message", [
    ("123m456m789m123p5x +5p", [], "cannot read the hand at column 17"),
    ("123m456m789m123p5p +5q", [], "cannot read"),
    ("11111m456m789m12p +5p", [], "5 copies of 1m"),
    ("123m456m789m123p +5p", [], "wrong tile count"),
    ("123m456m789m123p5p", [], "no winning tile"),
    ("[124m]456m789m5p +5p", [], "a chow is three consecutive tiles"),
    ("[12m]456m789m123p5p +5p", [], "a set has 3 or 4 tiles"),
    ("123m456m789m[111p +5p", [], "expected tile codes such as 555p followed by ']'"),
    ("123m456m789m{123p}5p +5p", [], "only a kong can be declared concealed"),
    ("123m456m789m123p5p +5p +5p", [], "only one winning tile"),
    ("123m456m789m123p5p +5p", ["--robbing-kong", "--self-drawn"], "robbing_kong contradicts self_drawn"),
    ("123m456m789m123p5p +5p", ["--self-drawn", "--kong-replacement"], "needs a declared kong"),
    ("123m456m789m5p[1111z] +5p", ["--kong-replacement"], "needs self_drawn"),
    ("123m456m789m5p[1111z] +5p", ["--kong-replacement", "--robbing-kong"], "robbing_kong contradicts"),
    ("123m456m789m123p5p 9f +5p", [], "unknown tile '9f'"),
])
def test_bad_hand_exits_2_with_a_clear_message(capsys, hand, flags, message):
    code, out, err = run(capsys, "hk", hand, *flags)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err
    assert "Traceback" not in err


def test_unknown_variant_exits_2(capsys):
    code, out, err = run(capsys, "nonesuch", HAND)
    assert code == 2 and out == "" and "unknown variant 'nonesuch'" in err


def test_missing_hand_or_hand_with_jsonl_exits_2(capsys):
    assert run(capsys, "hk")[0] == 2
    code, _, err = run(capsys, "hk", HAND, "--jsonl")
    assert code == 2 and "--jsonl" in err


@pytest.mark.parametrize("argv", [["hk", HAND, "--seat", "X"], ["hk", HAND, "--missing-suit", "z"]])
def test_bad_options_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(["score", *argv])
    assert exc.value.code == 2


@pytest.mark.parametrize("argv", [["hk", HAND, "--json", "--jsonl"], ["hk", HAND, "--json", "--seat", "X"]])
def test_bad_options_in_a_json_mode_are_answered_as_json(capsys, argv):
    assert main(["score", *argv]) == 2
    out, err = capsys.readouterr()
    assert err == "" and set(json.loads(out)) == {"error"}


# ------------------------------------------------------------ a real process

def _cli(*argv: str, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "cardavia", "score", *argv], capture_output=True, text=True,
                          env=env, cwd=ROOT, **kw)


def test_process_exit_codes_and_no_traceback():
    ok = _cli("hk", HAND)
    assert ok.returncode == 0 and "total: 3 faan" in ok.stdout
    bad = _cli("hk", "11111m456m789m12p +5p", "--json")
    assert bad.returncode == 2 and bad.stderr == ""
    assert json.loads(bad.stdout) == {"error": "5 copies of 1m: each tile exists only 4 times"}
    plain = _cli("hk", "11111m456m789m12p +5p")
    assert plain.returncode == 2 and plain.stdout == "" and "Traceback" not in plain.stderr
    batch = _cli("sichuan", "--jsonl", input="garbage\n\n" + json.dumps(REQUEST) + "\n")
    assert batch.returncode == 0 and batch.stderr == ""
    answers = [json.loads(line) for line in batch.stdout.splitlines()]
    assert len(answers) == 2 and "error" in answers[0] and answers[1]["valid"] is True


@pytest.mark.skipif(sys.platform == "win32", reason="select on pipes")
def test_jsonl_answers_each_line_before_the_next_arrives():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "cardavia", "score", "hk", "--jsonl"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        for request in (REQUEST, {"bad": True}):
            proc.stdin.write((json.dumps(request) + "\n").encode())
            proc.stdin.flush()
            # A generous guard against a deadlock, not a timing assertion: an unflushed answer never comes.
            ready, _, _ = select.select([proc.stdout], [], [], 120)
            assert ready, "no answer while standard input is still open"
            answer = json.loads(proc.stdout.readline())
            assert ("error" in answer) == ("bad" in request)
        proc.stdin.close()
        assert proc.wait(timeout=120) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

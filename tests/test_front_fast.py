"""The fast paths of the batch front end give exactly what the checking paths give.

``compiler.model.hand.from_json`` takes a direct path for well-formed requests and hands
anything unusual to ``_from_json``, the path that checks every field and explains bad
input. Whatever the request, the two must agree: the same Hand (same fields, same types,
same field order) or the same HandError message. Requests are generated well-formed and
then perturbed field by field (hypothesis).
"""

from __future__ import annotations

import copy
import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from cardavia.compiler.model import hand as hand_module
from cardavia.compiler.model.hand import Hand, HandError, _from_json, from_json, tile_copies
from cardavia.compiler.model.tiles import CODES
from cardavia.compiler.scoring import fastjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.slow  # property sweeps of the fast request reader (about 30 s)

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "tests" / "data" / "mcr-sample.jsonl"

PLAYABLE = [c for c in CODES if not c.endswith("f")]
BONUS = [c for c in CODES if c.endswith("f")]
FLAGS = ("self_drawn", "last_tile_of_kind", "kong_replacement", "robbing_kong", "last_wall_tile")
#: Values that are wrong (or only almost right) in some field or other.
ODD = st.sampled_from([None, True, False, 0, 1, 1.0, "", "E", "x", "m", "5m", "1f", "0m", "55m", [], {}, ["5m"],
                       {"type": "pung"}, -1, 2**70]).map(copy.deepcopy)  # a list of one request is its own


def _outcome(fn: Any, obj: Any) -> tuple[str, Any]:
    try:
        hand = fn(obj)
    except HandError as exc:
        return ("error", str(exc))
    assert type(hand) is Hand
    fields = vars(hand).copy()
    copies = fields.pop("_copies", None)  # what the fast path leaves for compiler/scoring/context.py
    if copies is not None:
        assert copies == tile_copies(Hand(**fields))  # the same as counted on a Hand built the usual way
    return ("hand", [(name, type(value), value) for name, value in fields.items()])


def _assert_same(obj: Any) -> None:
    assert _outcome(from_json, obj) == _outcome(_from_json, obj), obj


def _meld_obj(kind: str, first: int, concealed: Any) -> dict[str, Any]:
    if kind == "chow":
        suit, rank = "mps"[first % 3], first % 7 + 1
        tiles = [f"{rank + i}{suit}" for i in range(3)]
    else:
        tiles = [PLAYABLE[first % len(PLAYABLE)]] * (4 if kind == "kong" else 3)
    meld = {"type": kind, "tiles": tiles}
    if concealed is not ...:
        meld["concealed"] = concealed
    return meld


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    """A request that is usually well-formed, sometimes with one or more fields spoiled."""
    melds = [_meld_obj(draw(st.sampled_from(["chow", "pung", "kong"])), draw(st.integers(0, 200)),
                       draw(st.sampled_from([..., False, True])))
             for _ in range(draw(st.integers(0, 4)))]
    n = 13 - 3 * len(melds) + draw(st.sampled_from([0, 0, 0, 0, -1, 1]))
    obj: dict[str, Any] = {
        "hand": draw(st.lists(st.sampled_from(PLAYABLE[:draw(st.integers(1, 34))]), min_size=max(n, 0),
                              max_size=max(n, 0))),
        "win_tile": draw(st.sampled_from(PLAYABLE)),
    }
    if melds or draw(st.booleans()):
        obj["melds"] = melds
    if draw(st.booleans()):
        obj["flowers"] = draw(st.lists(st.sampled_from(BONUS), max_size=4))
    for name in FLAGS:
        if draw(st.booleans()):
            obj[name] = draw(st.sampled_from([False, False, True, None]))
    for name in ("seat_wind", "round_wind"):
        if draw(st.booleans()):
            obj[name] = draw(st.sampled_from("ESWN"))
    if draw(st.integers(0, 3)) == 0:
        obj["missing_suit"] = draw(st.sampled_from(["m", "p", "s", None]))
    for _ in range(draw(st.integers(0, 2))):  # spoil a field, or a part of one
        field = draw(st.sampled_from(["hand", "win_tile", "melds", "flowers", "seat_wind", "round_wind",
                                      "missing_suit", "extra_key", *FLAGS]))
        where = draw(st.integers(0, 3))
        value = obj.get(field)
        if where == 0:
            obj.pop(field, None)
        elif where == 1 and isinstance(value, list) and value:
            i = draw(st.integers(0, len(value) - 1))
            if isinstance(value[i], dict):
                value[i] = dict(value[i])
                key = draw(st.sampled_from(["type", "tiles", "concealed"]))
                if draw(st.booleans()):
                    value[i].pop(key, None)
                else:
                    value[i][key] = draw(ODD)
            else:
                value[i] = draw(ODD)
        elif where == 2 and isinstance(value, list):
            value.append(draw(st.sampled_from(PLAYABLE + BONUS)))
        else:
            obj[field] = draw(ODD)
    return obj


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_fast_path_agrees_with_the_checking_path(obj: dict[str, Any]) -> None:
    _assert_same(obj)


@pytest.mark.skipif(not fastjson.AVAILABLE, reason="msgspec (the 'fast' extra) is not installed")
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_the_typed_decoder_agrees_with_the_checking_path(obj: dict[str, Any]) -> None:
    """A line the typed decoder reads gives the Hand json.loads + _from_json give; a line it
    turns down (None) is left to them."""
    line = json.dumps(obj)
    if fastjson.hand_from_line(line) is not None:
        assert _outcome(lambda _: fastjson.hand_from_line(line), None) == _outcome(_from_json, obj), line
    # A well-formed request is read straight away, unless it writes no sets or flowers as
    # some other false value than null or [] (the checking path reads those as none).
    if _outcome(_from_json, obj)[0] == "hand" and all(type(obj.get(f)) in (list, type(None))
                                                     for f in ("melds", "flowers")):
        assert fastjson.hand_from_line(line.encode()) is not None, line


def _three_sets(first: Any) -> dict[str, Any]:
    """A well-formed request with three declared sets, the first one as given."""
    return {"hand": ["1m", "2m", "3m", "4m"], "win_tile": "4m",
            "melds": [first, {"type": "pung", "tiles": ["5z"] * 3}, {"type": "chow", "tiles": ["3p", "4p", "5p"]}]}


@pytest.mark.parametrize("obj", [
    None, [], "x", 5,
    {"hand": ["5m"] * 5 + ["1m"] * 8, "win_tile": "2m"},  # five copies
    {"hand": ["5m"] * 4 + ["1m"] * 9, "win_tile": "5m"},
    {"hand": ["5m", "1m", "1m", "1m", "2m"], "melds": [{"type": "kong", "tiles": ["5m"] * 4}] * 2, "win_tile": "9m"},
    {"hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"], "win_tile": "5m", "flowers": ["1f", "1f"]},
    {"hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"], "win_tile": "5m", "flowers": ["5m"]},
    {"hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["1f"], "win_tile": "5m"},
    {"hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"], "win_tile": "1f"},
    {"hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"], "win_tile": "5m", "kong_replacement": True,
     "self_drawn": True},
    {"hand": ["1m", "1m", "1m", "2m"], "win_tile": "2m", "kong_replacement": True, "self_drawn": True,
     "melds": [{"type": "kong", "tiles": ["9p"] * 4, "concealed": True}] * 3},
    {"hand": ["1m", "1m", "1m", "2m"], "win_tile": "2m", "robbing_kong": True, "kong_replacement": True,
     "melds": [{"type": "kong", "tiles": ["9p"] * 4}] * 3},
    {"hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"], "win_tile": "5m", "robbing_kong": True,
     "self_drawn": True},
    _three_sets({"type": "chow", "tiles": ["8s", "9s", "1p"]}),
    _three_sets({"type": "chow", "tiles": ["7s", "8s", "9s"], "concealed": True}),
    _three_sets({"type": "pung", "tiles": ["8s", "8s", "8s"], "concealed": True}),
    _three_sets({"type": "pung", "tiles": ["8s", "8s", "8s"], "concealed": None}),
    _three_sets({"type": "pung", "tiles": ["8s", "8s", "8s"], "concealed": 1}),
    _three_sets({"type": "kong", "tiles": ["8s", "8s", "8s", "8s"], "concealed": 0}),
    _three_sets({"type": "kong", "tiles": ["8s", "8s", "8s"]}),
    _three_sets({"type": "pung", "tiles": ["8s", "8s", "8s", "8s"]}),
    _three_sets({"type": "pung", "tiles": ["8s", "8s", "8f"]}),
    _three_sets({"type": "pung", "tiles": ("8s", "8s", "8s")}),
    _three_sets({"type": ["pung"], "tiles": ["8s", "8s", "8s"]}),
    _three_sets({"type": "pung", "tiles": [["8s"], "8s", "8s"]}),
    _three_sets({"type": "pong", "tiles": ["8s", "8s", "8s"]}),
    _three_sets({"tiles": ["8s", "8s", "8s"]}),
    _three_sets({"type": "pung"}),
    _three_sets(["pung", ["8s", "8s", "8s"]]),
    _three_sets({"type": "pung", "tiles": ["8s", "8s", "8s"]}) | {"melds": {"type": "pung", "tiles": ["8s"] * 3}},
    {"hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"], "win_tile": "5m", "melds": 0,
     "flowers": "", "seat_wind": None, "round_wind": "N", "missing_suit": "p", "self_drawn": None},
    {"hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"], "win_tile": "5m", "missing_suit": "z"},
    {"hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"], "win_tile": "5m", "seat_wind": "e"},
    {"hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"], "win_tile": "5m", "seat_wind": 27},
    {"hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"], "win_tile": "5m", "self_drawn": 1},
    {"hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"], "win_tile": "5m", "last_wall_tile": 0},
    {"hand": tuple(["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"]), "win_tile": "5m"},
])
def test_unusual_requests_agree(obj: Any) -> None:
    _assert_same(obj)


def test_sample_requests_take_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every request of the oracle sample is well-formed: none may need the checking path."""
    requests = [json.loads(line)["input"] for line in SAMPLE.read_text(encoding="utf-8").splitlines()]
    expected = [_outcome(_from_json, r) for r in requests]

    def refuse(obj: Any) -> Hand:
        raise AssertionError(f"fell back to the checking path: {obj}")

    monkeypatch.setattr(hand_module, "_from_json", refuse)
    assert [_outcome(from_json, r) for r in requests] == expected


def test_a_fast_hand_has_the_fields_in_order() -> None:
    hand = from_json({"hand": ["1m"] * 3 + ["2m"] * 3 + ["3m"] * 3 + ["4m"] * 3 + ["5m"], "win_tile": "5m"})
    assert list(vars(hand)) == [*Hand.FIELDS, "_copies"]
    assert hand == Hand(concealed=hand.concealed, melds=(), win_tile=hand.win_tile)
    assert hash(hand) == hash(Hand(concealed=hand.concealed, melds=(), win_tile=hand.win_tile))


def test_from_json_fast_returns_none_where_the_checking_path_is_needed() -> None:
    bad = _three_sets({"type": "pung", "tiles": ["8s", "8s", "8s"], "concealed": None})
    assert hand_module.from_json_fast(bad) is None
    assert hand_module.from_json_fast([]) is None
    good = _three_sets({"type": "pung", "tiles": ["8s", "8s", "8s"]})
    assert hand_module.from_json_fast(good) == _from_json(good)


# ------------------------------------------------------------ the --jsonl loop

from cardavia.compiler import load_variant  # noqa: E402

from cardavia.commands import score as score_command  # noqa: E402

needs_fast_json = pytest.mark.skipif(not fastjson.AVAILABLE, reason="msgspec (the 'fast' extra) is not installed")

@pytest.fixture(scope="module")
def encoder() -> score_command.LineEncoder:
    return score_command.LineEncoder(load_variant("mcr"))


def _lines() -> list[str]:
    return [json.dumps(json.loads(line)["input"]) for line in SAMPLE.read_text(encoding="utf-8").splitlines()]


#: Text spliced into a request line: numbers, escapes and nesting the typed decoder reads
#: differently from json (or not at all), duplicate keys, broken syntax, odd whitespace and
#: characters.
SPLICES = st.sampled_from([
    "18446744073709551616", "-9223372036854775809", "123456789012345678901234567890", "1e400", "-1e400",
    "NaN", "Infinity", "-Infinity", "1.0", "-0", "0.5e1", '"\\ud800"', '"\\ud83d\\ude00"', '"\\u0000"',
    '"5m"', '"1f"', "true", "false", "null", "[", "]", "{", "}", ",", ":", '"', "\\", " ", "\t", "\r", "\x0c",
    "\xa0", "\u2028", "\ufeff", "\x00", "\x1f", "é", "01", "[" * 1200, "]" * 1200,
])
#: A field put first in a request (a later one of the same name wins, in json as in msgspec).
FIELDS = st.sampled_from([
    '"x": 18446744073709551616, ', '"x": [1e999, NaN, "\\udc00"], ', '"x": {"a": 1, "a": [2]}, ',
    '"self_drawn": 18446744073709551616, ', '"missing_suit": -9223372036854775809, ', '"missing_suit": 1e400, ',
    '"hand": 5, ', '"win_tile": 18446744073709551617, ', '"seat_wind": "N", ', '"seat_wind": NaN, ',
    '"melds": null, ', '"flowers": ["1f", "1f"], ', '"missing_suit": "p", ',
])


@st.composite
def request_lines(draw: st.DrawFn) -> str:
    line = draw(st.sampled_from(_SAMPLE_LINES))
    if draw(st.booleans()):  # a field of its own, the rest of the line intact
        line = "{" + draw(FIELDS) + line[1:]
    for _ in range(draw(st.integers(0, 2))):
        pos = draw(st.integers(0, len(line)))
        cut = draw(st.sampled_from([0, 0, 0, 1, 2, 5]))
        line = line[:pos] + draw(SPLICES) + line[pos + cut:]
    return line + draw(st.sampled_from(["", "", "\n", " ", "\x85"]))


_SAMPLE_LINES = _lines()[:200]


def _with_and_without_fast_json(answer: Any) -> tuple[Any, Any]:
    """``answer()`` with the typed decoder's path, then without it."""
    saved = score_command.FAST_JSON
    try:
        score_command.FAST_JSON = True
        fast = answer()
        score_command.FAST_JSON = False
        return fast, answer()
    finally:
        score_command.FAST_JSON = saved


@needs_fast_json
def test_the_sample_takes_the_fast_path_and_answers_the_same(encoder) -> None:
    lines = _lines()
    assert all(fastjson.hand_from_line(line) is not None for line in lines)
    fast, checked = _with_and_without_fast_json(
        lambda: [score_command._answer(encoder, line, n) for n, line in enumerate(lines, 1)])
    assert fast == checked


@needs_fast_json
@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=request_lines())
def test_a_perturbed_line_answers_the_same_with_and_without_the_fast_path(encoder, line: str) -> None:
    """msgspec reads some lines differently (NaN, lone surrogates, deep nesting): same answers."""
    fast, checked = _with_and_without_fast_json(lambda: score_command._answer(encoder, line, 7))
    assert fast == checked, line


@needs_fast_json
@pytest.mark.parametrize("depth", [20, 400, 480, 900, 990, 1010])
def test_deep_nesting_in_an_unknown_field_answers_the_same(encoder, depth: int) -> None:
    """json.loads stops at the recursion limit, msgspec a little deeper: a line the two
    would read differently is left to json.loads."""
    line = _SAMPLE_LINES[0][:-1] + ', "x": ' + "[" * depth + "]" * depth + "}"
    fast, checked = _with_and_without_fast_json(lambda: score_command._answer(encoder, line, 1))
    assert fast == checked
    if depth <= 400 or depth > sys.getrecursionlimit():  # (in between, it depends on the stack's depth)
        assert ("error" in checked) == (depth > 400)


class _Trickle(io.RawIOBase):
    """A source that gives a few bytes per ``read1`` call, as a slow pipe does."""

    def __init__(self, data: bytes, sizes: list[int]) -> None:
        self.data, self.sizes, self.pos, self.calls = data, sizes, 0, 0

    def read1(self, size: int = -1) -> bytes:
        n = self.sizes[self.calls % len(self.sizes)]
        self.calls += 1
        chunk = self.data[self.pos:self.pos + min(n, size)]
        self.pos += len(chunk)
        return chunk


def _batch(source: Any) -> str:
    out = io.StringIO()
    assert score_command.jsonl(load_variant("mcr"), source, out) == 0
    return out.getvalue()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.one_of(request_lines(), st.sampled_from(["", " ", "\r", "\t \u3000", "\x1c"]),
                                st.binary(max_size=8).map(lambda b: b.decode("latin-1"))), max_size=12),
       sizes=st.lists(st.integers(1, 400), min_size=1, max_size=5),
       last_newline=st.booleans(), bad_utf8=st.booleans())
def test_lines_read_as_they_arrive_are_answered_as_one_by_one(lines: list[str], sizes: list[int],
                                                              last_newline: bool, bad_utf8: bool) -> None:
    """Whatever the pieces ``read1`` gives, the answers are those of reading line by line."""
    data = "\n".join(lines).encode("utf-8", "surrogatepass") + (b"\n" if last_newline else b"")
    if bad_utf8:
        data = data.replace(b"5m", b"5\xffm", 1)
    one_by_one = _batch(line for line in io.BytesIO(data))  # no read1: one line at a time
    assert _batch(_Trickle(data, sizes)) == one_by_one
    assert _batch(io.BytesIO(data)) == one_by_one


#: Bytes spliced into a request line: a BOM, what is not UTF-8 (an encoded surrogate, an
#: overlong form, beyond U+10FFFF, stray bytes) and characters that are whitespace to str.
BYTE_SPLICES = st.sampled_from([b"\xef\xbb\xbf", b"\xed\xa0\x80", b"\xed\xbf\xbf", b"\xc0\x80", b"\xc1\xbf",
                                b"\xf4\x90\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xff", b"\x80", b"\xc3",
                                b"\xe2\x80\xa8", b"\xc2\x85", b"\xc2\xa0", b"\xe3\x80\x80", b"\x1c", b"\x00"])


@st.composite
def request_bytes(draw: st.DrawFn) -> bytes:
    line = draw(request_lines()).encode("utf-8", "surrogatepass")
    for _ in range(draw(st.integers(0, 2))):
        pos = draw(st.integers(0, len(line)))
        line = line[:pos] + draw(BYTE_SPLICES) + line[pos + draw(st.sampled_from([0, 0, 1, 2])):]
    return line


@needs_fast_json
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(st.one_of(request_bytes(), st.sampled_from([b"", b" ", b"\xc2\xa0", b"\x1c"])),
                      min_size=1, max_size=6))
def test_a_batch_answers_the_same_with_and_without_the_fast_path(lines: list[bytes]) -> None:
    """The loop hands msgspec the bytes of a line, not its decoded text: same answers, bad
    UTF-8 (msgspec does not check what it skips), BOMs and blank lines included, as the
    path that decodes first."""
    data = b"\n".join(lines) + b"\n"
    fast, checked = _with_and_without_fast_json(lambda: _batch(io.BytesIO(data)))
    assert fast == checked, data


@needs_fast_json
def test_bad_utf8_in_an_unknown_field_is_reported(encoder) -> None:
    line = _SAMPLE_LINES[0][:-1].encode() + b', "note": "\xff"}\n'
    fast, checked = _with_and_without_fast_json(lambda: _batch(io.BytesIO(line)))
    assert fast == checked == _batch(io.BytesIO(line))
    assert "not UTF-8" in fast


@needs_fast_json
def test_the_sample_batch_answers_the_same_with_and_without_the_fast_path() -> None:
    data = ("\n".join(_lines()) + "\n").encode("utf-8")
    fast, checked = _with_and_without_fast_json(lambda: _batch(io.BytesIO(data)))
    assert fast == checked


def test_without_msgspec_the_batch_answers_the_same(tmp_path: Path) -> None:
    """msgspec is optional (the 'fast' extra): without it every line takes json.loads."""
    import subprocess

    data = ("\n".join(_lines()[:300]) + "\n").encode("utf-8")
    script = ("import sys; sys.modules['msgspec'] = None\n"  # as if it were not installed
              "from cardavia.compiler.scoring import fastjson\n"
              "assert not fastjson.AVAILABLE and fastjson.hand_from_line(sys.argv[1]) is None\n"
              "from cardavia.cli import main\n"
              "sys.exit(main(['score', 'mcr', '--jsonl']))\n")
    without = subprocess.run([sys.executable, "-c", script, _SAMPLE_LINES[0]], input=data, capture_output=True,
                             cwd=ROOT, check=True).stdout
    assert without.decode("utf-8") == _batch(io.BytesIO(data))


@needs_fast_json
def test_the_facts_read_from_a_line_are_those_of_its_hand() -> None:
    """facts_from_line makes no Hand: its facts are those HandContext takes from the Hand
    hand_from_line reads, the Hand it makes on demand is that Hand, and a scorer answers alike."""
    from cardavia.compiler.scoring.context import HandContext

    slots = [n for n in HandContext.__slots__ if n not in ("_hand", "_shapes", "_facts", "__dict__")]
    scorers = {v: load_variant(v).scorer for v in ("mcr", "hk", "sichuan")}
    for line in _SAMPLE_LINES:
        facts, hand = fastjson.facts_from_line(line), fastjson.hand_from_line(line)
        expected = HandContext(hand, None, scorers["mcr"].shapes)
        assert {n: getattr(facts, n, None) for n in slots} == {n: getattr(expected, n, None) for n in slots}
        assert _outcome(lambda f: f.hand, facts) == _outcome(lambda h: h, hand)
        for variant, scorer in scorers.items():  # one facts object, one variant after the other
            assert _evaluated(scorer.evaluate_facts, facts) == _evaluated(scorer.evaluate_hand, hand), (variant, line)


def _evaluated(evaluate: Any, what: Any) -> Any:
    try:
        valid, total, ev, arr, reason = evaluate(what)
    except HandError as exc:
        return str(exc)
    return valid, total, ev and ev.scored, arr and arr.describe(), reason


@needs_fast_json
def test_facts_evaluated_by_another_variant_forget_the_waits_of_the_first() -> None:
    from cardavia.compiler.scoring.context import HandContext

    mcr, hk = load_variant("mcr").scorer, load_variant("hk").scorer
    differed = 0
    for line in _lines():
        facts = fastjson.facts_from_line(line)
        mcr.evaluate_facts(facts)
        first = [t.kind for t in facts.waits]
        hk.evaluate_facts(facts)
        expected = [t.kind for t in HandContext(facts.hand, None, hk.shapes).waits]
        assert [t.kind for t in facts.waits] == expected and facts.unique_wait == (len(expected) == 1)
        differed += first != expected
    assert differed  # some hands wait on more tiles in MCR's shapes than in HK's

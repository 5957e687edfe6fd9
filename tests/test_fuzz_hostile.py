"""A fuzzing harness for what the commands read from outside: variant files (values of
every kind where the file has one, expressions drawn from the grammar, broken YAML,
overlays), replay scenarios, ``score`` and ``waits`` ``--jsonl`` lines, and the answers
typed in the terminal game.

Each example runs within a budget of CPU time and traced memory (:func:`budget`): a
hang or a blow-up fails the example where it happens. What must hold: a variant file
compiles or is refused with located problems (and a variant that compiles scores hands,
plays a deal and renders its rules page, or names the expression that fails); a
scenario is replayed or refused with status 2 and one line; every non-blank ``--jsonl``
line gets exactly one JSON answer, the same on the fast path as on the checked one; the
game ends when its input does. Never a traceback, an internal error or raw control
characters from the input on a terminal.

The fast suite draws a few examples of each; the ``slow`` runs draw many more, times
``CARDAVIA_FUZZ_SCALE`` (default 1; e.g. ``CARDAVIA_FUZZ_SCALE=10 pytest -m slow
tests/test_fuzz_hostile.py`` for a long sweep away from CI).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from cardavia.compiler import EvaluationError, HandError, VariantError, compile_text, parse_notation
from cardavia.compiler.language.vocabulary import ATTRS, FUNCTIONS
from cardavia.compiler.loading.files import read_variant_file
from cardavia.compiler.model.tiles import TileError
from cardavia.compiler.scoring.context import PATTERN_FACTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardavia.commands.score as score_command
from cardavia.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
SHIPPED = {path.stem: path.read_text(encoding="utf-8") for path in sorted((ROOT / "variants").glob("*.yaml"))}
#: The shipped files that are whole variants (the others are overlays of one of them).
WHOLE = sorted(name for name, text in SHIPPED.items() if not yaml.safe_load(text).get("extends"))
HANDS = ["123m 456m 789m 123p 5p +5p", "11m 22m 33m 44m 55m 66m 7m +7m", "19m 19p 19s 1234567z +1m",
         "111m 222p 333s 444z 5z +5z", "{1111m} [2222p] 333s 55s +3s"]

#: CPU seconds and traced megabytes an example may take (a variant of MCR's size compiles,
#: scores, plays a deal and renders a page in about 2 s under tracing).
SECONDS = 30
MEGABYTES = 300


class OverBudget(BaseException):
    """An example ran out of its CPU time (a BaseException: no ``except Exception`` of the
    code under test can take it for an error of its own)."""


@contextlib.contextmanager
def budget(seconds: float = SECONDS, megabytes: int = MEGABYTES) -> Iterator[None]:
    """Fail when the body takes more than ``seconds`` of CPU (it is stopped there) or its
    traced allocations peak above ``megabytes``."""
    def stop(signum: int, frame: object) -> None:
        raise OverBudget(f"more than {seconds} s of CPU time")

    previous = signal.signal(signal.SIGVTALRM, stop)
    signal.setitimer(signal.ITIMER_VIRTUAL, seconds)
    tracemalloc.start()
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert peak < megabytes * 1_000_000, f"allocations peaked at {peak / 1e6:.0f} MB"


def fast(n: int) -> Callable[[Any], Any]:
    return settings(max_examples=n, deadline=None, database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


#: How many times the slow runs' examples to draw (a long sweep sets it above 1).
SCALE = float(os.environ.get("CARDAVIA_FUZZ_SCALE", "1"))


def slow(n: int) -> Callable[[Any], Any]:
    def mark(test: Any) -> Any:
        return pytest.mark.slow(fast(max(1, round(n * SCALE)))(test))
    return mark


def clean(text: str) -> None:
    """What a command shows must not be a traceback, an internal error or a raw escape."""
    assert "Traceback" not in text and "internal error" not in text, text[-2000:]
    assert "\x1b" not in text and "\x9b" not in text, text[-2000:]


# ------------------------------------------------------------------ hostile values

TEXTS = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]) | st.sampled_from(
    "\x00\x07\x1b\x9b\u202e\u2066\n\r\t\"'\\<>&{}[]:#*!|"), max_size=40)

#: YAML scalars and fragments an attacker writes where a value goes (raw text).
YAML_VALUES = st.one_of(
    st.sampled_from([
        "9" * 5000, "-" + "9" * 5000, "1e999", "-1e999", ".nan", ".inf", "-.inf", "0x" + "f" * 2000, "0o7777777",
        "0", "-1", "1.5", "4.0", "1.0", "0.0", "~", "null", "true", "[]", "{}", "''", '"\\ud800"', '"\\udfff x"',
        '"\\e[31mred\\e[0m"',
        '"\\x9b2J"', '"\\u202e"', '"\\0"', '"' + "x" * 10_000 + '"', "!!python/object/apply:os.system [echo pwned]",
        "!!python/name:os.system", "!!binary aGVsbG8=", "&a [*a, *a]", "*nowhere", "!!int abc", "!!float x",
        "2024-01-01", "'<script>alert(1)</script>'", "[" * 300 + "]" * 300, "{a: " * 200 + "1" + "}" * 200,
        "!!set {a, b}", "!!omap [a: 1]", "? [a, b]\n  : c", "|\n  a\n  b", "'\t\t'", "@x", "`x`", "%TAG",
    ]),
    st.integers().map(str),
    TEXTS.map(json.dumps),
)


def expressions() -> st.SearchStrategy[str]:
    """Text drawn from the grammar of expressions (valid or not): names, numbers, tiles,
    texts, operators, calls, attributes, quantifiers of several names, indexes, lists."""
    names = sorted(PATTERN_FACTS) + ["total", "a", "b", "c", "d", "nowhere", "fan"]
    attrs = sorted({a for group in ATTRS.values() for a in group})
    leaves = st.one_of(st.sampled_from(names), st.integers(-10 ** 6, 10 ** 6).map(str),
                       st.sampled_from(["0", "64", "65", "9" * 5000, "1m", "5z", "9s", "4f", "true", "false"]),
                       TEXTS.map(lambda s: json.dumps(s.replace("\n", " "))))
    ops = ["+", "-", "*", "//", "%", "**", "==", "!=", "<", ">=", "in", "not in", "and", "or"]

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.tuples(inner, st.sampled_from(ops), inner).map(" ".join),
            st.tuples(st.sampled_from(sorted(FUNCTIONS) + ["len", "nowhere"]), st.lists(inner, max_size=3)).map(
                lambda t: f"{t[0]}({', '.join(t[1])})"),
            st.tuples(inner, st.sampled_from(attrs)).map(lambda t: f"({t[0]}).{t[1]}"),
            st.tuples(st.sampled_from(["exists", "all", "any", "count", "sum", "filter"]),
                      st.lists(st.sampled_from("abcd"), min_size=1, max_size=6, unique=True),
                      inner, inner).map(lambda t: f"{t[0]}({', '.join(t[1])} in {t[2]}: {t[3]})"),
            st.tuples(inner, inner).map(lambda t: f"[{t[0]}, {t[1]}][{t[1]}]"),
            st.tuples(inner, inner, inner).map(lambda t: f"{t[0]} if {t[1]} else {t[2]}"),
            st.lists(inner, max_size=4).map(lambda xs: "{" + ", ".join(xs) + "}" if xs else "[]"),
            inner.map(lambda e: f"not ({e})"), inner.map(lambda e: f"-({e})"), inner.map(lambda e: f"({e})"),
        )

    drawn = st.recursive(leaves, grow, max_leaves=25)
    deep = st.one_of(st.integers(1, 400).map(lambda n: "(" * n + "1" + ")" * n),
                     st.integers(1, 400).map(lambda n: " + ".join(["len(tiles)"] * n)),
                     st.integers(1, 8).map(lambda n: f"exists({', '.join('abcdefgh'[:n])} in tiles: a == b)"))
    return st.one_of(drawn, deep)


# ------------------------------------------------------------------ variant files

def _paths(tree: Any, at: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield at
    if isinstance(tree, dict):
        for k, v in tree.items():
            yield from _paths(v, at + (k,))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            yield from _paths(v, at + (i,))


def _replaced(tree: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(tree, dict):
        return {k: _replaced(v, rest, value) if k == head else v for k, v in tree.items()}
    return [_replaced(v, rest, value) if i == head else v for i, v in enumerate(tree)]


TOKEN = "HOSTILE_VALUE_HERE"


def _dumped(tree: Any, raw: str) -> str:
    """``tree`` as YAML with the token's place holding the raw text ``raw``."""
    text = yaml.safe_dump(tree, sort_keys=False, allow_unicode=True, width=10 ** 6)
    return text.replace(TOKEN, raw, 1)


@st.composite
def variant_files(draw: st.DrawFn) -> dict[str, str]:
    """Files (name -> text) of which ``main.yaml`` is the variant to compile: a shipped one
    with a hostile value, expression, definition chain or damaged lines, maybe as an
    overlay on a base file."""
    kind = draw(st.sampled_from(["value", "expression", "definitions", "lines", "overlay"]))
    name = draw(st.sampled_from(["hk", *(SHIPPED if kind in ("value", "lines") else WHOLE)]))
    tree = yaml.safe_load(SHIPPED[name])
    if kind == "value":
        paths = list(_paths(tree))
        text = _dumped(_replaced(tree, draw(st.sampled_from(paths)), TOKEN), draw(YAML_VALUES))
    elif kind == "expression":
        expr = draw(expressions())
        where = draw(st.sampled_from(["when", "count", "value", "base", "amount", "valid_when"]))
        if where in ("when", "count", "value"):
            pattern: dict[str, Any] = {"id": "fuzzed", "name": "Fuzzed", "value": 1}
            pattern.update({where: expr} if where != "value" else {"value": expr, "when": "true"})
            at = draw(st.integers(0, len(tree["scoring"]["patterns"])))
            tree["scoring"]["patterns"].insert(at, pattern)
        elif where == "valid_when":
            tree["scoring"].setdefault("valid_when", []).append({"when": expr, "reason": "fuzzed"})
        elif where == "base":
            tree["settlement"]["base"] = expr
        elif tree["settlement"].get("win"):
            tree["settlement"]["win"][0]["amount"] = expr
        text = yaml.safe_dump(tree, sort_keys=False, allow_unicode=True, width=10 ** 6)
    elif kind == "definitions":
        n = draw(st.integers(1, 40))
        forms = ["d{p} + d{p}", "d{p} * 2", "count(a in tiles: d{p} > 0)", "[d{p}, d{p}][0]", "d{n}", "len(tiles)"]
        defs = {f"d{i}": draw(st.sampled_from(forms)).format(p=i - 1, n=i + 1) if i else "len(tiles)"
                for i in range(n)}
        tree["scoring"]["definitions"] = {**(tree["scoring"].get("definitions") or {}), **defs}
        tree["scoring"]["patterns"].insert(0, {"id": "fuzzed", "name": "Fuzzed", "value": 1, "count": f"d{n - 1}"})
        text = yaml.safe_dump(tree, sort_keys=False, allow_unicode=True, width=10 ** 6)
    elif kind == "lines":
        lines = SHIPPED[name].splitlines(keepends=True)
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(lines) - 1))
            j = draw(st.integers(i, min(len(lines), i + 8)))
            op = draw(st.sampled_from(["drop", "copy", "indent", "garble"]))
            if op == "drop":
                del lines[i:j]
            elif op == "copy":
                lines[i:i] = lines[i:j]
            elif op == "indent":
                lines[i:j] = [" " * draw(st.integers(1, 3)) + line for line in lines[i:j]]
            else:
                lines[i:i] = [draw(TEXTS) + "\n"]
        text = "".join(lines)
    else:
        base = draw(st.sampled_from([name, "base.yaml", "main.yaml", "/dev/zero", "missing.yaml"]))
        over: dict[str, Any] = {"extends": base, "id": "fuzzed"}
        piece = draw(st.sampled_from(["minimum", "patterns", "options", "value"]))
        if piece == "minimum":
            over["scoring"] = {"minimum": draw(st.integers(-5, 10 ** 6))}
        elif piece == "patterns":
            ids = [p["id"] for p in tree["scoring"]["patterns"]] + ["nowhere", "fuzzed"]
            entries = []
            for _ in range(draw(st.integers(1, 6))):
                entry: dict[str, Any] = {"id": draw(st.sampled_from(ids))}
                entry.update(draw(st.sampled_from([{"remove": True}, {"before": draw(st.sampled_from(ids))},
                                                   {"after": draw(st.sampled_from(ids))}, {"value": 2},
                                                   {"name": "X", "value": 1, "when": draw(expressions())}])))
                entries.append(entry)
            over["scoring"] = {"patterns": entries}
        elif piece == "options":
            over["options"] = {"o": {"default": draw(st.sampled_from(["a", "b", "nowhere"])), "choices": {
                "a": {"changes": {"scoring": {"minimum": 1}}},
                "b": {"changes": draw(st.sampled_from([{"extends": "hk"}, {"scoring": {"patterns": []}}, {}, None]))},
            }}}
        else:
            over["title"] = TOKEN
        raw = draw(YAML_VALUES) if piece == "value" else ""
        return {"main.yaml": _dumped(over, raw), "base.yaml": SHIPPED[name]}
    return {"main.yaml": text}


def exercise(variant: Any) -> None:
    """What the commands do with a variant that compiled: score hands, play one deal, check
    it, render the rules page. Only the variant's own failing expressions may be raised."""
    from cardavia.runtime.bots import make_controller
    from cardavia.runtime.controllers import play_deal
    from cardavia.runtime.deal import Deal
    from cardavia.runtime.validator import validate
    from cardavia.runtime.wall import shuffled_wall

    from cardavia.render.pages import render_game

    for notation in HANDS:
        with contextlib.suppress(HandError, TileError, EvaluationError):
            variant.scorer.score(parse_notation(notation, variant.scorer.hand_size))
    try:
        wall = shuffled_wall(variant.tiles, 7)
        deal = Deal(variant, wall, 0)
        play_deal(deal, [make_controller("baseline", s) for s in range(variant.table.players)])
        assert validate(variant, wall, 0, deal.events, deal.deltas()) == []
    except EvaluationError:
        pass
    clean(render_game(variant, "en", "txt"))


def compile_fuzzed(files: dict[str, str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        for name, text in files.items():
            Path(folder, name).write_text(text, encoding="utf-8", errors="surrogatepass")
        path = Path(folder, "main.yaml")
        with budget():
            try:
                variant = compile_text(read_variant_file(path), str(path), use_cache=False)
            except VariantError as exc:
                assert exc.problems and all(isinstance(p.line, int) for p in exc.problems)
                for problem in exc.problems:
                    assert len(problem.message) < 2000, problem.message[:300]
                return
            exercise(variant)


def test_a_whole_number_written_as_a_decimal_is_a_clear_error() -> None:
    # JSON Schema counts 4.0 as an integer (and as equal to 4); YAML reads it as a float,
    # which no later stage can count with: each is reported where it stands.
    for where, text in [("table.players", "table:\n  players: 4.0\n"),
                        ("table.other_tiles", "table:\n  other_tiles: 13.0\n"),
                        ("tiles[0].copies", "tiles:\n  - {group: characters, copies: 4.0}\n"),
                        ("scoring.shapes[0].sets", "scoring:\n  shapes:\n    - {id: standard, kind: standard, "
                                                   "sets: 4.0}\n")]:
        with pytest.raises(VariantError) as caught:
            compile_text(f"extends: sichuan\nid: sichuan_decimal\n{text}", "main.yaml", use_cache=False)
        assert any(where in p.message and "expected a whole number, got" in p.message for p in caught.value.problems), \
            (where, [p.message for p in caught.value.problems])


def test_an_option_default_that_is_a_list_or_a_mapping_is_a_clear_error() -> None:
    # Options are applied before the schema looks: a default YAML reads as a list or a
    # mapping names no choice, and is reported where it stands.
    for raw in ("[a, b]", "{a: 1}", "!!set {a, b}", "!!omap [a: 1]"):
        text = f"extends: sichuan\nid: sichuan_default\noptions:\n  exchange:\n    default: {raw}\n"
        with pytest.raises(VariantError) as caught:
            compile_text(text, "main.yaml", use_cache=False)
        assert any(p.line == 5 and "is not one of its choices" in p.message for p in caught.value.problems), \
            [p.message for p in caught.value.problems]


def test_a_long_unknown_name_is_quoted_short() -> None:
    # A name, attribute or function of thousands of characters is quoted by its ends and length.
    for expr in ["x" * 5000, "len(tiles)." + "y" * 5000, "z" * 5000 + "(tiles)"]:
        text = ("extends: sichuan\nid: sichuan_long\nscoring:\n  patterns:\n    - {id: long, name: Long, "
                f"description: Long., value: 1, when: '{expr}'}}\n")
        with pytest.raises(VariantError) as caught:
            compile_text(text, "main.yaml", use_cache=False)
        message = caught.value.problems[0].message
        assert "characters)" in message and len(message) < 1000, message[:300]


@fast(6)
@given(variant_files())
def test_hostile_variant_files(files: dict[str, str]) -> None:
    compile_fuzzed(files)


def test_a_number_too_long_to_read_is_a_clear_error() -> None:
    # YAML leaves an integer of thousands of digits a string (Python refuses to convert it):
    # the table's error is reported, and the stages reading the player count do not fail.
    long = "9" * 5000
    compile_fuzzed({"main.yaml": f"extends: sichuan\nid: sichuan_many\ntable:\n  players: {long}\n"})
    compile_fuzzed({"main.yaml": f"extends: sichuan\nid: sichuan_many\ntable:\n  other_tiles: {long}\n"
                                 "options:\n  exchange: {default: 'on'}\n"})


@slow(150)
@given(variant_files())
def test_hostile_variant_files_at_length(files: dict[str, str]) -> None:
    compile_fuzzed(files)


# ------------------------------------------------------------------ JSON input

SCENARIO = json.loads((EXAMPLES / "hk-discard-win.json").read_text(encoding="utf-8"))

#: JSON texts an attacker puts where a value goes (raw, so numbers Python will not read too).
JSON_VALUES = st.one_of(
    st.sampled_from(["9" * 5000, "-" + "9" * 5000, "1e999", "-1e999", "NaN", "Infinity", "-0.0", "1.5", "0", "-1",
                     "143", "144", "null", "true", "[]", "{}", '"\\ud800"', '"\\u0000"', '"\\u001b[2J"',
                     json.dumps("x" * 10_000), "[" * 5000 + "]" * 5000, json.dumps(list(range(10_000))),
                     json.dumps({"a": [1] * 1000}), '{"a": 1, "a": 2}']),
    st.integers().map(str), TEXTS.map(json.dumps),
    st.sampled_from(["1m", "5z", "1f", "9p", "discard", "pung", "kong", "chow", "win", "pass", "missing_suit",
                     "m", "p", "s", "drawn-tile", "ai"]).map(json.dumps),
)

ACTIONS = st.fixed_dictionaries(
    {"seat": st.integers(-1, 4)},
    optional={"do": st.sampled_from(["discard", "chow", "pung", "kong", "win", "pass", "missing_suit", "steal"]),
              "tile": st.sampled_from(["1m", "9p", "5z", "1f", "0m", "10m"]),
              "tiles": st.lists(st.sampled_from(["1m", "2m", "3m", "9p"]), max_size=4),
              "id": st.integers(-2, 150), "suit": st.sampled_from(["m", "p", "s", "z"])})


@st.composite
def mutated_json(draw: st.DrawFn, value: Any) -> str:
    """``value`` as JSON text with one node replaced by a hostile JSON text, a key dropped,
    or a key added (one the reader ignores, or one it reads) holding a hostile value."""
    paths = list(_paths(value))
    path = draw(st.sampled_from(paths))
    how = draw(st.sampled_from(["replace", "replace", "drop", "add"]))
    parent = _at(value, path[:-1]) if path else None
    if how == "drop" and isinstance(parent, dict):
        return json.dumps(_replaced(value, path[:-1], {k: v for k, v in parent.items() if k != path[-1]}))
    if how == "add" and isinstance(_at(value, path), dict):
        key = draw(st.sampled_from(["note", "why", "win_tile", "self_drawn", "seat_wind", "melds", "options",
                                    "dealer", "seed", "wall", "autoplay", "id", "tiles", ""]))
        path, value = path + (key,), _replaced(value, path, {**_at(value, path), key: None})
    return json.dumps(_replaced(value, path, TOKEN)).replace(json.dumps(TOKEN), draw(JSON_VALUES), 1)


def _at(tree: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        tree = tree[p]
    return tree


@st.composite
def scenarios(draw: st.DrawFn) -> bytes:
    base = dict(SCENARIO)
    if draw(st.booleans()):
        base = {"variant": draw(st.sampled_from(["hk", "mcr", "sichuan"])), "seed": draw(st.integers(0, 10)),
                "autoplay": draw(st.sampled_from(["drawn-tile", "ai"]))}
    base["actions"] = draw(st.lists(ACTIONS, max_size=6)) if draw(st.booleans()) else base.get("actions", [])
    text = draw(mutated_json(base)) if draw(st.booleans()) else json.dumps(base)
    if draw(st.integers(0, 9)) == 0:  # damaged bytes
        raw = bytearray(text.encode("utf-8"))
        at = draw(st.integers(0, len(raw)))
        raw[at:at + draw(st.integers(0, 3))] = draw(st.binary(max_size=4))
        return bytes(raw)
    return text.encode("utf-8", "surrogatepass")


def run_cli(argv: list[str], stdin: bytes) -> tuple[int, str, str]:
    import sys

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(argv)
    finally:
        sys.stdin = saved
    return status, out.getvalue(), err.getvalue()


def replay_fuzzed(data: bytes) -> None:
    with budget():
        status, out, err = run_cli(["replay", "-"], data)
    clean(err)
    if status == 0:
        assert err == "" and isinstance(json.loads(out), dict)
    else:
        assert status == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1, err[:500]
        assert len(err) <= 1100


@fast(25)
@given(scenarios())
def test_hostile_replay_scenarios(data: bytes) -> None:
    replay_fuzzed(data)


@slow(500)
@given(scenarios())
def test_hostile_replay_scenarios_at_length(data: bytes) -> None:
    replay_fuzzed(data)


REQUESTS = [json.loads(line) for line in (EXAMPLES / "hands.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip().startswith("{")]
WAITING = [json.loads(line) for line in (EXAMPLES / "waits.jsonl").read_text(encoding="utf-8").splitlines()
           if line.strip().startswith("{")]


@st.composite
def batches(draw: st.DrawFn, requests: list[dict[str, Any]]) -> bytes:
    """A batch of request lines: as given, mutated, blank, damaged bytes, long or deep."""
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        request = draw(st.sampled_from(requests))
        kind = draw(st.sampled_from(["same", "mutated", "mutated", "blank", "bytes", "long"]))
        if kind == "same":
            lines.append(json.dumps(request).encode())
        elif kind == "mutated":
            lines.append(draw(mutated_json(request)).encode("utf-8", "surrogatepass"))
        elif kind == "blank":
            lines.append(draw(st.sampled_from([b"", b"   ", b"\t", "\u2028".encode(), b"\x0c", b"\r"])))
        elif kind == "bytes":
            lines.append(draw(st.binary(max_size=60)).replace(b"\n", b" "))
        else:
            lines.append(draw(st.sampled_from([b"[" * 100_000, b'{"hand": "' + b"1m" * 600_000 + b'"}',
                                               b" " * 1_000_001 + b"{}"])))
    return b"\n".join(lines) + draw(st.sampled_from([b"", b"\n"]))


def answered(batch: bytes) -> int:
    """The lines of ``batch`` that get an answer: every one but the blank ones."""
    count = 0
    for raw in batch.split(b"\n")[:-1] if batch.endswith(b"\n") else batch.split(b"\n"):
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError:
            count += 1
            continue
        count += bool(line) and not line.isspace()
    return count


def jsonl_fuzzed(command: str, variant: str, batch: bytes, monkeypatch: Any = None) -> None:
    with budget():
        status, out, err = run_cli([command, variant, "--jsonl"], batch)
    clean(out + err)
    answers = out.splitlines()
    assert status == 0 and err == "" and len(answers) == answered(batch), (len(answers), answered(batch))
    for answer in answers:
        obj = json.loads(answer)
        assert set(obj) == {"error"} or ("valid" in obj if command == "score" else "ready" in obj), answer
        assert len(answer) < 3000
    if command == "score" and score_command.FAST_JSON:  # the checked path answers the same
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(score_command, "FAST_JSON", False)
            _, checked, _ = run_cli([command, variant, "--jsonl"], batch)
        assert checked == out


@fast(40)
@given(st.sampled_from(["hk", "mcr", "sichuan"]), batches(REQUESTS))
def test_hostile_score_lines(variant: str, batch: bytes) -> None:
    jsonl_fuzzed("score", variant, batch)


@fast(25)
@given(st.sampled_from(["hk", "mcr", "sichuan"]), batches(WAITING))
def test_hostile_waits_lines(variant: str, batch: bytes) -> None:
    jsonl_fuzzed("waits", variant, batch)


@slow(400)
@given(st.sampled_from(["hk", "mcr", "sichuan"]), batches(REQUESTS))
def test_hostile_score_lines_at_length(variant: str, batch: bytes) -> None:
    jsonl_fuzzed("score", variant, batch)


@slow(200)
@given(st.sampled_from(["hk", "mcr", "sichuan"]), batches(WAITING))
def test_hostile_waits_lines_at_length(variant: str, batch: bytes) -> None:
    jsonl_fuzzed("waits", variant, batch)


# ------------------------------------------------------------------ the terminal game

TYPED = st.lists(st.one_of(
    st.sampled_from(["", "", "", "?", "b", "r", "y", "n", "w", "p", "k", "c", "m", "s", "next", "Y", " 1 ", "01"]),
    st.integers(-3, 20).map(str),
    st.sampled_from(["\u00b2", "\u0663", "\uff11", "\u2167", "9" * 5000, "\x1b[2J", "\x00", "\ud800", "\x9b31m",
                     "\u202e1", "1e9", "-0", "x" * 10_000, "\r", "\x04", "q\x00"]),
    TEXTS.map(lambda s: s.replace("\n", " ")),
), max_size=80)


def play_fuzzed(variant: str, seed: int, typed: list[str], tiles: str) -> None:
    from cardavia.runtime.terminal import play_session

    out = io.StringIO()
    with budget():
        status = play_session(variant, seed, io.StringIO("\n".join(typed) + "\n"), out, tiles=tiles, pace=0)
    assert status in (0, 130)
    text = out.getvalue()
    clean(text)
    assert "\u202e" not in text and "\x00" not in text
    assert text.rstrip().endswith("Thanks for playing.")


@fast(20)
@given(st.sampled_from(["hk", "mcr", "sichuan"]), st.integers(0, 10 ** 6), TYPED, st.sampled_from(["text", "unicode"]))
def test_hostile_terminal_input(variant: str, seed: int, typed: list[str], tiles: str) -> None:
    play_fuzzed(variant, seed, typed, tiles)


@slow(200)
@given(st.sampled_from(["hk", "mcr", "sichuan"]), st.integers(0, 10 ** 6), TYPED, st.sampled_from(["text", "unicode"]))
def test_hostile_terminal_input_at_length(variant: str, seed: int, typed: list[str], tiles: str) -> None:
    play_fuzzed(variant, seed, typed, tiles)


# ------------------------------------------------------------------ the budget itself

def test_the_budget_stops_what_does_not_end_and_fails_what_grows() -> None:
    started = time.process_time()
    with pytest.raises(OverBudget), budget(seconds=0.5):
        while True:
            pass
    assert time.process_time() - started < 5
    with pytest.raises(AssertionError, match="allocations peaked"), budget(megabytes=10):
        block = bytearray(20_000_000)
        del block

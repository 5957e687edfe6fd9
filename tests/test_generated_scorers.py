"""The generated scorers can be read and debugged: printed by ``cardavia check
--emit-scorer``, each pattern's code under a comment with its id and place, their lines
shown in tracebacks; and the IR passes they are made by keep every meaning."""

from __future__ import annotations

import json
import re
import traceback
from pathlib import Path

import pytest
from cardavia.compiler import compile_text, load_variant, parse_notation
from cardavia.compiler.language import ir
from cardavia.compiler.language.checker import Env
from cardavia.compiler.language.compiled import generate
from cardavia.compiler.language.emit import emit
from cardavia.compiler.language.parser import ExpressionError
from cardavia.compiler.language.passes import cheap_first, share_common
from cardavia.compiler.language.types import BOOL, INT, list_of
from cardavia.compiler.language.vocabulary import Fact
from cardavia.compiler.loading import cache
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from cardavia.cli import main

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ("hk", "mcr", "sichuan")


def hk_with(pattern: str) -> str:
    """hk.yaml with one more pattern, first in its table of ordinary patterns."""
    text = (ROOT / "variants" / "hk.yaml").read_text(encoding="utf-8")
    anchor = "    - id: all_chows\n"
    assert anchor in text
    return text.replace(anchor, pattern + anchor, 1)


def test_a_failure_inside_a_generated_scorer_shows_its_source_line(tmp_path: Path) -> None:
    # A count divided by a number that is 0 for this hand: the division fails at run time.
    text = hk_with("    - id: broken\n      name: Broken\n      value: 1\n"
                   "      count: \"len(tiles) // len(flowers)\"\n")
    variant = compile_text(text, str(tmp_path / "broken.yaml"), use_cache=False)
    with pytest.raises(ArithmeticError) as info:
        variant.scorer.score(parse_notation("123m 456m 789m 123p 5p +5p"))
    frames = traceback.extract_tb(info.value.__traceback__)
    scorer = [f for f in frames if f.filename.startswith("<scorer of shape standard")]
    assert scorer, [f.filename for f in frames]
    assert scorer[-1].line is not None and "D(len(c.tiles), " in scorer[-1].line
    assert str(tmp_path / "broken.yaml") in scorer[-1].filename


@pytest.mark.parametrize("name", VARIANTS)
def test_each_pattern_is_marked_with_its_id_and_line(name: str) -> None:
    variant = load_variant(name)
    lines = Path(variant.path).read_text(encoding="utf-8").splitlines()
    for shape in variant.scoring.shapes:
        source = variant.scorer_source(shape.id)
        compile(source, "<test>", "exec")
        marks = re.findall(r"# (\w+) \((.+):(\d+)\)", source)
        table = variant.scoring.table
        wanted = {p.id for p in table.patterns
                  if (p.shapes is None or shape.id in p.shapes) and not p.fallback}
        assert {pid for pid, _, _ in marks} == wanted
        for pid, file, line in marks:
            assert file == variant.path
            assert lines[int(line) - 1].strip() == f"- id: {pid}"


def test_check_emit_scorer_prints_one_shape_or_every_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "hk", "--emit-scorer", "standard"]) == 0
    one = capsys.readouterr().out
    assert one.count("def score(c):") == 1 and "# great_three_dragons (" in one
    assert main(["check", "mcr", "--emit-scorer"]) == 0
    every = capsys.readouterr().out
    assert every.count("def score(c):") == len(load_variant("mcr").scoring.shapes)
    assert "def choose(G" in every  # the choosers of combination patterns come first
    assert main(["check", "hk", "--emit-scorer", "nine_pairs"]) == 1
    err = capsys.readouterr().err
    assert "unknown shape 'nine_pairs'" in err and "standard" in err


@pytest.mark.parametrize("name", VARIANTS)
def test_stored_expressions_come_back_equal(name: str) -> None:
    """The IR kept in the compile cache is the IR: same tree, same source."""
    variant = load_variant(name)
    exprs = [p.condition for p in variant.scoring.table.patterns]
    exprs += [p.value for p in variant.scoring.table.patterns if not isinstance(p.value, int)]
    for expr in exprs:
        node = expr.node
        again = ir.from_json(json.loads(json.dumps(ir.to_json(node))))
        assert again == node and emit(again) == expr.source


# ---------------------------------------------------------------- passes

NAMES = {"n": INT, "m": INT, "flag": BOOL, "xs": list_of(INT)}
ENV = Env.of(NAMES)


def node(text: str) -> ir.Node:
    return generate(text, ENV).node


def test_cheap_first_moves_reads_before_work_but_nothing_across_a_division() -> None:
    reordered = cheap_first(node("count(x in xs: x > n) == 2 and flag and n // m == 1 and m > 1"))
    parts = ir.conjuncts(reordered)
    assert emit(parts[0]) == "c.flag"
    # m > 1 comes after the division: moving it first would change nothing here, but a
    # part after one that can fail keeps its place.
    assert [emit(p) for p in parts[1:]] == ["((len([1 for v1_x in c.xs if (v1_x > c.n)]) if c.xs else 0) == 2)",
                                             "(D(c.n, c.m, '//') == 1)", "(c.m > 1)"]


def test_share_common_computes_a_repeated_part_once() -> None:
    env = Env.of(NAMES)
    big = generate("count(x in xs: x > n)", env).node
    env = env.bind("big", ir.Def("big", big))
    a = generate("big == 2 and flag", env).node
    b = generate("big + 1 > m", env).node
    c = generate("len(xs) == 0", env).node
    (a2, b2, c2), shared = share_common([a, b, c], lambda part, k: part.name if isinstance(part, ir.Def)
                                        else f"s{k}")
    assert [s.name for s in shared] == ["big"]
    assert emit(a2) == "((big == 2) and c.flag)" and emit(b2) == "((big + 1) > c.m)"
    assert c2 is c  # nothing repeated in it


def test_share_common_never_shares_what_reads_a_bound_name_or_can_fail() -> None:
    a = node("any(x in xs: count(y in xs: y > x) == 1) and n // m > 0")
    b = node("any(x in xs: count(y in xs: y > x) == 1) or n // m > 0")
    (a2, b2), shared = share_common([a, b], lambda part, k: f"s{k}")
    assert [emit(s.value) for s in shared] == [
        "(any(((len([1 for v2_y in c.xs if (v2_y > v1_x)]) if c.xs else 0) == 1) for v1_x in c.xs) if c.xs else False)"]
    assert "D(c.n, c.m, '//')" in emit(a2) and "D(c.n, c.m, '//')" in emit(b2)


EXPRESSIONS = st.recursive(
    st.sampled_from(["n", "m", "1", "2", "len(xs)", "count(x in xs: x > n)", "sum(x in xs: x)"]),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "//", "%"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, inner).map(lambda t: f"(n if {t[0]} > {t[1]} else m)"),
        st.tuples(inner, inner).map(lambda t: f"min({t[0]}, {t[1]})"),
    ), max_leaves=8)


@settings(max_examples=150, deadline=None)
@given(st.lists(EXPRESSIONS, min_size=1, max_size=4), st.integers(-3, 3), st.integers(-3, 3),
       st.lists(st.integers(-3, 3), max_size=4))
def test_sharing_common_parts_changes_no_value(texts: list[str], n: int, m: int, xs: list[int]) -> None:
    """Whatever parts are shared, each expression answers as before (or fails as before)."""
    from types import SimpleNamespace

    try:
        nodes = [generate(t, ENV).node for t in texts]
    except ExpressionError:  # refused when compiled (a divisor always 0: n // (1 - 1)): nothing to share
        assume(False)
        raise
    rewritten, shared = share_common(nodes, lambda part, k: f"s{k}")
    ctx = SimpleNamespace(n=n, m=m, flag=True, xs=xs)
    scope: dict[str, object] = {}

    def run(src: str) -> object:
        try:
            return eval(src, {**_runtime(), "c": ctx, **scope})  # noqa: S307 - emitted from checked IR
        except ArithmeticError as exc:
            return type(exc)

    for local in shared:
        value = run(emit(local.value))
        if isinstance(value, type):  # pragma: no cover - shared parts cannot fail
            pytest.fail("a shared part failed")
        scope[local.name] = value
    for before, after in zip(nodes, rewritten):
        assert run(emit(after)) == run(emit(before))


def _runtime() -> dict[str, object]:
    from cardavia.compiler.language.vocabulary import RUNTIME

    return dict(RUNTIME)


def test_a_fact_computed_on_demand_is_never_shared() -> None:
    env = Env.of({"waits": Fact("waits", list_of(INT), lazy=True)})
    a = generate("len(waits) == 1", env).node
    b = generate("len(waits) > 2", env).node
    _, shared = share_common([a, b], lambda part, k: f"s{k}")
    assert shared == []


# ------------------------------------------------------------------ cache

def test_the_cache_removes_what_other_compiler_versions_left(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    base = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV_VAR, str(base))
    monkeypatch.setattr(cache, "_pruned", False)
    stale = base / "v-0123456789abcdef"
    stale.mkdir(parents=True)
    (stale / ("a" * 64 + ".json")).write_text("{}")
    old_entry = base / ("b" * 64 + ".json")
    old_entry.write_text("{}")
    old_table = base / "splitting-suits-0123.table"
    old_table.write_bytes(b"x")
    mine = base / "notes.txt"  # not the cache's: left alone
    mine.write_text("keep")
    compile_text((ROOT / "variants" / "sichuan.yaml").read_text(encoding="utf-8"), "sichuan.yaml")
    current = cache.folder()
    assert current is not None and current.parent == base
    assert not stale.exists() and not old_entry.exists() and not old_table.exists()
    assert mine.read_text() == "keep"
    assert list(current.glob("*.json"))

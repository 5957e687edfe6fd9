"""Unit tests of the expression language: parsing, type checking and evaluation."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from cardavia.compiler.language.checker import Env
from cardavia.compiler.language.compiled import build, compile_expression, generate
from cardavia.compiler.language.parser import ExpressionError
from cardavia.compiler.language.types import BOOL, GROUP, INT, STR, TILE, list_of, set_of
from cardavia.compiler.model.groups import TILES, Group
from cardavia.compiler.model.tiles import kind_of
from hypothesis import given
from hypothesis import strategies as st

NAMES = Env.of({"n": INT, "m": INT, "flag": BOOL, "word": STR, "win": TILE, "xs": list_of(INT),
                "hand": list_of(TILE), "chows": list_of(GROUP), "pair": GROUP})


def chow(code: str) -> Group:
    first = kind_of(code)
    return Group("chow", first, (first, first + 1, first + 2), concealed=True, declared=False)


CONTEXT = SimpleNamespace(n=3, m=5, flag=True, word="edge", win=TILES[kind_of("5z")], xs=[4, 1, 3],
                          hand=[TILES[kind_of(c)] for c in ("1m", "1m", "9p", "5z")],
                          chows=[chow("1m"), chow("4m"), chow("7m"), chow("1p")],
                          pair=Group("pair", kind_of("5z"), (kind_of("5z"),) * 2, concealed=True, declared=False))


def value(text: str, context: Any = CONTEXT) -> Any:
    return compile_expression(text, NAMES).fn(context)


def error(text: str, env: Env = NAMES, want: Any = None) -> ExpressionError:
    with pytest.raises(ExpressionError) as info:
        generate(text, env, want, "the expression")
    return info.value


@pytest.mark.parametrize("text,expected", [
    ("1 + 2 * 3", 7), ("(1 + 2) * 3", 9), ("2 ** 3 ** 2", 512), ("-2 ** 2", -4), ("7 // 2", 3), ("7 % 4", 3),
    ("n - m", -2), ("min(n, m)", 3), ("max(xs)", 4), ("min(2 ** 10, 32)", 32), ("abs(n - m)", 2),
    ("len(xs)", 3), ("sum(x in xs: x * 2)", 16), ("count(x in xs: x > 1)", 2),
    ("1 if flag else 2", 1), ("1 if not flag else 2 if n == 3 else 4", 2),
])
def test_arithmetic(text: str, expected: int) -> None:
    assert value(text) == expected


@pytest.mark.parametrize("text,expected", [
    ("1 < n < 5", True), ("1 < n < 3", False), ("n == 3 and m == 5", True), ("n == 4 or not flag", False),
    ("not n == 3", False), ("3 in xs", True), ("2 not in xs", True), ('word == "edge"', True),
    ("win == 5z", True), ("win.dragon and win.rank == 5", True), ('win.suit == "z"', True),
    ("{1, 3, 4} == {4, 3, 1}", True), ("[1, 3, 4] == [4, 3, 1]", False), ("sorted(xs) == [1, 3, 4]", True),
    ("any(t in hand: t.honor)", True), ("all(t in hand: t.outside)", True), ("all(x in []: x > 9)", True),
    ("exists(t in hand: t.simple)", False), ("copies(1m, hand) == 2", True), ("len(kinds(hand)) == 3", True),
    ('suits(hand) == {"m", "p", "z"}', True), ("ranks(chows) == {1, 4, 7}", True),
    ("len(filter(t in hand: t.suited)) == 3", True), ("pair.dragon and pair.tile == 5z", True),
    ("same(1, 1, 1) and distinct(1, 2, 3)", True), ("len(tiles_of(chows)) == 12", True),
])
def test_conditions(text: str, expected: bool) -> None:
    assert value(text) is expected


def test_several_names_range_over_distinct_elements() -> None:
    # any/exists/all: ordered choices of distinct elements; count/sum: each combination once.
    assert value("exists(a, b, c in chows: same(a.suit, b.suit, c.suit) and [a.rank, b.rank, c.rank] == [1, 4, 7])")
    assert not value("exists(a, b in chows: a.tile == b.tile)")  # a chow is never paired with itself
    assert value("count(a, b in chows: a.suit == b.suit)") == 3
    assert value("count(a, b in chows: a.rank == b.rank and a.suit != b.suit)") == 1
    assert value("sum(a, b in xs: a + b)") == (4 + 1) + (4 + 3) + (1 + 3)
    assert value("all(a, b in xs: a != b)")


def test_counts_over_groups_also_list_the_choices() -> None:
    compiled = compile_expression("count(a, b in chows: a.suit == b.suit)", NAMES)
    assert compiled.arity == 2 and compiled.matches is not None
    groups, choices = compiled.matches(CONTEXT)
    assert [(groups[i].rank, groups[j].rank) for i, j in choices] == [(1, 4), (1, 7), (4, 7)]


def test_names_read_are_recorded() -> None:
    assert compile_expression("n > 1 and len(hand) == 4", NAMES).names == {"n", "hand"}


@given(st.integers(-50, 50), st.integers(-50, 50), st.integers(1, 20))
def test_arithmetic_matches_python(a: int, b: int, c: int) -> None:
    ctx = SimpleNamespace(n=a, m=b)
    assert value(f"n * m + {c} // 3 - m % {c}", ctx) == a * b + c // 3 - b % c
    assert value("n if n > m else m", ctx) == max(a, b)
    assert value(f"min(n, m, {c})", ctx) == min(a, b, c)


def test_runtime_limits_are_errors_not_hangs() -> None:
    with pytest.raises(ArithmeticError):
        value("2 ** (n * 30)")  # 2 ** 90
    with pytest.raises(ArithmeticError):
        value("n // (m - 5)")


@pytest.mark.parametrize("text,message", [
    ("2 ** 65", "the exponent of '**' is always outside 0 to 64"),
    ("n // 0", "the right side of '//' is always 0: a division by zero"),
    ("n % (3 - 3)", "the right side of '%' is always 0: a division by zero"),
    ("[1, 2, 3][n]", "the index may fall outside the list: it can be any number to any number"),
    ("[1, 2, 3][min(len(xs), 3)]", "it can be 0 to 3, the list's places are 0 to 2"),
    ("xs[0]", "only a list written out can be indexed"),
])
def test_constant_mistakes_are_compile_errors(text: str, message: str) -> None:
    assert message in error(text).message


def test_a_lookup_table_indexed_within_its_bounds() -> None:
    assert value("[1, 2, 4, 8][min(len(xs), 3)]") == 8  # xs holds 3 numbers
    assert value("[1, 2, 4, 8][min(len(xs), 3) // 2]") == 2


@pytest.mark.parametrize("text,message,column", [
    ('"a" + 1', "the left side of '+' must be a number, got a text", 1),
    ("n + flag", "the right side of '+' must be a number, got a boolean", 5),
    ("n and flag", "each side of 'and' must be a boolean, got a number", 1),
    ("not n", "the operand of 'not' must be a boolean, got a number", 5),
    ("win == 3", "cannot compare a tile with a number", 5),
    ("n < word", "'<' compares numbers, got a text", 5),
    ("win in xs", "'in' needs a list of tile on its right, got a list of number", 8),
    ("1 if flag else word", "both branches of 'if ... else' must have one type", 1),
    ("[1, flag]", "the elements of a list must have one type", 5),
    ("len(n)", "len() takes a list, got number", 1),
    ("suits(xs)", "suits() takes a list of tiles or sets", 1),
    ("count(x in n: x > 1)", "count() ranges over a list, got a number", 12),
    ("count(x in xs: x)", "the condition of count() must be a boolean, got a number", 16),
    ("sum(x in xs: x > 1)", "sum() adds numbers, got a boolean", 14),
    ("n.rank", "a number has no attribute 'rank'", 3),
    ("win.rnak", "a tile has no attribute 'rnak' (did you mean 'rank'?)", 5),
    ("pair.dargon", "a set has no attribute 'dargon' (did you mean 'dragon'?)", 6),
    ("nn > 1", "unknown name 'nn' (did you mean 'n'?)", 1),
    ("lenn(xs)", "unknown function 'lenn' (did you mean 'len'?)", 1),
    ("count(a, a in xs: a > 1)", "count() binds each name once", 1),
    ("n +", "the expression ends too early", 4),
    ("n $ 1", "unexpected character '$'", 3),
    ("n 1", "unexpected '1'", 3),
    ("", "empty expression", 1),
])
def test_type_and_syntax_errors(text: str, message: str, column: int) -> None:
    exc = error(text)
    assert message in exc.message
    assert (exc.line, exc.column) == (1, column), exc.message


def test_the_expected_type_of_the_whole_expression() -> None:
    assert "the expression must be a boolean, got a number" in error("n + 1", want=BOOL).message
    assert "the expression must be a number, got a boolean" in error("flag", want=INT).message
    assert generate("xs", NAMES, list_of(INT)).type == list_of(INT)
    assert generate("{1, 2}", NAMES).type == set_of(INT)


def test_errors_on_later_lines_have_their_line() -> None:
    exc = error("n > 1\nand bogus")
    assert (exc.line, exc.column) == (2, 5)


def test_a_recipe_rebuilds_the_same_function() -> None:
    recipe = generate("count(a, b in chows: a.suit == b.suit) + n", NAMES, INT)
    again = build(recipe, "<test>")
    assert again.fn(CONTEXT) == compile_expression(recipe.text, NAMES).fn(CONTEXT) == 6
    assert again.type == INT and again.source == recipe.source


def test_generated_code_cannot_reach_python() -> None:
    for text in ("__import__", "open", "c", "T", "eval"):
        assert "unknown name" in error(f"len({text})").message


@pytest.mark.parametrize("hand", ["1112345678999m +9m", "123m 456p 789s [555z] 1s +1s", "{1111p} 223344556m 9s +9s"])
@pytest.mark.parametrize("text", ["count(t in tiles: t.rank == win.rank)", 'count(t in tiles: t.suit == "m")',
                                  "count(t in concealed_tiles: t.rank == 1 + len(declared))",
                                  "sum(r in [1, 5, 9]: count(t in tiles: t.rank == r))"])
def test_a_count_by_rank_or_suit_reads_the_copies_per_kind(hand: str, text: str) -> None:
    from cardavia.compiler import parse_notation
    from cardavia.compiler.scoring.context import PATTERN_FACTS, HandContext

    env = Env.of(dict(PATTERN_FACTS))
    fast = compile_expression(text, env)
    assert "TALLY(" in fast.source  # no loop over the tiles
    ctx = HandContext(parse_notation(hand), None, ())
    expected = {
        "count(t in tiles: t.rank == win.rank)": sum(t.rank == ctx.win.rank for t in ctx.tiles),
        'count(t in tiles: t.suit == "m")': sum(t.suit == "m" for t in ctx.tiles),
        "count(t in concealed_tiles: t.rank == 1 + len(declared))":
            sum(t.rank == 1 + len(ctx.declared) for t in ctx.concealed_tiles),
        "sum(r in [1, 5, 9]: count(t in tiles: t.rank == r))": sum(t.rank in (1, 5, 9) for t in ctx.tiles),
    }[text]
    assert fast.fn(ctx) == expected

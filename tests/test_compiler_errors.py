"""Every kind of compile error, each on a broken copy of a shipped variant file.

Each test edits the text of a real variant, compiles it and checks the exact
file:line:column of the problem (found in the edited text, so the tests follow the
shipped files as they grow) and that the message says what was expected.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cardavia.compiler import VariantError, compile_file, compile_text
from cardavia.compiler.errors import Problem

from cardavia.cli import main

ROOT = Path(__file__).resolve().parent.parent


def shipped(name: str) -> str:
    return (ROOT / "variants" / f"{name}.yaml").read_text(encoding="utf-8")


def replace_line(text: str, old: str, new: str) -> str:
    """Replace the one whole line ``old`` (without its newline) by ``new``."""
    lines = text.split("\n")
    assert lines.count(old) == 1, f"expected the line {old!r} once in the shipped file"
    lines[lines.index(old)] = new
    return "\n".join(lines)


def insert_after(text: str, anchor: str, *new: str) -> str:
    """Insert lines after the one whole line ``anchor``."""
    return replace_line(text, anchor, "\n".join((anchor,) + new))


def add_patterns(text: str, *lines: str) -> str:
    """Insert pattern entries (YAML lines, indented as list items) at the top of the table."""
    return insert_after(text, "  patterns:", *lines)


def pattern(pid: str, when: str, *extra: str) -> tuple[str, ...]:
    return (f"    - id: {pid}", f"      name: {pid}", "      value: 1", f"      when: {when}") + extra


def locate(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """1-based (line, column) of an occurrence of ``needle`` in ``text``."""
    starts = [m.start() for m in re.finditer(re.escape(needle), text)]
    assert len(starts) > occurrence, f"{needle!r} not found"
    index = starts[occurrence]
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def problems_of(text: str, file: str = "broken.yaml") -> list[Problem]:
    with pytest.raises(VariantError) as info:
        compile_text(text, file)
    problems = info.value.problems
    assert problems, "a VariantError lists its problems"
    for p in problems:
        assert p.file == file and p.line >= 1 and p.column >= 1
    return problems


def only_problem(text: str) -> Problem:
    problems = problems_of(text)
    assert len(problems) == 1, "\n".join(map(str, problems))
    return problems[0]


def at(problem: Problem, where: tuple[int, int]) -> None:
    assert (problem.line, problem.column) == where, str(problem)


# ---------------------------------------------------------------- the shipped files


@pytest.mark.parametrize("name", ["hk", "mcr", "sichuan"])
def test_shipped_variants_compile(name: str) -> None:
    variant = compile_text(shipped(name), f"{name}.yaml")
    assert variant.id == name


# ---------------------------------------------------------------- YAML


def test_yaml_syntax_error() -> None:
    text = insert_after(shipped("hk"), "play:", "  extra: [1, 2", "  more: 3")
    p = only_problem(text)
    at(p, (locate(text, "  more: 3")[0], 7))  # the ':' where ',' or ']' was expected
    assert "YAML syntax error" in p.message and "expected ',' or ']'" in p.message
    assert f"starts at line {locate(text, '[1, 2')[0]}" in p.message


def test_yaml_tab_indentation_is_a_located_syntax_error() -> None:
    text = insert_after(shipped("mcr"), "table:", "\tbad: 1")
    p = only_problem(text)
    assert p.line == locate(text, "\tbad")[0]
    assert "YAML syntax error" in p.message


def test_duplicate_yaml_key() -> None:
    text = insert_after(shipped("sichuan"), "id: sichuan", "id: sichuan_copy")
    p = only_problem(text)
    at(p, locate(text, "id: sichuan_copy"))
    first = locate(text, "id: sichuan\n")
    assert f"duplicate key 'id' (first at line {first[0]}, column {first[1]})" in p.message
    assert "expected each key once" in p.message


def test_empty_file() -> None:
    p = only_problem("")
    at(p, (1, 1))
    assert "empty" in p.message and "expected a variant description" in p.message


def test_file_that_is_not_a_mapping() -> None:
    p = only_problem("- just\n- a list\n")
    at(p, (1, 1))
    assert "mapping of sections" in p.message


def test_a_section_that_is_not_a_mapping_where_payments_read_it(tmp_path: Path) -> None:
    # The payment rules read the scoring section's cap: a number in its place is the
    # file's error, at its line, not the compiler's.
    path = tmp_path / "three.yaml"
    path.write_text("extends: sichuan\nid: three\nname: Three\ntitle: Three\nsummary: x\nscoring: 12\n")
    with pytest.raises(VariantError) as info:
        compile_file(path)
    assert [(p.line, p.column) for p in info.value.problems] == [(6, 10)], info.value.problems
    assert "scoring" in info.value.problems[0].message and "mapping" in info.value.problems[0].message


# ---------------------------------------------------------------- schema


def test_schema_unknown_key() -> None:
    text = insert_after(shipped("hk"), "table:", "  colour: red")
    p = only_problem(text)
    at(p, locate(text, "colour"))
    assert "table: unknown key 'colour'" in p.message
    assert "expected one of" in p.message and "dealer_tiles" in p.message


def test_schema_wrong_type() -> None:
    text = replace_line(shipped("hk"), "  dealer_tiles: 14", "  dealer_tiles: fourteen")
    p = only_problem(text)
    at(p, locate(text, "fourteen"))
    assert p.message == "table.dealer_tiles: expected a whole number, got the text 'fourteen'"


def test_schema_missing_required_key() -> None:
    text = replace_line(shipped("mcr"), "  unit: points", "")
    p = only_problem(text)
    at(p, locate(text, "scoring:"))
    assert p.message == "scoring: missing the required key 'unit'"


def test_schema_bad_enum() -> None:
    text = replace_line(shipped("sichuan"), "  chow: none", "  chow: anyone")
    p = only_problem(text)
    at(p, locate(text, "anyone"))
    assert p.message == "play.chow: 'anyone' is not allowed: expected one of 'previous_player', 'none'"


def test_schema_number_out_of_range() -> None:
    text = replace_line(shipped("hk"), "  dealer_tiles: 14", "  dealer_tiles: 99")
    p = only_problem(text)
    at(p, locate(text, "99"))
    assert p.message == "table.dealer_tiles: expected a number <= 17, got 99"


def test_schema_pattern_with_when_and_count() -> None:
    text = add_patterns(shipped("hk"), *pattern("both", '"true"', '      count: "1"'))
    p = only_problem(text)
    at(p, locate(text, "id: both"))  # the pattern's mapping starts at its first key
    assert "has both 'when' and 'count': expected exactly one of 'when' or 'count'" in p.message


def test_schema_value_of_wrong_type() -> None:
    text = add_patterns(shipped("hk"), "    - id: listed", "      name: Listed", "      value: [7]",
                        '      when: "true"')
    p = only_problem(text)
    at(p, locate(text, "[7]"))
    assert p.message == "scoring.patterns[0].value: expected a whole number or a text, got a list"


def test_schema_bad_identifier() -> None:
    text = add_patterns(shipped("hk"), *pattern("Bad-Id", '"true"'))
    p = only_problem(text)
    at(p, locate(text, "Bad-Id"))
    assert "expected a lowercase name" in p.message and "'Bad-Id'" in p.message


def test_schema_bad_definition_name() -> None:
    text = insert_after(shipped("hk"), "  definitions:", '    Bad-Name: "1"')
    p = only_problem(text)
    at(p, locate(text, "Bad-Name"))
    assert "the key 'Bad-Name' is not allowed" in p.message and "expected a lowercase name" in p.message


# ---------------------------------------------------------------- expressions


def test_unknown_name() -> None:
    text = add_patterns(shipped("hk"), *pattern("typo", '"len(chowz) == 4"'))
    p = only_problem(text)
    at(p, locate(text, "chowz"))
    assert "unknown name 'chowz' (did you mean 'chows'?)" in p.message
    assert "expected one of" in p.message and "pungs" in p.message


def test_unknown_function() -> None:
    text = add_patterns(shipped("mcr"), *pattern("typo", '"length(kongs) == 4"'))
    p = only_problem(text)
    at(p, locate(text, "length("))
    assert "unknown function 'length' (did you mean 'len'?)" in p.message and "expected one of" in p.message


def test_unknown_attribute() -> None:
    text = replace_line(shipped("sichuan"), '    - payer: "player.pig"', '    - payer: "player.pigg"')
    p = only_problem(text)
    at(p, locate(text, "pigg"))
    assert "a player has no attribute 'pigg' (did you mean 'pig'?)" in p.message


def test_type_error_text_plus_number() -> None:
    text = add_patterns(shipped("hk"), *pattern("textual", "'\"a\" + 1 == 2'"))
    p = only_problem(text)
    at(p, locate(text, '"a" + 1'))
    assert "the left side of '+' must be a number, got a text" in p.message


def test_type_error_boolean_where_number_needed() -> None:
    text = add_patterns(shipped("hk"), *pattern("boolish", '"2 * self_drawn > 1"'))
    p = only_problem(text)
    at(p, locate(text, "self_drawn > 1"))
    assert "the right side of '*' must be a number, got a boolean" in p.message


def test_type_error_number_where_condition_needed() -> None:
    text = add_patterns(shipped("sichuan"), *pattern("numeric", '"len(pungs)"'))
    p = only_problem(text)
    at(p, locate(text, "len(pungs)\""))
    assert "a pattern's 'when' must be a boolean, got a number" in p.message


def test_type_error_in_a_value_formula() -> None:
    text = add_patterns(shipped("hk"), "    - id: valued", "      name: Valued", '      value: "self_drawn"',
                        '      when: "true"')
    p = only_problem(text)
    line, col = locate(text, '"self_drawn"')
    at(p, (line, col + 1))
    assert "a pattern's value must be a number, got a boolean" in p.message


def test_type_error_in_settlement() -> None:
    text = replace_line(shipped("mcr"), '  base: "total"', '  base: "total and true"')
    p = only_problem(text)
    at(p, locate(text, "total and"))
    assert "each side of 'and' must be a boolean, got a number" in p.message


def test_syntax_error_inside_expression() -> None:
    text = add_patterns(shipped("hk"), *pattern("dollar", '"len(pungs) == 4 $"'))
    p = only_problem(text)
    line, col = locate(text, "4 $")
    at(p, (line, col + 2))
    assert "unexpected character '$'" in p.message


def test_expression_that_ends_too_early() -> None:
    text = add_patterns(shipped("hk"), *pattern("early", '"len(pungs) =="'))
    p = only_problem(text)
    line, col = locate(text, "len(pungs) ==\"")
    at(p, (line, col + len("len(pungs) ==")))
    assert "the expression ends too early: expected" in p.message and "a number" in p.message


@pytest.mark.parametrize("style,lines", [
    ("plain", ["      when: len(pungs) == 4 and bogus"]),
    ("single", ["      when: 'len(pungs) == 4 and bogus'"]),
    ("double with escapes", ['      when: "shape == \\"standard\\" and bogus"']),
    ("plain on two lines", ["      when: len(pungs) == 4", "        and bogus"]),
    ("double on two lines", ['      when: "len(pungs) == 4', '        and bogus"']),
    ("folded", ["      when: >-", "        len(pungs) == 4", "        and", "        bogus"]),
    ("folded with blank line", ["      when: >", "        len(pungs) == 4", "", "        and bogus"]),
    ("literal", ["      when: |", "        len(pungs) == 4", "          and bogus"]),
    ("literal with indicator", ["      when: |2-", "          len(pungs) == 4", "          and bogus"]),
])
def test_expression_position_in_every_scalar_style(style: str, lines: list[str]) -> None:
    text = add_patterns(shipped("hk"), "    - id: styled", "      name: Styled", "      value: 1", *lines)
    p = only_problem(text)
    at(p, locate(text, "bogus"))
    assert "unknown name 'bogus'" in p.message


def test_long_expression_is_quoted_around_the_problem() -> None:
    long = " and ".join(["len(pungs) >= 0"] * 8) + " and bogus"
    text = add_patterns(shipped("hk"), *pattern("long", f'"{long}"'))
    p = only_problem(text)
    at(p, locate(text, "bogus"))
    assert "bogus" in p.message.split(": unknown name")[0] and len(p.message) < len(long) + 400


# ---------------------------------------------------------------- pattern tables


def test_exclusion_naming_unknown_pattern() -> None:
    text = add_patterns(shipped("hk"), *pattern("excluder", '"true"', "      excludes: [all_pongs]"))
    p = only_problem(text)
    at(p, locate(text, "all_pongs"))
    assert "excludes names unknown pattern 'all_pongs' (did you mean 'all_pungs'?)" in p.message
    assert "expected the id of a pattern" in p.message


def test_replacement_naming_unknown_pattern() -> None:
    text = add_patterns(shipped("mcr"), *pattern("replacer", '"true"', "      replaces: {nothing_here: 1}"))
    p = only_problem(text)
    at(p, locate(text, "nothing_here"))
    assert "replaces names unknown pattern 'nothing_here'" in p.message


def test_cycle_of_replacements() -> None:
    text = add_patterns(shipped("hk"),
                        *pattern("cycle_a", '"true"', "      replaces: {cycle_b: 1}"),
                        *pattern("cycle_b", '"true"', "      replaces: {cycle_c: 1}"),
                        *pattern("cycle_c", '"true"', "      replaces: {cycle_a: 1}"))
    p = only_problem(text)
    at(p, locate(text, "{cycle_b: 1}"))
    assert "cycle of replacements: cycle_a -> cycle_b -> cycle_c -> cycle_a" in p.message
    assert "cannot (indirectly) replace itself" in p.message


def test_pattern_replacing_itself() -> None:
    text = add_patterns(shipped("sichuan"), *pattern("selfish", '"true"', "      replaces: {selfish: 1}"))
    p = only_problem(text)
    at(p, locate(text, "selfish: 1"))
    assert "replaces itself: expected another pattern's id" in p.message


def test_duplicate_pattern_id() -> None:
    text = add_patterns(shipped("mcr"), *pattern("twin", '"true"'), *pattern("twin", '"false"'))
    p = only_problem(text)
    at(p, locate(text, "twin", 2))  # id, name of the first; id of the second
    first = locate(text, "- id: twin", 0)[0]
    assert p.message == f"duplicate pattern id 'twin' (first at line {first}): expected each pattern id once"


def test_unknown_shape_in_pattern() -> None:
    text = add_patterns(shipped("hk"), *pattern("shaped", '"true"', "      shapes: [seven_pair]"))
    p = only_problem(text)
    at(p, locate(text, "seven_pair]"))
    assert "unknown shape 'seven_pair' (did you mean 'seven_pairs'?): expected one of" in p.message


# ---------------------------------------------------------------- several at once


def test_every_problem_of_a_file_is_reported() -> None:
    text = shipped("hk")
    text = insert_after(text, "id: hk", "id: again")                                   # duplicate key
    text = replace_line(text, "  dealer_tiles: 14", "  dealer_tiles: lots")           # schema
    text = add_patterns(text, *pattern("first_bad", '"len(chowz) == 4"'),              # unknown name
                        *pattern("second_bad", '"true"', "      excludes: [nope]"),    # unknown exclusion
                        *pattern("third_bad", '"1 + true == 2"'))                     # type error
    text = replace_line(text, '  base: "2 ** total"', '  base: "2 ** totl"')           # settlement
    problems = problems_of(text)
    where = [(p.line, p.column) for p in problems]
    assert where == sorted(where)
    expected = [locate(text, "id: again"), locate(text, "lots"), locate(text, "chowz"), locate(text, "nope"),
                locate(text, "true == 2"), locate(text, "totl")]
    assert where == expected, "\n".join(map(str, problems))
    assert len({p.message for p in problems}) == 6


def test_a_schema_error_does_not_hide_expression_errors_elsewhere() -> None:
    text = replace_line(shipped("sichuan"), "  chow: none", "  chow: sometimes")
    text = add_patterns(text, *pattern("typo", '"len(pungz) == 4"'))
    messages = [p.message for p in problems_of(text)]
    assert len(messages) == 2
    assert "play.chow" in messages[0] and "unknown name 'pungz'" in messages[1]


# ---------------------------------------------------------------- files and the command


def test_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text(replace_line(shipped("hk"), "  dealer_tiles: 14", "  dealer_tiles: 1.5"), encoding="utf-8")
    with pytest.raises(VariantError) as info:
        compile_file(path)
    assert str(info.value).startswith(f"{path}:{locate(path.read_text(), '1.5')[0]}:17: ")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(VariantError) as info:
        compile_file(tmp_path / "absent.yaml")
    assert "no such file" in str(info.value)


def test_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"id: x\nname: \xe9\xe8\n")
    with pytest.raises(VariantError) as info:
        compile_file(path)
    assert f"{path}:2:1: the file is not UTF-8 text" in str(info.value)


def test_check_prints_every_problem_and_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.yaml"
    text = add_patterns(shipped("hk"), *pattern("typo", '"len(chowz) == 4"'))
    text = replace_line(text, "  dealer_tiles: 14", "  dealer_tiles: lots")
    path.write_text(text, encoding="utf-8")
    assert main(["check", str(path), "mcr"]) == 1
    captured = capsys.readouterr()
    err = captured.err.strip().splitlines()
    assert err == [f"error: {path}:{locate(text, 'lots')[0]}:{locate(text, 'lots')[1]}: "
                   "table.dealer_tiles: expected a whole number, got the text 'lots'",
                   err[1]]
    assert err[1].startswith(f"error: {path}:{locate(text, 'chowz')[0]}:{locate(text, 'chowz')[1]}: ")
    assert "mcr: " in captured.out  # the other variants are still checked
    assert "Traceback" not in captured.err

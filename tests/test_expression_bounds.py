"""A small variant file cannot ask for a huge computation or a huge generated source: the
checker bounds every expression's work, size and depth, with an error at its place."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from cardavia.compiler import VariantError, compile_text, load_variant
from cardavia.compiler.language.checker import MAX_CHARS, MAX_COST, MAX_DEPTH

ROOT = Path(__file__).resolve().parent.parent
HK = (ROOT / "variants" / "hk.yaml").read_text(encoding="utf-8")


def with_pattern(pattern: str, definitions: str = "") -> str:
    text = HK.replace("    - id: all_chows\n", pattern + "    - id: all_chows\n", 1)
    return text.replace("  definitions:\n", "  definitions:\n" + definitions, 1)


def problem(text: str) -> str:
    started = time.process_time()
    with pytest.raises(VariantError) as info:
        compile_text(text, "hostile.yaml", use_cache=False)
    assert time.process_time() - started < 10  # rejected, not worked out
    return str(info.value.problems[0])


def test_definitions_doubling_at_each_level_are_refused_where_they_grow_too_large() -> None:
    defs = '    d0: "len(tiles)"\n' + "".join(f'    d{i}: "d{i - 1} + d{i - 1}"\n' for i in range(1, 40))
    text = with_pattern('    - id: bomb\n      name: Bomb\n      value: 1\n      count: "d39"\n', defs)
    message = problem(text)
    # The first definition beyond the bound is named, at its line: d11, about 120,000 characters.
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("    d11:"))
    assert message.startswith(f"hostile.yaml:{line}:") and "too large" in message and f"{MAX_CHARS:,}" in message


def test_nested_choices_over_the_tiles_are_refused() -> None:
    text = with_pattern('    - id: bomb\n      name: Bomb\n      value: 1\n'
                        '      when: "exists(a, b, c, d, e, f, g, h, i, j in tiles: a == b)"\n')
    message = problem(text)
    assert "may take too long to evaluate" in message and f"{MAX_COST:,}" in message


def test_an_expression_nesting_too_deeply_is_refused() -> None:
    text = with_pattern('    - id: deep\n      name: Deep\n      value: 1\n      count: "'
                        + " + ".join(["1"] * 300) + '"\n')
    message = problem(text)
    assert "nests too deeply" in message and str(MAX_DEPTH) in message


@pytest.mark.parametrize("name", ["hk", "mcr", "sichuan"])
def test_the_shipped_variants_stay_far_within_the_bounds(name: str) -> None:
    variant = load_variant(name)
    exprs = [p.condition for p in variant.scoring.table.patterns]
    exprs += [p.value for p in variant.scoring.table.patterns if not isinstance(p.value, int)]
    for expr in exprs:
        node = expr.node
        assert node.cost * 100 < MAX_COST and node.chars * 100 < MAX_CHARS and node.nesting * 5 < MAX_DEPTH, expr.text

"""docs/variant-language.md covers the whole language, and its examples are real.

Every name, attribute and function of the engine's vocabulary, every key of the schema,
every shape kind, payer and principle is mentioned; every vocabulary example compiles
in the place it is meant for; the "change a rule" walk-through works as written.
"""

from __future__ import annotations

import importlib.util
import re
import textwrap
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from cardavia.compiler import compile_file, parse_notation
from cardavia.compiler.language.checker import Env
from cardavia.compiler.language.compiled import generate
from cardavia.compiler.language.types import BOOL, PLAYER
from cardavia.compiler.language.vocabulary import FUNCTIONS, GROUP_ATTRS, PLAYER_ATTRS, TILE_ATTRS
from cardavia.compiler.loading import schema
from cardavia.compiler.scoring.context import PATTERN_FACTS
from cardavia.compiler.scoring.patterns import PRINCIPLES
from cardavia.compiler.settlement import PAYERS, WIN_NAMES
from cardavia.compiler.shapes.kinds import SHAPE_KINDS

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "variant-language.md").read_text(encoding="utf-8")
STALE = "docs/variant-language.md is out of date: run python docs/gen_vocabulary.py"


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_vocabulary", ROOT / "docs" / "gen_vocabulary.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


def mentioned(word: str) -> bool:
    return re.search(r"`[^`\n]*\b" + re.escape(word) + r"\b[^`\n]*`", DOC) is not None


@pytest.mark.parametrize("table,prefix,suffix", [
    (PATTERN_FACTS, "`", "`"), (TILE_ATTRS, "`.", "`"), (GROUP_ATTRS, "`.", "`"), (PLAYER_ATTRS, "`.", "`"),
    (WIN_NAMES, "`", "`"), (FUNCTIONS, "`", "()`"),
])
def test_every_vocabulary_entry_is_documented(table: dict[str, Any], prefix: str, suffix: str) -> None:
    missing = [name for name in table if f"{prefix}{name}{suffix}" not in DOC]
    assert not missing, f"{STALE} (missing: {', '.join(missing)})"


def _schema_keys(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        yield from (node.get("properties") or {})
        for value in node.values():
            yield from _schema_keys(value)
    elif isinstance(node, list):
        for value in node:
            yield from _schema_keys(value)


def _schema_enums(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        yield from (v for v in node.get("enum") or [] if isinstance(v, str))
        for value in node.values():
            yield from _schema_enums(value)
    elif isinstance(node, list):
        for value in node:
            yield from _schema_enums(value)


def test_every_key_and_choice_of_the_schema_is_documented() -> None:
    words = set(_schema_keys(schema.schema())) | set(_schema_enums(schema.schema()))
    words |= set(SHAPE_KINDS) | set(PAYERS) | set(PRINCIPLES) | {"prefer"}
    missing = sorted(w for w in words if not mentioned(w))
    assert not missing, f"docs/variant-language.md does not mention: {', '.join(missing)}"


def _env(kind: str) -> Env:
    if kind == "player":
        return Env.of({"player": PLAYER, "payer": PLAYER, "payee": PLAYER})
    if kind == "settlement":
        return Env.of(WIN_NAMES)
    return Env.of(dict(PATTERN_FACTS))


def test_every_vocabulary_example_compiles_and_is_in_the_doc() -> None:
    count = 0
    for kind, rows in GEN.rows().items():
        for name, _, _, example in rows:
            generate(example, _env(kind))  # raises ExpressionError on a broken example
            assert f"`{example}`" in DOC, f"{STALE} (example of {name})"
            count += 1
    assert count >= len(PATTERN_FACTS) + len(FUNCTIONS)


def test_examples_of_conditions_are_conditions() -> None:
    rows = GEN.rows()
    for kind in ("names", "tile", "set", "player"):
        for name, _, _, example in rows[kind]:
            assert generate(example, _env(kind)).type == BOOL or kind == "player", (name, example)


def test_the_change_a_rule_walkthrough_works(tmp_path: Path) -> None:
    section = DOC[DOC.index("## Walk-through: change a rule"):DOC.index("### Overlays")]
    block = section[section.index("```yaml\n") + 8:section.index("```\n", section.index("```yaml\n") + 8)]
    overlay = tmp_path / "my-hk.yaml"
    overlay.write_text(textwrap.dedent(block), encoding="utf-8")
    variant = compile_file(overlay)
    assert variant.scoring.minimum == 1 and "all_simples" in variant.scoring.table.by_id
    hand = '"234m 456p 678s 345s 2m +2m"'
    assert f"cardavia score my-hk.yaml {hand}" in DOC
    result = variant.scorer.score(parse_notation(hand.strip('"')))
    assert result.valid and "all_simples" in [f.id for f in result.fans]

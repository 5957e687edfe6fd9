"""No variant is hard-coded: the Python of ``compiler/`` and ``runtime/`` names no variant
id and no pattern id of the shipped variant tables.

Forbidden words are read from the shipped YAML files, so the check follows the tables as
they grow. Words of the engine's own vocabulary (names pattern conditions see, group and
tile attributes, functions, shape kinds, hand flags, payers, the schema's keys and enum
values) are allowed even when a table happens to use one as a pattern id, e.g. a
``self_drawn`` pattern over the ``self_drawn`` flag. Docstrings and comments are prose and
are not checked; every other string literal and every identifier is:

* a variant id is named by any identifier part (``HK_CAP``) or word of a string;
* a pattern id is named by a string that is the id, by a word of a string that is a
  multi-word id, and by an identifier that holds a multi-word id (``score_all_pungs``).
  A one-word id (``root``) is only looked for as a whole string: as a part of an
  identifier it is an ordinary word.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from cardavia.compiler.language.vocabulary import FUNCTIONS, GROUP_ATTRS, PLAYER_ATTRS, TILE_ATTRS
from cardavia.compiler.loading import schema
from cardavia.compiler.model.groups import GROUP_KINDS
from cardavia.compiler.model.hand import MELD_KINDS, Hand
from cardavia.compiler.scoring.context import PATTERN_FACTS
from cardavia.compiler.settlement import PAYERS, WIN_NAMES
from cardavia.compiler.shapes.kinds import SHAPE_KINDS

ROOT = Path(__file__).resolve().parent.parent
CHECKED_DIRS = ("compiler", "runtime")


def shipped_words() -> tuple[set[str], set[str]]:
    """(variant ids and file names, pattern ids) of every shipped variant."""
    variants: set[str] = set()
    patterns: set[str] = set()
    for path in sorted((ROOT / "variants").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if "extends" in data:  # an overlay: its patterns are those of the variant it makes
            from cardavia.compiler import load_variant

            data = load_variant(str(path)).data
        variants |= {path.stem.lower(), str(data["id"]).lower()}
        patterns |= {str(p["id"]).lower() for p in data["scoring"]["patterns"]}
    return variants, patterns


def _schema_words(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key in ("properties", "enum"):
            if isinstance(node.get(key), dict):
                yield from node[key]
            elif isinstance(node.get(key), list):
                yield from (v for v in node[key] if isinstance(v, str))
        for value in node.values():
            yield from _schema_words(value)
    elif isinstance(node, list):
        for value in node:
            yield from _schema_words(value)


def engine_vocabulary() -> set[str]:
    """The generic notions the engine itself defines (never a variant's choice)."""
    words: set[str] = set()
    for table in (PATTERN_FACTS, TILE_ATTRS, GROUP_ATTRS, PLAYER_ATTRS, FUNCTIONS, WIN_NAMES):
        words |= set(table)
    words |= set(SHAPE_KINDS) | set(GROUP_KINDS) | set(MELD_KINDS) | set(PAYERS)
    words |= set(Hand.FIELDS)
    words |= set(_schema_words(schema.schema()))
    return {w.lower() for w in words}


def _words(identifier: str) -> str:
    """``isMcrHand`` / ``IS_MCR_HAND`` -> ``is_mcr_hand``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", identifier).lower().strip("_")


class Finder:
    """Finds mentions of forbidden words in Python source."""

    def __init__(self, variants: set[str], patterns: set[str], allowed: set[str]) -> None:
        self.variants = variants
        self.patterns = {p for p in patterns if p not in allowed}
        self.allowed = allowed
        self._seen: dict[str, str | None] = {}

    @staticmethod
    def _spans(padded: str, word: str) -> list[tuple[int, int]]:
        return [(m.start(), m.start() + len(word) + 2) for m in re.finditer(f"(?=_{re.escape(word)}_)", padded)]

    def in_identifier(self, identifier: str) -> str | None:
        """The forbidden word an identifier holds, if any (identifiers repeat: each is read once)."""
        if identifier not in self._seen:
            self._seen[identifier] = self._in_identifier(identifier)
        return self._seen[identifier]

    def _in_identifier(self, identifier: str) -> str | None:
        words = _words(identifier)
        if words in self.allowed:
            return None
        for word in words.split("_"):
            if word in self.variants:
                return word
        padded = f"_{words}_"
        for pid in self.patterns:
            if "_" not in pid or f"_{pid}_" not in padded:  # a one-word id ("root") is an ordinary word
                continue
            for start, end in self._spans(padded, pid):
                # Inside an engine word (the flag last_tile_of_kind holds the id last_tile): fine.
                inside = any(s <= start and end <= e for w in self.allowed if pid in w
                             for s, e in self._spans(padded, w))
                if not inside:
                    return pid
        return None

    def in_string(self, text: str) -> str | None:
        if text.strip().lower() in self.patterns | self.variants:
            return text.strip().lower()
        for token in re.findall(r"[A-Za-z][A-Za-z0-9_]*", text):
            words = _words(token)
            if words in self.variants:
                return words
            if "_" in words and self.in_identifier(token):  # multi-word ids inside prose or code text
                return self.in_identifier(token)
        return None

    def mentions(self, source: str, filename: str) -> list[str]:
        tree = ast.parse(source, filename)
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant) and isinstance(node.body[0].value.value, str)}
        found = []
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Name):
                names = [node.id]
            elif isinstance(node, ast.Attribute):
                names = [node.attr]
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names = [node.name]
            elif isinstance(node, ast.arg) or (isinstance(node, ast.keyword) and node.arg):
                names = [node.arg]
            elif isinstance(node, ast.alias):
                names = node.name.split(".") + ([node.asname] if node.asname else [])
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                names = list(node.names)
            for name in names:
                word = self.in_identifier(name)
                if word:
                    found.append(f"{filename}:{node.lineno}: identifier {name!r} names {word!r}")
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                word = self.in_string(node.value)
                if word:
                    found.append(f"{filename}:{node.lineno}: string {node.value[:60]!r} names {word!r}")
        return found


@pytest.fixture(scope="module")
def finder() -> Finder:
    variants, patterns = shipped_words()
    return Finder(variants, patterns, engine_vocabulary())


def python_files() -> list[Path]:
    return sorted(p for d in CHECKED_DIRS for p in (ROOT / d).rglob("*.py"))


def test_the_tables_are_read(finder: Finder) -> None:
    assert len(finder.variants) >= 3 and len(finder.patterns) >= 10
    assert python_files(), "compiler/ holds Python files"


def test_no_variant_or_pattern_is_named_in_compiler_or_runtime(finder: Finder) -> None:
    found = []
    for path in python_files():
        found += finder.mentions(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert not found, "hard-coded variant knowledge:\n" + "\n".join(found)


def test_the_check_catches_hard_coding(finder: Finder) -> None:
    variant = sorted(finder.variants)[0]
    multi = sorted(p for p in finder.patterns if "_" in p)[0]
    single = sorted(finder.patterns)[-1]
    one_word = next((p for p in sorted(finder.patterns) if "_" not in p), "plain")
    bad = f'''
"""Docstrings may say {variant} and {multi}: they are prose."""
def f(variant, hand):
    if variant.id == "{variant}":  # a variant's id as a string
        return 1
    {variant.upper()}_CAP = 13  # a variant's id inside an identifier
    score_{multi} = 2  # a pattern id inside an identifier
    total = hand.fans["{single}"]  # a pattern id as a string
    return f"{{hand}} is {multi}"  # inside text
'''
    found = finder.mentions(bad, "bad.py")
    assert sorted(int(f.split(":")[1]) for f in found) == [4, 6, 7, 8, 9], found
    good = f'''
def f(hand, self_drawn, last_tile_of_kind, {one_word}):
    """Engine words are fine, and a one-word id is an ordinary word in an identifier."""
    return hand.self_drawn or last_tile_of_kind or "pairs" == "sets_and_pair" or {one_word}
'''
    assert finder.mentions(good, "good.py") == []

"""Whatever text it is given, the compiler answers with a variant or a located VariantError.

Random text, and random mutations of the shipped files (lines deleted, duplicated or
swapped, characters changed, scalars replaced by values of other types, expressions
mutated token by token), are fed to ``compile_text``: it never raises anything but
:class:`VariantError`, and every problem carries the file (the fuzzed one, or a base that an
overlay extends), a line >= 1 and a column >= 1.
``CARDAVIA_FUZZ_EXAMPLES`` raises the number of examples for a longer local hunt.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from cardavia.compiler import VariantError, compile_text
from cardavia.compiler.language.vocabulary import FUNCTIONS, GROUP_ATTRS, PLAYER_ATTRS, TILE_ATTRS
from cardavia.compiler.scoring.context import PATTERN_FACTS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytestmark = pytest.mark.slow  # property sweeps of hostile inputs (about 35 s)

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = {p.stem: p.read_text(encoding="utf-8") for p in sorted((ROOT / "variants").glob("*.yaml"))}
EXAMPLES = int(os.environ.get("CARDAVIA_FUZZ_EXAMPLES", "0"))
FILE = "fuzzed.yaml"
#: Where a problem may be located: the fuzzed file, or a shipped file an overlay extends.
PLACES = {FILE} | {str(p) for p in (ROOT / "variants").glob("*.yaml")}


def fuzz_settings(default: int) -> settings:
    return settings(max_examples=EXAMPLES or default, deadline=None, derandomize=not EXAMPLES,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def compiles_or_reports(text: str) -> None:
    try:
        compile_text(text, FILE)
    except VariantError as exc:
        assert exc.problems
        for p in exc.problems:
            assert p.file in PLACES, p
            assert isinstance(p.line, int) and p.line >= 1, p
            assert isinstance(p.column, int) and p.column >= 1, p
            assert p.message and isinstance(p.message, str), p


# ------------------------------------------------------------------ random text

YAMLISH = st.sampled_from(list(":-[]{},#&*!|>'\"%@` \t\n\r?") + ["\ufeff", "\x00", "\u2028", "é", "中"])
FRAGMENTS = st.sampled_from(["\r\n", "id: ", "tiles:", "  - ", "scoring:\n  ", "patterns: ", "when: ", "{", "}",
                             "- {group: dots, copies: 4}", "  ", "\n", "&a ", "*a", "!!str ", "? ", "---\n", "..."])


@fuzz_settings(150)
@given(st.lists(st.one_of(YAMLISH, FRAGMENTS, st.characters()), max_size=120).map("".join))
def test_random_text(text: str) -> None:
    compiles_or_reports(text)


# ------------------------------------------------------------------ mutations

OTHER_SCALARS = ["1", "-1", "0", "99999999999999999999", "1.5", "true", "null", "~", "''", '""', "[]", "{}",
                 "[1, 2]", "{a: 1}", "'x'", "abc", "2024-13-45", "2024-01-01", ".inf", "0x1F", "!!binary aGk=",
                 "&anchor 1", "*missing", "'{{'", "|", ">-", "- 1", '"\\x00"', "1z", "5m"]

VOCABULARY = (list(PATTERN_FACTS) + list(FUNCTIONS) + list(TILE_ATTRS) + list(GROUP_ATTRS) + list(PLAYER_ATTRS)
              + ["any", "all", "count", "exists", "sum", "filter", "in", "not in", "and", "or", "not", "if", "else",
                 "true", "false", "total", "base", "player", "payer", "payee", "x", "t", "s",
                 "(", ")", "[", "]", "{", "}", ",", ":", ".", "+", "-", "*", "**", "//", "%", "==", "!=", "<", ">=",
                 "0", "1", "4", "64", "65", "-1", "999999999999", "5z", "9m", "1f", "'chow'", '"m"', "\\", "'", '"'])

EXPRESSION = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\n])*\'')


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = SHIPPED[draw(st.sampled_from(sorted(SHIPPED)))]
    for _ in range(draw(st.integers(1, 4))):
        lines = text.split("\n")
        op = draw(st.sampled_from(["delete", "duplicate", "swap", "char", "scalar", "expression", "indent"]))
        i = draw(st.integers(0, len(lines) - 1))
        if op == "delete":
            del lines[i]
        elif op == "duplicate":
            lines.insert(i, lines[i])
        elif op == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif op == "indent":
            lines[i] = draw(st.sampled_from(["", " ", "  ", "\t"])) + lines[i].lstrip(" ") if draw(st.booleans()) \
                else lines[i][draw(st.integers(0, 3)):]
        elif op == "char" and text:
            k = draw(st.integers(0, len(text) - 1))
            text = text[:k] + draw(st.one_of(YAMLISH, st.characters(max_codepoint=0x2FFF))) + text[k + 1:]
            continue
        elif op == "scalar":
            m = re.match(r"^(\s*(?:- )?[\w-]+:\s)(.*)$", lines[i])
            if m:
                lines[i] = m.group(1) + draw(st.sampled_from(OTHER_SCALARS))
        elif op == "expression":
            spans = [m for m in EXPRESSION.finditer(lines[i]) if len(m.group()) > 2]
            if spans:
                m = draw(st.sampled_from(spans))
                body = m.group()[1:-1]
                tokens = re.findall(r"\w+|\*\*|//|==|!=|<=|>=|\S", body)
                for _ in range(draw(st.integers(1, 3))):
                    k = draw(st.integers(0, len(tokens)))
                    action = draw(st.sampled_from(["insert", "replace", "delete"]))
                    if action == "insert" or not tokens:
                        tokens.insert(k, draw(st.sampled_from(VOCABULARY)))
                    elif action == "replace":
                        tokens[min(k, len(tokens) - 1)] = draw(st.sampled_from(VOCABULARY))
                    else:
                        del tokens[min(k, len(tokens) - 1)]
                quote = m.group()[0]
                new_body = " ".join(tokens).replace(quote, "")
                lines[i] = lines[i][:m.start()] + quote + new_body + quote + lines[i][m.end():]
        text = "\n".join(lines)
    return text


@fuzz_settings(250)
@given(mutated())
def test_mutated_shipped_files(text: str) -> None:
    compiles_or_reports(text)


# ------------------------------------------------------------------ known crashers, kept as examples


def test_hand_picked_hostile_inputs() -> None:
    hk = SHIPPED["hk"]
    for text in [
        "a: &x [*x]",  # recursive alias
        "a: &a [1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
        "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e]",
        "[" * 5000,  # deep nesting
        "---\na: 1\n---\nb: 2\n",  # two documents
        "? [a, b]\n: 1\n",  # complex key
        "1: 2\n",
        hk.replace("  minimum: 3", "  minimum: 2024-13-45"),
        hk.replace("  dealer_tiles: 14", "  dealer_tiles: 99999999999999999999999"),
        hk.replace("  definitions:", "  definitions:\n    1: \"2\""),
        hk.replace('  base: "2 ** total"', '  base: "2 ** 99999999999999999999999999"'),
        hk.replace('  base: "2 ** total"', '  base: "' + "(" * 3000 + "1" + ")" * 3000 + '"'),
        hk.replace('  base: "2 ** total"', '  base: "' + "-" * 3000 + '1"'),
        hk.replace('  base: "2 ** total"', '  base: "' + "not " * 2000 + 'true"'),
    ]:
        compiles_or_reports(text)

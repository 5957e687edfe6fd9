"""Parsing expressions with Lark (the grammar is expression.lark), with errors that say
where and what was expected."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # Lark is imported when an expression is parsed, not when a cached variant loads
    from lark import Lark, Token, Tree

GRAMMAR_PATH = Path(__file__).with_name("expression.lark")


class ExpressionError(Exception):
    """A problem in one expression, at a 1-based line and column inside it."""

    def __init__(self, message: str, line: int = 1, column: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The parser, built once per process from the grammar (some 30 ms, only when a variant
    is compiled anew; Lark's own cache of its tables is a pickle, which nothing here reads)."""
    from lark import Lark

    return Lark(GRAMMAR_PATH.read_text(encoding="utf-8"), parser="lalr", propagate_positions=True,
                maybe_placeholders=False)


_TOKEN_WORDS = {
    "COMPARE": "a comparison", "ADDOP": "+ or -", "MULOP": "*, // or %", "TILE": "a tile code",
    "NAME": "a name", "INT": "a number", "STRING": "a quoted text", "QUANT": "a quantifier",
    "LPAR": "(", "RPAR": ")", "LSQB": "[", "RSQB": "]", "LBRACE": "{", "RBRACE": "}", "COMMA": ",",
    "COLON": ":", "DOT": ".", "$END": "the end of the expression", "POW": "**", "MINUS": "-",
    "IF": "if", "ELSE": "else", "AND": "and", "OR": "or", "NOT": "not", "TRUE": "true", "FALSE": "false",
}


def _describe_expected(expected: set[str]) -> str:
    words = sorted({_TOKEN_WORDS.get(e, e.lower().strip('"')) for e in expected if not e.startswith("__")})
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def parse(text: str) -> Tree:
    """Parse one expression; raises :class:`ExpressionError` with the position of the problem."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

    if not isinstance(text, str) or not text.strip():
        raise ExpressionError("empty expression: expected a formula or condition")
    try:
        return _parser().parse(text)
    except UnexpectedCharacters as exc:
        where = exc.pos_in_stream or 0
        raise ExpressionError(f"unexpected character {text[where:where + 1]!r}", exc.line, exc.column) from None
    except UnexpectedEOF as exc:
        lines = text.split("\n")
        raise ExpressionError(f"the expression ends too early: expected {_describe_expected(set(exc.expected))}",
                              len(lines), len(lines[-1]) + 1) from None
    except UnexpectedToken as exc:
        tok = exc.token
        line = tok.line if tok.line is not None else 1
        col = tok.column if tok.column is not None else len(text) + 1
        if tok.type == "$END":
            lines = text.rstrip().split("\n")
            raise ExpressionError(f"the expression ends too early: expected {_describe_expected(set(exc.expected))}",
                                  len(lines), len(lines[-1]) + 1) from None
        raise ExpressionError(f"unexpected {str(tok)!r}: expected {_describe_expected(set(exc.expected))}",
                              line, col) from None
    except UnexpectedInput as exc:  # pragma: no cover - other lark input errors
        raise ExpressionError(str(exc).splitlines()[0], getattr(exc, "line", 1), getattr(exc, "column", 1)) from None


def position(tree: Tree | Token) -> tuple[int, int]:
    """The 1-based line and column where a parse-tree node starts."""
    from lark import Token

    if isinstance(tree, Token):
        return (tree.line or 1, tree.column or 1)
    meta = tree.meta
    return (getattr(meta, "line", 1) or 1, getattr(meta, "column", 1) or 1)

"""Subcommands of ``cardavia``; see :mod:`cardavia.cli`."""

from __future__ import annotations

import sys

from cardavia.compiler import VariantError


def print_problems(exc: VariantError, as_json: bool = False) -> None:
    """Every problem of a variant that did not compile, one ``error: file:line:column: ...``
    line each on standard error; ``as_json``: one ``{"error": ...}`` object on standard
    output instead, the problems joined (what a ``--json`` mode answers)."""
    if as_json:
        fail("; ".join(str(p) for p in exc.problems), True)
        return
    for problem in exc.problems:
        print(f"error: {problem}", file=sys.stderr)


def fail(message: str, as_json: bool = False, status: int = 2) -> int:
    """Report an error: ``error: MESSAGE`` on standard error, or for a ``--json`` mode
    ``{"error": MESSAGE}`` on standard output; returns ``status``."""
    if as_json:
        import json

        print(json.dumps({"error": message}))
    else:
        print(f"error: {message}", file=sys.stderr)
    return status


def unit_word(unit: str, n: int) -> str:
    """``n`` and the variant's unit in English, singular or plural as the English catalog
    gives it ("1 point", "2 points", "1 faan")."""
    from cardavia.render.catalog import translator
    from cardavia.render.catalog import unit_word as word

    return f"{n} {word(translator('en'), unit, n)}"


def refusal(unit: str, minimum: int, counted: int, below: bool, reason: str | None) -> str | None:
    """Why a win is refused, in English for people: below the minimum with the unit in
    its right number ("1 point counted toward it, 8 needed"), else the scorer's reason."""
    if below:
        return f"below the minimum: {unit_word(unit, counted)} counted toward it, {minimum} needed"
    return reason

"""Subcommands of ``cardavia``; see :mod:`cardavia.cli`."""

from __future__ import annotations

import sys

from cardavia.compiler import VariantError


def print_problems(exc: VariantError) -> None:
    """Every problem of a variant that did not compile, one ``error: file:line:column: ...`` line each."""
    for problem in exc.problems:
        print(f"error: {problem}", file=sys.stderr)

"""Subcommands of ``cardavia``; see :mod:`cardavia.cli`.

What every command shares at its edges: messages on standard error (:func:`say`,
:func:`fail`, :func:`print_problems`) shown as text a terminal cannot take for commands
(:func:`visible`) and of bounded length, and standard output written through :func:`write`,
whose failures (a closed stream, a full disk) become one :class:`StreamError` that the CLI
reports in one line.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence
from typing import TextIO

from cardavia.compiler import VariantError
from cardavia.compiler.errors import quoted, shorten, visible

#: The longest message line written whole; a longer one keeps its start and end.
LONGEST_MESSAGE = 1000


class StreamError(Exception):
    """Standard output or input cannot be used (closed, a full disk, an I/O error); the
    message says which and why."""


def say(line: str) -> None:
    """One line on standard error, visible and at most :data:`LONGEST_MESSAGE` characters;
    never raises (a closed or failing standard error loses the message, not the exit status)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(shorten(visible(line), LONGEST_MESSAGE), file=sys.stderr, flush=True)


def fail(message: str, status: int = 2, *, as_json: bool = False) -> int:
    """Report an error: ``error: MESSAGE`` on standard error, or for a ``--json`` mode
    ``{"error": MESSAGE}`` on standard output; returns ``status`` (the exit status)."""
    if as_json:
        import json

        write(json.dumps({"error": message}) + "\n")
    else:
        say(f"error: {message}")
    return status


def print_problems(exc: VariantError, as_json: bool = False) -> None:
    """Every problem of a variant that did not compile, one ``error: file:line:column: ...``
    line each on standard error; ``as_json``: one ``{"error": ...}`` object on standard
    output instead, the problems joined (what a ``--json`` mode answers)."""
    if as_json:
        fail("; ".join(str(p) for p in exc.problems), as_json=True)
        return
    for problem in exc.problems:
        say(f"error: {problem}")


def path_quoted(path: object) -> str:
    """A file name for a message: quoted, whole unless it is far longer than any real
    path (the file to look at must be named exactly; a name of 10,000 characters must not
    fill the screen)."""
    return quoted(str(path), 250)


def stdout() -> TextIO:
    """Standard output, or :class:`StreamError` when it was closed before the command started."""
    if sys.stdout is None:
        raise StreamError("standard output is closed: nothing can be written")
    return sys.stdout


def stdin() -> TextIO:
    """Standard input, or :class:`StreamError` when it was closed before the command started."""
    if sys.stdin is None:
        raise StreamError("standard input is closed: nothing can be read")
    return sys.stdin


def write(text: str) -> None:
    """Write ``text`` to standard output; :class:`StreamError` if it cannot be written. The
    CLI flushes standard output when the command returns, through :func:`flush`."""
    out = stdout()
    try:
        out.write(text)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise output_error(exc) from None


def flush() -> None:
    """Flush standard output (if open); :class:`StreamError` if what was written is lost."""
    if sys.stdout is None:
        return
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise output_error(exc) from None


def output_error(exc: OSError) -> StreamError:
    """The :class:`StreamError` of a failed write to standard output."""
    return StreamError(f"cannot write to standard output: {exc.strerror or exc}")


def internal_error(exc: BaseException, debug: bool = False) -> str:
    """The message of an error no command foresaw (a bug): what was raised, and how to see where."""
    try:
        what = shorten(str(exc), 200)
    except Exception:  # a message that cannot be made
        what = ""
    hint = "" if debug else " (run again with --debug for the traceback)"
    return f"internal error: {type(exc).__name__}{': ' + what if what else ''}{hint}"


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


class OptionError(ValueError):
    """A ``--option`` argument that is not ``NAME=CHOICE``, or a name given twice."""


def add_option_argument(parser: argparse.ArgumentParser) -> None:
    """``--option NAME=CHOICE``, repeatable: a choice for one of the variant's options."""
    parser.add_argument("--option", action="append", default=[], metavar="NAME=CHOICE",
                        help="a choice for one of the variant's options (house rules); repeatable")


def chosen_options(given: Sequence[str] | None) -> dict[str, str]:
    """The choices of repeated ``--option NAME=CHOICE`` arguments, by option name;
    :class:`OptionError` for one without ``=`` or an option named twice."""
    out: dict[str, str] = {}
    for text in given or ():
        name, sep, choice = text.partition("=")
        name, choice = name.strip(), choice.strip()
        if not sep or not name or not choice:
            raise OptionError(f"--option {shorten(visible(text), 60)}: expected NAME=CHOICE, e.g. "
                              "--option base_table=half_spicy")
        if name in out:
            raise OptionError(f"--option {name} is given twice ({out[name]} and {choice}): expected one "
                              "choice per option")
        out[name] = choice
    return out

"""The ``cardavia`` command: one subcommand per module in :mod:`cardavia.commands`.

Each command module defines ``register(subparsers)``, which adds its parser and sets
``func`` to a function taking the parsed arguments and returning the exit status.
Bad input is reported as a message on standard error, never as a traceback: each command
answers what it is given with its own message. What no command foresaw (a bug) reaches the
last resort in :func:`main`, one line on standard error, the traceback too with ``--debug``.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from typing import NoReturn

from cardavia.commands import LONGEST_MESSAGE, StreamError, fail, flush, internal_error, say, visible
from cardavia.compiler.errors import shorten

#: Command modules, in the order ``cardavia --help`` lists them.
COMMANDS = ("serve", "check", "score", "waits", "replay", "simulate", "report", "play", "rules", "schema")


def version() -> str:
    """The installed distribution's version (the package's own when it is not installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("cardavia")
    except PackageNotFoundError:
        from cardavia import __version__

        return __version__


class _Version(argparse.Action):
    """``--version``, looked up only when asked: importlib.metadata costs every start 20 ms."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        sys.stdout.write(f"cardavia {version()}\n")
        parser.exit()


class _Refused(Exception):
    """Arguments refused in a ``--json`` mode: answered as JSON by :func:`main`."""


class _Parser(argparse.ArgumentParser):
    """argparse, with its messages shown like the commands' own (visible, of bounded length:
    an argument of 10,000 characters is not echoed whole); in a ``--json`` mode the message
    is the JSON answer, as every other error of that mode."""

    json_errors = False

    def error(self, message: str) -> NoReturn:
        if self.json_errors:
            raise _Refused(message)
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {shorten(visible(message), LONGEST_MESSAGE)}\n")


DEBUG_HELP = "on an internal error, print the traceback too"


def build_parser(only: str | None = None, json_errors: bool = False) -> argparse.ArgumentParser:
    """The parser; with ``only``, just that command's module is imported (a faster start);
    ``json_errors``: refused arguments raise :class:`_Refused` instead of exiting."""
    parser = _Parser(prog="cardavia", description="Chinese mahjong variants as data.")
    parser.json_errors = json_errors
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    parser.add_argument("--debug", action="store_true", help=DEBUG_HELP)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMANDS if only is None else (only,):
        try:
            module = importlib.import_module(f"cardavia.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"cardavia.commands.{name}":
                continue  # that command is not part of this build
            raise
        module.register(sub)
    for command in sub.choices.values():  # also after the command: cardavia score ... --debug
        command.add_argument("--debug", action="store_true", default=argparse.SUPPRESS, help=DEBUG_HELP)
        if isinstance(command, _Parser):
            command.json_errors = json_errors
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    first = argv[1:2] if argv[:1] == ["--debug"] else argv[:1]
    only = first[0] if first and first[0] in COMMANDS else None
    parser = build_parser(only, json_errors="--json" in argv or "--jsonl" in argv)
    try:
        args = parser.parse_args(argv)
    except _Refused as exc:
        return fail(str(exc), as_json=True)
    try:
        status = int(args.func(args) or 0)
        flush()  # what is still buffered: a full disk shows here
        return status
    except KeyboardInterrupt:
        say("interrupted")
        return 130
    except BrokenPipeError:  # the reader left (cardavia ... | head): not an error
        _discard_stdout()
        return 0
    except StreamError as exc:
        _discard_stdout()
        return fail(str(exc))
    except Exception as exc:  # the last resort: no command foresaw this (a bug)
        debug = getattr(args, "debug", False)
        if debug:
            import traceback

            with contextlib.suppress(OSError, ValueError, AttributeError):
                traceback.print_exc()
        return fail(internal_error(exc, debug), 1)


def _discard_stdout() -> None:
    """After a failed write, point standard output at /dev/null so that the flush at exit
    does not report the same failure again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

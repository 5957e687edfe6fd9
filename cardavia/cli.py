"""The ``cardavia`` command: one subcommand per module in :mod:`cardavia.commands`.

Each command module defines ``register(subparsers)``, which adds its parser and sets
``func`` to a function taking the parsed arguments and returning the exit status.
Bad input is reported as a message on standard error, never as a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

#: Command modules, in the order ``cardavia --help`` lists them.
COMMANDS = ("check", "score", "waits", "replay", "simulate", "play", "rules", "schema")


def version() -> str:
    """The installed distribution's version (the package's own when it is not installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("cardavia")
    except PackageNotFoundError:
        from cardavia import __version__

        return __version__


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``only``, just that command's module is imported (a faster start)."""
    parser = argparse.ArgumentParser(prog="cardavia", description="Chinese mahjong variants as data.")
    parser.add_argument("--version", action="version", version=f"cardavia {version()}")
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
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    only = argv[0] if argv and argv[0] in COMMANDS else None
    parser = build_parser(only)
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

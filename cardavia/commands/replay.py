"""``cardavia replay SCENARIO.json``: play one deal from a fixed wall and scripted actions.

Every error exits with status 2 and one message on standard error, nothing on standard
output: a scenario that cannot be read (not a regular file, too large, not UTF-8, not
JSON), a malformed scenario or an illegal action, and even an internal error.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
import traceback
from typing import Any

from cardavia.commands import StreamError, fail, internal_error, stdin, write

#: The largest scenario read: a deal's wall and every decision take a few kilobytes.
MAX_SCENARIO_BYTES = 1_000_000
#: The widest --indent (a wider one only makes the output longer).
MAX_INDENT = 16


def _indent(text: str) -> int:
    try:
        n = int(text) if len(text) <= 6 else -1
    except ValueError:
        n = -1
    if not 0 <= n <= MAX_INDENT:
        raise argparse.ArgumentTypeError(f"expected a whole number 0-{MAX_INDENT}")
    return n


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay", help="replay a scripted deal from a fixed wall",
        description="Play one deal from a scenario (variant, dealer, wall or seed, actions per seat, autoplay "
                    "'drawn-tile' or 'ai') and print the result as one JSON object: end, wins, payments, deltas, "
                    "events. Any error (an illegal or unused scripted action, a scenario that cannot be read) "
                    "exits with status 2 and says what is wrong. Autoplay 'ai' lets the built-in AI decide (the "
                    "scenario's 'players' or --players choose its level per seat); --explain says why.")
    p.add_argument("scenario", metavar="SCENARIO.json", help="the scenario file ('-' reads standard input)")
    p.add_argument("--players", metavar="K,K,K,K",
                   help="the seats' controller kinds for what the script leaves open (ai, ai:easy, ai:strong, "
                        "baseline, random), replacing the scenario's 'players'; makes autoplay 'ai'")
    p.add_argument("--explain", action="store_true",
                   help="each decision the AI took carries 'why': its choice and the best alternatives, scored")
    p.add_argument("--indent", type=_indent, default=None, metavar="N",
                   help=f"pretty-print with this indent (0-{MAX_INDENT})")
    p.set_defaults(func=run)


class _Unreadable(Exception):
    """The scenario's bytes cannot be had; the message says why."""


def read_scenario(name: str) -> bytes:
    """The bytes of a scenario file (``-``: standard input): a regular file or a stream of at
    most :data:`MAX_SCENARIO_BYTES`; :class:`_Unreadable` otherwise."""
    if name == "-":
        try:
            data = stdin().buffer.read(MAX_SCENARIO_BYTES + 1)
        except StreamError as exc:
            raise _Unreadable(str(exc)) from None
        except OSError as exc:
            raise _Unreadable(f"cannot read standard input: {exc.strerror or exc}") from None
    else:
        try:
            # O_NONBLOCK: a named pipe is opened without waiting for a writer, then refused
            fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except (OSError, ValueError) as exc:  # no such file, a loop of links, a NUL in the name...
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise _Unreadable(f"cannot read {name}: {reason}") from None
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # a directory, a device, a pipe (open() refuses a directory)
            os.close(fd)
            raise _Unreadable(f"{name}: not a regular file: expected a scenario's JSON file")
        with os.fdopen(fd, "rb") as fh:
            if st.st_size > MAX_SCENARIO_BYTES:
                raise _Unreadable(f"{name}: the file holds {st.st_size:,} bytes: a scenario has at most "
                                  f"{MAX_SCENARIO_BYTES:,}")
            try:
                data = fh.read(MAX_SCENARIO_BYTES + 1)
            except OSError as exc:
                raise _Unreadable(f"cannot read {name}: {exc.strerror or exc}") from None
    if len(data) > MAX_SCENARIO_BYTES:
        raise _Unreadable(f"{name}: more than {MAX_SCENARIO_BYTES:,} bytes: a scenario has at most "
                          f"{MAX_SCENARIO_BYTES:,}")
    return data


def parse_scenario(name: str, data: bytes) -> Any:
    """The JSON value of a scenario's bytes; :class:`_Unreadable` saying where it is not UTF-8 or not JSON."""
    from cardavia.compiler.errors import json_int

    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise _Unreadable(f"{name}: not UTF-8 text (line {line}, byte {exc.start + 1})") from None
    try:
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            raise
        except ValueError:  # an integer of more than 4,300 digits: an ignored key may hold one
            return json.loads(text, parse_int=json_int)
    except json.JSONDecodeError as exc:
        raise _Unreadable(f"{name}: not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise _Unreadable(f"{name}: the JSON nests too deeply") from None


def run(args: argparse.Namespace) -> int:
    from cardavia.compiler import EvaluationError
    from cardavia.runtime.replay import ScenarioError, replay

    try:
        obj = parse_scenario(args.scenario, read_scenario(args.scenario))
    except _Unreadable as exc:
        return fail(str(exc))
    players = [k.strip() for k in args.players.split(",")] if args.players is not None else None
    try:
        result = replay(obj, players, args.explain)
        text = json.dumps(result, indent=args.indent)
    except (ScenarioError, EvaluationError) as exc:  # a bad scenario, or a variant failing on it
        return fail(f"{args.scenario}: {exc}")
    except Exception as exc:  # an engine bug: still status 2, as every error of replay
        debug = getattr(args, "debug", False)
        if debug:
            traceback.print_exc(file=sys.stderr)
        return fail(f"{args.scenario}: {internal_error(exc, debug)}")
    write(text + "\n")
    return 0

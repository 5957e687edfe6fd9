"""``cardavia schema [-o FILE | --path]``: the JSON Schema of a variant file, as installed.

For editors: a copy of a variant file outside the repository cannot reach the schema by
the relative path the shipped files declare; ``-o`` puts a copy beside it, ``--path``
names the installed file. The text is the shipped file's, byte for byte.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cardavia.commands import fail, path_quoted, write


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "schema", help="print the JSON Schema of variant files",
        description="Print the JSON Schema that validates a variant file, write it to a file (for an editor, "
                    "beside a variant file of your own), or print the path of the installed file. "
                    "Exit status 2 on a write error.")
    where = p.add_mutually_exclusive_group()
    where.add_argument("-o", "--output", metavar="FILE", help="write the schema to FILE instead of standard output")
    where.add_argument("--path", action="store_true", help="print the path of the installed schema file")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardavia.compiler.loading.schema import SCHEMA_PATH

    if args.path:
        write(f"{SCHEMA_PATH.resolve()}\n")
        return 0
    text = SCHEMA_PATH.read_text(encoding="utf-8")
    if args.output == "":
        return fail("-o is empty: expected a file name (without -o, the schema goes to standard output)")
    if args.output is not None:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            return fail(f"cannot write {path_quoted(args.output)}: {reason}")
        return 0
    write(text)
    return 0

"""``cardavia rules``: a variant's rules page in one language, or the whole static site.

    cardavia rules VARIANT --lang TAG --format html|md|txt [-o FILE]
    cardavia rules --all --out DIR
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cardavia.commands import (
    OptionError,
    add_option_argument,
    chosen_options,
    fail,
    path_quoted,
    print_problems,
    visible,
    write,
)
from cardavia.compiler import VariantError, load_variant
from cardavia.compiler.errors import quoted


def register(sub: argparse._SubParsersAction) -> None:
    from cardavia.render.languages import tags
    from cardavia.render.pages import FORMATS

    p = sub.add_parser(
        "rules", help="render rules pages from the variant files",
        description="Render a variant's rules page (HTML, Markdown or text) in one language, or build the static "
                    "site: every variant in every language, a family page, an index per language. "
                    f"Languages: {', '.join(tags())}. Exit status 2 on bad input.")
    p.add_argument("variant", nargs="?", metavar="VARIANT", help="hk, mcr, sichuan, or a path to a YAML file")
    p.add_argument("--lang", default="en", metavar="TAG", help=f"language tag ({', '.join(tags())}); default en")
    p.add_argument("--format", default="html", choices=FORMATS, help="output format; default html")
    p.add_argument("-o", "--output", metavar="FILE", help="write the page to FILE instead of standard output")
    add_option_argument(p)
    p.add_argument("--all", action="store_true", help="build the whole static site (needs --out)")
    p.add_argument("--out", metavar="DIR", help="the site's directory, with --all")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardavia.render.languages import UnknownLanguage, language

    if args.output == "" or args.out == "":
        return fail(f"{'-o' if args.output == '' else '--out'} is empty: expected a "
                    f"{'file' if args.output == '' else 'directory'} name (without -o, the page goes to "
                    "standard output)")
    if args.all:
        if args.variant:
            return fail(f"--all builds every variant: give no variant ({quoted(args.variant)})")
        if args.output is not None:
            return fail(f"--all writes a directory: give --out DIR, not -o {path_quoted(args.output)}")
        if args.out is None:
            return fail("--all needs --out DIR, the directory to write the site to")
        return _site(Path(args.out))
    if not args.variant:
        return fail("give a variant (hk, mcr, sichuan or a .yaml path), or --all --out DIR")
    if args.out is not None:
        return fail(f"--out {path_quoted(args.out)} is for --all; use -o FILE for one page")
    try:
        lang = language(args.lang)
    except UnknownLanguage as exc:
        return fail(str(exc))
    try:
        variant = load_variant(args.variant, chosen_options(args.option))
    except OptionError as exc:
        return fail(str(exc))
    except VariantError as exc:
        print_problems(exc)
        return 2
    from cardavia.render.pages import render_game

    text = render_game(variant, lang, args.format)
    if args.output is not None:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except (OSError, ValueError) as exc:  # ValueError: a NUL in the name
            return fail(f"cannot write {path_quoted(args.output)}: {_reason(exc)}")
    else:
        write(text)
    return 0


def _reason(exc: Exception) -> str:
    return exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)


def _site(out: Path) -> int:
    from cardavia.render.site import build_site

    try:
        clash = out.exists() and not out.is_dir()
    except (OSError, ValueError) as exc:  # a NUL or a name too long
        return fail(f"cannot write the site to {path_quoted(out)}: {_reason(exc)}")
    if clash:
        return fail(f"{path_quoted(out)} exists and is not a directory: --out names the site's directory")
    try:
        written = build_site(out)
    except VariantError as exc:
        print_problems(exc)
        return 2
    except (OSError, ValueError) as exc:
        where = getattr(exc, "filename", None) or out  # the very file or folder in the way
        return fail(f"cannot write the site to {path_quoted(out)}: {path_quoted(where)}: {_reason(exc)}")
    write(f"wrote {len(written)} files to {visible(str(out))}\n")
    return 0

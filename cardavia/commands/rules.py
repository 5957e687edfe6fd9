"""``cardavia rules``: a variant's rules page in one language, or the whole static site.

    cardavia rules VARIANT --lang TAG --format html|md|txt [-o FILE]
    cardavia rules --all --out DIR
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from cardavia.commands import print_problems
from cardavia.compiler import VariantError, load_variant


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
    p.add_argument("--all", action="store_true", help="build the whole static site (needs --out)")
    p.add_argument("--out", metavar="DIR", help="the site's directory, with --all")
    p.set_defaults(func=run)


def _fail(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from cardavia.render.languages import UnknownLanguage, language

    if args.all:
        if args.variant or args.output:
            return _fail("--all builds every variant: give --out DIR, not a variant or -o")
        if not args.out:
            return _fail("--all needs --out DIR, the directory to write the site to")
        return _site(Path(args.out))
    if not args.variant:
        return _fail("give a variant (hk, mcr, sichuan or a .yaml path), or --all --out DIR")
    if args.out:
        return _fail("--out is for --all; use -o FILE for one page")
    try:
        lang = language(args.lang)
    except UnknownLanguage as exc:
        return _fail(str(exc))
    try:
        variant = load_variant(args.variant)
    except VariantError as exc:
        print_problems(exc)
        return 2
    from cardavia.render.pages import render_game

    text = render_game(variant, lang, args.format)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as exc:
            return _fail(f"cannot write {args.output}: {exc.strerror or exc}")
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    return 0


def _site(out: Path) -> int:
    from cardavia.render.site import build_site

    if out.exists() and not out.is_dir():
        return _fail(f"{out} exists and is not a directory")
    try:
        written = build_site(out)
    except VariantError as exc:
        print_problems(exc)
        return 2
    except OSError as exc:
        return _fail(f"cannot write the site to {out}: {exc.strerror or exc}")
    print(f"wrote {len(written)} files to {out}")
    return 0

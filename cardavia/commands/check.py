"""``cardavia check VARIANT|PATH... [--emit-scorer [SHAPE]]``: compile variants, print a
summary or every problem, or the Python generated to score them."""

from __future__ import annotations

import argparse

from cardavia.commands import fail, print_problems, visible, write
from cardavia.compiler import VariantError, load_variant
from cardavia.compiler.errors import quoted
from cardavia.compiler.variant import CompiledVariant


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="compile variants and summarise them",
                       description="Compile each variant (a shipped name or a YAML path) and print a summary, "
                                   "or every problem with its file:line:column. Exit status 1 on any error.")
    p.add_argument("variants", nargs="+", metavar="VARIANT", help="hk, mcr, sichuan, or a path to a YAML file")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="list every text of the rules pages that lacks a translation, not only how many")
    p.add_argument("--emit-scorer", nargs="?", const="", default=None, metavar="SHAPE",
                   help="print the Python generated to score each shape (or SHAPE only) instead of the summary")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    status = 0
    for i, name in enumerate(args.variants):
        if i:
            write("\n")
        try:
            variant = load_variant(name)
        except VariantError as exc:
            print_problems(exc)
            status = 1
            continue
        if args.emit_scorer is not None:
            status = max(status, _emit(variant, args.emit_scorer))
            continue
        # a title or name from the file is shown as text, whatever it holds (an escape sequence...)
        lines = variant.summary_lines() + _extra_lines(variant, getattr(args, "verbose", False))
        write("".join(f"{visible(line)}\n" for line in lines))
    return status


def _emit(variant: CompiledVariant, shape: str) -> int:
    """Print the generated scorer of ``shape`` (every shape when empty); 1 for an unknown shape."""
    shapes = [s.id for s in variant.scoring.shapes]
    if shape and shape not in shapes:
        return fail(f"{variant.path}: unknown shape {quoted(shape)}: expected one of {', '.join(shapes)}", 1)
    for i, sid in enumerate([shape] if shape else shapes):
        if i:
            write("\n")
        write(f"# ---- the scorer of shape {sid} ({visible(variant.path)}) ----\n\n")
        write(variant.scorer_source(sid))
    return 0


def _extra_lines(variant: CompiledVariant, verbose: bool = False) -> list[str]:
    """Lines other parts add to the summary (e.g. missing translations), if installed."""
    try:
        from cardavia.render.catalog import missing_translation_lines
    except ImportError:
        return []
    return missing_translation_lines(variant, verbose)

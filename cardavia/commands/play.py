"""``cardavia play VARIANT [--seed S] [--lang TAG] [--pace SECONDS] [--no-color] [--tiles text|unicode]
[--players K,K,K]``: play deals in the terminal against the computer players."""

from __future__ import annotations

import argparse
import sys

from cardavia.commands import OptionError, add_option_argument, chosen_options, fail, print_problems

#: Seconds after each of the other players' moves, unless --pace says otherwise.
DEFAULT_PACE = 0.4
#: The longest --pace (a longer pause is no game; an infinite one cannot be slept).
MAX_PACE = 10.0


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play", help="play in the terminal against the computer players",
        description="Play deals in seat 0 (the dealer of the first deal) against the computer players. Pick a "
                    "tile by its number and confirm to discard; answer a claim with its letter (w win, p pung, "
                    "k kong, c chow) or pass; ? shows hints on your hand (how far from ready, the best discards, "
                    "your waits and what each win is worth), b the board, r the rules; q quits.")
    p.add_argument("variant", metavar="VARIANT", help="hk, mcr, sichuan, or a path to a YAML file")
    p.add_argument("--seed", type=int, default=None, help="seed of the walls (default: a random one, printed)")
    p.add_argument("--lang", default="en", metavar="TAG",
                   help="language of the game: en, it, pt, ms, de, zh-Hans, zh-Hant (default en)")
    p.add_argument("--pace", type=float, default=DEFAULT_PACE, metavar="SECONDS",
                   help=f"pause after each of the other players' moves (default {DEFAULT_PACE}; 0: none; "
                        f"at most {MAX_PACE:g})")
    p.add_argument("--no-color", action="store_true", help="no colour (also when NO_COLOR is set)")
    add_option_argument(p)
    p.add_argument("--tiles", choices=("text", "unicode"), default="text",
                   help="tiles as codes such as 3m (default) or as Unicode mahjong tiles")
    p.add_argument("--players", metavar="K,K,K",
                   help="the other seats' players, in seat order: ai (the default), ai:easy, ai:strong, "
                        "baseline or random")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cardavia.compiler import EvaluationError, VariantError, load_variant
    from cardavia.compiler.errors import quoted
    from cardavia.render.languages import UnknownLanguage, language
    from cardavia.runtime.bots import KINDS
    from cardavia.runtime.screen import safe_streams
    from cardavia.runtime.terminal import play_session

    try:
        lang = language(args.lang).tag
        options = chosen_options(args.option)
    except (UnknownLanguage, OptionError) as exc:
        return fail(str(exc))
    if not 0 <= args.pace <= MAX_PACE:  # NaN fails both
        return fail(f"--pace must be 0 to {MAX_PACE:g} seconds")
    players = None
    if args.players is not None:
        players = [k.strip() for k in args.players.split(",")]
        unknown = [k for k in players if k not in KINDS]
        if unknown:
            return fail(f"--players: unknown kind {quoted(unknown[0])}: expected one of {', '.join(KINDS)}")
        try:
            others = load_variant(args.variant).table.players - 1
        except VariantError as exc:
            print_problems(exc)
            return 2
        if len(players) != others:
            return fail(f"--players names the {others} other seats, one kind each; got {len(players)}")
    if sys.stdout is None:  # started with its standard output closed: nowhere to play
        return fail("standard output is closed: the game has nowhere to show the table")
    safe_streams()
    inp = sys.stdin
    if inp is None:  # a closed standard input ends the game at its first question
        import io

        inp = io.StringIO("")
    try:
        return play_session(args.variant, args.seed, inp, sys.stdout, lang=lang,
                            color=False if args.no_color else None, tiles=args.tiles, pace=args.pace,
                            options=options, players=players)
    except VariantError as exc:
        print_problems(exc)
        return 2
    except EvaluationError as exc:  # an expression of the variant failed during the game
        return fail(str(exc))
    except OSError as exc:  # standard output closed or full while playing
        try:
            return fail(f"cannot write the game to standard output: {exc.strerror or exc}", status=1)
        except OSError:
            return 1

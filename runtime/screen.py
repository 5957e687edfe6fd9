"""The terminal game's screen: lines out through rich, answers in line by line.

The game reads lines from a text stream and writes to another, so it runs the same in a
terminal and in tests. This module owns what depends on the terminal:

* colour (suits, your last drawn tile, the last discard), off with ``NO_COLOR``, with
  ``--no-color`` and wherever the output is no terminal;
* tiles as codes (``3m``) or, with ``--tiles unicode``, as the Unicode mahjong tiles,
  where the output's encoding can show them (an ASCII terminal gets codes and plain text);
* the width: at most 80 columns;
* typeahead: before a question whose careless answer would cost a win, input typed
  ahead is thrown away (only where the input is a terminal);
* the pace of the other players' moves.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from cardavia.compiler.errors import shorten, visible
from cardavia.compiler.model.tiles import CODES, KINDS
from rich.console import Console
from rich.text import Text

#: The widest the game ever writes.
WIDTH = 80

#: Suit colours (characters red, dots blue, bamboo green, honors bold, flowers magenta).
SUIT_STYLES = ("red", "blue", "green", "bold", "magenta")
DRAWN_STYLE = "reverse"
NEWEST_DISCARD_STYLE = "bold underline"

#: The Unicode mahjong tiles by kind: characters, dots, bamboo, winds E S W N, dragons
#: white, green, red, flowers plum, orchid, chrysanthemum, bamboo, seasons.
GLYPHS = ("".join(chr(0x1F007 + i) for i in range(9)) + "".join(chr(0x1F019 + i) for i in range(9))
          + "".join(chr(0x1F010 + i) for i in range(9)) + "\U0001F000\U0001F001\U0001F002\U0001F003"
          + "\U0001F006\U0001F005\U0001F004" + "\U0001F022\U0001F023\U0001F025\U0001F024"
          + "\U0001F026\U0001F027\U0001F028\U0001F029")

#: A tile code standing alone in a sentence ("discards 5p.", "1z-4z winds"), not part of
#: a longer word or number ("[567p]", "seat 1 (S)", "wall 91").
TILE_CODE = re.compile(r"(?<![0-9A-Za-z])(?:[1-9][mps]|[1-7]z|[1-8]f)(?![0-9A-Za-z])")


class Quit(Exception):
    """The player asked to stop (or the input ended)."""


def _encodes(stream: TextIO, text: str) -> bool:
    """Whether ``stream`` can write ``text`` (a stream with no encoding writes str: yes)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:
        return True
    try:
        text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _discard_typeahead(stream: TextIO) -> None:
    """Throw away what was typed but not yet read, where ``stream`` is a terminal."""
    try:
        if not stream.isatty():
            return
        import termios

        termios.tcflush(stream.fileno(), termios.TCIFLUSH)
    except (ImportError, OSError, ValueError, AttributeError):
        pass  # not a terminal after all, or a system without termios: nothing to throw away


class Screen:
    """Where the game writes and reads. ``color``: None decides from the output and
    ``NO_COLOR``; ``tiles``: ``text`` or ``unicode``; ``pace``: seconds after each of
    the other players' moves; ``flush``: throws away typeahead (tests give their own)."""

    def __init__(self, inp: TextIO, out: TextIO, *, color: bool | None = None, tiles: str = "text",
                 pace: float = 0.0, flush: Callable[[TextIO], None] = _discard_typeahead) -> None:
        self.inp = inp
        self.out = out
        self.pace = max(0.0, pace)
        self.flush = flush
        terminal = bool(getattr(out, "isatty", lambda: False)())
        if color is None:
            color = terminal and not os.environ.get("NO_COLOR")
        self.color = bool(color)
        #: Whether the output can show more than ASCII (middle dots, Unicode tiles, other scripts).
        self.unicode = _encodes(out, "\u00b7\u2014" + GLYPHS)
        self.glyphs = tiles == "unicode" and self.unicode
        width = WIDTH
        if terminal:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                width = min(WIDTH, os.get_terminal_size(out.fileno()).columns or WIDTH)  # 0: size unknown
        self.console = Console(file=out, width=width, color_system="standard" if self.color else None,
                               no_color=not self.color, force_terminal=self.color, highlight=False, markup=False,
                               emoji=False, soft_wrap=False, legacy_windows=False)
        self.dot = " \u00b7 " if self.unicode else " - "

    # ------------------------------------------------------------ writing

    @property
    def width(self) -> int:
        """The columns a line may take."""
        return self.console.width

    def say(self, text: str | Text = "", *, tiles: bool = True) -> None:
        """One line (rich wraps it within the width). In a sentence (``str``) the tile codes
        are shown as tiles (:meth:`text`); ``tiles=False`` keeps codes the player types."""
        self.console.print(self.text(text, glyphs=tiles) if isinstance(text, str) else text, overflow="fold")
        self.out.flush()

    def text(self, line: str, glyphs: bool = True) -> Text:
        """A sentence with its tile codes shown as :meth:`tile` shows them: in their suit's
        colour, and as Unicode tiles with ``--tiles unicode`` (``glyphs=False``: as codes)."""
        if not self.color and not (glyphs and self.glyphs):
            return Text(line)
        out = Text()
        end = 0
        for match in TILE_CODE.finditer(line):
            out.append(line[end:match.start()])
            out.append_text(self.tile(KINDS[match.group()], glyph=glyphs))
            end = match.end()
        out.append(line[end:])
        return out

    def columns(self, items: Sequence[str], indent: str) -> list[str]:
        """``items`` joined by middle dots into lines that fit the width, each item whole."""
        lines: list[str] = []
        line = ""
        for item in items:
            joined = f"{line}{self.dot}{item}" if line else indent + item
            if line and Text(joined).cell_len > self.console.width:
                lines.append(line)
                joined = indent + item
            line = joined
        if line:
            lines.append(line)
        return lines

    def moved(self, text: str | Text) -> None:
        """Another player's move: the line, then the pace."""
        self.say(text)
        if self.pace:
            time.sleep(self.pace)

    def fill(self, line: str, piece: Text) -> Text:
        """A sentence made with ``\\0`` in the place of ``piece`` (tiles already shown as tiles)."""
        return piece.join(self.text(part) for part in line.split("\0"))

    def tile(self, kind: int, style: str = "", glyph: bool = True) -> Text:
        """A tile as a code or (``--tiles unicode`` and ``glyph``) a Unicode tile, in its
        suit's colour (plus ``style``)."""
        suit = 4 if kind >= 34 else min(kind // 9, 3)
        shown = GLYPHS[kind] if glyph and self.glyphs and kind < len(GLYPHS) else CODES[kind]
        return Text(shown, style=f"{SUIT_STYLES[suit]} {style}".strip() if self.color else "")

    def meld(self, kinds: Sequence[int], concealed: bool) -> Text:
        """A declared set: ``[567p]`` (``{5555p}`` concealed), or its Unicode tiles in the brackets."""
        out = Text("{" if concealed else "[")
        if self.glyphs:
            out.append_text(self.tiles(kinds))
        else:
            suit = 4 if kinds[0] >= 34 else min(kinds[0] // 9, 3)
            code = "".join(CODES[k][0] for k in kinds) + CODES[kinds[0]][1]
            out.append(code, style=SUIT_STYLES[suit] if self.color else "")
        out.append("}" if concealed else "]")
        return out

    def tiles(self, kinds: Sequence[int], styles: dict[int, str] | None = None) -> Text:
        """Tiles side by side (``styles``: an extra style by position)."""
        out = Text()
        for i, k in enumerate(kinds):
            if i:
                out.append(" ")
            out.append_text(self.tile(k, (styles or {}).get(i, "")))
        return out

    def numbered(self, kinds: Sequence[int], styles: dict[int, str] | None = None) -> list[Text]:
        """Two lines: the numbers 1..n above the tiles, each in a column of its own."""
        numbers = Text()
        row = Text()
        for i, k in enumerate(kinds):
            tile = self.tile(k, (styles or {}).get(i, ""))
            width = max(3, tile.cell_len + 1)
            numbers.append(str(i + 1).rjust(width))
            row.append(" " * (width - tile.cell_len))
            row.append_text(tile)
        return [numbers, row]

    # ------------------------------------------------------------ reading

    def ask(self, prompt: str, protect: bool = False) -> str:
        """The answer to ``prompt`` (stripped, control characters written out, a long one
        cut); ``protect``: throw away typeahead first. End of input, or q/quit/exit, raises
        :class:`Quit`."""
        if protect:
            self.flush(self.inp)
        self.console.print(self.text(prompt + " "), end="")
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            raise Quit()
        # as text, of bounded length: an answer not understood is shown again as typed
        answer = shorten(visible(line.strip()), 80)
        if answer.lower() in ("q", "quit", "exit"):
            raise Quit()
        return answer


def number(answer: str) -> int | None:
    """A tile number typed in any script's decimal digits ("12", "١٢"), or None: other
    characters that look like digits ("²") are no number, nor are more digits than any
    question counts to (int() refuses 4,300 of them)."""
    if answer.isdecimal() and len(answer) <= 6:
        return int(answer)
    return None


def safe_streams() -> None:
    """Make the standard streams write what they cannot encode as replacement characters
    (an ASCII terminal gets ``?`` for a Chinese word, not a crash)."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):
                reconfigure(errors="replace")

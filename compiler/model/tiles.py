"""Tile kinds as small integers, with their codes and properties.

One integer per tile kind keeps the hot paths (counting, decomposition) on plain
ints and lists; codes such as ``5m`` are parsed and printed only at the edges.

Layout (``kind``):  0-8 ``1m``-``9m``, 9-17 ``1p``-``9p``, 18-26 ``1s``-``9s``,
27-33 ``1z``-``7z`` (winds East..North, dragons White, Green, Red),
34-41 ``1f``-``8f`` (flowers 1-4, seasons 5-8).
"""

from __future__ import annotations

import re

from ..errors import quoted
from ..records import FrozenRecord

SUITS = ("m", "p", "s")
SUIT_LETTERS = "mpszf"
NUM_KINDS = 42
NUM_PLAYABLE = 34  # suited and honor kinds; bonus tiles are outside the hand

WIND_LETTERS = "ESWN"


class TileError(ValueError):
    """A tile code, tile list or hand that cannot be read."""


def kind_of(code: str) -> int:
    """The kind of a tile code such as ``'5m'``; raises :class:`TileError`."""
    kind = KINDS.get(code) if isinstance(code, str) else None
    if kind is not None:
        return kind
    if not isinstance(code, str) or len(code) != 2 or code[0] not in "0123456789":
        raise TileError(f"unknown tile {quoted(code)}: expected a digit and one of m, p, s, z, f (e.g. '5m')")
    rank, letter = int(code[0]), code[1]
    if letter in "mps" and 1 <= rank <= 9:
        return "mps".index(letter) * 9 + rank - 1
    if letter == "z" and 1 <= rank <= 7:
        return 27 + rank - 1
    if letter == "f" and 1 <= rank <= 8:
        return 34 + rank - 1
    raise TileError(f"unknown tile {quoted(code)}: suits m/p/s take 1-9, honors z 1-7, bonus tiles f 1-8")


def code_of(kind: int) -> str:
    if 0 <= kind < 27:
        return f"{kind % 9 + 1}{SUITS[kind // 9]}"
    if 27 <= kind < 34:
        return f"{kind - 26}z"
    if 34 <= kind < 42:
        return f"{kind - 33}f"
    raise TileError(f"no tile kind {kind}")


CODES: tuple[str, ...] = tuple(code_of(k) for k in range(NUM_KINDS))
#: Code -> kind, the fast path of :func:`kind_of` (input is parsed once per tile on every request).
KINDS: dict[str, int] = {code: k for k, code in enumerate(CODES)}


def suit_of(kind: int) -> str:
    """'m', 'p', 's', 'z' (honors) or 'f' (bonus)."""
    return "mpszf"[min(kind // 9, 3)] if kind < 34 else "f"


def rank_of(kind: int) -> int:
    """1-9 for suited tiles, 1-7 for honors, 1-8 for bonus tiles."""
    if kind < 27:
        return kind % 9 + 1
    if kind < 34:
        return kind - 26
    return kind - 33


def is_suited(kind: int) -> bool:
    return kind < 27


def is_honor(kind: int) -> bool:
    return 27 <= kind < 34


def is_wind(kind: int) -> bool:
    return 27 <= kind < 31


def is_dragon(kind: int) -> bool:
    return 31 <= kind < 34


def is_terminal(kind: int) -> bool:
    return kind < 27 and kind % 9 in (0, 8)


def is_bonus(kind: int) -> bool:
    return kind >= 34


def wind_kind(letter: str) -> int:
    """The kind of the wind tile for a seat/round letter E, S, W, N."""
    idx = WIND_LETTERS.find(letter) if isinstance(letter, str) and len(letter) == 1 else -1
    if idx < 0:
        raise TileError(f"unknown wind {quoted(letter)}: expected one of E, S, W, N")
    return 27 + idx


_RUN = re.compile(r"([1-9]+)([mpszf])")


def parse_tiles(text: str) -> list[int]:
    """Kinds from compact notation: ``'123m 55z'`` → [0, 1, 2, 31, 31].

    Whitespace is optional; every digit run must end in a suit letter.
    """
    kinds: list[int] = []
    pos = 0
    stripped = text.strip()
    while pos < len(stripped):
        if stripped[pos].isspace():
            pos += 1
            continue
        m = _RUN.match(stripped, pos)
        if not m:
            raise TileError(
                f"cannot read tiles at column {pos + 1} of {quoted(text, 100)}: expected digits followed by "
                "m, p, s, z or f"
            )
        for digit in m.group(1):
            kinds.append(kind_of(digit + m.group(2)))
        pos = m.end()
    return kinds


def format_tiles(kinds: list[int] | tuple[int, ...]) -> str:
    """Compact notation, runs grouped by suit in the given order: [0,1,2,31] → '123m5z'."""
    out: list[str] = []
    for k in kinds:
        code = CODES[k]
        if out and out[-1][-1] == code[1]:
            out[-1] = out[-1][:-1] + code[0] + code[1]
        else:
            out.append(code)
    return "".join(out)


# ---------------------------------------------------------------- tile sets

#: The groups a variant's tile set is built from, in id order.
TILE_GROUPS: dict[str, tuple[int, ...]] = {
    "characters": tuple(range(0, 9)),
    "dots": tuple(range(9, 18)),
    "bamboo": tuple(range(18, 27)),
    "winds": tuple(range(27, 31)),
    "dragons": tuple(range(31, 34)),
    "flowers": tuple(range(34, 38)),
    "seasons": tuple(range(38, 42)),
}
#: The groups that may keep some ranks only (``ranks:`` in a variant's ``tiles``).
SUIT_GROUPS = ("characters", "dots", "bamboo")


class TileSet(FrozenRecord):
    """The physical tiles of a variant: ``kinds[id]`` is the kind of physical tile ``id``."""

    kinds: tuple[int, ...]

    def __init__(self, kinds: tuple[int, ...]) -> None:
        vars(self).update(kinds=kinds)

    @classmethod
    def build(cls, groups: list[tuple[str, int]] | list[tuple[str, int, frozenset[int] | None]]) -> TileSet:
        """From (group name, copies[, ranks kept]) tuples, ids assigned group by group, copy by
        copy; a group with ranks keeps only its tiles of those ranks (``None``: all of them)."""
        kinds: list[int] = []
        for name, copies, *rest in groups:
            ranks = rest[0] if rest else None
            for kind in TILE_GROUPS[name]:
                if ranks is None or rank_of(kind) in ranks:
                    kinds.extend([kind] * copies)
        return cls(tuple(kinds))

    def __len__(self) -> int:
        return len(self.kinds)

    def copies(self, kind: int) -> int:
        return self.kinds.count(kind)

    @property
    def kinds_present(self) -> frozenset[int]:
        return frozenset(self.kinds)

    def has_bonus(self) -> bool:
        return any(k >= 34 for k in self.kinds)

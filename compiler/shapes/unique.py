"""One of each listed tile plus a pair (``kind: unique_plus_pair``), e.g. thirteen orphans.

The declaration lists the tiles (``tiles: 19m19p19s1234567z``); the hand holds each of
them, one of them twice, and nothing else, all concealed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

from ..model.hand import Hand
from ..model.tiles import TileError, parse_tiles
from .arrangements import NO_ARRANGEMENTS, Arrangement, Prepared, place_one, plain_groups
from .base import Problem, Shape, ShapeParts, StandardDraws, StandardShanten, plural
from .suits import kinds_in


class UniquePlusPair(Shape):
    """One each of ``tiles`` plus a second copy of one of them."""

    kind = "unique_plus_pair"
    KEYS = ("tiles",)
    reads_held = True

    @classmethod
    def read_tiles(cls, raw: Mapping[str, Any], problem: Problem) -> tuple[int, ...]:
        if "tiles" not in raw:
            problem((), "a unique_plus_pair shape lists its tiles, e.g. tiles: 19m19p19s1234567z", False)
            return ()
        tiles: tuple[int, ...] = ()
        try:
            tiles = tuple(parse_tiles(raw["tiles"]))
        except TileError as exc:
            problem(("tiles",), str(exc), False)
        if len(set(tiles)) != len(tiles):
            problem(("tiles",), "each tile of a unique_plus_pair shape is listed once", False)
        return tiles

    @property
    def size(self) -> int:
        return len(self.tiles) + 1

    def describe(self) -> str:
        return f"one each of {plural(len(self.tiles), 'listed tile')} and a pair"

    @cached_property
    def mask(self) -> int:
        """The listed kinds as a mask (bit k for kind k)."""
        got = 0
        for k in self.tiles:
            got |= 1 << k
        return got

    def arrange(self, hand: Hand, prep: Prepared) -> list[Arrangement]:
        if hand.melds or prep._concealed_mask != self.mask:  # every listed kind, no other
            return NO_ARRANGEMENTS
        counts = prep._concealed_counts
        if 3 in counts or 4 in counts or sum(counts) != len(self.tiles) + 1:  # so exactly one held twice
            return NO_ARRANGEMENTS
        pairs = plain_groups("pair")
        singles = plain_groups("single")
        raw = [pairs[k] if counts[k] == 2 else singles[k] for k in sorted(self.tiles)]
        win = hand.win_tile
        return place_one(self, raw, pairs[win] if counts[win] == 2 else singles[win], hand, "none")

    def bounds(self) -> tuple[int, int, int]:
        return 0, len(self.tiles), len(self.tiles)

    def completes(self, counts: Sequence[int], melds: int) -> bool:
        wanted = set(self.tiles)
        return not melds and sum(counts) == len(wanted) + 1 and all(
            (counts[k] >= 1 if k in wanted else counts[k] == 0) for k in range(34))

    def wait_bounds(self) -> tuple[int, int, int]:
        return 0, len(self.tiles) - 1, len(self.tiles)  # held: each kind once, or one twice and one missing

    def wait_mask(self, held: Sequence[int], melds: int, held_mask: int, held_size: int,
                  keys: Sequence[int]) -> int:
        wanted = self.mask
        if melds or held_size != wanted.bit_count() or held_mask & ~wanted:
            return 0
        doubles = 0
        for k in kinds_in(held_mask):
            if held[k] > 2:
                return 0
            if held[k] == 2:
                doubles += 1
        if not doubles:
            return wanted
        missing = wanted & ~held_mask
        return missing if doubles == 1 and missing.bit_count() == 1 else 0

    def shanten(self, counts: Sequence[int], melds: int, standard: StandardShanten) -> int | None:
        if melds:
            return None
        held = [counts[k] for k in self.tiles]
        present = len(held) - held.count(0)
        pair = 1 if max(held, default=0) >= 2 else 0
        return len(self.tiles) - present - pair

    def discard_shanten(self, counts: Sequence[int], kinds: Sequence[int], melds: int,
                        standard: StandardShanten) -> list[int] | None:
        if melds:
            return None
        # After a discard, the shanten depends only on whether the kind is listed, its count,
        # and whether it is the one held twice.
        tiles = frozenset(self.tiles)
        size = len(self.tiles)
        present = sum(1 for t in self.tiles if counts[t])
        doubled = [t for t in self.tiles if counts[t] >= 2]
        doubles = len(doubled)
        first = doubled[0] if doubled else -1
        outside = size - present - (1 if doubled else 0)
        out = []
        for k in kinds:
            if k in tiles:
                c = counts[k]
                out.append(size - (present - (c == 1))
                           - (1 if doubles > 1 or (doubles == 1 and (first != k or c > 2)) else 0))
            else:
                out.append(outside)
        return out

    def draw_shanten(self, counts: Sequence[int], melds: int, standard: StandardShanten,
                     draws: StandardDraws) -> list[int] | None:
        # Only a listed kind helps: a first copy, or a second while no kind is held twice.
        now = self.shanten(counts, melds, standard)
        if now is None:
            return None
        paired = any(counts[k] >= 2 for k in self.tiles)
        out = [now if c < 4 else 99 for c in counts[:34]]
        for k in self.tiles:
            c = counts[k]
            if c == 0 or (c == 1 and not paired):
                out[k] = now - 1
        return out

    def parts(self) -> ShapeParts:
        return ShapeParts(pairs=1, tiles=self.tiles)

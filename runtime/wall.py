"""The wall: physical tile ids in draw order, from a seed or from a list of codes.

Physical ids are those of the variant's :class:`~compiler.model.tiles.TileSet` (``kinds[id]``
is the kind of tile ``id``). A wall given as codes assigns, for each code, the ids of
that kind in increasing order as the code appears, so a scenario fully fixes the ids.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING

from cardavia.compiler.errors import quoted
from cardavia.compiler.model.tiles import CODES, TileError, TileSet, kind_of

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant


class WallError(ValueError):
    """A wall that is not exactly the variant's tile set."""


def shuffled_wall(tiles: TileSet, seed: int) -> list[int]:
    """Every physical id, shuffled by ``random.Random(seed)`` (stable across Python versions)."""
    ids = list(range(len(tiles)))
    random.Random(seed).shuffle(ids)
    return ids


def wall_from_codes(tiles: TileSet, codes: Sequence[object]) -> list[int]:
    """Ids for a wall written as codes; raises :class:`WallError` saying what is wrong."""
    if not isinstance(codes, (list, tuple)):
        raise WallError("'wall' must be a list of tile codes")
    free: dict[int, list[int]] = {}
    for tid in range(len(tiles) - 1, -1, -1):
        free.setdefault(tiles.kinds[tid], []).append(tid)
    ids: list[int] = []
    for pos, code in enumerate(codes):
        try:
            kind = kind_of(code)
        except TileError as exc:
            raise WallError(f"wall[{pos}]: {exc}") from None
        stack = free.get(kind)
        if stack is None:
            raise WallError(f"wall[{pos}]: {code} is not part of this variant's tile set")
        if not stack:
            raise WallError(f"wall[{pos}]: one {code} too many (the variant has {tiles.copies(kind)})")
        ids.append(stack.pop())
    missing = [CODES[k] for k, stack in free.items() for _ in stack]
    if missing:
        raise WallError(f"the wall has {len(ids)} tiles but the variant has {len(tiles)}; "
                        f"missing: {' '.join(sorted(missing, key=kind_of))}")
    return ids


def check_wall_ids(tiles: TileSet, ids: Sequence[object]) -> list[int]:
    """A wall given as ids must be a permutation of the variant's ids."""
    if not isinstance(ids, (list, tuple)):
        raise WallError("'wall_ids' must be a list of tile ids")
    checked: list[int] = []
    for pos, tid in enumerate(ids):
        if type(tid) is not int:  # not 3.0, not true
            raise WallError(f"wall_ids[{pos}]: {quoted(tid)} is not a tile id: expected a whole number "
                            f"0-{len(tiles) - 1}")
        checked.append(tid)
    if sorted(checked) != list(range(len(tiles))):
        raise WallError(f"a wall of ids must hold each of 0..{len(tiles) - 1} exactly once")
    return checked


def build_wall(variant: CompiledVariant, hands: dict[int, str] | None = None, *, dealer: int = 0,
               dealer_draw: str | None = None, draws: str | Sequence[str | None] = "", tail: str = "",
               fill_seed: int | None = 0) -> list[str]:
    """A full wall (codes) of a compiled variant, with chosen tiles in place and the rest
    filled in; for tests and examples.

    ``hands[seat]`` are the tiles dealt to a seat (compact notation; at most the table's
    ``other_tiles``, the deal's order and numbers being the variant's); ``dealer_draw`` the
    dealer's extra tile; ``draws`` the tiles drawn from the front after the deal, in order
    (compact notation, or a list of codes where ``None`` leaves a slot to the filling);
    ``tail`` the tiles taken from the end, first replacement first. Unplaced tiles fill the
    gaps, shuffled by ``fill_seed`` (``None``: in code order) after the seats' hands.
    """
    from cardavia.compiler.model.tiles import parse_tiles

    tiles = variant.tiles
    players = variant.table.players
    hand_size = variant.table.other_tiles
    pool: list[int] = sorted(tiles.kinds)
    def take(kind: int) -> int:
        try:
            pool.remove(kind)
        except ValueError:
            raise WallError(f"no {CODES[kind]} left to place") from None
        return kind

    n = len(tiles)
    slots: list[int | None] = [None] * n
    for seat, text in (hands or {}).items():
        kinds = parse_tiles(text)
        if len(kinds) > hand_size:
            raise WallError(f"seat {seat}: a dealt hand has {hand_size} tiles, got {len(kinds)}")
        order = (seat - dealer) % players
        for i, k in enumerate(kinds):
            slots[order * hand_size + i] = take(k)
    pos = players * hand_size
    if dealer_draw:
        slots[pos] = take(parse_tiles(dealer_draw)[0])
    drawn = parse_tiles(draws) if isinstance(draws, str) else [None if c is None else kind_of(c) for c in draws]
    for i, d in enumerate(drawn):
        if d is not None:
            slots[pos + 1 + i] = take(d)
    for i, k in enumerate(parse_tiles(tail)):
        slots[n - 1 - i] = take(k)
    if fill_seed is not None:
        random.Random(fill_seed).shuffle(pool)
    # Bonus tiles go to the middle of the free slots, away from the deal, the first draws
    # and the replacement end, so that unplaced flowers do not move the placed tiles.
    free = [i for i, s in enumerate(slots) if s is None]
    bonus = [k for k in pool if k >= 34]
    plain: Iterator[int] = iter(k for k in pool if k < 34)
    start = max(0, len(free) // 2 - len(bonus) // 2)
    for j, k in enumerate(bonus):
        slots[free[start + j]] = k
    out = [s if s is not None else next(plain) for s in slots]
    return [CODES[k] for k in out]

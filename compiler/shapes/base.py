"""The shape-kind protocol: what the engine asks of every kind of winning shape.

A variant declares its winning shapes under ``scoring.shapes``, each of a *kind*; each kind
is one subclass of :class:`Shape`, registered in compiler/shapes/kinds.py, and a declared
shape is an instance of it (its fields are the declaration's keys). The engine asks:

* declaring, at compile time: :meth:`Shape.declare` reads a declaration and reports what is
  wrong with it at its place in the file, the number of tiles (:attr:`Shape.size`) against
  the variant's hand size included;
* recognising: :meth:`Shape.arrange` gives its arrangements of a winning hand,
  :meth:`Shape.bounds` the declared sets and kinds outside which it finds none (the scorer
  tests those instead of calling it), :meth:`Shape.completes` whether counts win as it;
* waits: :meth:`Shape.wait_mask`, the kinds completing held tiles into it, worked out from
  its definition (:meth:`Shape.wait_bounds` tested first); compiler/shapes/waits.py is the one
  place that asks every shape, for the scorer, the runtime and the bots alike;
* shanten, for the runtime's hand analysis and bots: :meth:`Shape.shanten`,
  :meth:`Shape.discard_shanten` and :meth:`Shape.draw_shanten`, with :attr:`Shape.standard_sets` naming a shape of sets
  and a pair only (the runtime counts those straight from its suit tables);
* the rules page: :meth:`Shape.parts`, what the shape is made of (cardavia/render words it).

A new kind is one subclass answering these, plus its line in compiler/shapes/kinds.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from ..records import FrozenRecord

if TYPE_CHECKING:  # pragma: no cover
    from ..model.hand import Hand
    from .arrangements import Arrangement, Prepared

#: Reports a problem of a declaration: (the keys below the declaration, () for itself; the
#: message; whether it is about the key itself rather than its value).
Problem = Callable[[tuple[Any, ...], str, bool], None]
#: The runtime's standard shanten: (34 counts, sets) -> tiles away from sets and a pair.
StandardShanten = Callable[[Sequence[int], int], int]

#: The runtime's standard shanten after drawing each kind: (34 counts, sets) -> 34 values
#: (99 for a kind held four times).
StandardDraws = Callable[[Sequence[int], int], list[int]]

#: The keys every declaration may have, whatever its kind.
COMMON_KEYS = ("id", "kind", "name")


class ShapeParts(FrozenRecord):
    """What a shape is made of, as a rules page says it (cardavia/render/prose.py words it)."""

    sets: int  # sets (chows, pungs, kongs), those beside a knitted straight
    pairs: int
    singles: int  # different single tiles, no pair
    knitted: bool  # a knitted straight: whole beside the sets, or among the singles
    tiles: tuple[int, ...]  # one each of these tiles (and a second copy of one: pairs == 1)
    quads_as_two_pairs: bool
    max_melds: int  # the sets that may be declared, where the shape limits them

    def __init__(self, sets: int = 0, pairs: int = 0, singles: int = 0, knitted: bool = False,
                 tiles: tuple[int, ...] = (), quads_as_two_pairs: bool = False, max_melds: int = 0) -> None:
        vars(self).update(sets=sets, pairs=pairs, singles=singles, knitted=knitted, tiles=tiles,
                          quads_as_two_pairs=quads_as_two_pairs, max_melds=max_melds)


class Shape(FrozenRecord):
    """A declared winning shape; its class is its kind (see the module docstring)."""

    #: The kind's name, as ``kind:`` gives it in a variant file.
    kind: ClassVar[str] = ""
    #: The declaration keys the kind reads, beside those of :data:`COMMON_KEYS`.
    KEYS: ClassVar[tuple[str, ...]] = ()
    #: ``max_melds`` when the declaration does not give it.
    DEFAULT_MAX_MELDS: ClassVar[int] = 0
    #: Whether :meth:`wait_mask` reads the held counts (else only the suit keys, the kinds
    #: held and their number): the counts are then made without the winning tile for it.
    reads_held: ClassVar[bool] = False

    id: str
    sets: int
    quads_as_two_pairs: bool
    tiles: tuple[int, ...]
    max_melds: int

    def __init__(self, id: str, sets: int = 0, quads_as_two_pairs: bool = False, tiles: tuple[int, ...] = (),
                 max_melds: int = 0) -> None:
        vars(self).update(id=id, sets=sets, quads_as_two_pairs=quads_as_two_pairs, tiles=tiles,
                          max_melds=max_melds)

    # ------------------------------------------------------------ declaring

    @classmethod
    def declare(cls, raw: Mapping[str, Any], dealt: int | None, problem: Problem) -> Shape:
        """The shape a declaration describes. ``dealt``: the tiles a hand holds before its
        winning tile (``table.other_tiles``), or None when the table is unknown; every
        problem goes to ``problem``, and a shape is made all the same (with what could be
        read) so that later stages can check what refers to it."""
        for key in raw:
            if key not in COMMON_KEYS and key not in cls.KEYS:
                allowed = " and ".join(cls.KEYS) if cls.KEYS else "nothing beside id, kind and name"
                problem((key,), f"{key!r} does not apply to a {cls.kind} shape: expected {allowed}", True)
        sets = raw.get("sets")
        if sets is None:
            sets = cls.default_sets(dealt + 1) if dealt is not None else 0
        shape = cls(raw["id"], sets, bool(raw.get("quads_as_two_pairs", False)), cls.read_tiles(raw, problem),
                    raw.get("max_melds", cls.DEFAULT_MAX_MELDS))
        if dealt is not None and shape.size != dealt + 1:
            problem(("sets",) if "sets" in raw else (),
                    f"shape {shape.id!r} takes {shape.size} tiles ({shape.describe()}), but a hand holds "
                    f"{dealt + 1} ({dealt} dealt, as table.other_tiles says, plus the winning tile): "
                    f"expected a shape of {dealt + 1} tiles", False)
        return shape

    @classmethod
    def default_sets(cls, hand_size: int) -> int:
        """``sets`` when the declaration does not give it, for hands of ``hand_size`` tiles."""
        return 0

    @classmethod
    def read_tiles(cls, raw: Mapping[str, Any], problem: Problem) -> tuple[int, ...]:
        """The tiles a declaration lists, for the kinds that read them."""
        return ()

    @property
    def size(self) -> int:
        """The tiles of a hand of this shape, winning tile included, a declared set counted three."""
        raise NotImplementedError

    def describe(self) -> str:
        """What the shape holds, in a few words, for messages ("4 sets and a pair")."""
        raise NotImplementedError

    # ----------------------------------------------------------- recognising

    def arrange(self, hand: Hand, prep: Prepared) -> list[Arrangement]:
        """Every arrangement of ``hand`` as this shape (empty: it does not win so). ``prep``
        holds the counts and keys of the concealed tiles (compiler/shapes/arrangements.py)."""
        raise NotImplementedError

    def bounds(self) -> tuple[int, int, int]:
        """(most declared sets, fewest and most kinds among the concealed tiles, winning tile
        included) with which :meth:`arrange` can find an arrangement: necessary conditions
        its own first tests include, which a caller checks before the call."""
        return 1 << 30, 0, 34

    def completes(self, counts: Sequence[int], melds: int) -> bool:
        """Whether concealed ``counts`` (34 kinds, winning tile included) win as this shape
        with ``melds`` declared sets."""
        raise NotImplementedError

    # ----------------------------------------------------------------- waits

    def wait_bounds(self) -> tuple[int, int, int]:
        """(most declared sets, fewest and most kinds held) with which the shape can have a
        wait: tests :meth:`wait_mask` would make first, checked before the call."""
        return 1 << 30, 0, 34

    def wait_mask(self, held: Sequence[int], melds: int, held_mask: int, held_size: int,
                  keys: Sequence[int]) -> int:
        """The kinds (bit k for kind k) that complete the held tiles into this shape, copies
        not limited. ``held``: the held counts (34 or more entries, only read; exact only
        where :attr:`reads_held`); ``held_mask``: the kinds held; ``held_size``: their number;
        ``keys``: their suit keys (compiler/shapes/suits.py)."""
        raise NotImplementedError

    # --------------------------------------------------------------- shanten

    @property
    def standard_sets(self) -> int | None:
        """The number of sets when the shape is sets and a pair and nothing else (the runtime
        counts its shanten from its suit tables), else None."""
        return None

    def shanten(self, counts: Sequence[int], melds: int, standard: StandardShanten) -> int | None:
        """Tiles away from ready (0 ready, -1 complete) of 34 concealed ``counts`` with
        ``melds`` declared sets, or None where the shape cannot be made with that many
        declared sets. ``standard``: the runtime's standard shanten, for shapes built on it."""
        return None

    def discard_shanten(self, counts: Sequence[int], kinds: Sequence[int], melds: int,
                        standard: StandardShanten) -> list[int] | None:
        """The shanten after discarding one tile of each of ``kinds`` (held) from 34 counts
        with ``melds`` declared sets, in order; None where :meth:`shanten` is None or
        the shape is sets and a pair (the runtime reads those from its tables)."""
        return None

    def draw_shanten(self, counts: Sequence[int], melds: int, standard: StandardShanten,
                     draws: StandardDraws) -> list[int] | None:
        """The shanten after drawing one tile of each of the 34 kinds (99 for a kind held
        four times) into 34 counts with ``melds`` declared sets; None where :meth:`shanten`
        is None or the shape is sets and a pair. ``draws``: the runtime's standard shanten
        after each draw, for shapes built on it."""
        return None

    # ------------------------------------------------------------ rules page

    def parts(self) -> ShapeParts:
        """What the shape is made of, for the rules page."""
        raise NotImplementedError


def plural(n: int, word: str) -> str:
    """``n`` and ``word``, with an s unless n is 1 (for messages)."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"

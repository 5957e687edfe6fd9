"""Actions a seat may take, the decisions the runtime asks for, and their JSON form.

An :class:`Action` names tile kinds (codes at the edges); a discard may also name the
physical tile (``id``). The runtime lists the legal options of each :class:`Decision`;
a controller answers with one of them and the runtime checks it (never trusting it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardavia.compiler.errors import quoted
from cardavia.compiler.model.tiles import CODES, TileError, kind_of

DOS = ("discard", "chow", "pung", "kong", "win", "pass", "missing_suit", "exchange")
SUIT_LETTERS = ("m", "p", "s")


class IllegalAction(ValueError):
    """An action that does not answer the decision asked or breaks a rule; the state is unchanged."""


class ActionError(ValueError):
    """An action object that cannot be read (bad JSON shape, unknown tile...)."""


@dataclass(slots=True, frozen=True)
class Action:
    do: str
    tile: int | None = None
    tiles: tuple[int, ...] = ()
    suit: str | None = None
    id: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"do": self.do}
        if self.tile is not None:
            out["tile"] = CODES[self.tile]
        if self.tiles:
            out["tiles"] = [CODES[k] for k in self.tiles]
        if self.suit is not None:
            out["suit"] = self.suit
        if self.id is not None:
            out["id"] = self.id
        return out

    def label(self) -> str:
        if self.do == "discard":
            return f"discard {CODES[self.tile]}" if self.tile is not None else "discard"
        if self.do == "chow":
            return "chow with " + " ".join(CODES[k] for k in self.tiles)
        if self.do == "kong" and self.tile is not None:
            return f"kong {CODES[self.tile]}"
        if self.do == "missing_suit":
            return f"missing suit {self.suit}"
        if self.do == "exchange":
            return "pass on " + " ".join(CODES[k] for k in self.tiles)
        return self.do

    @classmethod
    def from_json(cls, obj: Any) -> Action:
        """Read ``{"do": ..., "tile"/"tiles"/"suit"/"id": ...}``; raises :class:`ActionError`."""
        if not isinstance(obj, dict):
            raise ActionError("expected an object with 'do'")
        do = obj.get("do")
        if do not in DOS:
            raise ActionError(f"'do' is {quoted(do)}: expected one of {', '.join(DOS)}")
        tile = tiles = suit = tid = None
        try:
            if obj.get("tile") is not None:
                tile = kind_of(obj["tile"])
            if obj.get("tiles") is not None:
                if not isinstance(obj["tiles"], list):
                    raise ActionError("'tiles' must be a list of two tile codes" if do == "chow" else
                                      "'tiles' must be a list of tile codes" if do == "exchange" else
                                      f"'tiles' is for a chow: a {do} names at most one 'tile'")
                tiles = tuple(sorted(kind_of(t) for t in obj["tiles"]))
        except TileError as exc:
            raise ActionError(str(exc)) from None
        if do == "discard" and tile is None:
            raise ActionError("a discard names its 'tile', e.g. {\"do\": \"discard\", \"tile\": \"5m\"}")
        if do == "chow" and (tiles is None or len(tiles) != 2):
            raise ActionError("a chow names the two 'tiles' from hand, e.g. [\"4m\", \"6m\"]")
        if do == "exchange" and not tiles:
            raise ActionError("an exchange names the 'tiles' passed on, e.g. [\"1m\", \"2m\", \"9m\"]")
        if do == "missing_suit":
            suit = obj.get("suit")
            if suit not in SUIT_LETTERS:
                raise ActionError(f"'suit' is {quoted(suit)}: expected m, p or s")
        if obj.get("id") is not None:
            tid = obj["id"]
            if not isinstance(tid, int) or isinstance(tid, bool) or tid < 0:
                raise ActionError(f"'id' is {quoted(tid)}: expected a physical tile id")
        return cls(do, tile, tiles or (), suit, tid)


# Not frozen: the deal makes one or more per turn, and a frozen __init__ (object.__setattr__
# per field) is measurably slower there; nothing assigns its fields after construction.
@dataclass(slots=True)
class Decision:
    """What the runtime asks one seat, with every legal answer."""

    seat: int
    kind: str  # "missing_suit", "turn", "claim", "rob"
    options: list[Action]
    tile: int | None = None  # the discard, or the tile added to a kong
    from_seat: int | None = None
    drawn: int | None = None  # physical id of the tile just drawn (turn)
    extra: dict[str, Any] = field(default_factory=dict)

    def describe(self) -> str:
        opts = ", ".join(dict.fromkeys(o.label() for o in self.options))
        if self.kind == "turn":
            what = "its turn"
        elif self.kind in ("claim", "rob"):
            assert self.tile is not None  # a claim or rob decision names its tile
            if self.kind == "claim":
                what = f"the discard of {CODES[self.tile]} by seat {self.from_seat}"
            else:
                what = f"the kong of {CODES[self.tile]} added by seat {self.from_seat}"
        elif self.kind == "exchange":
            what = "the tiles to pass on"
            opts = f"{len(self.options)} sets of tiles, e.g. {self.options[0].label()}" if self.options else "none"
        else:
            what = "the choice of a missing suit"
        return f"seat {self.seat} is asked about {what} (options: {opts})"

    def find(self, action: Action) -> Action | None:
        """The option ``action`` stands for, or None; ``tile`` may be left out when unambiguous."""
        candidates = []
        for opt in self.options:
            if opt.do != action.do:
                continue
            if action.do in ("chow", "exchange") and opt.tiles != action.tiles:
                continue
            if action.do == "missing_suit" and opt.suit != action.suit:
                continue
            if action.tile is not None and opt.tile is not None and action.tile != opt.tile:
                continue
            candidates.append(opt)
        if len(candidates) == 1:
            return candidates[0]
        return None

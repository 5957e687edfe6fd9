"""Test support: MCR hands for PyMahjongGB (the reference calculator) and random winning hands.

Not a test module. ``reference_result`` converts a scoring request (docs/interfaces.md) into a
PyMahjongGB call the way docs/mcr-reference-behaviour.md describes (exposed
chows and pungs with offer 1, a concealed kong with offer 0; J1 red, J2 green, J3 white)
and converts the answer back to ``{"valid", "total", "fans"}`` with our ids.
``random_winning_hand`` builds a winning request from a ``random.Random``: four sets and a
pair (some declared) or a special shape, with flags kept consistent with the corpus
conventions.
"""

from __future__ import annotations

import random
import re
from typing import Any

_SUIT = {"m": "W", "p": "B", "s": "T"}
_HONOR = {"1z": "F1", "2z": "F2", "3z": "F3", "4z": "F4", "5z": "J3", "6z": "J2", "7z": "J1"}
_WINDS = "ESWN"


def _gb_tile(code: str) -> str:
    return _HONOR[code] if code[1] == "z" else _SUIT[code[1]] + code[0]


def _fan_id(english: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", english.lower()).strip("_")


def reference_result(request: dict[str, Any]) -> dict[str, Any]:
    """PyMahjongGB's answer for ``request``: our output form, or ``{"error": CODE}``."""
    from MahjongGB import MahjongFanCalculator

    packs = []
    for meld in request.get("melds", []):
        tiles = sorted(meld["tiles"], key=lambda c: (c[1], c[0]))
        if meld["type"] == "chow":
            packs.append(("CHI", _gb_tile(tiles[1]), 1))
        elif meld["type"] == "pung":
            packs.append(("PENG", _gb_tile(tiles[0]), 1))
        else:
            packs.append(("GANG", _gb_tile(tiles[0]), 0 if meld.get("concealed") else 1))
    try:
        fans = MahjongFanCalculator(
            tuple(packs), tuple(_gb_tile(t) for t in request["hand"]), _gb_tile(request["win_tile"]),
            len(request.get("flowers", [])), bool(request.get("self_drawn")),
            bool(request.get("last_tile_of_kind")),
            bool(request.get("kong_replacement") or request.get("robbing_kong")),
            bool(request.get("last_wall_tile")), _WINDS.index(request.get("seat_wind", "E")),
            _WINDS.index(request.get("round_wind", "E")), True)
    except TypeError as exc:
        return {"error": str(exc)}
    out = [{"id": _fan_id(english), "value": value, "count": count} for value, count, _, english in fans]
    total = sum(f["value"] * f["count"] for f in out)
    before_flowers = sum(f["value"] * f["count"] for f in out if f["id"] != "flower_tiles")
    return {"valid": before_flowers >= 8, "total": total, "fans": out}


# ------------------------------------------------------------------ random hands

def _code(kind: int) -> str:
    return f"{kind % 9 + 1}{'mps'[kind // 9]}" if kind < 27 else f"{kind - 26}z"


def random_winning_hand(rng: random.Random) -> dict[str, Any] | None:
    """A random winning request (None when the draw used a tile more than four times)."""
    counts = [0] * 34
    sets: list[tuple[str, int]] = []
    for _ in range(4):
        r = rng.random()
        if r < 0.45:
            suit = rng.randrange(3)
            first = suit * 9 + rng.randrange(7)
            sets.append(("chow", first))
            for k in (first, first + 1, first + 2):
                counts[k] += 1
        else:
            kind = rng.randrange(34)
            kong = r > 0.85
            sets.append(("kong" if kong else "pung", kind))
            counts[kind] += 4 if kong else 3
    pair = rng.randrange(34)
    counts[pair] += 2
    if max(counts) > 4:
        return None
    melds = []
    concealed: list[int] = []
    for kind, first in sets:
        if kind == "kong" or rng.random() < 0.35:
            tiles = [first, first + 1, first + 2] if kind == "chow" else [first] * (4 if kind == "kong" else 3)
            meld = {"type": kind, "tiles": [_code(k) for k in tiles]}
            if kind == "kong":
                meld["concealed"] = rng.random() < 0.5
            melds.append(meld)
        else:
            concealed += [first, first + 1, first + 2] if kind == "chow" else [first] * 3
    concealed += [pair, pair]
    win = concealed.pop(rng.randrange(len(concealed)))
    return _with_flags(rng, [_code(k) for k in concealed], melds, _code(win))


def _with_flags(rng: random.Random, hand: list[str], melds: list[dict[str, Any]], win: str) -> dict[str, Any]:
    self_drawn = rng.random() < 0.4
    meld_tiles = [t for m in melds for t in m["tiles"]]
    in_hand = hand.count(win)
    request: dict[str, Any] = {
        "hand": hand, "melds": melds, "win_tile": win,
        "flowers": [f"{n}f" for n in rng.sample(range(1, 9), rng.randrange(3))],
        "self_drawn": self_drawn, "seat_wind": rng.choice(_WINDS), "round_wind": rng.choice(_WINDS),
    }
    if meld_tiles.count(win) == 3 or (in_hand == 0 and rng.random() < 0.1):
        request["last_tile_of_kind"] = in_hand == 0
    has_kong = any(m["type"] == "kong" for m in melds)
    r = rng.random()
    if self_drawn and has_kong and r < 0.15:
        request["kong_replacement"] = True
    elif not self_drawn and in_hand == 0 and win not in meld_tiles and r < 0.1:
        request["robbing_kong"] = True
    elif r > 0.93:
        request["last_wall_tile"] = True
    return request


def random_special_hand(rng: random.Random) -> dict[str, Any]:
    """Seven pairs, thirteen orphans or a knitted shape, as a winning request."""
    kind = rng.randrange(4)
    if kind == 0:  # seven pairs (possibly with four of a kind)
        while True:
            kinds = [rng.randrange(34) for _ in range(7)]
            if all(kinds.count(k) <= 2 for k in kinds):
                break
        tiles = [k for k in kinds for _ in range(2)]
    elif kind == 1:  # thirteen orphans
        orphans = [0, 8, 9, 17, 18, 26] + list(range(27, 34))
        tiles = orphans + [rng.choice(orphans)]
    else:
        perm = rng.sample(range(3), 3)
        knitted = [perm[o] * 9 + o + 3 * j for o in range(3) for j in range(3)]
        if kind == 2:  # honors and knitted tiles
            n_suited = rng.randrange(7, 10)
            tiles = rng.sample(knitted, n_suited) + rng.sample(range(27, 34), 14 - n_suited)
        else:  # knitted straight with a set and a pair
            s = rng.randrange(3)
            first = s * 9 + rng.randrange(7)
            extra = [first, first + 1, first + 2] if rng.random() < 0.6 else [rng.randrange(34)] * 3
            tiles = knitted + extra + [rng.randrange(34)] * 2
            if max(tiles.count(k) for k in tiles) > 4:
                tiles = knitted + [27, 27, 27, 28, 28]
    win = tiles.pop(rng.randrange(len(tiles)))
    return _with_flags(rng, [_code(k) for k in tiles], [], _code(win))

"""Scoring requests for byte-identical checks: winning hands of every shape a variant
declares, near misses and a few bad lines, from a fixed seed.

A refactoring of the compiler must not change a single answer. Run this once, score its
output with the version before and the version after (``cardavia score VARIANT --jsonl``)
and compare the two outputs byte for byte::

    python bench/corpus.py hk --hands 3000 --seed 1 > hk.jsonl
    cardavia score hk --jsonl < hk.jsonl > before.txt

The hands follow the shapes of the compiled variant (its ``scoring.shapes``), within its
tile copies; a fifth of them are changed by one tile (most then do not win, some win
another way), and one line in fifty is malformed on purpose.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from itertools import permutations
from typing import Any

from cardavia.compiler import load_variant
from cardavia.compiler.model.tiles import CODES

#: The six knitted straights, as suit orders for ranks (1, 4, 7), (2, 5, 8), (3, 6, 9).
_KNITTED = [[perm[o] * 9 + o + 3 * r for o in range(3) for r in range(3)] for perm in permutations(range(3))]
_BAD_LINES = ['{"hand": ["1m"]', '{"hand": "1m"}', '{"hand": ["0m"], "win_tile": "1m"}', '[]',
              '{"hand": ["1m","1m","1m","1m","1m"], "win_tile": "2m"}', '{"win_tile": "1m"}',
              '{"hand": ["1m"], "win_tile": "1m", "self_drawn": true, "robbing_kong": true}']


class _Draw:
    """Tile kinds drawn at random within the variant's copies."""

    def __init__(self, rng: random.Random, kinds: list[int], copies: list[int]) -> None:
        self.rng = rng
        self.kinds = kinds
        self.copies = copies
        self.used = [0] * len(copies)

    def take(self, options: list[list[int]]) -> list[int] | None:
        fitting = [o for o in options if all(k in self.kinds and self.used[k] + o.count(k) <= self.copies[k]
                                             for k in o)]
        if not fitting:
            return None
        chosen = self.rng.choice(fitting)
        for k in chosen:
            self.used[k] += 1
        return chosen

    def options(self, kind: str) -> list[list[int]]:
        if kind == "chow":
            return [[k, k + 1, k + 2] for k in self.kinds if k < 27 and k % 9 <= 6]
        return [[k] * {"pung": 3, "kong": 4, "pair": 2}[kind] for k in self.kinds]


def _winning(rng: random.Random, v: Any) -> dict[str, Any] | None:
    shape = rng.choice(v.scoring.shapes)
    kinds = sorted(v.scorer.playable)
    missing = None
    if v.play.missing_suit is not None:
        missing = rng.choice("mps")
        kinds = [k for k in kinds if k >= 27 or "mps"[k // 9] != missing]
    draw = _Draw(rng, kinds, v.scorer.copies)
    concealed: list[int] = []
    melds: list[dict[str, Any]] = []

    def sets(n: int, may_declare: int) -> bool:
        for _ in range(n):
            kind = rng.choice(["chow", "chow", "chow", "pung", "pung", "kong"])
            group = draw.take(draw.options(kind))
            if group is None:
                return False
            declare = kind == "kong" or (may_declare and rng.random() < 0.3
                                         and (kind == "pung" or v.play.chow != "none"))
            if declare and may_declare:
                may_declare -= 1
                melds.append({"type": kind, "tiles": [CODES[k] for k in group],
                              "concealed": kind == "kong" and rng.random() < 0.4})
            elif kind == "kong":
                concealed.extend(group[:3])
                draw.used[group[0]] -= 1
            else:
                concealed.extend(group)
        return True

    def pair() -> bool:
        group = draw.take(draw.options("pair"))
        concealed.extend(group or ())
        return group is not None

    kind = shape.kind
    if kind == "sets_and_pair":
        ok = sets(shape.sets, shape.sets) and pair()
    elif kind == "pairs":
        ok = True
        for _ in range(shape.sets):
            options = draw.options("pair")
            if not shape.quads_as_two_pairs:
                options = [o for o in options if draw.used[o[0]] == 0]
            group = draw.take(options)
            ok = ok and group is not None
            concealed.extend(group or ())
    elif kind == "unique_plus_pair":
        ok = draw.take([list(shape.tiles)]) is not None
        concealed.extend(shape.tiles)
        extra = draw.take([[k] for k in shape.tiles])
        ok = ok and extra is not None
        concealed.extend(extra or ())
    elif kind == "knitted_and_honors":
        pool = rng.choice(_KNITTED) + list(range(27, 34))
        chosen = rng.sample(pool, 14)
        ok = draw.take([chosen]) is not None
        concealed.extend(chosen)
    elif kind == "knitted_sets_and_pair":
        straight = rng.choice(_KNITTED)
        ok = draw.take([straight]) is not None
        concealed.extend(straight)
        ok = ok and sets(shape.sets - 3, shape.max_melds) and pair()
    else:
        return None
    if not ok or not concealed:
        return None
    win = concealed.pop(rng.randrange(len(concealed)))
    rng.shuffle(concealed)
    self_drawn = rng.random() < 0.5
    request: dict[str, Any] = {
        "hand": [CODES[k] for k in concealed], "win_tile": CODES[win], "melds": melds,
        "self_drawn": self_drawn, "seat_wind": rng.choice("ESWN"), "round_wind": rng.choice("ESWN"),
        "last_tile_of_kind": rng.random() < 0.1, "last_wall_tile": rng.random() < 0.05,
        "kong_replacement": self_drawn and any(m["type"] == "kong" for m in melds) and rng.random() < 0.3,
    }
    request["robbing_kong"] = not self_drawn and rng.random() < 0.05
    if missing is not None and rng.random() < 0.7:
        request["missing_suit"] = missing
    if v.tiles.has_bonus():
        request["flowers"] = [CODES[k] for k in range(34, 42) if rng.random() < 0.2]
    return request


def requests(name: str, n: int, seed: int) -> list[str]:
    """``n`` request lines for variant ``name``."""
    v = load_variant(name)
    rng = random.Random(seed)
    kinds = sorted(v.scorer.playable)
    out: list[str] = []
    while len(out) < n:
        if rng.random() < 0.02:
            out.append(rng.choice(_BAD_LINES))
            continue
        request = _winning(rng, v)
        if request is None:
            continue
        if rng.random() < 0.2:  # a near miss: one concealed tile changed
            hand = request["hand"]
            if hand:
                hand[rng.randrange(len(hand))] = CODES[rng.choice(kinds)]
        out.append(json.dumps(request))
    return out


def winning(name: str, n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` winning requests for variant ``name`` (every declared shape, no near miss)."""
    v = load_variant(name)
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < n:
        request = _winning(rng, v)
        if request is not None:
            out.append(request)
    return out


def ready(name: str, n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` ready hands for ``cardavia waits --jsonl``: winning requests without their
    winning tile (and so without the flags of the win)."""
    out = []
    for request in winning(name, n, seed):
        waiting = {k: v for k, v in request.items() if k not in ("win_tile", "self_drawn", "kong_replacement",
                                                                  "robbing_kong", "last_wall_tile",
                                                                  "last_tile_of_kind")}
        waiting["completed_by"] = request["win_tile"]  # an unknown field: ignored by the command
        out.append(waiting)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant")
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    sys.stdout.write("".join(line + "\n" for line in requests(args.variant, args.hands, args.seed)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

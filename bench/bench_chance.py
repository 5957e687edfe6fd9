"""How well the AI's value model foresees its own wins: predicted against observed.

After each discard of the tested seat, the value model judges the hand it kept
(runtime.ai.hands.judge_hand, the normal level's depth): its chance to win in the draws
left. At the end of the deal we know whether the seat did win. Grouped by shanten and by
predicted chance, the mean prediction next to the observed frequency says where the chance
model (value.Rules.chance and its constants) runs fast or slow, for each variant, the
figures its constants are fitted against. The model's chance counts any win, valid or not
(the value is apart), so the observed frequency counts every win the seat made.

Run from the repository::

    python bench/bench_chance.py [--variants hk mcr sichuan] [--deals 300] [--seed 1]
        [--players ai,baseline,baseline,baseline] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardavia.compiler import load_variant  # noqa: E402
from cardavia.runtime.ai.hands import Depth, judge_hand  # noqa: E402
from cardavia.runtime.ai.player import LEVELS, rules_of  # noqa: E402
from cardavia.runtime.ai.value import seen_of  # noqa: E402
from cardavia.runtime.bots import make_controller  # noqa: E402
from cardavia.runtime.controllers import play_deal  # noqa: E402
from cardavia.runtime.deal import Deal  # noqa: E402
from cardavia.runtime.simulate import deal_seed  # noqa: E402
from cardavia.runtime.wall import shuffled_wall  # noqa: E402

#: Upper edges of the predicted-chance groups.
EDGES = (0.05, 0.1, 0.2, 0.3, 0.45, 0.6, 0.8, 1.01)


class _Judged:
    """Seat 0's hand judged after each of its discards while it has not won: (shanten, chance)."""

    def __init__(self, depth: Depth) -> None:
        self.depth = depth
        self.rows: list[tuple[int, float]] = []

    def __call__(self, deal: Deal, seat: int, action: Any) -> None:
        if seat != 0 or action.do != "discard" or deal.over or deal.won[0]:
            return
        rules = rules_of(deal.variant)
        seen = seen_of(deal, 0, rules)
        est = judge_hand(rules, seen, list(seen.counts), seen.melds, self.depth)
        self.rows.append((est.shanten, est.p_win))


def measure(variant_name: str, deals: int, seed: int, players: list[str]) -> dict[str, Any]:
    variant = load_variant(variant_name)
    depth = LEVELS["normal"].depth
    assert depth is not None
    rows: list[tuple[int, float, bool]] = []  # (shanten, predicted, won) per judged discard
    for index in range(deals):
        ws = deal_seed(seed, index)
        deal = Deal(variant, shuffled_wall(variant.tiles, ws), index % variant.table.players)
        controllers = [make_controller(kind, deal_seed(ws, s + 1)) for s, kind in enumerate(players)]
        judged = _Judged(depth)
        play_deal(deal, controllers, judged)
        won = any(w.seat == 0 for w in deal.wins)
        rows.extend((s, p, won) for s, p in judged.rows)
    return {"variant": variant_name, "deals": deals, "judged": len(rows),
            "by_shanten": _groups(rows, lambda r: str(r[0]) if r[0] < 4 else "4+"),
            "by_predicted": _groups(rows, lambda r: f"<{next(e for e in EDGES if r[1] < e):.2f}"),
            "brier": round(sum((p - won) ** 2 for _, p, won in rows) / max(len(rows), 1), 4)}


def _groups(rows: list[tuple[int, float, bool]], key: Any) -> dict[str, dict[str, float]]:
    groups: dict[str, list[tuple[int, float, bool]]] = {}
    for r in rows:
        groups.setdefault(key(r), []).append(r)
    return {k: {"n": len(g), "predicted": round(sum(p for _, p, _ in g) / len(g), 3),
                "observed": round(sum(w for _, _, w in g) / len(g), 3)} for k, g in sorted(groups.items())}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", nargs="+", default=["hk", "mcr", "sichuan"])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", default="ai,baseline,baseline,baseline",
                    help="the kinds in seats 0-3; seat 0's hands are judged")
    ap.add_argument("--json", action="store_true", help="one JSON object per line")
    args = ap.parse_args()
    for name in args.variants:
        out = measure(name, args.deals, args.seed, args.players.split(","))
        if args.json:
            print(json.dumps(out), flush=True)
            continue
        print(f"{name}: {out['deals']} deals, {out['judged']} hands judged, Brier score {out['brier']}")
        for title in ("by_shanten", "by_predicted"):
            for k, g in out[title].items():
                print(f"  {title[3:]:10} {k:>6}  n {g['n']:5}  predicted {g['predicted']:.3f}  "
                      f"observed {g['observed']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

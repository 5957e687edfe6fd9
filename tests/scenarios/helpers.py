"""Building replay scenarios for tests: chosen tiles in place, the rest of the wall filled in."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cardavia.compiler import load_variant
from cardavia.runtime.validator import validate
from cardavia.runtime.wall import build_wall, wall_from_codes

HERE = Path(__file__).resolve().parent


def scenario(variant: str, hands: dict[int, str], actions: Sequence[dict[str, Any]], *, dealer: int = 0,
             dealer_draw: str | None = None, draws: Any = "", tail: str = "", autoplay: str = "drawn-tile",
             fill_seed: int = 0) -> dict[str, Any]:
    """A scenario object (docs/interfaces.md) with a full wall built by :func:`runtime.wall.build_wall`."""
    v = load_variant(variant)
    wall = build_wall(v, hands, dealer=dealer, dealer_draw=dealer_draw, draws=draws, tail=tail,
                      fill_seed=fill_seed)
    return {"variant": variant, "dealer": dealer, "wall": wall, "actions": list(actions), "autoplay": autoplay}


def run_cli(scn: dict[str, Any], tmp_path: Path, capsys: Any, name: str = "scenario.json") -> tuple[int, Any, str]:
    """Run ``cardavia replay`` on ``scn``; (exit status, parsed result or None, standard error)."""
    from cardavia.cli import main

    path = tmp_path / name
    path.write_text(json.dumps(scn), encoding="utf-8")
    capsys.readouterr()
    status = main(["replay", str(path)])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip() else None), err


def checked(scn: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    """The result, after the independent validator has found nothing wrong with it."""
    v = load_variant(scn["variant"], scn.get("options"))
    problems = validate(v, wall_from_codes(v.tiles, scn["wall"]), scn.get("dealer", 0), result["events"],
                        result["deltas"])
    assert problems == []
    return result


def load(name: str) -> dict[str, Any]:
    return json.loads((HERE / name).read_text(encoding="utf-8"))

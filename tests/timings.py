"""Simulation summaries compared without what the clock decides."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def untimed(summary: dict[str, Any], timings: Iterable[str]) -> dict[str, Any]:
    """``summary`` without the keys ``timings`` and each player kind's decision times."""
    skip = set(timings)
    out = {k: v for k, v in summary.items() if k not in skip}
    if "by_kind" in out:
        out["by_kind"] = {kind: {f: x for f, x in k.items() if f != "decision_ms"}
                          for kind, k in out["by_kind"].items()}
    return out

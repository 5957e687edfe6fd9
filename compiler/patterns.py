"""Pattern tables: evaluation of one arrangement and the one exclusion mechanism.

Resolution of an arrangement, in this order (every step is configured by YAML):

1. Evaluate each pattern's ``when`` (0 or 1 instance) or ``count`` (n instances),
   skipping patterns restricted to other shapes.
2. Limit patterns: if any holds, the first in table order is the whole result.
3. Exclusions, in table order: a counted pattern that is not itself excluded removes
   every pattern it ``excludes``; then each of its instances removes ``replaces[id]``
   instances of the replaced pattern.
4. Fallback patterns count only when nothing toward the minimum was counted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .expressions import Compiled


@dataclass
class Pattern:
    id: str
    name: str
    description: str
    value: int | Compiled
    index: int
    when: Compiled | None = None
    count: Compiled | None = None
    shapes: frozenset[str] | None = None
    excludes: tuple[str, ...] = ()
    replaces: dict[str, int] = field(default_factory=dict)
    limit: bool = False
    fallback: bool = False
    toward_minimum: bool = True
    combination: str | None = None

    def instances(self, ctx: Any) -> int:
        if self.when is not None:
            return 1 if self.when.fn(ctx) else 0
        assert self.count is not None
        n = self.count.fn(ctx)
        return n if n > 0 else 0

    def value_of(self, ctx: Any) -> int:
        return self.value if isinstance(self.value, int) else self.value.fn(ctx)


@dataclass(frozen=True)
class Fan:
    id: str
    value: int
    count: int
    toward_minimum: bool = True

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "value": self.value, "count": self.count}


@dataclass
class Evaluation:
    """The patterns one arrangement scores, after exclusions."""

    fans: list[Fan]
    total: int  # before any cap
    minimum_points: int  # the part that counts toward the minimum
    limit: bool


class PatternTable:
    """A compiled pattern table with its exclusion and replacement graph."""

    def __init__(self, patterns: list[Pattern]) -> None:
        self.patterns = patterns
        self.by_id = {p.id: p for p in patterns}
        self.limits = [p for p in patterns if p.limit]
        self.ordinary = [p for p in patterns if not p.limit and not p.fallback]
        self.fallbacks = [p for p in patterns if p.fallback]

    def _applies(self, p: Pattern, shape: str) -> bool:
        return p.shapes is None or shape in p.shapes

    def evaluate(self, ctx: Any) -> Evaluation:
        shape = ctx.shape
        for p in self.limits:
            if self._applies(p, shape) and p.instances(ctx):
                value = p.value_of(ctx)
                return Evaluation([Fan(p.id, value, 1, p.toward_minimum)], value,
                                  value if p.toward_minimum else 0, True)
        counts: dict[str, int] = {}
        for p in self.ordinary:
            if self._applies(p, shape):
                n = p.instances(ctx)
                if n:
                    counts[p.id] = n
        if counts:
            excluded: set[str] = set()
            for p in self.ordinary:
                n = counts.get(p.id)
                if not n or p.id in excluded:
                    continue
                excluded.update(p.excludes)
                for other, k in p.replaces.items():
                    if other in counts:
                        counts[other] -= k * n
            counts = {pid: n for pid, n in counts.items() if n > 0 and pid not in excluded}
        if self.fallbacks and not any(self.by_id[pid].toward_minimum for pid in counts):
            for p in self.fallbacks:
                if self._applies(p, shape):
                    n = p.instances(ctx)
                    if n:
                        counts[p.id] = n
        fans = []
        total = minimum_points = 0
        for p in self.patterns:
            n = counts.get(p.id)
            if n:
                value = p.value_of(ctx)
                fans.append(Fan(p.id, value, n, p.toward_minimum))
                total += value * n
                if p.toward_minimum:
                    minimum_points += value * n
        return Evaluation(fans, total, minimum_points, False)

"""Pattern tables: evaluation of one arrangement and the one exclusion mechanism.

Every pattern yields *instances*. A ``when`` pattern yields one instance, a ``count``
pattern n; both concern the whole hand. A *combination* pattern (``combination: NAME``
with ``count: "count(a, b in chows: ...)"``) yields one instance per choice of groups
its count accepts, and each instance remembers which groups of the arrangement it
used (its *cover*).

Resolution of an arrangement, in this order (every step is configured by YAML):

1. Patterns restricted to other shapes (``shapes``) are skipped. Conditions that read
   no arrangement name (see ``context.ARRANGEMENT_NAMES``) are evaluated once per hand.
   The conditions of a table are compiled into one function per shape and one for the
   hand (compiler/codegen.py).
2. Limit patterns: if any holds, the first in table order is the whole result.
3. Instances are taken in table order (one pattern's instances in the order its count
   found them). An instance is dropped when an accepted instance excluded it (see
   below) or when a principle of ``scoring.principles`` forbids it:

   * ``account_once``: the accepted instances of combinations with the same
     ``combination`` name must never join groups already joined with each other: each
     new instance must link groups that were, so far, in different combinations (the
     used groups stay a forest). A set can so join an existing combination only once,
     a combination cannot be split into smaller ones, and four sets carry at most
     three two-set combinations;
   * ``non_identical``: a group takes part in at most one instance of each
     combination pattern.

   An accepted instance then removes what it ``excludes``: when both it and the
   excluded pattern are combinations, only the excluded instances whose groups all lie
   within its own cover (non-repeat within the combined sets); otherwise every
   instance of the excluded pattern. Each accepted instance also removes
   ``replaces[id]`` instances of the replaced pattern (those within its cover first),
   now or, for a pattern listed later, as they come.
   Exclusions therefore act in table order: list a pattern before those it excludes;
   an instance removed after it was accepted keeps the effects it already had.
4. Fallback patterns count only when nothing toward the minimum was counted.

Between arrangements the scorer keeps the highest total; ``principles.prefer`` names
patterns that win a tie (compiler/scorer.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Callable, Mapping, NamedTuple

from .codegen import covers, generate_evaluator, generate_first
from .context import ARRANGEMENT_NAMES
from .expressions import Compiled

#: The keys of ``scoring.principles``.
PRINCIPLES = ("account_once", "non_identical", "prefer")


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

    @property
    def condition(self) -> Compiled:
        cond = self.when if self.when is not None else self.count
        assert cond is not None
        return cond

    def problem(self) -> str | None:
        """Why this pattern cannot be evaluated as declared, or None."""
        if self.combination is not None and (self.count is None or self.count.domain is None):
            return ("a combination pattern counts choices of groups: expected "
                    "count: \"count(a, b in chows: ...)\" over a list of sets")
        return None

    def instances(self, ctx: Any) -> int:
        if self.when is not None:
            return 1 if self.when.fn(ctx) else 0
        assert self.count is not None
        n = self.count.fn(ctx)
        return n if n > 0 else 0

    def value_of(self, ctx: Any) -> int:
        return self.value if isinstance(self.value, int) else self.value.fn(ctx)


class Fan(NamedTuple):
    """One pattern scored: its id, value per instance and number of instances."""

    id: str
    value: int
    count: int
    toward_minimum: bool = True

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "value": self.value, "count": self.count}


class Evaluation:
    """The patterns one arrangement scores, after exclusions.

    ``scored`` holds (pattern position, value per instance, count) in table order; the
    :class:`Fan` list is built when asked for (the scorer asks only of the best one).
    """

    __slots__ = ("scored", "total", "minimum_points", "limit", "_table", "_fans")

    def __init__(self, scored: list[tuple[int, int, int]], total: int, minimum_points: int, limit: bool,
                 table: "PatternTable") -> None:
        self.scored = scored
        self.total = total  # before any cap
        self.minimum_points = minimum_points  # the part that counts toward the minimum
        self.limit = limit
        self._table = table
        self._fans: list[Fan] | None = None

    @property
    def fans(self) -> list[Fan]:
        if self._fans is None:
            patterns = self._table.patterns
            self._fans = [Fan(patterns[i].id, value, n, patterns[i].toward_minimum) for i, value, n in self.scored]
        return self._fans


@dataclass(frozen=True)
class Principles:
    """``scoring.principles`` of a variant file (see the schema's descriptions)."""

    account_once: bool = False
    non_identical: bool = False
    prefer: frozenset[str] = frozenset()

    @classmethod
    def of(cls, data: Mapping[str, Any] | None) -> "Principles":
        data = data or {}
        return cls(bool(data.get("account_once", False)), bool(data.get("non_identical", False)),
                   frozenset(data.get("prefer") or ()))


@dataclass
class _Plan:
    """The patterns one shape can score, split by role, in table order."""

    limits: list[tuple[int, Pattern]]
    ordinary: list[tuple[int, Pattern]]
    fallbacks: list[tuple[int, Pattern]]
    arrangement_fn: Callable[[Any], list["Instance"]] = lambda c: []
    limit_fn: Callable[[Any], int] = lambda c: -1  # the first limit pattern that holds, or -1
    hand_fn: Callable[[Any], list["Instance"]] = lambda c: []  # its hand-level patterns
    shape: str = ""


Instance = list  # [pattern position, cover bit mask (0: the whole hand), count]


def _bits(mask: int) -> list[int]:
    out = []
    j = 0
    while mask:
        if mask & 1:
            out.append(j)
        mask >>= 1
        j += 1
    return out


class PatternTable:
    """A compiled pattern table with its exclusion and replacement graph."""

    def __init__(self, patterns: list[Pattern], principles: Mapping[str, Any] | None = None) -> None:
        self.patterns = patterns
        self.by_id = {p.id: p for p in patterns}
        self.limits = [p for p in patterns if p.limit]
        self.ordinary = [p for p in patterns if not p.limit and not p.fallback]
        self.fallbacks = [p for p in patterns if p.fallback]
        self.principles = Principles.of(principles)
        pos = {p.id: i for i, p in enumerate(patterns)}
        self._hand_level = [not (p.condition.names & ARRANGEMENT_NAMES) and p.combination is None
                            for p in patterns]
        self._excl = [tuple(pos[x] for x in p.excludes if x in pos) for p in patterns]
        self._repl = [tuple((pos[x], k) for x, k in p.replaces.items() if x in pos) for p in patterns]
        self._combination = [p.combination for p in patterns]
        self._toward_minimum = [p.toward_minimum for p in patterns]
        self._effects = [bool(self._excl[i] or self._repl[i]) for i in range(len(patterns))]
        self._values = [p.value if type(p.value) is int else None for p in patterns]
        self._plans: dict[str, _Plan] = {}

    def configure(self, principles: Mapping[str, Any] | None) -> None:
        """Switch on the principles a variant declares (``scoring.principles``)."""
        self.principles = Principles.of(principles)

    def problems(self) -> list[tuple[tuple[Any, ...], str]]:
        """(path in the variant file, message) for what cannot be evaluated as declared."""
        out: list[tuple[tuple[Any, ...], str]] = []
        for p in self.patterns:
            msg = p.problem()
            if msg is not None:
                out.append((("scoring", "patterns", p.index, "combination"), msg))
        for pid in sorted(self.principles.prefer):
            if pid not in self.by_id:
                out.append((("scoring", "principles", "prefer"),
                            f"prefer names unknown pattern {pid!r}: expected the id of a pattern of this table"))
        return out

    def preferred(self, ev: Evaluation) -> bool:
        """Whether ``ev`` scores a pattern that ``principles.prefer`` favours in a tie."""
        prefer = self.principles.prefer
        if not prefer:
            return False
        patterns = self.patterns
        return any(patterns[i].id in prefer for i, _, _ in ev.scored)

    def _plan(self, shape: str) -> _Plan:
        plan = self._plans.get(shape)
        if plan is None:
            entries = [(i, p) for i, p in enumerate(self.patterns) if p.shapes is None or shape in p.shapes]
            plan = self._plans[shape] = _Plan([e for e in entries if e[1].limit],
                                              [e for e in entries if not e[1].limit and not e[1].fallback],
                                              [e for e in entries if e[1].fallback])
            plan.arrangement_fn = generate_evaluator([e for e in plan.ordinary if not self._hand_level[e[0]]],
                                                 f"arrangement patterns of shape {shape}")
            plan.limit_fn = generate_first(plan.limits, f"limit patterns of shape {shape}")
            plan.hand_fn = generate_evaluator([e for e in plan.ordinary if self._hand_level[e[0]]],
                                              f"hand patterns of shape {shape}")
            plan.shape = ("shape", shape)
        return plan

    # ------------------------------------------------------------ instances

    def _found(self, i: int, p: Pattern, ctx: Any, memo: dict[int, list[Instance]] | None) -> list[Instance]:
        if memo is not None and self._hand_level[i]:
            got = memo.get(i)
            if got is None:
                got = memo[i] = self._evaluate_one(i, p, ctx)
            return [list(x) for x in got]
        return self._evaluate_one(i, p, ctx)

    def _evaluate_one(self, i: int, p: Pattern, ctx: Any) -> list[Instance]:
        if p.combination is None:
            n = p.instances(ctx)
            return [[i, 0, n]] if n else []
        assert p.count is not None and p.count.matches is not None
        return covers(i, ctx, p.count.matches(ctx))

    def _hand_found(self, ctx: Any, memo: dict[Any, Any] | None, plan: _Plan | None = None) -> list[Instance]:
        """The instances of the hand-level patterns (those ``plan``'s shape can score), once
        per hand and shape."""
        if plan is None:
            plan = self._plans.get(ctx.shape) or self._plan(ctx.shape)
        key = plan.shape
        got = memo.get(key) if memo is not None else None
        if got is None:
            got = plan.hand_fn(ctx)
            if memo is not None:
                memo[key] = got
        return got

    # ----------------------------------------------------------- resolution

    def evaluate(self, ctx: Any, memo: dict[Any, Any] | None = None) -> Evaluation:
        """Score one arrangement; ``memo`` shares hand-level results between arrangements."""
        plan = self._plans.get(ctx.shape) or self._plan(ctx.shape)
        if plan.limits:
            i = plan.limit_fn(ctx)
            if i >= 0:
                p = self.patterns[i]
                value = p.value_of(ctx)
                return Evaluation([(i, value, 1)], value, value if p.toward_minimum else 0, True, self)
        found = self._hand_found(ctx, memo, plan)
        more = plan.arrangement_fn(ctx)
        if more:
            found = found + more
            found.sort(key=_FIRST)
        counted: list[tuple[int, int]] = self._summed(self._resolve(found)) if found else []
        toward = self._toward_minimum
        if plan.fallbacks:
            for i, _ in counted:
                if toward[i]:
                    break
            else:
                counted = self._with_fallbacks(plan, counted, ctx, memo)
        values = self._values

        scored = []
        total = minimum_points = 0
        for i, n in counted:
            value = values[i]
            if value is None:
                value = self.patterns[i].value_of(ctx)
            scored.append((i, value, n))
            total += value * n
            if toward[i]:
                minimum_points += value * n
        return Evaluation(scored, total, minimum_points, False, self)

    @staticmethod
    def _summed(accepted: list[Instance]) -> list[tuple[int, int]]:
        """(position, count) of the accepted instances (in table order), one per pattern."""
        counted: list[tuple[int, int]] = []
        cur = -1
        total_n = 0
        for i, _, n in accepted:
            if n > 0:
                if i == cur:
                    total_n += n
                else:
                    if cur >= 0:
                        counted.append((cur, total_n))
                    cur = i
                    total_n = n
        if cur >= 0:
            counted.append((cur, total_n))
        return counted

    def _with_fallbacks(self, plan: _Plan, counted: list[tuple[int, int]], ctx: Any,
                        memo: dict[Any, Any] | None) -> list[tuple[int, int]]:
        counts = dict(counted)
        for i, p in plan.fallbacks:
            for j, _, n in self._found(i, p, ctx, memo):
                counts[j] = counts.get(j, 0) + n
        return sorted(counts.items())

    def _resolve(self, found: list[Any]) -> list[Instance]:
        """Apply exclusions, replacements and principles to the instances, in table order.

        ``found`` holds (pattern position, cover, count) in table order; the result holds
        the accepted instances as mutable [position, cover, count] (count 0: removed), in
        the same order.
        """
        combination = self._combination
        excl = self._excl
        repl = self._repl
        effects = self._effects
        account_once = self.principles.account_once
        non_identical = self.principles.non_identical
        accepted: list[Instance] = []
        dead: set[int] = set()
        dead_within: dict[int, list[int]] = {}
        debt: dict[int, int] = {}
        parent: dict[tuple[str, int], tuple[str, int]] = {}
        used: dict[int, int] = {}
        for i, mask, n in found:
            if i in dead:
                continue
            if mask:
                if dead_within and i in dead_within and any(mask & ~m == 0 for m in dead_within[i]):
                    continue
                if debt and debt.get(i):
                    take = min(debt[i], n)
                    debt[i] -= take
                    n -= take
                    if not n:
                        continue
                group = combination[i]
                if group is not None:
                    if non_identical:
                        if used.get(i, 0) & mask:
                            continue
                        used[i] = used.get(i, 0) | mask
                    if account_once and mask & (mask - 1):
                        roots = set()
                        bits = 0
                        m = mask
                        j = 0
                        while m:
                            if m & 1:
                                bits += 1
                                node = (group, j)
                                while node in parent:
                                    node = parent[node]
                                roots.add(node)
                            m >>= 1
                            j += 1
                        if len(roots) < bits:
                            if non_identical:
                                used[i] &= ~mask
                            continue
                        first, *rest = roots
                        for r in rest:
                            parent[r] = first
            elif debt and debt.get(i):
                take = min(debt[i], n)
                debt[i] -= take
                n -= take
                if not n:
                    continue
            accepted.append([i, mask, n])
            if not effects[i]:
                continue
            # Instances are in table order: only a pattern listed earlier (q < i) can
            # already have accepted instances to take back.
            for q in excl[i]:
                if mask and combination[q] is not None:
                    dead_within.setdefault(q, []).append(mask)
                    if q < i:
                        for other in accepted:
                            if other[0] == q and other[1] and other[1] & ~mask == 0:
                                other[2] = 0
                else:
                    dead.add(q)
                    if q < i:
                        for other in accepted:
                            if other[0] == q:
                                other[2] = 0
            for q, k in repl[i]:
                left = k * n
                if q < i:
                    mine = [o for o in accepted if o[0] == q and o[2] > 0]
                    mine.sort(key=lambda o: 0 if mask and o[1] and o[1] & ~mask == 0 else 1)
                    for other in mine:
                        take = min(left, other[2])
                        other[2] -= take
                        left -= take
                        if not left:
                            break
                if left:
                    debt[q] = debt.get(q, 0) + left
        return accepted


_FIRST = itemgetter(0)

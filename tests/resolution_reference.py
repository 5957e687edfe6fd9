"""A plain, slow reading of the pattern-table rules (compiler/scoring/patterns.py module docstring),
against which the generated scorers are tested on random tables.

Every instance of every pattern is found first (combination patterns through their
count's own matcher), then resolved one at a time in table order with sets and dicts:
the first implementation of the engine, kept as the executable statement of the rules.
"""

from __future__ import annotations

from typing import Any

from cardavia.compiler.scoring.context import HandContext
from cardavia.compiler.scoring.patterns import Pattern, Principles
from cardavia.compiler.shapes.arrangements import arrangements


def _instances(i: int, p: Pattern, ctx: Any) -> list[list[int]]:
    if p.combination is None:
        n = p.instances(ctx)
        return [[i, 0, n]] if n else []
    domain, chosen = p.count.matches(ctx)
    canonical = ctx._arr.canonical()
    taken = 0
    places = []  # each element of the list at its group's place (equal groups: in turn)
    for g in domain:
        for q, h in enumerate(canonical):
            if h is g and not taken >> q & 1:
                taken |= 1 << q
                places.append(1 << q)
                break
        else:
            places.append(0)
    out = []
    for choice in chosen:
        mask = 0
        for j in choice:
            mask |= places[j]
        out.append([i, mask, 1])
    return out


def _resolve(patterns: list[Pattern], principles: Principles, found: list[list[int]]) -> list[list[int]]:
    pos = {p.id: i for i, p in enumerate(patterns)}
    excl = [[pos[x] for x in p.excludes if x in pos] for p in patterns]
    repl = [[(pos[x], k) for x, k in p.replaces.items() if x in pos] for p in patterns]
    combination = [p.combination for p in patterns]
    accepted: list[list[int]] = []
    dead: set[int] = set()
    dead_within: dict[int, list[int]] = {}
    debt: dict[int, int] = {}
    parent: dict[tuple[str, int], tuple[str, int]] = {}
    used: dict[int, int] = {}
    for i, mask, n in found:
        if i in dead:
            continue
        if mask and any(mask & ~m == 0 for m in dead_within.get(i, [])):
            continue
        if debt.get(i):
            take = min(debt[i], n)
            debt[i] -= take
            n -= take
            if not n:
                continue
        group = combination[i]
        if mask and group is not None:
            if principles.non_identical:
                if used.get(i, 0) & mask:
                    continue
                used[i] = used.get(i, 0) | mask
            if principles.account_once and mask & (mask - 1):
                roots = set()
                bits = [j for j in range(mask.bit_length()) if mask >> j & 1]
                for j in bits:
                    node = (group, j)
                    while node in parent:
                        node = parent[node]
                    roots.add(node)
                if len(roots) < len(bits):
                    if principles.non_identical:
                        used[i] &= ~mask
                    continue
                first, *rest = roots
                for r in rest:
                    parent[r] = first
        accepted.append([i, mask, n])
        for q in excl[i]:
            if mask and combination[q] is not None:
                dead_within.setdefault(q, []).append(mask)
                for other in accepted:
                    if q < i and other[0] == q and other[1] and other[1] & ~mask == 0:
                        other[2] = 0
            else:
                dead.add(q)
                for other in accepted:
                    if q < i and other[0] == q:
                        other[2] = 0
        for q, k in repl[i]:
            left = k * n
            mine = [o for o in accepted if q < i and o[0] == q and o[2] > 0]
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


def evaluate(patterns: list[Pattern], principles: Principles, ctx: Any) -> tuple[bool, list[tuple[str, int, int]]]:
    """(a limit hand?, [(id, value, count)] in table order) of one arrangement."""
    mine = [(i, p) for i, p in enumerate(patterns) if p.shapes is None or ctx.shape in p.shapes]
    for _, p in mine:
        if p.limit and (p.instances(ctx) if p.combination is None else bool(p.count.matches(ctx)[1])):
            return True, [(p.id, p.value_of(ctx), 1)]
    found = [x for i, p in mine if not p.limit and not p.fallback for x in _instances(i, p, ctx)]
    counts: dict[int, int] = {}
    for i, _, n in _resolve(patterns, principles, found):
        if n > 0:
            counts[i] = counts.get(i, 0) + n
    if not any(patterns[i].toward_minimum for i in counts):
        for i, p in mine:
            if p.fallback:
                for j, _, n in _instances(i, p, ctx):
                    counts[j] = counts.get(j, 0) + n
    return False, [(patterns[i].id, patterns[i].value_of(ctx), n) for i, n in sorted(counts.items())]


def score(variant: Any, hand: Any) -> list[tuple[str, int, int]] | None:
    """The fans of the best arrangement (a limit first, then the highest total; ties to a
    preferred pattern, else the first), or None when the hand does not win."""
    table = variant.scorer.table
    principles = table.principles
    facts = HandContext.for_hand(hand, variant.scorer.shapes)
    best: tuple[Any, ...] | None = None
    for arr in arrangements(hand, variant.scorer.shapes):
        limit, fans = evaluate(table.patterns, principles, facts.arranged(arr))
        total = sum(v * n for _, v, n in fans)
        preferred = any(pid in principles.prefer for pid, _, _ in fans)
        if best is None or (limit, total) > best[:2] or ((limit, total) == best[:2] and preferred and not best[2]):
            best = (limit, total, preferred, fans)
    return None if best is None else best[3]

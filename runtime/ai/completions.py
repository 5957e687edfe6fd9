"""Candidate completions: the complete hands a hand can become within a few draws.

A *completion* of a hand is a winning hand of one of the variant's shapes made of some of
its concealed tiles and a few tiles drawn (or claimed) later: its 34 final counts, the
tiles it still needs (``adds``: kind and copies) and their number (``cost``). The hand
value model scores completions with the variant's own scorer, so that what a hand is
worth comes from the compiled pattern table and nowhere else.

Each shape kind has its generator, driven only by the shape's own declaration:

* sets and a pair: each suit split greedily into sets, pairs, two tiles of a chow to be
  and single tiles (pungs first, and chows first where sets may be chows), the pair taken
  from a pair held (each of the first two in turn) or a single, and the sets from the
  blocks nearest to complete whose missing tiles are still to be seen: a few plausible
  completions, not every one, found in a few passes over the counts;
* pairs: the pairs held, and singles paired;
* one each of a list of tiles and a pair: the missing tiles added, each choice of pair;
* knitted shapes: each knitted straight completed, then the rest as singles of the
  honors (fourteen different tiles) or as sets and a pair.

A shape kind without a generator here gives none; the player then values such a hand only
once it is ready (its waits, from the compiler's one answer).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from cardavia.compiler.shapes.base import Shape
from cardavia.compiler.shapes.knitted import KNITTED_KINDS

#: A completion: (cost, final 34 counts, adds as ((kind, copies), ...)).
Completion = tuple[int, tuple[int, ...], tuple[tuple[int, int], ...]]

_SPANS = ((0, 9), (9, 18), (18, 27), (27, 34))


def _blocks(counts: Sequence[int], suits: Sequence[bool], chows: bool, pungs_first: bool
            ) -> tuple[list[tuple[int, ...]], list[int], list[tuple[int, int]], list[int]]:
    """One greedy split of the kept suits: (sets, pairs, two tiles of a chow to be, singles)."""
    sets: list[tuple[int, ...]] = []
    pairs: list[int] = []
    partials: list[tuple[int, int]] = []
    singles: list[int] = []
    for i, (lo, hi) in enumerate(_SPANS):
        if not suits[i]:
            continue
        h = list(counts[lo:hi])
        n = hi - lo
        seq = chows and i < 3
        for r in range(n):
            if pungs_first and h[r] >= 3:
                h[r] -= 3
                sets.append((lo + r,) * 3)
            while seq and r + 2 < n and h[r] and h[r + 1] and h[r + 2]:
                h[r] -= 1
                h[r + 1] -= 1
                h[r + 2] -= 1
                sets.append((lo + r, lo + r + 1, lo + r + 2))
            if not pungs_first and h[r] >= 3:
                h[r] -= 3
                sets.append((lo + r,) * 3)
        for r in range(n):
            if h[r] >= 2:
                h[r] -= 2
                pairs.append(lo + r)
        if seq:
            for r in range(n):
                while h[r] and r + 1 < n and h[r + 1]:
                    h[r] -= 1
                    h[r + 1] -= 1
                    partials.append((lo + r, lo + r + 1))
                while h[r] and r + 2 < n and h[r + 2]:
                    h[r] -= 1
                    h[r + 2] -= 1
                    partials.append((lo + r, lo + r + 2))
        for r in range(n):
            singles.extend([lo + r] * h[r])
    return sets, pairs, partials, singles


def _chow_options(a: int, b: int) -> list[tuple[int, ...]]:
    """The chows two tiles of one suit (``a`` < ``b``) can become."""
    if b == a + 2:
        return [(a, a + 1, b)]
    out: list[tuple[int, ...]] = []
    if a % 9 >= 1:
        out.append((a - 1, a, b))
    if b % 9 <= 7:
        out.append((a, b, b + 1))
    return out


def _single_options(k: int, chows: bool) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = [(k, k, k)]
    if chows and k < 27:
        r = k % 9
        for lo in (r - 2, r - 1, r):
            if 0 <= lo <= 6:
                base = k - r + lo
                out.append((base, base + 1, base + 2))
    return out


def sets_and_pair(counts: Sequence[int], need: int, live: int, suits: Sequence[bool] = (True,) * 4,
                  chows: bool = True, limit: int = 6) -> list[Completion]:
    """A few plausible completions into ``need`` sets and a pair (the declared sets aside),
    keeping tiles of the ``suits`` (m, p, s, honors) only; ``chows``: False for pungs only.
    ``live``: the kinds of which a copy is still unseen (bit k for kind k), the only ones a
    completion adds; blocks are completed in order (chows to be before pairs made pungs,
    middle tiles held alone before ends and honors), and the ``limit`` cheapest are kept."""
    unseen = [live >> k & 1 for k in range(34)]
    if need < 0:
        return []
    out: list[Completion] = []
    seen: set[tuple[int, ...]] = set()
    for pungs_first in ((False, True) if chows else (True,)):
        sets, pairs, partials, singles = _blocks(counts, suits, chows, pungs_first)
        # The pair: each pair held (those least likely to become pungs first), else a single.
        eyes: list[tuple[int, int]] = [(k, 0) for k in pairs[:2]]
        if not eyes and singles:
            eyes = [(next((k for k in singles if unseen[k]), singles[0]), 1)]
        if not eyes:
            eyes = [(k, 2) for k in range(34) if suits[_SUIT[k]] and unseen[k]][:1]
        for eye, cost0 in eyes:
            final = [0] * 34
            final[eye] += 2
            used_single = cost0 == 1
            taken = sets[:need]
            for t in taken:
                for k in t:
                    final[k] += 1
            short = need - len(taken)
            options: list[tuple[int, int, tuple[int, ...]]] = []  # (live, block, set)
            if short:
                for i, k in enumerate(pairs):
                    if k != eye:
                        options.append((unseen[k], i, (k, k, k)))
                for j, (a, b) in enumerate(partials):
                    for chow in _chow_options(a, b):
                        missing = next(x for x in chow if x not in (a, b))
                        options.append((unseen[missing], len(pairs) + j, chow))
                # Chows before pungs among the equally available: a chow to be waits on
                # four copies of a tile (a two-sided one on either of two), a pung on two.
                options.sort(key=lambda o: (-o[0], o[2][0] == o[2][1]))
            used: set[int] = set()
            for avail, block, group in options:
                if short <= 0:
                    break
                if block in used or avail <= 0 or any(final[x] + group.count(x) > 4 for x in group):
                    continue
                used.add(block)
                for x in group:
                    final[x] += 1
                short -= 1
            if short:
                left = list(singles)
                if used_single:
                    left.remove(eye)
                picks: list[tuple[int, int, tuple[int, ...]]] = []
                for k in dict.fromkeys(left):
                    for group in _single_options(k, chows):
                        wanted = list(group)
                        wanted.remove(k)
                        avail = 1
                        for x in set(wanted):
                            avail *= unseen[x]
                        picks.append((avail, k, group))
                # Chows before pungs here too, then middle tiles before ends and honors: an
                # end or an honor held alone is the likelier discard.
                picks.sort(key=lambda o: (-o[0], o[2][0] == o[2][1], abs(o[1] % 9 - 4) if o[1] < 27 else 5))
                for avail, k, group in picks:
                    if short <= 0:
                        break
                    if avail <= 0 or k not in left or any(final[x] + group.count(x) > 4 for x in group):
                        continue
                    left.remove(k)
                    for x in group:
                        final[x] += 1
                    short -= 1
            if short:
                # Sets from nothing, the last resort: pungs of kinds still to be seen, in
                # the kept suits, where the hand holds no copy.
                for k in range(34):
                    if short <= 0:
                        break
                    if suits[_SUIT[k]] and unseen[k] and not counts[k] and final[k] == 0:
                        final[k] += 3
                        short -= 1
            if short:
                continue
            done = tuple(final)
            if done in seen:
                continue
            seen.add(done)
            adds = adds_of(counts, done)
            out.append((sum(n for _, n in adds), done, adds))
    # The cheapest first (the likeliest to come), each split's order kept among equals.
    out.sort(key=lambda c: c[0])
    return out[:limit]


def adds_of(counts: Sequence[int], final: Sequence[int]) -> tuple[tuple[int, int], ...]:
    return tuple((k, final[k] - counts[k]) for k in range(34) if final[k] > counts[k])


def pairs(counts: Sequence[int], number: int, quads: bool, bound: int, limit: int = 200) -> list[Completion]:
    """Completions into ``number`` pairs (a kind held four times two of them when ``quads``)."""
    kept = [0] * 34
    have = 0
    singles = []
    for k in range(34):
        c = counts[k]
        if c >= 4 and quads:
            kept[k] = 4
            have += 2
        elif c >= 2:
            kept[k] = 2
            have += 1
        elif c == 1:
            singles.append(k)
    if have > number:
        return []  # more pairs than the shape holds: give some up (never the best plan)
    short = number - have
    if short > bound or short > len(singles):
        return []
    out: list[Completion] = []
    for chosen in combinations(singles, short):
        final = list(kept)
        for k in chosen:
            final[k] = 2
        out.append((short, tuple(final), tuple((k, 1) for k in chosen)))
        if len(out) >= limit:
            break
    return out


def unique_plus_pair(counts: Sequence[int], tiles: Sequence[int], bound: int) -> list[Completion]:
    """Completions into one each of ``tiles`` and a second copy of one of them."""
    out: list[Completion] = []
    for x in tiles:
        final = [0] * 34
        for k in tiles:
            final[k] = 1
        final[x] = 2
        adds = adds_of(counts, final)
        cost = sum(n for _, n in adds)
        if cost <= bound:
            out.append((cost, tuple(final), adds))
    return out


def knitted_and_honors(counts: Sequence[int], singles: int, bound: int, limit: int = 200) -> list[Completion]:
    """Completions into ``singles`` different tiles of one knitted straight and the honors."""
    out: list[Completion] = []
    for kinds in KNITTED_KINDS:
        pool = [*kinds, *range(27, 34)]
        held = [k for k in pool if counts[k]]
        short = singles - len(held)
        if short > bound:
            continue
        if short <= 0:
            for kept in combinations(held, singles):
                final = [0] * 34
                for k in kept:
                    final[k] = 1
                out.append((0, tuple(final), ()))
            continue
        absent = [k for k in pool if not counts[k]]
        for chosen in combinations(absent, short):
            final = [0] * 34
            for k in held:
                final[k] = 1
            for k in chosen:
                final[k] = 1
            out.append((short, tuple(final), tuple((k, 1) for k in chosen)))
            if len(out) >= limit:
                return out
    return out


def knitted_sets_and_pair(counts: Sequence[int], need: int, bound: int, live: int) -> list[Completion]:
    """Completions into a knitted straight plus ``need`` sets and a pair."""
    out: list[Completion] = []
    for kinds in KNITTED_KINDS:
        missing = [k for k in kinds if not counts[k]]
        if len(missing) > bound:
            continue
        rest = list(counts)
        for k in kinds:
            if rest[k]:
                rest[k] -= 1
        for cost, final, _ in sets_and_pair(rest, need, live, limit=2):
            whole = list(final)
            for k in kinds:
                whole[k] += 1
            out.append((cost + len(missing), tuple(whole), adds_of(counts, whole)))
    return out


def shape_completions(shape: Shape, counts: Sequence[int], melds: int, bound: int, live: int,
                      suits: Sequence[bool] = (True,) * 4, limit: int = 6, chows: bool = True) -> list[Completion]:
    """Plausible completions of ``counts`` (with ``melds`` declared sets) into ``shape``,
    keeping tiles of the ``suits`` (m, p, s, honors) only, the special shapes' at most
    ``bound`` tiles away; [] for a shape kind without a generator. ``chows``: False for
    pungs only (sets and a pair)."""
    sets = shape.standard_sets
    if sets is not None:
        return sets_and_pair(counts, sets - melds, live, suits, chows, limit)
    if not chows:
        return []
    parts = shape.parts()
    if melds > parts.max_melds:
        return []
    if parts.knitted and parts.singles:
        found = knitted_and_honors(counts, parts.singles, bound, 4 * limit)
    elif parts.knitted:
        found = knitted_sets_and_pair(counts, parts.sets - melds, bound, live)
    elif parts.tiles and parts.pairs == 1:
        found = unique_plus_pair(counts, parts.tiles, bound)
    elif parts.pairs and not parts.sets and not parts.singles:
        found = pairs(counts, parts.pairs, parts.quads_as_two_pairs, bound, 4 * limit)
    else:
        return []
    if not all(suits):
        found = [c for c in found if not any(c[1][k] and not suits[_SUIT[k]] for k in range(34))]
    found.sort(key=lambda c: c[0])
    return found[:4 * limit]


_SUIT = tuple(k // 9 if k < 27 else 3 for k in range(34))

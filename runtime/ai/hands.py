"""Judging hands: each discard of a hand holding its extra tile, or a hand as it is.

Both give an :class:`~runtime.ai.value.Estimate` (the chance to win in the draws left, what
the wins would collect, their product) in one unit, what the seat can expect to collect,
so that a discard, a claim, a kong and a missing suit are all compared on it.

A hand is worth its best plan (plans.py). For each plan: its shanten and useful tiles after
each discard (from the plan's counter, every discard at once), the chance they give, and
the value of the plan's candidate completions, each scored by the variant (value.py). The
value is one per plan and hand, so that discards within a plan are told apart by speed,
and plans by speed times value: a plan heads for value only where its completions pay.

A completion keeping every copy of the discarded kind needs one back, which weighs it down
for that discard. A discard that leaves the hand ready is judged by its waits instead, over
every shape (the analysis's waits and the scorer's values).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from cardavia.compiler.model.hand import Meld
from cardavia.compiler.shapes.suits import kinds_in

from ..analysis import NEVER
from .plans import Plan
from .value import TYPICAL_USEFUL, Estimate, Rules, Scored, Seen

#: The shanten up to which a discard's own completions value it (see judge_discards).
NEAR = 1
#: The share of the draws left that pass, on average, before a completion is won (the
#: draws in which a flower may come and change its score).
COMPLETION_DRAWS = 0.5


@dataclass(slots=True, frozen=True)
class Depth:
    """How far a level looks: special shapes' completions this many tiles beyond the fewest
    (``slack``), at most ``limit`` completions a shape; discards up to ``breadth`` above a
    plan's lowest shanten are judged for it, in the ``plans`` best plans (by the hand's
    best discard) besides the plan of every kind."""

    slack: int
    limit: int
    breadth: int
    plans: int
    reach: int  # plans more than this above the lowest shanten are not judged


def split(seen: Seen, counts: Sequence[int]) -> tuple[list[int], int]:
    """(the counts without the declared missing suit, how many of its tiles are held)."""
    good = list(counts)
    suit = seen.missing_index
    if suit is None:
        return good, 0
    lo = 9 * suit
    junk = sum(good[lo:lo + 9])
    for k in range(lo, lo + 9):
        good[k] = 0
    return good, junk


def _avoid(rules: Rules, counts: Sequence[int], melds: tuple[Meld, ...]) -> int:
    """Kinds never useful: those the variant lacks, and those the hand and its sets hold every copy of."""
    out = ~rules.playable_mask & ((1 << 34) - 1)
    held = list(counts)
    for m in melds:
        for k in m.tiles:
            held[k] += 1
    copies = rules.copies
    for k in range(34):
        if held[k] >= copies[k]:
            out |= 1 << k
    return out


def _unseen_of(seen: Seen, mask: int) -> int:
    unseen = seen.unseen
    return sum(unseen[k] for k in kinds_in(mask))


def _scored(rules: Rules, seen: Seen, plan: Plan, cp: list[int], melds: tuple[Meld, ...], bound: int,
            depth: Depth) -> list[Scored]:
    """The plan's completions of ``cp`` (special shapes' within ``bound`` tiles), scored."""
    unseen = seen.unseen
    live = 0
    for k in range(34):
        if unseen[k]:
            live |= 1 << k
    live &= plan.mask
    flower = round(seen.flower_chance(COMPLETION_DRAWS), 1)  # rounded: a cache hit scores as a miss would
    key = (plan.name, tuple(cp), live, seen.context(melds), seen.seat, seen.out, seen.dealer, bound, depth.limit,
           flower, seen.flowers_left if flower else ())
    cache = rules.scored
    hit = cache.get(key)
    if hit is not None:
        return hit
    out: list[Scored] = []
    for _, final, adds in rules.completions(plan, cp, len(melds), bound, live, depth.limit):
        if not adds:
            continue
        # The winning tile: the completion's first kind, whatever the hand holds now, so
        # that a completion keeps its score from turn to turn (which tile is last only
        # moves a few patterns of the wait).
        win = next(k for k in range(34) if final[k])
        outcomes = rules.outcomes(seen, melds, final, win, flower)
        collects = valid = 0.0
        for p, totals in outcomes:
            c, v = rules.worth_parts(seen, totals)
            collects += p * c
            valid += p * v
        out.append((adds, final, collects, valid, max(outcomes[0][1])))
    if len(cache) > 20_000:
        cache.clear()
    cache[key] = out
    return out


def _weights(rules: Rules, seen: Seen, comps: list[Scored]) -> list[float]:
    """How likely each completion's missing tiles are all to come (each kind's chance taken
    as independent); 0 where a needed copy is not left or more tiles are needed than draws."""
    unseen = seen.unseen
    tails = rules.tails(seen)
    most = seen.draws * 1.6
    out = []
    for adds, _, _, _, _ in comps:
        w = 1.0
        if sum(n for _, n in adds) > most:
            w = 0.0
        else:
            for k, n in adds:
                w *= tails[min(n, 4)][min(unseen[k], 4)]
        out.append(w)
    return out


def _value(rules: Rules, seen: Seen, comps: list[Scored], weights: list[float], kind: int,
           held: int) -> tuple[float, int]:
    """(the weighted mean worth of the completions once ``kind`` (-1: none of the plan's) is
    discarded, held ``held`` times; the total of the likeliest valuable one, -1 if none)."""
    total_w = 0.0
    total_v = 0.0
    best_w = 0.0
    best = -1
    back = rules.tails(seen)[1][min(seen.unseen[kind], 4)] if kind >= 0 else 0.0
    flat = rules.flat(seen)
    for (_, final, collects, valid, top), w in zip(comps, weights):
        worth = collects + flat * valid
        if kind >= 0 and final[kind] >= held:
            w *= back  # the completion keeps every copy: the discard must come back
        if w <= 0.0:
            continue
        total_w += w
        total_v += w * worth
        if worth > 0 and w > best_w:
            best_w, best = w, top
    return (total_v / total_w if total_w > 0 else 0.0), best


def _overall(rules: Rules, seen: Seen, counts: list[int], nm: int, kinds: Sequence[int]) -> list[int]:
    """The shanten over every shape after each discard, the missing suit's tiles held
    counted as tiles to give up first."""
    good, junk = split(seen, counts)
    if not junk:
        return rules.evaluator.values(good, nm, kinds)
    out = []
    for k in kinds:
        counts[k] -= 1
        g, j = split(seen, counts)
        s = rules.evaluator.shanten(g, nm)
        out.append(max(s, j) if j else s)
        counts[k] += 1
    return out


def _short(rules: Rules, melds: int, kept: int) -> int:
    """The fewest draws before a hand with ``kept`` concealed tiles in a plan can be ready
    in it: each missing tile is one draw (the tables count only what the tiles held can
    become, as if the rest were held)."""
    return rules.analyst.hand_size - 1 - 3 * melds - kept


def _plans(rules: Rules, seen: Seen, counts: list[int], melds: tuple[Meld, ...], lowest: int,
           depth: Depth) -> list[tuple[Plan, list[int], int, list[Scored]]]:
    """The plans worth judging: (plan, its kept counts, its shanten, its scored completions)
    for the first plan (every kind) and the ``depth.plans`` others likeliest to pay (the
    chance their shanten gives at a typical number of useful tiles, times their value),
    those more than ``depth.reach`` above the hand's lowest shanten left out."""
    nm = len(melds)
    first: tuple[Plan, list[int], int, list[Scored]] | None = None
    others: list[tuple[float, int, tuple[Plan, list[int], int, list[Scored]]]] = []
    for plan in [*rules.plans(seen), *rules.target_plans(seen, counts, melds)]:
        if not plan.keeps(melds):
            continue
        cp = plan.restrict(counts)
        s = max(plan.counter.shanten(cp, nm), _short(rules, nm, min(sum(cp), sum(counts) - 1)))
        if s >= NEVER or (first is not None and s > lowest + depth.reach):
            continue
        comps = _scored(rules, seen, plan, cp, melds, max(s, 0) + 1 + depth.slack, depth)
        if first is None:
            first = (plan, cp, s, comps)
            continue
        value, _ = _value(rules, seen, comps, _weights(rules, seen, comps), -1, 0)
        if value <= 0.0:
            continue
        p_win, _ = rules.chance(max(s, 0), TYPICAL_USEFUL[min(max(s, 0), len(TYPICAL_USEFUL) - 1)], seen,
                                plan.claims)
        others.append((-p_win * value, len(others), (plan, cp, s, comps)))
    others.sort()
    out = [first] if first is not None else []
    out.extend(o[2] for o in others[:depth.plans])
    return out


def judge_hand(rules: Rules, seen: Seen, counts: list[int], melds: tuple[Meld, ...], depth: Depth,
               floor: float = 0.0) -> Estimate:
    """A hand one tile short of complete (``counts``: its concealed tiles), as it is; a hand
    not yet ready is worth at least ``floor`` (value.Rules.unseen_value)."""
    good, junk = split(seen, counts)
    nm = len(melds)
    shanten = rules.evaluator.shanten(good, nm)
    if junk:
        shanten = max(shanten, junk)
    if shanten >= NEVER:
        return Estimate(NEVER, 0, 0.0, 0.0, 0.0)
    if shanten == 0:
        return rules.ready(seen, counts, melds)
    avoid = _avoid(rules, counts, melds)
    best_est = Estimate(shanten, 0, 0.0, 0.0, 0.0)
    for plan, cp, s, comps in _plans(rules, seen, counts, melds, shanten, depth):
        value, best = _value(rules, seen, comps, _weights(rules, seen, comps), -1, 0)
        value = max(value, floor)
        table = plan.counter.shanten(cp, nm)
        if s > table:
            mask = plan.mask  # short of tiles: any tile of the plan is a step
        else:
            after = plan.counter.draws(cp, nm)
            mask = 0
            for k in range(34):
                if after[k] < s:
                    mask |= 1 << k
        useful = _unseen_of(seen, mask & plan.mask & ~avoid)
        first = rules.claimable(seen, cp, mask & plan.mask & ~avoid, plan.claims, plan.chows)
        p_win, p_ready = rules.chance(s, useful, seen, plan.claims, first)
        ev = p_win * value + rules.end_value(seen, p_win, p_ready, best)
        if ev > best_est.ev or (best_est.ev <= 0.0 and s < best_est.shanten):
            best_est = Estimate(s, useful, p_win, value, ev, best, plan.name)
    return best_est


def judge_discards(rules: Rules, seen: Seen, counts: list[int], melds: tuple[Meld, ...], kinds: Sequence[int],
                   depth: Depth, floor: float = 0.0) -> list[tuple[int, Estimate]]:
    """Each discard of ``kinds`` from a hand holding its extra tile, judged by its best plan
    (a hand not yet ready worth at least ``floor``); a discard no plan wants is judged by
    its shanten alone."""
    nm = len(melds)
    overall = _overall(rules, seen, counts, nm, kinds)
    lowest = min(overall)
    best: dict[int, Estimate] = {}
    for k, s in zip(kinds, overall):
        if s == 0:
            counts[k] -= 1
            best[k] = rules.ready(seen, counts, melds)
            counts[k] += 1
    avoid = _avoid(rules, counts, melds)
    for plan, cp, fewest, comps in _plans(rules, seen, counts, melds, lowest, depth):
        counter = plan.counter
        kept = [k for k in kinds if plan.mask >> k & 1 and not (k in best and best[k].shanten == 0)]
        given = [k for k in kinds if not plan.mask >> k & 1 and not (k in best and best[k].shanten == 0)]
        held = sum(cp)
        table = counter.values(cp, nm, kept) if kept else []
        short = _short(rules, nm, held - 1)
        values = [max(s, short) for s in table]
        judged = []
        cands = [(k, s, t) for k, s, t in zip(kept, values, table) if s <= fewest + depth.breadth]
        if cands:
            masks = counter.useful_after(cp, nm, [k for k, _, _ in cands], [t for _, _, t in cands])
            judged = [(k, s, m if s == t else plan.mask) for (k, s, t), m in zip(cands, masks)]
        if given:
            inside = counter.shanten(cp, nm)
            outside = max(inside, _short(rules, nm, held))
            if outside <= fewest + depth.breadth:
                if outside > inside:
                    mask = plan.mask  # short of tiles: any tile of the plan is a step
                else:
                    after = counter.draws(cp, nm)
                    mask = sum(1 << t for t in range(34) if after[t] < outside)
                judged.extend((k, outside, mask) for k in given)
        weights = _weights(rules, seen, comps)
        plan_value = _value(rules, seen, comps, weights, -1, 0)
        for k, s, mask in judged:
            # Near ready, which completions a discard keeps tells their values apart; further
            # away that is noise, and the plan's one value holds for every discard.
            if s <= NEAR:
                value, top = _value(rules, seen, comps, weights, k if plan.mask >> k & 1 else -1, counts[k])
            else:
                value, top = plan_value
            value = max(value, floor)
            useful = _unseen_of(seen, mask & plan.mask & ~avoid)
            held_k = int(cp[k] > 0)
            cp[k] -= held_k  # the hand the discard leaves: its pairs are what may pung
            first = rules.claimable(seen, cp, mask & plan.mask & ~avoid, plan.claims, plan.chows)
            cp[k] += held_k
            p_win, p_ready = rules.chance(s, useful, seen, plan.claims, first)
            ev = p_win * value + rules.end_value(seen, p_win, p_ready, top)
            old = best.get(k)
            if old is None or ev > old.ev or (old.ev <= 0.0 and ev <= 0.0
                                              and (s, -useful) < (old.shanten, -old.useful)):
                best[k] = Estimate(s, useful, p_win, value, ev, top, plan.name)
    out = []
    for k, s in zip(kinds, overall):
        est = best.get(k)
        out.append((k, est if est is not None else Estimate(s, 0, 0.0, 0.0, 0.0)))
    return out


def _one_draw_ahead(rules: Rules, seen: Seen, counts: list[int], good: list[int], now: int, nm: int,
                    base: float, best_after: Callable[[Seen, list[int]], float]) -> float:
    """A hand one tile short (``good``: without the missing suit, at shanten ``now``) worth
    ``base`` as it is, judged one draw ahead: each useful draw, at its chance, followed by
    ``best_after`` (the best the hand holding it can do, a draw later), and any other draw
    leaving the hand as it is."""
    later = replace(seen, draws=max(seen.draws - 1.0, 0.0), pool=max(seen.pool - 1, 0),
                    unseen=list(seen.unseen))
    after = rules.evaluator.draws(good, nm)
    unseen = seen.unseen
    pool = max(seen.pool, 1)
    total = 0.0
    mass = 0.0
    for u in rules.playable:
        if after[u] >= now or not unseen[u]:
            continue
        counts[u] += 1
        later.unseen[u] -= 1  # the drawn copy is no longer a wait's
        best = best_after(later, counts)
        counts[u] -= 1
        later.unseen[u] += 1
        p = unseen[u] / pool
        total += p * best
        mass += p
    return total + (1.0 - mass) * base


def look_ahead(rules: Rules, seen: Seen, counts: list[int], melds: tuple[Meld, ...], depth: Depth) -> float:
    """A hand one step from ready (``counts``: one tile short), judged one draw ahead: each
    useful draw, at its chance, followed by the best discard to a ready hand (judged by its
    waits, a draw later), and any other draw leaving the hand as it is. It tells apart the
    hands whose next step leads to good waits (many, and valid) from those whose does not."""
    nm = len(melds)
    good, junk = split(seen, counts)
    base = judge_hand(rules, seen, counts, melds, depth)
    if junk or rules.evaluator.shanten(good, nm) != 1:
        return base.ev

    def best_ready(later: Seen, held: list[int]) -> float:
        kinds = [k for k in range(34) if held[k]]
        best = 0.0
        for k, s in zip(kinds, rules.evaluator.values(held, nm, kinds)):
            if s == 0:
                held[k] -= 1
                best = max(best, rules.ready(later, held, melds).ev)
                held[k] += 1
        return best

    return _one_draw_ahead(rules, seen, counts, good, 1, nm, base.ev, best_ready)


def draw_ahead(rules: Rules, seen: Seen, counts: list[int], melds: tuple[Meld, ...], depth: Depth,
               floor: float = 0.0) -> float:
    """A hand two or more steps from ready (``counts``: one tile short), judged one draw
    ahead: each useful draw, at its chance, followed by the best discard (judged as every
    discard is, a draw later), and any other draw leaving the hand as it is."""
    nm = len(melds)
    good, junk = split(seen, counts)
    now = rules.evaluator.shanten(good, nm)
    base = judge_hand(rules, seen, counts, melds, depth, floor)
    if junk or now < 2 or now >= NEVER:
        return base.ev

    def best_discard(later: Seen, held: list[int]) -> float:
        kinds = [k for k in range(34) if held[k]]
        return max(est.ev for _, est in judge_discards(rules, later, held, melds, kinds, depth, floor))

    return _one_draw_ahead(rules, seen, counts, good, now, nm, base.ev, best_discard)

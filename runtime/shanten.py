"""Shanten (tiles away from ready) from per-suit tables, for the shapes a variant declares.

Standard shapes (sets and a pair) are counted one suit at a time. A suit's counts are one
base-5 integer, its *key* (seats keep their four keys up to date on every move); each key
maps once to the bit mask of the (sets, partial sets, pair) splits the suit allows, and
through it to the small id of an interned table of non-dominated splits. Suits are then
combined by merging and evaluating table ids, with every result cached under integer keys;
and a suit's table after each possible discard per suit key. ``shanten == -1`` means a
complete hand, 0 ready. Every other shape counts itself (compiler/shapes: ``Shape.shanten``,
closed formulas for pairs and unique-plus-pair shapes, and for knitted shapes the missing
tiles of a straight added to the standard shanten of the rest). Every cache is built as it
is needed and bounded. Which tiles complete a hand is the compiler's one answer
(compiler/shapes/waits.py), not this module's.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cardavia.compiler.shapes.base import Shape

_Split = tuple[int, int, int]  # (sets, partial sets, pair 0/1)


def _prune(splits: Iterable[_Split]) -> tuple[_Split, ...]:
    items = sorted(set(splits), reverse=True)
    kept: list[_Split] = []
    for s in items:
        if not any(k[0] >= s[0] and k[1] >= s[1] and k[2] >= s[2] for k in kept):
            kept.append(s)
    return tuple(kept)


HONOR_BASE = 5 ** 9
#: The value a kind adds to its suit's key.
WEIGHT: tuple[int, ...] = tuple(5 ** (k % 9) if k < 27 else 5 ** (k - 27) for k in range(34))
#: The suit (0-2 suited, 3 honors) of each kind.
SUIT_OF: tuple[int, ...] = tuple(k // 9 if k < 27 else 3 for k in range(34))
#: The keys of a hand holding nothing.
EMPTY_KEYS: tuple[int, int, int, int] = (0, 0, 0, HONOR_BASE)

_CAP = 4  # no shape needs more than four sets or partial sets

# One suit's possible splits as a bit mask: bit ``p * 25 + m * 5 + t`` is set when the suit can
# give (at least) m sets, t partial sets and p pairs (m, t capped at four). The set of such
# splits is closed downwards, so a suit's mask is the union over the ways its first tile can be
# used (pung, pair, pair as a partial, chow, two partials, left alone) of the mask of the rest
# shifted by what that use adds; computed once per suit key and kept (one small int per key).
_ROW_M4 = sum(1 << (p * 25 + 20 + t) for p in range(2) for t in range(5))  # m == 4
_COL_T4 = sum(1 << (p * 25 + m * 5 + 4) for p in range(2) for m in range(5))  # t == 4
_NO_PAIR = (1 << 25) - 1  # p == 0
_MASKS: dict[int, int] = {}  # suit key -> mask


def _with_set(mask: int) -> int:
    return ((mask & ~_ROW_M4) << 5) | (mask & _ROW_M4)


def _with_partial(mask: int) -> int:
    return ((mask & ~_COL_T4) << 1) | (mask & _COL_T4)


def suit_mask(key: int) -> int:
    """The split mask of one suit key (see above)."""
    hit = _MASKS.get(key)
    if hit is not None:
        return hit
    honors = key >= HONOR_BASE
    rest = key - HONOR_BASE if honors else key
    if rest == 0:
        mask = 1
    else:
        w = 1
        while rest // w % 5 == 0:
            w *= 5
        c0 = rest // w % 5
        mask = suit_mask(key - w)  # the first tile left alone
        if c0 >= 3:
            mask |= _with_set(suit_mask(key - 3 * w))
        if c0 >= 2:
            pair = suit_mask(key - 2 * w)
            mask |= ((pair & _NO_PAIR) << 25) | _with_partial(pair)
        if not honors:
            c1 = rest // (5 * w) % 5
            c2 = rest // (25 * w) % 5
            if c1 and c2:
                mask |= _with_set(suit_mask(key - 31 * w))
            if c1:
                mask |= _with_partial(suit_mask(key - 6 * w))
            if c2:
                mask |= _with_partial(suit_mask(key - 26 * w))
    if len(_MASKS) > 300_000:
        _MASKS.clear()  # a cache: masks are recomputed from their keys
    _MASKS[key] = mask
    return mask


def mask_splits(mask: int) -> tuple[_Split, ...]:
    """The non-dominated (sets, partials, pair) splits of a mask, sorted."""
    points = [(m, t, p) for p in range(2) for m in range(5) for t in range(5) if mask >> (p * 25 + m * 5 + t) & 1]
    return tuple(sorted(_prune(points)))


#: Interned split tables: equal tables are one object, so caches can key on ``id``.
_INTERN: dict[tuple[_Split, ...], tuple[_Split, ...]] = {}


def _intern(table: tuple[_Split, ...]) -> tuple[_Split, ...]:
    """``table`` must already be sorted."""
    return _INTERN.setdefault(table, table)


def _key_of(counts: Sequence[int], honors: bool) -> int:
    key = HONOR_BASE if honors else 0
    w = 1
    for c in counts:
        key += c * w
        w *= 5
    return key


def suit_table(counts: tuple[int, ...], honors: bool) -> tuple[_Split, ...]:
    """Non-dominated (sets, partials, pair) splits of one suit's counts (9, or 7 for honors),
    sets and partials capped at four (what combining needs), interned."""
    return _TABLES[table_of(_key_of(counts, honors))]


_MERGED: dict[tuple[int, int], tuple[_Split, ...]] = {}
_EVALUATED: dict[tuple[int, int, int], int] = {}


def merge(a: tuple[_Split, ...], b: tuple[_Split, ...]) -> tuple[_Split, ...]:
    """The splits of two suits together (interned; cached by the identity of interned tables)."""
    key = (id(a), id(b))
    hit = _MERGED.get(key)
    if hit is not None:
        return hit
    best: dict[tuple[int, int], int] = {}
    for m1, t1, p1 in a:
        for m2, t2, p2 in b:
            p = p1 + p2
            if p <= 1:
                m = m1 + m2
                if m > _CAP:
                    m = _CAP
                t = t1 + t2
                key2 = (m, p)
                if t > best.get(key2, -1):
                    best[key2] = t if t < _CAP else _CAP
    merged = _intern(tuple(sorted(_prune((m, t, p) for (m, p), t in best.items()))))
    _MERGED[key] = merged
    return merged


def evaluate(a: tuple[_Split, ...], b: tuple[_Split, ...], sets: int) -> int:
    """Standard shanten of two interned split tables together (one may hold several suits already)."""
    key = (id(a), id(b), sets)
    hit = _EVALUATED.get(key)
    if hit is not None:
        return hit
    best = 0
    for m1, t1, p1 in a:
        for m2, t2, p2 in b:
            p = p1 + p2
            if p > 1:
                continue
            m = m1 + m2
            if m > sets:
                m = sets
            t = t1 + t2
            rest = sets - m
            value = 2 * m + (t if t < rest else rest) + p
            if value > best:
                best = value
    _EVALUATED[key] = 2 * sets - best
    return 2 * sets - best


def combine(tabs: Sequence[tuple[_Split, ...]], sets: int) -> int:
    """Standard shanten from one split table per suit, needing ``sets`` sets and a pair."""
    return evaluate(merge(merge(tabs[0], tabs[1]), tabs[2]), tabs[3], sets)


def standard_shanten(counts: Sequence[int], sets: int) -> int:
    return standard_shanten_keys(suit_keys(counts), sets)


def shanten(counts: Sequence[int], melds: int, shapes: Sequence[Shape]) -> int:
    """The best shanten over the variant's shapes (34 counts of the concealed tiles); 99
    when none of them is counted."""
    best = 99
    for shape in shapes:
        value = shape.shanten(counts, melds, standard_shanten)
        if value is not None and value < best:
            best = value
    return best


def _suit_of(kind: int) -> int:
    return kind // 9 if kind < 27 else 3


# ---------------------------------------------------------------------------------------------
# Table-driven lookups keyed by per-suit count indices.
#
# A suit's nine counts (seven for honors) are one base-5 integer, its *key*; adding or removing
# a tile of kind k adds or subtracts ``WEIGHT[k]``, so a seat keeps its four keys up to date on
# every draw and discard. Honor keys carry ``HONOR_BASE`` so one dictionary holds every suit.
# Each key maps (once, then from a dictionary) to the small integer id of its interned split
# table; merges and evaluations of table ids are cached under integer keys.

_TABLES: list[tuple[_Split, ...]] = []  # id -> interned split table
_TABLE_IDS: dict[tuple[_Split, ...], int] = {}  # split table -> id
_KEY_TABLE: dict[int, int] = {}  # suit key -> id
_MERGE_IDS: dict[int, int] = {}  # (a << 16 | b) -> id
_EVAL_IDS: dict[int, int] = {}  # ((a << 16 | b) << 3 | sets) -> shanten


def suit_keys(counts: Sequence[int]) -> list[int]:
    """The four suit keys of 34 counts."""
    keys = [0, 0, 0, HONOR_BASE]
    for k in range(34):
        c = counts[k]
        if c:
            keys[SUIT_OF[k]] += c * WEIGHT[k]
    return keys


def _table_id(table: tuple[_Split, ...]) -> int:
    table = _intern(table)
    tid = _TABLE_IDS.get(table)
    if tid is None:
        tid = _TABLE_IDS[table] = len(_TABLES)
        _TABLES.append(table)
    return tid


_MASK_TABLE: dict[int, int] = {}  # mask -> table id


def table_of(key: int) -> int:
    """The split-table id of one suit key."""
    tid = _KEY_TABLE.get(key)
    if tid is None:
        mask = suit_mask(key)
        tid = _MASK_TABLE.get(mask)
        if tid is None:
            tid = _MASK_TABLE[mask] = _table_id(_intern(mask_splits(mask)))
        _KEY_TABLE[key] = tid
    return tid


def merge_ids(a: int, b: int) -> int:
    """:func:`merge` on table ids."""
    key = a << 16 | b
    hit = _MERGE_IDS.get(key)
    if hit is None:
        hit = _MERGE_IDS[key] = _table_id(merge(_TABLES[a], _TABLES[b]))
    return hit


def eval_ids(a: int, b: int, sets: int) -> int:
    """:func:`evaluate` on table ids: the standard shanten of the two tables together."""
    key = (a << 16 | b) << 3 | sets
    hit = _EVAL_IDS.get(key)
    if hit is None:
        hit = _EVAL_IDS[key] = evaluate(_TABLES[a], _TABLES[b], sets)
    return hit


def standard_shanten_keys(keys: Sequence[int], sets: int) -> int:
    """Standard shanten (``sets`` sets and a pair) of a hand given by its four suit keys."""
    get = _KEY_TABLE.get
    t0 = get(keys[0])
    if t0 is None:
        t0 = table_of(keys[0])
    t1 = get(keys[1])
    if t1 is None:
        t1 = table_of(keys[1])
    t2 = get(keys[2])
    if t2 is None:
        t2 = table_of(keys[2])
    t3 = get(keys[3])
    if t3 is None:
        t3 = table_of(keys[3])
    return eval_ids(merge_ids(merge_ids(t0, t1), t2), t3, sets)


def rest_ids(tabs: Sequence[int]) -> tuple[int, int, int, int]:
    """For each suit, the merged table id of the three other suits."""
    m01 = merge_ids(tabs[0], tabs[1])
    return (merge_ids(merge_ids(tabs[1], tabs[2]), tabs[3]), merge_ids(merge_ids(tabs[0], tabs[2]), tabs[3]),
            merge_ids(m01, tabs[3]), merge_ids(m01, tabs[2]))


_POWERS = tuple(5 ** i for i in range(9))
_DROPS: dict[int, tuple[int, ...]] = {}  # suit key -> table id after discarding each offset (-1: none held)
_RESTS: dict[int, tuple[int, int, int, int]] = {}  # packed four table ids -> rest_ids


def rests_of(tabs: Sequence[int]) -> tuple[int, int, int, int]:
    """:func:`rest_ids`, cached by the four table ids."""
    packed = ((tabs[0] << 16 | tabs[1]) << 16 | tabs[2]) << 16 | tabs[3]
    hit = _RESTS.get(packed)
    if hit is None:
        if len(_RESTS) > 200_000:
            _RESTS.clear()
        hit = _RESTS[packed] = rest_ids(tabs)
    return hit


def suit_drops(key: int) -> tuple[int, ...]:
    """The table id of the suit of ``key`` after discarding one tile of each offset (-1: none held)."""
    drops = _DROPS.get(key)
    if drops is None:
        if len(_DROPS) > 200_000:
            _DROPS.clear()
        digits = key - HONOR_BASE if key >= HONOR_BASE else key
        drops = _DROPS[key] = tuple(table_of(key - w) if digits // w % 5 else -1
                                    for w in _POWERS[:7 if key >= HONOR_BASE else 9])
    return drops


_ADDS: dict[int, tuple[int, ...]] = {}  # suit key -> table id after drawing each offset (-1: four held)


def suit_adds(key: int) -> tuple[int, ...]:
    """The table id of the suit of ``key`` after drawing one tile of each offset (-1 where
    four are held: no fifth copy exists, and a fifth would overflow its base-5 digit)."""
    adds = _ADDS.get(key)
    if adds is None:
        if len(_ADDS) > 200_000:
            _ADDS.clear()
        digits = key - HONOR_BASE if key >= HONOR_BASE else key
        adds = _ADDS[key] = tuple(table_of(key + w) if digits // w % 5 < 4 else -1
                                  for w in _POWERS[:7 if key >= HONOR_BASE else 9])
    return adds


def standard_draws(counts: Sequence[int], sets: int) -> list[int]:
    """Standard shanten (``sets`` sets and a pair) after drawing one tile of each of the 34
    kinds (99 for a kind held four times): one cached row per suit against the merged
    table of the other suits."""
    keys = suit_keys(counts)
    rests = rests_of([table_of(key) for key in keys])
    out = [99] * 34
    for suit in range(4):
        base = 9 * suit
        rest = rests[suit]
        for offset, new in enumerate(suit_adds(keys[suit])):
            if new >= 0:
                out[base + offset] = eval_ids(rest, new, sets)
    return out

"""An independent check of a played deal: replay its event log from the initial wall.

This is deliberately its own small code path (it shares no bookkeeping with
:mod:`runtime.deal`): it keeps its own wall pointers, hands, melds and discards, and
checks at every event that the tile moved was where the event says (draws from the
front, replacements from the end, discards from the hand, claims of the last discard,
chows only by the next seat, sets of the right shape), that hand sizes stay right,
that every win is a winning shape that meets the variant's minimum, and at the end that
every physical tile is in exactly one place and that the payments sum to zero and match
the reported deltas. It returns the list of violations (empty when the deal is sound).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardavia.compiler.model.hand import Hand, HandError, Meld
from cardavia.compiler.shapes.arrangements import completes

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant

#: The events that a seat takes part in (``seat``); ``pay`` and ``end`` name none.
_SEATED = frozenset({"deal", "draw", "flower", "discard", "chow", "pung", "kong", "win", "missing_suit", "exchange"})


def _shape_ok(kind: str, kinds: list[int]) -> bool:
    kinds = sorted(kinds)
    if kind == "chow":
        return len(kinds) == 3 and kinds[2] < 27 and kinds[0] // 9 == kinds[2] // 9 and \
            kinds == [kinds[0], kinds[0] + 1, kinds[0] + 2]
    need = 4 if kind == "kong" else 3
    return len(kinds) == need and len(set(kinds)) == 1


def validate(variant: CompiledVariant, wall: Sequence[int], dealer: int, events: Sequence[dict[str, Any]],
             deltas: Sequence[int] | None = None, repeats: int = 0) -> list[str]:
    """Violations found replaying ``events`` of a deal dealt from ``wall`` (physical ids);
    ``repeats``: how many deals in a row the dealer had kept the deal."""
    kinds = variant.tiles.kinds
    n = variant.table.players
    dealt = variant.table.other_tiles  # a hand between turns, a declared set counted three
    problems: list[str] = []
    if sorted(wall) != list(range(len(kinds))):
        return ["the initial wall is not every physical tile exactly once"]
    front, back = 0, len(wall)
    hands: list[list[int]] = [[] for _ in range(n)]
    melds: list[list[tuple[str, list[int], bool]]] = [[] for _ in range(n)]
    rivers: list[list[int]] = [[] for _ in range(n)]
    flowers: list[list[int]] = [[] for _ in range(n)]
    paid = [0] * n
    pending_discard: tuple[int, int] | None = None
    won = [False] * n
    missing: list[str | None] = [None] * n
    ended = False
    # The events of the deal a win is scored with, followed here on their own: a claim or
    # a kong ends the first turns; each seat's discards.
    interrupted = False
    discards = [0] * n
    # after_win: stay (Blood River): winners stay in, their winning tiles laid aside, their
    # hands locked (no claim but a win).
    stay = variant.play.after_win == "stay"
    aside: list[list[int]] = [[] for _ in range(n)]
    # play.exchange: every seat passes its tiles once, all to the seat the direction names;
    # a tile received in the exchange cannot be passed on in it.
    exchange = variant.play.exchange
    passed: set[int] = set()
    received: set[int] = set()

    def fail(i: int, msg: str) -> None:
        problems.append(f"event {i} ({events[i].get('type')}): {msg}")

    def size_ok(seat: int, extra: int) -> bool:
        return len(hands[seat]) == dealt - 3 * len(melds[seat]) + extra

    # (seat, tile) for each tile drawn right after its drawer exposed a flower: it replaced it
    replacing: set[tuple[int, int]] = set()
    previous: dict[str, Any] = {}
    for i, ev in enumerate(events):
        t = ev.get("type")
        before, previous = previous, ev
        if ended:
            fail(i, "event after the end")
        if t == "pay":
            amount = ev["amount"]
            if not isinstance(amount, int) or amount <= 0:
                fail(i, f"payment amount {amount!r} is not a positive integer")
            paid[ev["from"]] -= amount
            paid[ev["to"]] += amount
            continue
        if t == "end":
            ended = True
            continue
        if t not in _SEATED:
            fail(i, f"unknown event type {t!r}")
            continue
        seat = ev.get("seat")
        if not isinstance(seat, int) or not 0 <= seat < n:
            fail(i, f"{seat!r} is not a seat of this table")
            continue
        if t == "deal":
            ids = list(ev["ids"])
            if ids != list(wall[front:front + len(ids)]):
                fail(i, "dealt tiles are not the next tiles from the front of the wall")
            front += len(ids)
            hands[seat].extend(ids)
        elif t == "draw":
            tid = ev["id"]
            if ev.get("end") == "back":
                if back <= front or wall[back - 1] != tid:
                    fail(i, f"tile {tid} is not the last tile of the wall")
                back -= 1
            else:
                if front >= back or wall[front] != tid:
                    fail(i, f"tile {tid} is not the next tile from the front")
                front += 1
            if before.get("type") == "flower" and before.get("seat") == seat:
                replacing.add((seat, tid))
            if won[seat] and not stay:
                fail(i, f"seat {seat} has won and cannot draw")
            hands[seat].append(tid)
        elif t == "flower":
            tid = ev["id"]
            if tid not in hands[seat] or kinds[tid] < 34:
                fail(i, f"tile {tid} is not a bonus tile in seat {seat}'s hand")
            else:
                hands[seat].remove(tid)
                flowers[seat].append(tid)
        elif t == "discard":
            tid = ev["id"]
            if tid not in hands[seat]:
                fail(i, f"tile {tid} is not in seat {seat}'s hand")
                continue
            if not size_ok(seat, 1):
                fail(i, f"seat {seat} discards holding {len(hands[seat])} tiles with {len(melds[seat])} sets")
            hands[seat].remove(tid)
            rivers[seat].append(tid)
            discards[seat] += 1
            pending_discard = (seat, tid)
        elif t in ("chow", "pung") or (t == "kong" and ev.get("kong") == "exposed"):
            interrupted = True
            src, claimed, ids = ev.get("from"), ev.get("claimed"), list(ev["ids"])
            if won[seat]:
                fail(i, f"seat {seat} has won: its hand is locked and claims nothing but a win")
            last = pending_discard
            if last is None or last != (src, claimed) or last[1] not in rivers[last[0]]:
                fail(i, f"tile {claimed} is not the last discard of seat {src}")
                continue
            src, claimed = last  # the same values, typed
            if t == "chow" and seat != (src + 1) % n:
                fail(i, f"seat {seat} chows a discard of seat {src}: only the next seat may chow")
            own = [x for x in ids if x != claimed]
            if any(x not in hands[seat] for x in own) or len(own) != len(ids) - 1:
                fail(i, f"seat {seat} does not hold the tiles {own}")
                continue
            if not _shape_ok(t, [kinds[x] for x in ids]):
                fail(i, f"{[kinds[x] for x in ids]} is not a {t}")
            rivers[src].remove(claimed)
            for x in own:
                hands[seat].remove(x)
            melds[seat].append((t, ids, False))
            pending_discard = None
        elif t == "kong":
            interrupted = True
            ids = list(ev["ids"])
            if ev.get("kong") == "concealed":
                if any(x not in hands[seat] for x in ids) or not _shape_ok("kong", [kinds[x] for x in ids]):
                    fail(i, f"seat {seat} does not hold four matching tiles {ids}")
                    continue
                for x in ids:
                    hands[seat].remove(x)
                melds[seat].append(("kong", ids, True))
            else:
                added = ev.get("added")
                pung = None
                if isinstance(added, int) and added in hands[seat]:
                    pung = next((m for m in melds[seat] if m[0] == "pung" and kinds[m[1][0]] == kinds[added]), None)
                if added is None or pung is None:
                    fail(i, f"seat {seat} cannot add tile {added} to a pung")
                    continue
                hands[seat].remove(added)
                melds[seat][melds[seat].index(pung)] = ("kong", pung[1] + [added], False)
        elif t == "win":
            tid, src = ev["id"], ev.get("from")
            kind = kinds[tid]
            if src is None:
                if tid not in hands[seat]:
                    fail(i, f"self-drawn tile {tid} is not in seat {seat}'s hand")
                    continue
                concealed = list(hands[seat])
                concealed.remove(tid)
            else:
                concealed = list(hands[seat])
                if ev.get("takes"):
                    holder = hands[src] if ev.get("robbing_kong") else rivers[src]
                    if tid not in holder:
                        fail(i, f"tile {tid} is not where seat {src} left it")
                        continue
                    holder.remove(tid)
                    (aside[seat] if stay else hands[seat]).append(tid)
            robbing = bool(ev.get("robbing_kong"))
            on_discard = src is not None and not robbing
            deal = {"first_turn": not interrupted and discards[seat] == 0,
                    "first_go_around": not interrupted and sum(discards) - on_discard < n,
                    "dealer_first_discard": not interrupted and on_discard and src == dealer and discards[dealer] == 1,
                    "flower_replacement": src is None and (seat, tid) in replacing,
                    "dealer": seat == dealer, "tiles_left": back - front, "dealer_repeats": repeats}
            counts = [0] * 34
            for x in concealed:
                counts[kinds[x]] += 1
            counts[kind] += 1
            if not completes(counts, len(melds[seat]), variant.scoring.shapes):
                fail(i, f"seat {seat}'s hand is not a winning shape")
            else:
                hand = Hand(tuple(kinds[x] for x in concealed),
                            tuple(Meld(m[0], tuple(sorted(kinds[x] for x in m[1])), m[2]) for m in melds[seat]),
                            kind, tuple(kinds[x] for x in flowers[seat]), self_drawn=src is None,
                            seat_wind=27 + (seat - dealer) % n, round_wind=variant.table.round_wind,
                            missing_suit=missing[seat], kong_replacement=bool(ev.get("kong_replacement")),
                            robbing_kong=bool(ev.get("robbing_kong")), last_wall_tile=bool(ev.get("last_wall_tile")),
                            last_tile_of_kind=bool(ev.get("last_tile_of_kind")), extra={"deal": deal})
                try:
                    result = variant.scorer.score(hand)
                    if not result.valid or result.total != ev.get("total"):
                        fail(i, f"seat {seat}'s win is not valid as recorded ({result.total}, valid {result.valid})")
                except HandError as exc:
                    fail(i, f"seat {seat}'s winning hand cannot be scored: {exc}")
            won[seat] = True
            if stay and src is None and tid in hands[seat]:
                hands[seat].remove(tid)
                aside[seat].append(tid)
        elif t == "missing_suit":
            missing[seat] = ev.get("suit")
        elif t == "exchange":
            from .exchange import direction_of, target

            ids = list(ev.get("ids") or [])
            if exchange is None or seat in passed:
                fail(i, f"seat {seat} passes tiles on where the variant has no exchange, or twice")
                continue
            passed.add(seat)
            to = target(seat, direction_of(exchange, wall), n)
            suits = {kinds[x] // 9 if kinds[x] < 27 else 3 for x in ids if 0 <= x < len(kinds)}
            if ev.get("to") != to:
                fail(i, f"seat {seat}'s tiles go to seat {ev.get('to')}, not to seat {to}")
            elif len(ids) != exchange["tiles"] or (exchange["same_suit"] and (len(suits) != 1 or 3 in suits)):
                fail(i, f"seat {seat} passes {len(ids)} tiles of {len(suits)} suits: expected {exchange['tiles']}"
                        + (" of one suit" if exchange["same_suit"] else ""))
            elif any(x not in hands[seat] or x in received for x in ids):
                fail(i, f"seat {seat} does not hold the tiles {ids} it passes on")
            else:
                for x in ids:
                    hands[seat].remove(x)
                    hands[to].append(x)
                    received.add(x)
    if not ended:
        problems.append("the event log has no end")
    places = list(wall[front:back])
    for s in range(n):
        places += hands[s] + rivers[s] + flowers[s] + aside[s] + [x for m in melds[s] for x in m[1]]
    if sorted(places) != list(range(len(kinds))):
        problems.append(f"tiles not conserved: {len(places)} placed, {len(set(places))} distinct, "
                        f"{len(kinds)} expected")
    if sum(paid) != 0:
        problems.append(f"payments do not sum to zero: {paid}")
    if deltas is not None and list(deltas) != paid:
        problems.append(f"reported deltas {list(deltas)} differ from the payments {paid}")
    return problems


def validate_result(variant: CompiledVariant, result: dict[str, Any], wall_codes: Sequence[str] | None = None,
                    wall_ids: Sequence[int] | None = None) -> list[str]:
    """:func:`validate` for a replay result object (the wall as ids, or as codes)."""
    if wall_ids is None:
        from .wall import wall_from_codes

        wall_ids = wall_from_codes(variant.tiles, list(wall_codes or []))
    return validate(variant, wall_ids, result["dealer"], result["events"], result["deltas"],
                    result.get("dealer_repeats", 0))

"""Applying a variant's compiled payment rules (``compiler.settlement``) to deal events.

Every amount comes from the variant file; this module only decides, from the ``from``
selectors and the PLAYER conditions, who pays whom, and records each payment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardavia.compiler.settlement import KongRule, PairRule, RefundRule, Settlement, WinRule


@dataclass(slots=True, frozen=True)
class Payment:
    payer: int
    payee: int
    amount: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "reason": self.reason}


class _Names:
    """The names an expression reads (``c.total``, ``c.player``...)."""

    payer: Any

    def __init__(self, **values: Any) -> None:
        self.__dict__.update(values)


@dataclass(slots=True, frozen=True)
class PlayerFacts:
    """A PLAYER object for end-of-wall rules (attributes documented in ``PLAYER_ATTRS``)."""

    seat: int
    won: bool
    active: bool
    ready: bool
    pig: bool
    ready_value: int
    kong_income: int
    dealer: bool = False
    discarder: bool = False


def player(seat: int, won: Sequence[bool], dealer: int, discarder: int | None = None) -> PlayerFacts:
    """A PLAYER object for win and kong payments (``payer``, ``winner``, ``declarer``)."""
    return PlayerFacts(seat, won[seat], not won[seat], False, False, 0, 0, seat == dealer, seat == discarder)


def payers(selector: str, seat: int, from_seat: int | None, won: Sequence[bool]) -> list[int]:
    """The seats a ``from`` selector names, relative to ``seat`` (who is paid) and ``from_seat``."""
    n = len(won)
    others = [(seat + i) % n for i in range(1, n)]
    if selector == "discarder":
        return [from_seat] if from_seat is not None and from_seat != seat else []
    if selector == "each_opponent":
        return others
    if selector == "each_active_opponent":
        return [s for s in others if not won[s]]
    if selector == "other_opponents":
        return [s for s in others if s != from_seat]
    if selector == "other_active_opponents":
        return [s for s in others if s != from_seat and not won[s]]
    raise ValueError(f"unknown payer selector {selector!r}")


def base_amount(settlement: Settlement, total: int) -> int:
    return int(settlement.base.fn(_Names(total=total)))


def win_payments(settlement: Settlement, seat: int, from_seat: int | None, total: int, flags: dict[str, bool],
                 winners: int, won: Sequence[bool], events: dict[str, Any] | None = None,
                 dealer: int = 0) -> list[Payment]:
    """What the players pay ``seat`` for a win worth ``total`` (``won``: who had won before;
    ``events``: the events of the deal it was scored with). Each rule's ``when`` and
    ``amount`` are read once for each payer its ``from`` names."""
    base = base_amount(settlement, total)
    events = events or {}
    names = _Names(total=total, base=base, winners=winners, self_drawn=flags.get("self_drawn", False),
                   robbing_kong=flags.get("robbing_kong", False),
                   kong_replacement=flags.get("kong_replacement", False),
                   last_wall_tile=flags.get("last_wall_tile", False),
                   first_turn=bool(events.get("first_turn")), first_go_around=bool(events.get("first_go_around")),
                   dealer_first_discard=bool(events.get("dealer_first_discard")),
                   flower_replacement=bool(events.get("flower_replacement")),
                   tiles_left=int(events.get("tiles_left", 0)), dealer_repeats=int(events.get("dealer_repeats", 0)),
                   winner=player(seat, won, dealer, from_seat))
    out: list[Payment] = []
    for rule in settlement.win:
        _collect(rule, names, seat, from_seat, won, dealer, out)
    return out


def kong_payments(settlement: Settlement, kong: str, seat: int, from_seat: int | None,
                  won: Sequence[bool], dealer: int = 0, tiles_left: int = 0) -> list[Payment]:
    """What a kong of type ``kong`` (exposed, added, concealed) collects at once."""
    out: list[Payment] = []
    names = _Names(declarer=player(seat, won, dealer, from_seat), tiles_left=tiles_left)
    for rule in settlement.kongs:
        if rule.kong == kong:
            _collect(rule, names, seat, from_seat, won, dealer, out)
    return out


def _collect(rule: WinRule | KongRule, names: _Names, seat: int, from_seat: int | None, won: Sequence[bool],
             dealer: int, out: list[Payment]) -> None:
    """What each payer of ``rule`` owes ``seat``: the amount is worked out payer by payer
    (it may read ``payer``), and a payer its ``when`` leaves out or that owes nothing pays no line."""
    for p in payers(rule.payer, seat, from_seat, won):
        names.payer = player(p, won, dealer, from_seat)
        if rule.when is not None and not rule.when.fn(names):
            continue
        amount = int(rule.amount.fn(names))
        if amount > 0:
            out.append(Payment(p, seat, amount, rule.reason))


def exhausted_payments(settlement: Settlement, players: list[PlayerFacts],
                       kong_paid: Sequence[Payment]) -> list[Payment]:
    """End-of-wall settlement: the ``exhausted`` rules, in the order the variant lists them."""
    out: list[Payment] = []
    for rule in settlement.exhausted:
        if isinstance(rule, RefundRule):
            for p in players:
                if not rule.who.fn(_Names(player=p)):
                    continue
                owed: dict[int, int] = {}
                for pay in kong_paid:
                    if pay.payee == p.seat:
                        owed[pay.payer] = owed.get(pay.payer, 0) + pay.amount
                out.extend(Payment(p.seat, payer, amount, rule.reason) for payer, amount in sorted(owed.items())
                           if amount > 0)
        elif isinstance(rule, PairRule):
            for payer in players:
                if not rule.payer.fn(_Names(player=payer)):
                    continue
                for payee in players:
                    if payee.seat == payer.seat or not rule.payee.fn(_Names(player=payee)):
                        continue
                    amount = int(rule.amount.fn(_Names(payer=payer, payee=payee)))
                    if amount > 0:
                        out.append(Payment(payer.seat, payee.seat, amount, rule.reason))
    return out


def deltas(payments: Sequence[Payment], players: int) -> list[int]:
    out = [0] * players
    for p in payments:
        out[p.payer] -= p.amount
        out[p.payee] += p.amount
    return out

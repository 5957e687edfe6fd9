"""Compiled payment rules: win payments, kong payments, end-of-wall settlement.

The runtime applies them; this module only checks and compiles what the variant says.

* ``base``: the base amount of a win, from ``total`` (the capped total).
* ``ready_value``: what a ready hand could win at the ready check (``total`` is the best
  total over the tiles it waits on, without self-draw or win events); defaults to ``base``.
* ``win``: rules ``{when, from, amount}``; ``from`` names who pays the winner.
* ``kongs``: rules ``{kong: exposed|added|concealed, from, amount}`` paid when declared.
* ``exhausted``: in order, ``{refund_kongs: condition}`` (players meeting it refund
  their kong income) and ``{payer, payee, amount, reason}`` (every payer meeting its
  condition pays every other player meeting the payee condition).
"""

from __future__ import annotations

from typing import Any

from .language.checker import Env
from .language.compiled import Compiled
from .language.types import BOOL, INT, PLAYER
from .language.vocabulary import Fact
from .records import Record

#: Who pays, relative to the event: the names a ``from`` field may take.
PAYERS = ("discarder", "each_opponent", "each_active_opponent", "other_opponents")

WIN_NAMES = {"total": INT, "base": INT, "self_drawn": BOOL, "robbing_kong": BOOL, "kong_replacement": BOOL,
             "last_wall_tile": BOOL, "winners": INT}



def kong_reason(kind: str) -> str:
    """The reason a kong payment carries when its rule names none: ``exposed_kong`` and so on."""
    return f"{kind}_kong"

class WinRule(Record):
    when: Compiled | None
    payer: str
    amount: Compiled
    reason: str

    def __init__(self, when: Compiled | None, payer: str, amount: Compiled, reason: str) -> None:
        self.when = when
        self.payer = payer
        self.amount = amount
        self.reason = reason


class KongRule(Record):
    kong: str
    payer: str
    amount: Compiled
    reason: str

    def __init__(self, kong: str, payer: str, amount: Compiled, reason: str) -> None:
        self.kong = kong
        self.payer = payer
        self.amount = amount
        self.reason = reason


class RefundRule(Record):
    who: Compiled
    reason: str

    def __init__(self, who: Compiled, reason: str) -> None:
        self.who = who
        self.reason = reason


class PairRule(Record):
    payer: Compiled
    payee: Compiled
    amount: Compiled
    reason: str

    def __init__(self, payer: Compiled, payee: Compiled, amount: Compiled, reason: str) -> None:
        self.payer = payer
        self.payee = payee
        self.amount = amount
        self.reason = reason


class Settlement(Record):
    base: Compiled
    ready_value: Compiled
    win: list[WinRule]
    kongs: list[KongRule]
    exhausted: list[RefundRule | PairRule]

    def __init__(self, base: Compiled, ready_value: Compiled, win: list[WinRule] | None = None,
                 kongs: list[KongRule] | None = None, exhausted: list[RefundRule | PairRule] | None = None) -> None:
        self.base = base
        self.ready_value = ready_value
        self.win = win if win is not None else []
        self.kongs = kongs if kongs is not None else []
        self.exhausted = exhausted if exhausted is not None else []


def compile_settlement(c: Any, data: dict[str, Any]) -> Settlement:
    """Compile ``data['settlement']`` with the compiler ``c`` (which reports located problems)."""
    s = data["settlement"]
    # The total is never negative, and never above the cap when there is one: a lookup
    # table indexed by it is checked against that (settlement: [1, 2, 4, ...][total]).
    cap = data.get("scoring", {}).get("cap")
    total = Fact("total", INT, span=(0, cap if isinstance(cap, int) else None))
    total_env = Env.of({"total": total})
    base = c.expression(("settlement", "base"), total_env, INT, "the base amount")
    if "ready_value" in s:
        ready = c.expression(("settlement", "ready_value"), Env.of({"total": total, "base": INT}), INT,
                             "the ready value")
    else:
        ready = base
    win_env = Env.of({**WIN_NAMES, "total": total})
    wins = []
    for i, rule in enumerate(s.get("win") or []):
        path = ("settlement", "win", i)
        when = c.expression(path + ("when",), win_env, BOOL, "a payment condition") if "when" in rule else None
        amount = c.expression(path + ("amount",), win_env, INT, "a payment amount")
        if amount is not None:
            wins.append(WinRule(when, rule["from"], amount, rule.get("reason", "win")))
    kongs = []
    kong_env = Env.of({})
    for i, rule in enumerate(s.get("kongs") or []):
        path = ("settlement", "kongs", i)
        amount = c.expression(path + ("amount",), kong_env, INT, "a kong payment")
        if amount is not None:
            kongs.append(KongRule(rule["kong"], rule["from"], amount, rule.get("reason", kong_reason(rule["kong"]))))
    player_env = Env.of({"player": PLAYER})
    pair_env = Env.of({"payer": PLAYER, "payee": PLAYER})
    exhausted: list[RefundRule | PairRule] = []
    for i, rule in enumerate(s.get("exhausted") or []):
        path = ("settlement", "exhausted", i)
        if "refund_kongs" in rule:
            who = c.expression(path + ("refund_kongs",), player_env, BOOL, "who refunds kongs")
            if who is not None:
                exhausted.append(RefundRule(who, rule.get("reason", "kong_refund")))
            continue
        payer = c.expression(path + ("payer",), player_env, BOOL, "the payer condition")
        payee = c.expression(path + ("payee",), player_env, BOOL, "the payee condition")
        amount = c.expression(path + ("amount",), pair_env, INT, "the amount")
        if payer is not None and payee is not None and amount is not None:
            exhausted.append(PairRule(payer, payee, amount, rule["reason"]))
    # With a broken base or ready value the compiler has reported a problem and raises
    # before this settlement is used.
    return Settlement(base, ready, wins, kongs, exhausted)

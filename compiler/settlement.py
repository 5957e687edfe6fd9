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

from dataclasses import dataclass, field
from typing import Any

from .expressions import BOOL, INT, PLAYER, Compiled, Env

#: Who pays, relative to the event: the names a ``from`` field may take.
PAYERS = ("discarder", "each_opponent", "each_active_opponent", "other_opponents")

WIN_NAMES = {"total": INT, "base": INT, "self_drawn": BOOL, "robbing_kong": BOOL, "kong_replacement": BOOL,
             "last_wall_tile": BOOL, "winners": INT}


@dataclass
class WinRule:
    when: Compiled | None
    payer: str
    amount: Compiled
    reason: str


@dataclass
class KongRule:
    kong: str
    payer: str
    amount: Compiled
    reason: str


@dataclass
class RefundRule:
    who: Compiled
    reason: str


@dataclass
class PairRule:
    payer: Compiled
    payee: Compiled
    amount: Compiled
    reason: str


@dataclass
class Settlement:
    base: Compiled
    ready_value: Compiled
    win: list[WinRule] = field(default_factory=list)
    kongs: list[KongRule] = field(default_factory=list)
    exhausted: list[RefundRule | PairRule] = field(default_factory=list)


def compile_settlement(c: Any, data: dict[str, Any]) -> Settlement:
    """Compile ``data['settlement']`` with the compiler ``c`` (which reports located problems)."""
    s = data["settlement"]
    total_env = Env.of({"total": INT})
    base = c.expression(("settlement", "base"), total_env, INT, "the base amount")
    if "ready_value" in s:
        ready = c.expression(("settlement", "ready_value"), Env.of({"total": INT, "base": INT}), INT,
                             "the ready value")
    else:
        ready = base
    win_env = Env.of(WIN_NAMES)
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
            kongs.append(KongRule(rule["kong"], rule["from"], amount, rule.get("reason", f"{rule['kong']}_kong")))
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
    return Settlement(base, ready, wins, kongs, exhausted)  # type: ignore[arg-type]

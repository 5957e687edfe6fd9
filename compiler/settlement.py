"""Compiled payment rules: win payments, kong payments, end-of-wall settlement.

The runtime applies them; this module only checks and compiles what the variant says.

* ``base``: the base amount of a win, from ``total`` (the capped total).
* ``ready_value``: what a ready hand could win at the ready check (``total`` is the best
  total over the tiles it waits on, without self-draw or win events); defaults to ``base``.
* ``win``: rules ``{when, from, amount}``; ``from`` names who pays the winner; ``when`` and
  ``amount`` are read once for each payer (``payer``, ``winner``).
* ``kongs``: rules ``{kong: exposed|added|concealed, when, from, amount}`` paid when
  declared (``payer``, ``declarer``).
* ``exhausted``: in order, ``{refund_kongs: condition}`` (players meeting it refund
  their kong income) and ``{payer, payee, amount, reason}`` (every payer meeting its
  condition pays every other player meeting the payee condition).
"""

from __future__ import annotations

from typing import Any

from .language.checker import Env
from .language.compiled import Compiled
from .language.types import BOOL, INT, PLAYER, Type
from .language.vocabulary import Fact
from .records import Record

#: Who pays, relative to the event: the names a ``from`` field may take.
PAYERS = ("discarder", "each_opponent", "each_active_opponent", "other_opponents", "other_active_opponents")

#: The events of the deal a payment may read (as pattern conditions do).
DEAL_NAMES: dict[str, Type | Fact] = {"first_turn": BOOL, "first_go_around": BOOL, "dealer_first_discard": BOOL,
              "flower_replacement": BOOL,
              "tiles_left": Fact("tiles_left", INT, span=(0, None)),
              "dealer_repeats": Fact("dealer_repeats", INT, span=(0, None))}

WIN_NAMES: dict[str, Type | Fact] = {
    "total": INT, "base": INT, "self_drawn": BOOL, "robbing_kong": BOOL, "kong_replacement": BOOL,
    "last_wall_tile": BOOL, "winners": INT, "payer": PLAYER, "winner": PLAYER, **DEAL_NAMES}

KONG_NAMES: dict[str, Type | Fact] = {"payer": PLAYER, "declarer": PLAYER, "tiles_left": DEAL_NAMES["tiles_left"]}



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
    when: Compiled | None

    def __init__(self, kong: str, payer: str, amount: Compiled, reason: str, when: Compiled | None = None) -> None:
        self.kong = kong
        self.payer = payer
        self.amount = amount
        self.reason = reason
        self.when = when


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


class KongTransfer(Record):
    """Call transfer (呼叫转移): a win on the discard made right after a kong's replacement
    draw takes what that kong collected. ``several_winners``: ``first`` (the first winner in
    seat order after the discarder) or ``split`` (shared, the first ones taking the rest)."""

    several_winners: str
    reason: str

    def __init__(self, several_winners: str, reason: str) -> None:
        self.several_winners = several_winners
        self.reason = reason


class Settlement(Record):
    base: Compiled
    ready_value: Compiled
    win: list[WinRule]
    kongs: list[KongRule]
    exhausted: list[RefundRule | PairRule]
    kong_transfer: KongTransfer | None

    def __init__(self, base: Compiled, ready_value: Compiled, win: list[WinRule] | None = None,
                 kongs: list[KongRule] | None = None, exhausted: list[RefundRule | PairRule] | None = None,
                 kong_transfer: KongTransfer | None = None) -> None:
        self.base = base
        self.ready_value = ready_value
        self.win = win if win is not None else []
        self.kongs = kongs if kongs is not None else []
        self.exhausted = exhausted if exhausted is not None else []
        self.kong_transfer = kong_transfer


def compile_settlement(c: Any, data: dict[str, Any]) -> Settlement:
    """Compile ``data['settlement']`` with the compiler ``c`` (which reports located problems)."""
    s = data["settlement"]
    # The total is never negative, and never above the cap when there is one: a lookup
    # table indexed by it is checked against that (settlement: [1, 2, 4, ...][total]).
    scoring = data.get("scoring")
    cap = scoring.get("cap") if isinstance(scoring, dict) else None  # a bad scoring section is reported apart
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
    kong_env = Env.of(KONG_NAMES)
    for i, rule in enumerate(s.get("kongs") or []):
        path = ("settlement", "kongs", i)
        kwhen = c.expression(path + ("when",), kong_env, BOOL, "a kong payment condition") if "when" in rule else None
        amount = c.expression(path + ("amount",), kong_env, INT, "a kong payment")
        if amount is not None:
            kongs.append(KongRule(rule["kong"], rule["from"], amount, rule.get("reason", kong_reason(rule["kong"])),
                                  kwhen))
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
    transfer = s.get("kong_transfer")
    kong_transfer = None if transfer is None else KongTransfer(transfer.get("several_winners", "first"),
                                                               transfer.get("reason", "kong_transfer"))
    return Settlement(base, ready, wins, kongs, exhausted, kong_transfer)

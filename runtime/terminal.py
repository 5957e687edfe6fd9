"""The terminal game: you in seat 0 against three bots, one deal after another.

Input is read line by line from a text stream and every screen is written to another,
so the game runs the same in a terminal and in tests. Unknown or illegal input is
refused with a reason and the question is asked again; end of input quits.
"""

from __future__ import annotations

import random
from typing import Any, TextIO

from cardavia.compiler import load_variant
from cardavia.compiler.model.tiles import CODES, SUITS

from .actions import Action, Decision
from .bots import BaselineBot
from .controllers import play_deal
from .deal import Deal
from .simulate import deal_seed
from .wall import shuffled_wall

WINDS = "ESWN"
SUIT_NAMES = {"m": "characters", "p": "dots", "s": "bamboo"}
HUMAN = 0


class Quit(Exception):
    """The player asked to stop (or the input ended)."""


class Screen:
    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp = inp
        self.out = out

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str:
        self.out.write(prompt + " ")
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            raise Quit()
        answer = line.strip()
        if answer.lower() in ("q", "quit", "exit"):
            raise Quit()
        return answer


def _name(deal: Deal, seat: int) -> str:
    wind = WINDS[(seat - deal.dealer) % deal.n]
    return f"you ({wind})" if seat == HUMAN else f"seat {seat} ({wind})"


def _meld_text(deal: Deal, seat: int) -> str:
    parts = []
    for m in deal.melds[seat]:
        text = " ".join(deal.codes[t] for t in m.ids)
        parts.append("{" + text + "}" if m.concealed else "[" + text + "]")
    return " ".join(parts) or "-"


def _legend(deal: Deal) -> str:
    """What the codes mean, for the groups this variant's tile set has."""
    present = set(deal.kinds)
    parts = [f"{suit} {SUIT_NAMES[suit]}" for i, suit in enumerate(SUITS)
             if any(9 * i <= k < 9 * i + 9 for k in present)]
    if any(27 <= k < 31 for k in present):
        parts.append("1-4z winds E S W N")
    if any(31 <= k < 34 for k in present):
        parts.append("5z 6z 7z dragons white green red")
    if any(k >= 34 for k in present):
        parts.append("1-4f flowers, 5-8f seasons")
    return "tiles: " + " · ".join(parts)


class TerminalPlayer:
    """Seat 0's controller: shows the board and reads the choice."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen

    def board(self, deal: Deal) -> None:
        say = self.screen.say
        v = deal.variant
        say("")
        say(f"== {v.title} · round wind {WINDS[v.table.round_wind - 27]} · dealer {_name(deal, deal.dealer)} "
            f"· wall {deal.wall_left()} tiles ==")
        for seat in (1, 2, 3):
            status = " WON" if deal.won[seat] else ""
            missing = f" · missing {deal.missing[seat]}" if deal.missing[seat] else ""
            say(f"  {_name(deal, seat):<14} {len(deal.hands[seat]):>2} tiles{status}{missing}"
                f" · sets {_meld_text(deal, seat)}"
                f" · flowers {' '.join(deal.codes[t] for t in deal.flowers[seat]) or '-'}")
            say(f"  {'':<14} discards: {' '.join(deal.codes[t] for t in deal.rivers[seat]) or '-'}")
        missing = f" · missing suit {deal.missing[HUMAN]}" if deal.missing[HUMAN] else ""
        say(f"  {_name(deal, HUMAN):<14} sets {_meld_text(deal, HUMAN)} · flowers "
            f"{' '.join(deal.codes[t] for t in deal.flowers[HUMAN]) or '-'}{missing}")
        say(f"  {'':<14} discards: {' '.join(deal.codes[t] for t in deal.rivers[HUMAN]) or '-'}")
        say("  your hand:  " + "  ".join(f"{i}:{deal.codes[t]}" for i, t in enumerate(self.hand(deal), 1)))
        say("  " + _legend(deal))

    @staticmethod
    def hand(deal: Deal) -> list[int]:
        return sorted(deal.hands[HUMAN], key=lambda t: (deal.kinds[t], t))

    def choose(self, deal: Deal, decision: Decision) -> Action:
        self.board(deal)
        if decision.kind == "missing_suit":
            return self._missing(deal)
        if decision.kind == "turn":
            return self._turn(deal, decision)
        return self._claim(deal, decision)

    def _missing(self, deal: Deal) -> Action:
        counts = deal.counts[HUMAN]
        held = {s: sum(counts[i * 9:(i + 1) * 9]) for i, s in enumerate(SUITS)}
        fewest = min(SUITS, key=lambda s: held[s])
        menu = ", ".join(f"{s} = {SUIT_NAMES[s]} ({held[s]} held)" for s in SUITS)
        while True:
            answer = self.screen.ask(f"Choose your missing suit: {menu}. [Enter: {fewest}]").lower() or fewest
            if answer in SUITS:
                return Action("missing_suit", suit=answer)
            self.screen.say(f"  '{answer}' is not a suit: type m, p or s.")

    def _turn(self, deal: Deal, decision: Decision) -> Action:
        hand = self.hand(deal)
        discards = {o.tile for o in decision.options if o.do == "discard" and o.tile is not None}
        kongs = [(CODES[o.tile], o) for o in decision.options if o.do == "kong" and o.tile is not None]
        can_win = any(o.do == "win" for o in decision.options)
        drawn = decision.drawn
        default = drawn if drawn is not None and deal.kinds[drawn] in discards else None
        if drawn is not None:
            self.screen.say(f"  you drew {deal.codes[drawn]}")
        hints = ["a number to discard that tile"]
        if default is not None:
            hints.append(f"Enter to discard the tile you drew ({deal.codes[default]})")
        else:
            default = next(t for t in reversed(hand) if deal.kinds[t] in discards)
            hints.append(f"Enter to discard {deal.codes[default]}")
        if can_win:
            hints.append("w to declare a win")
        for kong_code, _ in kongs:
            hints.append(f"k {kong_code} to declare a kong")
        if len(discards) < len({deal.kinds[t] for t in hand}):
            hints.append("only " + " ".join(CODES[k] for k in sorted(discards)) + " may be discarded now")
        while True:
            answer = self.screen.ask("Your turn: " + "; ".join(hints) + ".")
            low = answer.lower()
            if low in ("w", "win"):
                if can_win:
                    return Action("win")
                self.screen.say("  you cannot win now: the hand is not a valid winning hand")
                continue
            if low.startswith("k"):
                code = low[1:].strip()
                match = [o for kong_code, o in kongs if not code or kong_code == code]
                if len(match) == 1:
                    return match[0]
                self.screen.say("  no kong is possible now" if not kongs else
                                "  say which kong: " + ", ".join(f"k {kong_code}" for kong_code, _ in kongs))
                continue
            if not answer and default is not None:
                tid = default
            elif answer.isdigit() and 1 <= int(answer) <= len(hand):
                tid = hand[int(answer) - 1]
            else:
                self.screen.say(f"  '{answer}' is not understood: type a tile number from 1 to {len(hand)}"
                                + (", w" if can_win else "") + (", k" if kongs else "") + " or q to quit")
                continue
            kind = deal.kinds[tid]
            if kind not in discards:
                self.screen.say(f"  {deal.codes[tid]} cannot be discarded now: the missing suit goes first")
                continue
            confirm = self.screen.ask(f"Discard {deal.codes[tid]} (tile #{tid})? [Enter/y: yes, n: no]").lower()
            if confirm in ("", "y", "yes"):
                return Action("discard", tile=kind, id=tid)

    def _claim(self, deal: Deal, decision: Decision) -> Action:
        assert decision.tile is not None and decision.from_seat is not None  # a claim or rob names both
        tile = CODES[decision.tile]
        who = _name(deal, decision.from_seat)
        if decision.kind == "rob":
            what = f"{who} adds {tile} to a pung: you can win by robbing the kong."
        else:
            what = f"{who} discards {tile}."
        menu: list[tuple[str, Action]] = []
        for o in decision.options:
            if o.do == "win":
                menu.append(("w", o))
            elif o.do == "pung":
                menu.append(("p", o))
            elif o.do == "kong":
                menu.append(("k", o))
            elif o.do == "chow":
                menu.append((f"c{sum(1 for key, _ in menu if key.startswith('c')) + 1}", o))
        labels = {"w": "win", "p": f"pung {tile}", "k": f"kong {tile}"}
        text = "; ".join(f"{key} = {labels.get(key) or o.label()}" for key, o in menu)
        while True:
            answer = self.screen.ask(f"{what} {text}; Enter = pass.").lower()
            if answer in ("", "pass", "x"):
                return Action("pass")
            chows = [o for key, o in menu if key.startswith("c")]
            if answer == "c" and len(chows) == 1:
                return chows[0]
            match = [o for key, o in menu if key == answer]
            if match:
                return match[0]
            self.screen.say(f"  '{answer}' is not one of: " + ", ".join(key for key, _ in menu) + " or Enter to pass")


class Narrator:
    """Prints the other players' moves (never their hidden tiles) as events happen."""

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.seen = 0

    def __call__(self, deal: Deal, *_: Any) -> None:
        for e in deal.events[self.seen:]:
            line = self.describe(deal, e)
            if line:
                self.screen.say("  " + line)
        self.seen = len(deal.events)

    @staticmethod
    def describe(deal: Deal, e: dict[str, Any]) -> str | None:
        t = e["type"]
        seat = e.get("seat")
        who = _name(deal, seat) if seat is not None else ""
        if t == "discard":
            return f"{who} discards {e['tile']}"
        if t in ("chow", "pung"):
            return f"{who} claims {' '.join(e['tiles'])} ({t}) from {_name(deal, e['from'])}"
        if t == "kong":
            if e["kong"] == "concealed":
                return f"{who} declares a concealed kong of {e['tiles'][0]}"
            src = f" from {_name(deal, e['from'])}" if e.get("from") is not None else ""
            return f"{who} declares a kong of {e['tiles'][0]} ({e['kong']}){src}"
        if t == "flower":
            return f"{who} shows flower {e['tile']}"
        if t == "missing_suit":
            return f"{who} declares the missing suit {e['suit']}"
        if t == "win":
            how = "self-drawn" if e.get("from") is None else f"on {_name(deal, e['from'])}'s tile"
            return f"{who} WINS with {e['tile']} ({how}), {e['total']} {deal.variant.scoring.unit}"
        if t == "draw" and seat == HUMAN and e.get("end") == "back":
            return f"you draw a replacement: {e['tile']}"
        return None


def summary(deal: Deal) -> list[str]:
    """The end-of-deal breakdown: each win with its patterns, every payment, the deltas."""
    names = {p.id: p.name for p in deal.variant.scoring.table.patterns}
    unit = deal.variant.scoring.unit
    lines = [f"== End of the deal: {deal.end} =="]
    for w in deal.wins:
        how = "self-drawn" if w.from_seat is None else f"from {_name(deal, w.from_seat)}"
        lines.append(f"{_name(deal, w.seat)} won with {CODES[w.tile]} {how}: {w.result.total} {unit}")
        hand = " ".join(deal.codes[t] for t in sorted(deal.hands[w.seat], key=lambda t: (deal.kinds[t], t)))
        lines.append(f"  hand: {hand}  sets: {_meld_text(deal, w.seat)}")
        for f in w.result.fans:
            count = f" x{f.count}" if f.count > 1 else ""
            lines.append(f"  {names.get(f.id, f.id):<32} {f.value}{count}")
    if not deal.wins:
        lines.append("Nobody won.")
    lines.append("Payments:" if deal.payments else "No payments.")
    for p in deal.payments:
        lines.append(f"  {_name(deal, p.payer)} pays {_name(deal, p.payee)} {p.amount} ({p.reason.replace('_', ' ')})")
    lines.append("Deltas: " + ", ".join(f"{_name(deal, s)} {d:+d}" for s, d in enumerate(deal.deltas())))
    return lines


def play_session(variant_name: str, seed: int | None, inp: TextIO, out: TextIO) -> int:
    """Deals until the player quits; returns the exit status."""
    variant = load_variant(variant_name)
    screen = Screen(inp, out)
    if seed is None:
        seed = random.SystemRandom().randrange(10 ** 6)
    screen.say(f"{variant.title}: {variant.summary}")
    screen.say(f"You are seat 0 against three computer players (the baseline bot). Seed {seed}. "
               f"Type q to quit at any prompt.")
    totals = [0] * variant.table.players
    number = 0
    try:
        while True:
            dealer = number % variant.table.players if variant.table.rotate_dealer else 0
            wall = shuffled_wall(variant.tiles, deal_seed(seed, number))
            deal = Deal(variant, wall, dealer)
            screen.say(f"\n-- Deal {number + 1}: dealer {_name(deal, dealer)} --")
            narrator = Narrator(screen)
            human = TerminalPlayer(screen)
            n = variant.table.players
            bots = [BaselineBot(deal_seed(seed, number * n + s)) for s in range(n)]
            controllers = [human if s == HUMAN else bots[s] for s in range(n)]
            narrator(deal)
            play_deal(deal, controllers, on_step=narrator)
            for line in summary(deal):
                screen.say(line)
            totals = [a + b for a, b in zip(totals, deal.deltas())]
            screen.say("Running totals: " + ", ".join(f"{_name(deal, s)} {t:+d}" for s, t in enumerate(totals)))
            while True:
                answer = screen.ask("Enter or n = next deal (the dealer moves on), q = quit.").lower()
                if answer in ("", "n", "next"):
                    break
                screen.say(f"  '{answer}' is not understood: Enter for the next deal, q to quit")
            number += 1
    except Quit:
        screen.say("Thanks for playing.")
    return 0

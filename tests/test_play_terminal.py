"""The terminal game driven through its input and output streams: a whole deal of each variant."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from cardavia.runtime.terminal import play_session

ROOT = Path(__file__).resolve().parent.parent


class Player(io.TextIOBase):
    """Reads the screen written so far and answers the last question like a careful new user."""

    def __init__(self, out: io.StringIO) -> None:
        self.out = out
        self.read_upto = 0
        self.log: list[tuple[str, str]] = []
        self.tried_nonsense = False
        self.tried_bad_number = False
        self.deals = 0

    def readline(self, size: int = -1) -> str:  # type: ignore[override]
        text = self.out.getvalue()
        screen, self.read_upto = text[self.read_upto:], len(text)
        prompt = screen.rstrip().splitlines()[-1]
        answer = self.answer(screen, prompt)
        self.log.append((prompt, answer))
        return answer + "\n"

    def answer(self, screen: str, prompt: str) -> str:
        if "Choose your missing suit" in prompt:
            return ""
        if "Your turn" in prompt:
            if "w to declare a win" in prompt:
                return "w"
            if not self.tried_nonsense:
                self.tried_nonsense = True
                return "zz"
            if not self.tried_bad_number:
                self.tried_bad_number = True
                return "99"
            board = [ln for ln in self.out.getvalue().splitlines() if "your hand:" in ln][-1]
            hand = re.findall(r"(\d+):(\d[mpsz])", board)
            only = re.search(r"only ((?:\d[mpsz] ?)+) may be discarded", prompt)
            allowed = only.group(1).split() if only else [code for _, code in hand]
            return next(number for number, code in hand if code in allowed)
        if prompt.startswith("Discard "):
            return "y"
        if "Enter = pass" in prompt:
            return "w" if "w = win" in prompt else ""
        if "next deal" in prompt:
            self.deals += 1
            return "q"
        raise AssertionError(f"unexpected prompt: {prompt!r}")


@pytest.mark.parametrize("variant", ["hk", "mcr", "sichuan"])
def test_a_whole_deal_through_the_terminal(variant: str) -> None:
    out = io.StringIO()
    player = Player(out)
    assert play_session(variant, 11, player, out) == 0
    text = out.getvalue()
    assert player.deals == 1
    assert "'zz' is not understood" in text and "'99' is not understood" in text
    assert "your hand:" in text and "discards:" in text and "wall" in text
    assert "== End of the deal:" in text and "Deltas:" in text and "Thanks for playing." in text
    if variant == "sichuan":
        assert "declares the missing suit" in text
    deltas = re.search(r"Deltas: (.*)", text).group(1)
    assert sum(int(n) for n in re.findall(r"([+-]\d+)", deltas)) == 0


def test_the_dealer_rotates_and_end_of_input_quits() -> None:
    out = io.StringIO()

    class TwoDeals(Player):
        def answer(self, screen: str, prompt: str) -> str:
            if "next deal" in prompt:
                self.deals += 1
                return "" if self.deals == 1 else "q"
            return super().answer(screen, prompt)

    player = TwoDeals(out)
    play_session("hk", 4, player, out)
    text = out.getvalue()
    assert "-- Deal 1: dealer you (E) --" in text and "-- Deal 2: dealer seat 1 (E) --" in text
    out2 = io.StringIO()
    assert play_session("sichuan", 1, io.StringIO(""), out2) == 0
    assert "Thanks for playing." in out2.getvalue()


def test_play_command_in_a_subprocess() -> None:
    proc = subprocess.run([sys.executable, "-m", "cardavia", "play", "sichuan", "--seed", "2"], cwd=ROOT,
                          input="\n" * 300 + "q\n", capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0
    assert "Choose your missing suit" in proc.stdout and "Your turn" in proc.stdout
    assert "Traceback" not in proc.stderr

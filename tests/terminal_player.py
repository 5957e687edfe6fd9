"""A careful new player for the terminal game, driven through its streams (tests only)."""

from __future__ import annotations

import io
import re


class Player(io.TextIOBase):
    """Reads the screen written so far and answers the last question: discards the tile
    just drawn (or the first allowed), confirms, wins when it can, passes other claims,
    and stops after ``deals`` deals. ``script`` answers the first questions first."""

    def __init__(self, out: io.StringIO, deals: int = 1, script: tuple[str, ...] = (), hints: bool = False) -> None:
        self.out = out
        self.hints = hints  # ask ? before each discard and follow the best hinted discard
        self.asked = False
        self.read_upto = 0
        self.log: list[tuple[str, str]] = []
        self.deals = deals
        self.finished = 0
        self.script = list(script)

    def readline(self, size: int = -1) -> str:  # type: ignore[override]
        text = self.out.getvalue()
        screen, self.read_upto = text[self.read_upto:], len(text)
        # the question, which the screen may have wrapped over lines
        prompt = " ".join(line.strip() for line in screen.rstrip().splitlines()[-3:])
        answer = self.script.pop(0) if self.script else self.answer(screen, prompt)
        self.log.append((prompt, answer))
        self.out.write(answer + "\n")  # what a terminal echoes
        self.read_upto = len(self.out.getvalue())
        return answer + "\n"

    def hand(self) -> list[str]:
        """The numbered hand last shown."""
        lines = self.out.getvalue().splitlines()
        for i in range(len(lines) - 2, -1, -1):
            if re.match(r"^\s+1\s+2\s+3\b", lines[i]):
                return lines[i + 1].split()
        raise AssertionError("no hand on the screen")

    def answer(self, screen: str, prompt: str) -> str:
        if "Choose your missing suit" in prompt or "Pass on" in prompt:
            return ""  # the suggestion
        if "[Enter/y = yes, n = no]" in prompt:
            return "y"
        if "You can win" in prompt or "rob the kong" in prompt or ("Discard which tile?" not in prompt and \
                "w = win" in prompt):
            return "w"
        if "Discard which tile?" in prompt:
            if self.hints:
                if not self.asked:
                    self.asked = True
                    return "?"
                self.asked = False
                best = re.findall(r"^Discard (\d[mpsz]):", screen, flags=re.M)
                if best:
                    return str(self.hand().index(best[0]) + 1)
            if "Enter =" in prompt:
                return ""
            only = re.findall(r"Only ((?:\d[mpsz] ?)+) may be discarded", self.out.getvalue())
            hand = self.hand()
            allowed = only[-1].split() if only and "missing suit" in screen else hand
            return str(next(i for i, code in enumerate(hand, 1) if code in allowed))
        if "= pass" in prompt:
            return "w" if "w = win" in prompt else ("x" if "x = pass" in prompt else "")
        if "next deal" in prompt:
            self.finished += 1
            return "" if self.finished < self.deals else "q"
        raise AssertionError(f"unexpected prompt: {prompt!r}")

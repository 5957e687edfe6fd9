"""The terminal game driven through its input and output streams: whole deals of each
variant and language, the hints, the protection of wins against typeahead, a refused win
explained, Ctrl-C, Sichuan's hidden missing suits, the width of the screen, and bad
streams and input."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from cardavia.compiler import load_variant
from cardavia.runtime.actions import Decision
from cardavia.runtime.bots import BaselineBot
from cardavia.runtime.deal import Deal
from cardavia.runtime.screen import Screen
from cardavia.runtime.telling import Words
from cardavia.runtime.terminal import Game, Narrator, TerminalPlayer, play_session
from cardavia.runtime.wall import shuffled_wall
from rich.text import Text
from terminal_player import Player

ROOT = Path(__file__).resolve().parent.parent
#: The tests that follow one game move by move (a hint at a given turn, a win offered) play
#: it against the baseline bots, whose moves they were written for; the default opponents
#: (the AI) play other games.
BASELINES = ["baseline"] * 3


def _lines(text: str) -> list[str]:
    return text.splitlines()


@pytest.mark.parametrize("variant", ["hk", "mcr", "sichuan"])
def test_a_whole_deal_through_the_terminal_fits_80_columns(variant: str) -> None:
    out = io.StringIO()
    first = ("",) if variant == "sichuan" else ()  # Sichuan asks for the missing suit first
    player = Player(out, script=(*first, "zz", "99", "\u00b2"))  # nonsense, a number too high, a superscript two
    assert play_session(variant, 11, player, out) == 0
    text = out.getvalue()
    assert player.finished == 1
    assert "'zz' is not understood" in text and "'99' is not understood" in text and "'\u00b2' is not" in text
    assert "End of the deal:" in text and "Every hand:" in text and "This deal:" in text
    assert text.count("Running totals:") == 1 and "Thanks for playing." in text  # shown once, not again on q
    assert max(Text(line).cell_len for line in _lines(text)) <= 80
    deltas = re.search(r"This deal: (.*)\.", text).group(1)
    assert sum(int(n) for n in re.findall(r"([+-]\d+)", deltas)) == 0
    if variant == "sichuan":
        assert "Missing suits:" in text
        assert "wind" not in text and "flower" not in text  # Sichuan has neither
    else:
        assert "round wind E" in text


@pytest.mark.parametrize("lang", ["it", "pt", "ms", "de", "zh-Hans", "zh-Hant"])
def test_a_deal_in_every_language(lang: str) -> None:
    out = io.StringIO()

    class Any(Player):
        def answer(self, screen: str, prompt: str) -> str:
            if prompt.rstrip().endswith("]"):
                return "y"  # a confirmation
            if "1-1" in prompt:
                return str(len(self.hand()))  # the tile just drawn (or the last)
            if "x = " in prompt or "w = " in prompt:
                return "w" if "w = " in prompt else "x"
            return "q" if "q = " in prompt else ""

    assert play_session("hk", 5, Any(out), out, lang=lang) == 0
    text = out.getvalue()
    # Every placeholder filled (a concealed kong is shown in braces, as {5555z}).
    assert "{" not in re.sub(r"\{\d{4}[mpsz]\}", "", text)
    assert "Thanks for playing." not in text and "Running totals" not in text  # all translated
    assert max(Text(line).cell_len for line in _lines(text)) <= 80  # wide characters counted as two columns


def test_hints_show_the_waits_and_what_each_win_is_worth() -> None:
    out = io.StringIO()
    player = Player(out, hints=True)
    play_session("hk", 3, player, out, players=BASELINES)
    text = out.getvalue()
    assert "The right discard leaves you ready." in text
    assert re.search(r"Discard \dp: ready on 5p \(4 left: 2 faan, below the minimum, self-drawn 3 faan\)\.", text)
    assert "READY: 5p" in text  # the marker stays on the board while ready


def test_a_refused_win_is_explained_when_it_happens() -> None:
    out = io.StringIO()
    play_session("hk", 3, Player(out, hints=True), out, players=BASELINES)
    assert ("5p would complete your hand, but it is worth 2 faan toward the minimum, 3 faan \nneeded: no win."
            in out.getvalue())


def test_passing_on_a_win_needs_an_explicit_answer() -> None:
    out = io.StringIO()

    class Careless(Player):
        """Presses Enter at the first win offered, then answers it properly."""

        pressed = 0

        def answer(self, screen: str, prompt: str) -> str:
            if "w = win" in prompt and self.pressed < 2:
                self.pressed += 1
                return ""
            return super().answer(screen, prompt)

    player = Careless(out, hints=True)
    play_session("hk", 9, player, out, players=BASELINES)
    text = out.getvalue()
    assert player.pressed == 2
    assert text.count("To pass on this win, type x; to win, type w.") == 2
    assert "You win on" in text


def test_typeahead_before_a_win_prompt_does_not_pass_the_win() -> None:
    """A real terminal (a pseudo-terminal): the answers of a deal in which a win is offered
    on a discard, given one at a time, but the one before the offer followed by two spare
    Enters, as a player in a hurry types them. They wait in the terminal's input; before
    the win is offered they are thrown away, so the win is still there to take."""
    rehearsal = io.StringIO()
    player = Player(rehearsal, hints=True)
    play_session("hk", 9, player, rehearsal, players=BASELINES)
    offer = next(i for i, (prompt, _) in enumerate(player.log) if "x = pass" in prompt)
    answers = [answer for _, answer in player.log[:offer]]

    master, slave = os.openpty()
    inp = os.fdopen(slave, "r", encoding="utf-8", closefd=True)
    lock = threading.Lock()

    class Shared(io.StringIO):
        def write(self, s: str) -> int:
            with lock:
                return super().write(s)

        def getvalue(self) -> str:
            with lock:
                return super().getvalue()

    out = Shared()
    result: list[int] = []
    worker = threading.Thread(target=lambda: result.append(play_session("hk", 9, inp, out, players=BASELINES)),
                              daemon=True)
    worker.start()

    def waiting(after: int) -> str:
        """The screen once the game waits for an answer (it stopped writing a prompt)."""
        last, since = "", time.monotonic()
        while time.monotonic() < since + 60:
            time.sleep(0.01)
            text = out.getvalue()
            if text != last:
                last, since = text, time.monotonic()
            elif len(text) > after and text.endswith((": ", "] ")) and time.monotonic() - since > 0.1:
                return text
        raise AssertionError("the game stopped asking: " + last[-2000:])

    try:
        seen = 0
        for i, answer in enumerate(answers):
            seen = len(waiting(seen))
            spare = "\n\n" if i == len(answers) - 1 else ""
            os.write(master, (answer + "\n" + spare).encode())
        text = waiting(seen)
        tail = " ".join(line.strip() for line in text.splitlines()[-3:])
        assert "x = pass" in tail and "w = win" in tail
        assert "To pass on this win" not in text[seen:]  # no spare Enter reached the question
        os.write(master, b"w\n")
        text = waiting(len(text))
        assert "You win on" in text
        os.write(master, b"q\n")
        worker.join(10)
    finally:
        os.close(master)
    assert result == [0]


def test_ctrl_c_keeps_the_running_totals() -> None:
    out = io.StringIO()

    class Interrupting(Player):
        def readline(self, size: int = -1) -> str:  # type: ignore[override]
            if len(self.log) == 30:
                raise KeyboardInterrupt
            return super().readline(size)

    player = Interrupting(out, deals=9)
    assert play_session("mcr", 4, player, out, players=BASELINES) == 130
    assert player.finished == 1  # a deal was played to its end, the second interrupted
    text = out.getvalue()
    assert "Interrupted." in text and "The deal in progress is not counted." in text and "Traceback" not in text
    before, after = text.split("Interrupted.")
    kept = re.findall(r"Running totals: (.*)\.", before)
    totals = re.findall(r"Running totals: (.*)\.", after)
    assert totals == kept  # the first deal's totals, shown again
    numbers = [int(n) for n in re.findall(r"([+-]\d+)", totals[0])]
    assert sum(numbers) == 0 and any(numbers)


def test_sichuan_hides_the_other_missing_suits_until_yours_is_chosen() -> None:
    v = load_variant("sichuan")
    deal = Deal(v, shuffled_wall(v.tiles, 21), 1)  # seat 1 deals: seats 1, 2, 3 choose before you
    out = io.StringIO()
    game = Game(v, Screen(io.StringIO("m\n"), out), Words(v))
    narrator = Narrator(game)
    bot = BaselineBot(1)
    while deal.pending()[0].seat != 0:
        decision = deal.pending()[0]
        deal.act(decision.seat, bot.choose(deal, decision))
        narrator(deal)
    assert all(deal.missing[s] for s in (1, 2, 3))
    game.board(deal, 1)
    decision: Decision = deal.pending()[0]
    before = out.getvalue()
    assert "missing" not in before.lower()  # neither told nor on the board
    deal.act(0, TerminalPlayer(game, 1).choose(deal, decision))
    narrator(deal)
    after = out.getvalue()[len(before):]
    assert "Missing suits: you: characters, seat 1: " in after


def test_the_play_command_survives_bad_streams() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = [sys.executable, "-m", "cardavia", "play", "sichuan", "--seed", "2", "--pace", "0"]
    ascii_only = subprocess.run(run + ["--lang", "zh-Hans"], input=b"\n" * 200 + b"q\n", capture_output=True,
                                env={**env, "PYTHONIOENCODING": "ascii"}, cwd=ROOT, timeout=120)
    assert ascii_only.returncode == 0 and b"Traceback" not in ascii_only.stderr
    closed_in = subprocess.run(run, stdin=subprocess.DEVNULL, capture_output=True, env=env, cwd=ROOT, timeout=60)
    assert closed_in.returncode == 0 and b"Thanks for playing." in closed_in.stdout
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            filled = subprocess.run(run, input=b"q\n", stdout=full, stderr=subprocess.PIPE, env=env, cwd=ROOT,
                                    timeout=60)
        assert filled.returncode == 1 and b"Traceback" not in filled.stderr
        assert b"cannot write the game to standard output" in filled.stderr
    closed_out = subprocess.run(run, input=b"q\n", stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                                cwd=ROOT, timeout=60, close_fds=True)
    assert closed_out.returncode == 0
    bad_lang = subprocess.run(run + ["--lang", "xx"], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert bad_lang.returncode == 2 and "unknown language 'xx'" in bad_lang.stderr
    for players, message in (("ai,wizard,ai", "unknown kind 'wizard'"), ("ai,ai", "the 3 other seats")):
        bad = subprocess.run(run + ["--players", players], capture_output=True, text=True, env=env, cwd=ROOT,
                             timeout=60)
        assert bad.returncode == 2 and message in bad.stderr


def test_every_ai_level_and_the_baseline_can_sit_at_the_table() -> None:
    out = io.StringIO()
    players = ["ai:easy", "ai:strong", "baseline"]
    assert play_session("sichuan", 11, Player(out, script=("",)), out, players=players) == 0
    assert "Thanks for playing." in out.getvalue()


def _pty_game(args: list[str], env: dict[str, str]) -> bytes:
    """What ``cardavia play`` writes to a terminal (a pseudo-terminal) when q is typed at once."""
    master, slave = os.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "cardavia", "play", *args], stdin=subprocess.PIPE,
                                stdout=slave, stderr=subprocess.PIPE, cwd=ROOT, env=env)
        os.close(slave)
        proc.stdin.write(b"q\n")  # type: ignore[union-attr]
        proc.stdin.close()  # type: ignore[union-attr]
        chunks = []
        while True:
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:  # the game ended: the terminal is gone
                break
            if not chunk:
                break
            chunks.append(chunk)
        assert proc.wait(60) == 0
    finally:
        os.close(master)
    return b"".join(chunks)


def test_colour_on_a_terminal_off_with_no_color_or_the_flag() -> None:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env["PYTHONPATH"] = str(ROOT)
    args = ["hk", "--seed", "1", "--pace", "0"]
    coloured = _pty_game(args, env)
    assert b"\x1b[" in coloured and b"Thanks for playing." in coloured
    assert b"\x1b[" not in _pty_game(args, {**env, "NO_COLOR": "1"})
    assert b"\x1b[" not in _pty_game([*args, "--no-color"], env)


def test_colour_marks_suits_in_sentences_the_drawn_tile_and_the_newest_discard() -> None:
    v = load_variant("hk")
    deal = Deal(v, shuffled_wall(v.tiles, 3), 0)
    out = io.StringIO()
    screen = Screen(io.StringIO(), out, color=True)
    game = Game(v, screen, Words(v))
    screen.say("Seat 1 (S) discards 5p; 1z-4z winds; [567p] and wall 91 stay plain.")
    line = out.getvalue().splitlines()[0]
    assert "\x1b[34m5p\x1b[" in line and "\x1b[1m1z\x1b[" in line and "\x1b[1m4z\x1b[" in line  # dots blue, honors bold
    assert "[567p]" in line and "wall 91" in line
    game.your_hand(deal)  # the dealer's fourteenth tile, just drawn, shown reversed
    assert out.getvalue().splitlines()[-2].endswith("\x1b[7;31m5m\x1b[0m")  # reversed, after the others
    bot = BaselineBot(1)
    decision = deal.pending()[0]
    deal.act(0, bot.choose(deal, decision))
    out.seek(0)
    out.truncate()
    game.board(deal, 1)
    assert re.search("discards: \x1b\\[1;4;3\\dm[1-9][mpsz]\x1b\\[0m$", out.getvalue(), flags=re.M)  # bold underline
    plain = io.StringIO()
    Screen(io.StringIO(), plain).say("discards 5p")  # not a terminal: no colour
    assert plain.getvalue() == "discards 5p\n"


def test_unicode_tiles_where_the_output_can_show_them() -> None:
    out = io.StringIO()
    player = Player(out)
    assert play_session("hk", 1, player, out, tiles="unicode") == 0 and player.finished == 1
    text = out.getvalue()
    assert "\U0001F019" in text or "\U0001F007" in text  # dots or characters as tiles
    assert not re.search(r"discards [1-9][mps]\.", text)  # the moves too, not only the hand
    assert max(Text(line).cell_len for line in _lines(text)) <= 80
    raw = io.BytesIO()
    ascii_out = io.TextIOWrapper(raw, encoding="ascii", write_through=True)
    player = Player(io.StringIO(), script=("q",))
    play_session("hk", 1, player, ascii_out, tiles="unicode")
    shown = raw.getvalue().decode("ascii")
    assert re.search(r"you drew [1-9][mpsz]", shown)  # codes where the output cannot show the tiles


def test_the_others_moves_come_at_the_pace(monkeypatch: pytest.MonkeyPatch) -> None:
    pauses: list[float] = []
    monkeypatch.setattr("cardavia.runtime.screen.time.sleep", pauses.append)
    out = io.StringIO()
    play_session("hk", 1, Player(out), out, pace=0.25)
    played = out.getvalue().split("End of the deal")[0]
    moves = [line for line in _lines(played) if re.match(r"Seat \d \([SWN]\) [a-z]", line)]  # not the board's
    assert pauses and set(pauses) == {0.25}
    assert len(pauses) == len(moves)  # one pause after each of the others' moves
    pauses.clear()
    out = io.StringIO()
    play_session("hk", 1, Player(out), out, pace=0)
    assert pauses == []


def test_a_value_below_the_minimum_says_what_counts_toward_it() -> None:
    """MCR: flower points add to a win's total but not toward the 8-point minimum."""
    from cardavia.compiler.model.hand import Meld
    from cardavia.compiler.model.tiles import parse_tiles
    from cardavia.runtime.analysis import View, analyst

    v = load_variant("mcr")
    words = Words(v)
    melds = (Meld("pung", tuple(parse_tiles("666z"))), Meld("chow", tuple(parse_tiles("567s"))))
    plain = analyst(v).waits(View(tuple(parse_tiles("567m22p66p")), melds))
    flowers = analyst(v).waits(View(tuple(parse_tiles("567m22p66p")), melds, tuple(parse_tiles("5f6f"))))
    assert [words.worth(w.discard) for w in plain] == ["3 points, below the minimum"] * 2
    assert [words.worth(w.discard) for w in flowers] == ["5 points, below the minimum (3 points toward it)"] * 2


def test_the_end_of_a_sichuan_deal_shows_the_ready_hands_behind_the_ready_check() -> None:
    out = io.StringIO()
    play_session("sichuan", 1, Player(out, script=("",)), out, players=BASELINES)
    end = out.getvalue().split("End of the deal: ")[1]
    assert end.startswith("the wall is exhausted.")
    ready = re.findall(r"^  Seat (\d): (.*)\n    ready, waiting on ([1-9s ]+): best win (\d+) fan, which pays (\d+)$",
                       end, flags=re.M)
    assert ready  # each ready hand face up, its waits, its best win and what the ready check pays for it
    for seat, _hand, _waits, _fan, pays in ready:
        assert re.search(rf"^  You pay seat {seat} {pays} \(Ready check\)\.$", end, flags=re.M)


def test_a_winner_who_stays_in_keeps_its_waits_shown_and_is_told_why_its_hand_is_locked() -> None:
    out = io.StringIO()
    play_session("sichuan-blood-river", 35, Player(out), out, players=BASELINES)  # you win on your 14th draw
    text = out.getvalue()
    after = text[text.index("You win"):]
    assert after.count("You win") >= 2  # and again, from the locked hand
    assert "READY: 3s 6s" in after
    assert "Your hand is locked since your win: only the tile you drew, " in after
    assert "the missing suit goes first" not in after


def test_the_exchange_is_told_without_the_others_tiles() -> None:
    out = io.StringIO()
    play_session("sichuan", 1, Player(out), out, players=BASELINES, options={"exchange": "on"})
    text = out.getvalue()
    assert "Pass on 3 tiles (codes, e.g. 1s 4s 8s); Enter = 1s 4s 8s:" in text
    assert "You pass 1s 4s 8s to seat 2.\n" in text and "Seat 2 passes you 2p 3p 4p.\n" in text
    assert "Seat 1 passes 3 tiles to seat 3.\n" in text and "Seat 3 passes 3 tiles to seat 1.\n" in text

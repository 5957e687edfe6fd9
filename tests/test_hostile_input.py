"""Hostile input and faults at the commands' edges: each is answered with its own message
and the documented exit status, in bounded time, never with a traceback.

Classes: integers past Python's 4,300 digits (a replay, an ignored field of a ``--jsonl``
line of ``score`` or ``waits``), replay files that are not UTF-8 or not regular, float tile
ids, variant paths with a NUL or naming a device, a full disk and closed standard streams
(``score``, ``waits``, ``replay``, ``check``, ``rules``, ``schema``), terminal escapes and
raw HTML from a variant's text (``check``, ``score``, ``waits``, ``rules``, ``play``),
answers typed in ``play`` (Unicode digits, escapes, 5,000 digits), ``--pace`` that cannot be
slept, ``-o ''`` and ``--out`` clashes, a kong's 'tiles', inputs of 10,000 characters. The
last resort of the CLI (one line, the traceback with ``--debug``) is checked to be the
exception: every documented error gets its own message.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardavia import cli
from cardavia.cli import main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"
SCENARIO = json.loads((EXAMPLES / "hk-discard-win.json").read_text(encoding="utf-8"))
HK = (ROOT / "variants" / "hk.yaml").read_text(encoding="utf-8")
HAND = "123m 456m 789m 123p 5p +5p"
WIN_LINE = json.dumps({"hand": ["1m", "1m", "1m", "2m", "2m", "2m", "3m", "3m", "3m", "4m", "4m", "4m", "5m"],
                       "win_tile": "5m"})
WAITING = "33m 444p 55p [789m] [777p] 1f"
WAITING_LINE = json.dumps({"hand": ["1m", "1m", "1m", "2m", "2m", "2m", "3m", "3m", "3m", "4m", "4m", "4m", "5m"]})
HUGE = "9" * 5000  # an integer Python will not read from text (more than 4,300 digits)


def cli_run(*argv: str, stdin: bytes = b"") -> tuple[int, str, str]:
    """``cardavia ARGV`` in this process: (status, standard output, standard error)."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    started = time.process_time()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(list(argv))
    finally:
        sys.stdin = saved
    assert time.process_time() - started < 20
    assert "Traceback" not in err.getvalue() and "internal error" not in err.getvalue(), err.getvalue()
    assert all(len(line) <= 1000 for line in err.getvalue().splitlines())
    return status, out.getvalue(), err.getvalue()


def subprocess_run(args: list[str], stdin: bytes = b"", stdout: object = subprocess.PIPE
                   ) -> subprocess.CompletedProcess[bytes]:
    """``cardavia ARGS`` in a process of its own (standard output to ``stdout``)."""
    return subprocess.run([sys.executable, "-m", "cardavia", *args], input=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, timeout=60)  # type: ignore[call-overload]


def scenario_file(tmp_path: Path, text: str | bytes, name: str = "s.json") -> str:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return str(path)


def replay_error(tmp_path: Path, text: str | bytes) -> str:
    status, out, err = cli_run("replay", scenario_file(tmp_path, text))
    assert status == 2 and out == "" and err.startswith("error: ") and err.count("\n") == 1, err
    return err


# ------------------------------------------------------------ numbers past 4,300 digits

def test_a_huge_number_in_an_ignored_key_of_a_scenario_is_ignored(tmp_path: Path) -> None:
    text = json.dumps(SCENARIO)[:-1] + f', "why": {HUGE}, "expect": [-{HUGE}]}}'
    status, out, _ = cli_run("replay", scenario_file(tmp_path, text))
    assert status == 0
    _, plain, _ = cli_run("replay", str(EXAMPLES / "hk-discard-win.json"))
    assert out == plain


def test_a_huge_number_where_a_scenario_reads_one_is_named_by_its_size(tmp_path: Path) -> None:
    for key in ("seed", "dealer"):
        text = json.dumps({"variant": "hk", "seed": 1})[:-1] + f', "{key}": {HUGE}}}'
        assert "a number of 5,000 digits" in replay_error(tmp_path, text)
    text = json.dumps({"variant": "hk", "seed": 1, "actions": [{"seat": 0, "do": "discard", "tile": "1m", "id": 0}]})
    assert "'id' is a number of 5,000 digits" in replay_error(tmp_path, text.replace('"id": 0', f'"id": {HUGE}'))


def test_a_huge_number_in_an_ignored_field_of_a_jsonl_line_is_as_if_absent() -> None:
    huge = WIN_LINE[:-1] + f', "note": {HUGE}, "more": [{HUGE}, -{HUGE}]}}'
    status, out, _ = cli_run("score", "hk", "--jsonl", stdin=f"{WIN_LINE}\n{huge}\n".encode())
    first, second = out.splitlines()
    assert status == 0 and first == second and '"valid": true' in first


def test_a_huge_number_in_a_read_field_of_a_jsonl_line_is_an_error_line() -> None:
    line = WIN_LINE.replace('"win_tile": "5m"', f'"win_tile": {HUGE}')
    status, out, _ = cli_run("score", "hk", "--jsonl", stdin=f"{line}\n{WIN_LINE}\n".encode())
    first, second = out.splitlines()
    assert status == 0 and "a number of 5,000 digits" in json.loads(first)["error"] and len(first) < 300
    assert '"valid": true' in second


def test_waits_reads_its_lines_as_score_does() -> None:
    lines = [WAITING_LINE[:-1] + f', "note": {HUGE}, "win_tile": [{HUGE}]}}',  # ignored: as if absent
             WAITING_LINE[:-1] + ', "note": "' + "y" * 1_000_001 + '"}',
             json.dumps({"hand": [f"{d}{s}" for s in "mps" for d in range(1, 10)] + [f"{d}z" for d in range(1, 8)]}),
             json.dumps({"hand": ["x" * 10_000]}), "\udcff", "[" * 100_000, WAITING_LINE]
    status, out, _ = cli_run("waits", "hk", "--jsonl", stdin="\n".join(lines).encode("utf-8", "surrogateescape"))
    answers = out.splitlines()
    assert status == 0 and len(answers) == len(lines) and answers[0] == answers[-1] and '"ready": true' in answers[0]
    assert "line 2: longer than 1,000,000 bytes" in answers[1]
    assert "line 3: wrong tile count: the hand and its sets name every kind of tile" in answers[2]
    assert "(10,002 characters)" in answers[3] and len(answers[3]) < 300
    assert "line 5: not UTF-8 text" in answers[4] and "line 6: the request nests too deeply" in answers[5]


# ------------------------------------------------------------ replay files

def test_a_scenario_that_is_not_utf8_is_located(tmp_path: Path) -> None:
    bad = json.dumps(SCENARIO, indent=1).encode("utf-8").replace(b'"why"', b'"wh\xffy"', 1)
    err = replay_error(tmp_path, bad)
    assert "not UTF-8 text (line " in err
    status, _, err = cli_run("replay", "-", stdin=b'{"variant": "hk\xfe"}')
    assert status == 2 and "-: not UTF-8 text (line 1, byte 16)" in err


def test_float_tile_ids_are_refused(tmp_path: Path) -> None:
    ids = [float(i) for i in range(144)]
    assert "wall_ids[0]: 0.0 is not a tile id" in replay_error(tmp_path, json.dumps({"variant": "hk",
                                                                                     "wall_ids": ids}))
    mixed: list[object] = ["a", *range(1, 144)]
    assert "wall_ids[0]: 'a' is not a tile id" in replay_error(tmp_path, json.dumps({"variant": "hk",
                                                                                     "wall_ids": mixed}))
    assert "'wall_ids' must be a list" in replay_error(tmp_path, '{"variant": "hk", "wall_ids": 5}')
    action = {"seat": 0, "do": "discard", "tile": "9p", "id": 69.0}
    text = json.dumps({**SCENARIO, "actions": [action]})
    assert "'id' is 69.0: expected a physical tile id" in replay_error(tmp_path, text)
    assert "unknown tile 1.5" in replay_error(tmp_path, text.replace('"tile": "9p"', '"tile": 1.5'))


def test_variant_paths_with_a_nul_or_naming_a_device(tmp_path: Path) -> None:
    assert "embedded null byte" in replay_error(tmp_path, json.dumps({"variant": "variants/hk.yaml\0",
                                                                      "seed": 1}))
    assert "hk\\x00x" in replay_error(tmp_path, json.dumps({"variant": "hk\0x", "seed": 1}))  # shown escaped
    assert "not a regular file" in replay_error(tmp_path, json.dumps({"variant": "/dev/zero", "seed": 1}))


def test_a_scenario_that_is_a_device_a_pipe_or_too_large_is_not_read(tmp_path: Path) -> None:
    for name in ("/dev/zero", str(tmp_path)):
        status, _, err = cli_run("replay", name)
        assert status == 2 and "not a regular file" in err
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe.json"
        os.mkfifo(fifo)
        status, _, err = cli_run("replay", str(fifo))
        assert status == 2 and "not a regular file" in err
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(50_000_000)  # sparse
    status, _, err = cli_run("replay", str(huge))
    assert status == 2 and "50,000,000 bytes" in err
    status, _, err = cli_run("replay", "-", stdin=b" " * 1_000_001)
    assert status == 2 and "more than 1,000,000 bytes" in err
    status, _, err = cli_run("replay", str(tmp_path / "nonesuch.json"))
    assert status == 2 and err == f"error: cannot read {tmp_path / 'nonesuch.json'}: No such file or directory\n"


def test_replay_exits_2_on_every_error_even_an_internal_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    import cardavia.runtime.replay as runtime_replay

    def broken(obj: object, *args: object) -> dict[str, object]:  # the command passes --players, --explain
        raise KeyError("a bug")

    monkeypatch.setattr(runtime_replay, "replay", broken)
    assert main(["replay", str(EXAMPLES / "hk-discard-win.json")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "internal error: KeyError" in err
    monkeypatch.undo()
    for bad in ("[]", "{", '{"variant": 5}', '{"variant": "hk", "seed": "x"}', '{"variant": "hk", "seed": 1, '
                '"actions": 3}', '{"variant": "hk", "seed": 1, "autoplay": "x"}', '{"variant": "hk", "dealer": 9}'):
        replay_error(tmp_path, bad)
    with pytest.raises(SystemExit) as exit_, contextlib.redirect_stderr(io.StringIO()) as err:
        main(["replay", str(EXAMPLES / "hk-discard-win.json"), "--indent", "1000000000"])
    assert exit_.value.code == 2 and "--indent: expected a whole number 0-16" in err.getvalue()


def test_a_kong_error_is_worded_for_a_kong(tmp_path: Path) -> None:
    text = json.dumps({**SCENARIO, "actions": [{"seat": 0, "do": "kong", "tiles": "1m"}]})
    err = replay_error(tmp_path, text)
    assert "chow" in err and "a kong names at most one 'tile'" in err and "two tile codes" not in err


# ------------------------------------------------------------ standard streams

@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("args", [["score", "hk", HAND], ["score", "hk", "--jsonl"], ["check", "hk"],
                                  ["replay", str(EXAMPLES / "hk-discard-win.json")], ["schema"],
                                  ["rules", "hk", "--format", "md"], ["waits", "hk", WAITING],
                                  ["waits", "hk", "--jsonl"]], ids=lambda a: " ".join(a[:3])[:30])
def test_a_full_disk_is_one_line_and_status_2(args: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        done = subprocess_run(args, stdin=(EXAMPLES / "hands.jsonl").read_bytes(), stdout=full)
    assert done.returncode == 2, done.stderr
    assert done.stderr == b"error: cannot write to standard output: No space left on device\n"


@pytest.mark.parametrize("args", [["score", "hk", HAND], ["score", "hk", "--jsonl"],
                                  ["replay", str(EXAMPLES / "hk-discard-win.json")], ["waits", "hk", WAITING],
                                  ["waits", "hk", "--jsonl"]], ids=lambda a: " ".join(a[:3])[:30])
def test_a_closed_standard_stream_is_one_line_and_status_2(args: list[str]) -> None:
    closed_out = subprocess.run([sys.executable, "-m", "cardavia", *args], stdin=subprocess.DEVNULL, stdout=None,
                                stderr=subprocess.PIPE, timeout=60, close_fds=True,
                                preexec_fn=lambda: os.close(1))
    assert closed_out.returncode == 2 and closed_out.stderr == b"error: standard output is closed: nothing can " \
                                                               b"be written\n"
    if "--jsonl" in args:
        closed_in = subprocess.run([sys.executable, "-m", "cardavia", *args], capture_output=True, timeout=60,
                                   preexec_fn=lambda: os.close(0))
        assert closed_in.returncode == 2
        assert closed_in.stderr == b"error: standard input is closed: nothing can be read\n"
    replay_in = subprocess.run([sys.executable, "-m", "cardavia", "replay", "-"], capture_output=True, timeout=60,
                               preexec_fn=lambda: os.close(0))
    assert replay_in.returncode == 2 and replay_in.stderr.startswith(b"error: standard input is closed")


@pytest.mark.parametrize("command", ["score", "waits"])
def test_a_reader_that_leaves_is_not_an_error(command: str) -> None:
    line = WIN_LINE if command == "score" else json.dumps({"hand": json.loads(WIN_LINE)["hand"]})
    with subprocess.Popen([sys.executable, "-m", "cardavia", command, "hk", "--jsonl"], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE) as proc:
        assert proc.stdout is not None and proc.stdin is not None and proc.stderr is not None
        proc.stdin.write((line + "\n").encode())
        proc.stdin.flush()
        assert proc.stdout.readline().startswith(b"{")  # answered: the reader leaves
        proc.stdout.close()
        with contextlib.suppress(BrokenPipeError):
            for _ in range(200):
                proc.stdin.write((line + "\n").encode() * 100)
                proc.stdin.flush()
        with contextlib.suppress(BrokenPipeError):
            proc.stdin.close()
        assert proc.wait(60) == 0
        assert proc.stderr.read() == b""


# ------------------------------------------------------------ variant text on a terminal and in pages

def hostile_variant(tmp_path: Path) -> str:
    text = HK.replace("title: ", 'title: "Evil \\e[31mRED\\e[0m \\u202e \\x9b2J" #', 1)
    text = text.replace("name: Self-drawn", 'name: "Self\\e]0;pwned\\a-drawn <script>alert(1)</script>"', 1)
    assert text != HK and "pwned" in text
    path = tmp_path / "evil.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_terminal_escapes_from_a_variant_are_shown_escaped(tmp_path: Path) -> None:
    path = hostile_variant(tmp_path)
    for args in (("check", path), ("score", path, "123m 456m 789m 123p 5p +5p", "--self-drawn"),
                 ("rules", path, "--format", "txt"), ("rules", path, "--format", "md"), ("waits", path, WAITING)):
        status, out, err = cli_run(*args)
        assert status == 0, err
        assert "\x1b" not in out + err and "\x9b" not in out and "\u202e" not in out and "\a" not in out
        assert "\\x1b[31mRED" in out
    status, out, _ = cli_run("score", path, "123m 456m 789m 123p 5p +5p", "--self-drawn")
    assert "Self\\x1b]0;pwned\\x07-drawn" in out


def test_the_terminal_game_shows_a_variants_escapes_as_text(tmp_path: Path) -> None:
    from cardavia.runtime.terminal import play_session

    out = io.StringIO()
    status = play_session(hostile_variant(tmp_path), 3, io.StringIO("1\n\n" * 30 + "r\nq\ny\n"), out)
    text = out.getvalue()
    assert status == 0 and "\\x1b[31mRED" in text and "\x1b" not in text and "\u202e" not in text


def test_the_terminal_game_takes_unicode_digits_and_odd_lines_as_words() -> None:
    from cardavia.runtime.terminal import play_session

    out = io.StringIO()
    typed = ["\u00b2", "\u00b9\u00b2", "\u2075", "\u0663\u0663", "9" * 5000, "\x1b[2J", "\ud800", "-1", "0", "1e9", "?"]
    assert play_session("hk", 1, io.StringIO("\n".join(typed) + "\nq\ny\n"), out) == 0
    text = out.getvalue()
    assert "'\u00b2' is not understood" in text and "\x1b" not in text and "Thanks for playing." in text
    assert "'\\x1b[2J' is not understood" in text and "characters)' is not understood" in text
    assert max(len(line) for line in text.splitlines()) < 200


@pytest.mark.parametrize("pace", ["inf", "1e308", "nan", "-1", "11"])
def test_a_pace_that_cannot_be_slept_is_refused(pace: str) -> None:
    status, out, err = cli_run("play", "hk", "--seed", "1", "--pace", pace)
    assert status == 2 and out == "" and err == "error: --pace must be 0 to 10 seconds\n"


def test_a_lone_surrogate_in_a_variant_is_refused_by_every_command(tmp_path: Path) -> None:
    path = tmp_path / "half.yaml"
    path.write_text(HK.replace("name: Self-drawn", 'name: "Self\\ud800drawn"', 1), encoding="utf-8")
    scenario = json.dumps({"variant": str(path), "seed": 1}).encode()
    for args, status in ((("check", str(path)), 1), (("score", str(path), HAND), 2), (("rules", str(path)), 2),
                         (("waits", str(path), WAITING), 2), (("simulate", str(path), "--deals", "1"), 2),
                         (("replay", "-"), 2)):
        got, out, err = cli_run(*args, stdin=scenario)
        assert got == status and out == "" and "U+D800, half of a UTF-16 pair" in err, (args, err)


def test_markdown_pages_copy_no_raw_html(tmp_path: Path) -> None:
    status, out, _ = cli_run("rules", hostile_variant(tmp_path), "--format", "md")
    assert status == 0 and "<script>" not in out and "&lt;script&gt;alert(1)&lt;/script&gt;" in out
    status, html, _ = cli_run("rules", hostile_variant(tmp_path), "--format", "html")
    assert status == 0 and "<script>alert(1)" not in html


# ------------------------------------------------------------ rules and schema: where to write

def test_an_empty_output_name_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    for args in (("rules", "hk", "-o", ""), ("schema", "-o", ""), ("rules", "--all", "--out", "")):
        status, out, err = cli_run(*args)
        assert status == 2 and out == "" and "is empty" in err


def test_out_clashes_name_the_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x")
    status, _, err = cli_run("rules", "--all", "--out", "afile")
    assert status == 2 and "'afile' exists and is not a directory" in err
    status, _, err = cli_run("rules", "hk", "--out", "site")
    assert status == 2 and "--out 'site' is for --all" in err
    status, _, err = cli_run("rules", "--all", "--out", "site", "-o", "page.html")
    assert status == 2 and "not -o 'page.html'" in err
    status, _, err = cli_run("rules", "hk", "-o", str(tmp_path))
    assert status == 2 and f"cannot write {str(tmp_path)!r}: Is a directory" in err  # a path is named whole
    status, _, err = cli_run("rules", "hk", "-o", str(tmp_path / ("x" * 5000)))
    assert status == 2 and "File name too long" in err and "(5,0" in err and len(err) < 800


def test_a_site_that_cannot_be_written_names_the_file_in_the_way(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import cardavia.render.site as site

    def blocked(out: Path, *args: object, **kw: object) -> list[Path]:
        raise NotADirectoryError(20, "Not a directory", str(Path(out) / "en" / "hk.html"))

    monkeypatch.setattr(site, "build_site", blocked)
    status, _, err = cli_run("rules", "--all", "--out", str(tmp_path / "site"))
    assert status == 2 and f"{str(tmp_path / 'site' / 'en' / 'hk.html')!r}: Not a directory" in err


# ------------------------------------------------------------ long input is not echoed whole

LONG = "x" * 10_000


@pytest.mark.parametrize("args", [
    ("score", "hk", LONG), ("score", "hk", f"{HAND} {LONG}"), ("check", LONG), ("check", LONG + ".yaml"),
    ("rules", "hk", "--lang", LONG), ("simulate", "hk", "--players", LONG), ("simulate", "hk", "--deals", LONG),
    ("simulate", "hk", "--deals", HUGE), ("score", "hk", HAND, "--seat", LONG), ("replay", LONG),
    ("check", "hk", "--emit-scorer", LONG), ("simulate", LONG, "--deals", "1"),
], ids=lambda a: " ".join(x[:8] for x in a[:3]))
def test_a_10000_character_argument_is_quoted_short(args: tuple[str, ...]) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            status = main(list(args))
        except SystemExit as exc:  # argparse's own refusals
            status = exc.code  # type: ignore[assignment]
    text = err.getvalue()
    assert status in (1, 2) and text.count("error: ") == 1 and "Traceback" not in text and "internal" not in text
    assert len(text) < 1200, text


def test_a_10000_character_value_in_a_scenario_or_a_request_is_quoted_short(tmp_path: Path) -> None:
    for action in ({"seat": 0, "do": LONG}, {"seat": 0, "do": "discard", "tile": LONG},
                   {"seat": LONG, "do": "pass"}, {"seat": 0, "do": "missing_suit", "suit": LONG}):
        assert len(replay_error(tmp_path, json.dumps({**SCENARIO, "actions": [action]}))) < 400
    assert len(replay_error(tmp_path, json.dumps({"variant": LONG, "seed": 1}))) < 400
    assert len(replay_error(tmp_path, json.dumps({**SCENARIO, "autoplay": [LONG] * 1000}))) < 400
    line = WIN_LINE.replace('"win_tile": "5m"', f'"win_tile": "{LONG}"')
    _, out, _ = cli_run("score", "hk", "--jsonl", stdin=(line + "\n").encode())
    assert len(out) < 300 and "10,002 characters" in out


def test_a_jsonl_line_of_more_than_a_million_bytes_is_an_error_line() -> None:
    long = WIN_LINE[:-1] + ', "note": "' + "y" * 1_000_000 + '"}'
    for source in (f"{long}\n{WIN_LINE}\n", f"{WIN_LINE}\n{long}"):
        status, out, _ = cli_run("score", "hk", "--jsonl", stdin=source.encode())
        answers = out.splitlines()
        assert status == 0 and len(answers) == 2
        assert sum("longer than 1,000,000 bytes" in a for a in answers) == 1
        assert sum('"valid": true' in a for a in answers) == 1
    near = WIN_LINE[:-1] + ', "note": "' + "y" * 900_000 + '"}'  # long, but a request all the same
    _, out, _ = cli_run("score", "hk", "--jsonl", stdin=f"{near}\n".encode())
    assert '"valid": true' in out


# ------------------------------------------------------------ expressions that fail on some input

def failing_variant(tmp_path: Path, where: str) -> tuple[str, int]:
    """A variant whose pattern condition (``where='pattern'``) or base formula divides by
    zero for the hands or totals it meets; (its path, the line of the failing part)."""
    if where == "pattern":
        text = HK.replace("    - id: all_chows\n", '    - id: bad\n      name: Bad\n      value: 1\n'
                          '      when: "99 // (len(tiles) - 14) > 1"\n    - id: all_chows\n', 1)
        marker = "    - id: bad"
    else:
        text = HK.replace('  base: "2 ** total"', '  base: "99 // (total - 3)"', 1)
        marker = '  base: "99'
    assert text != HK
    path = tmp_path / f"failing-{where}.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path), next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith(marker))


def test_a_pattern_failing_on_a_hand_is_named_with_its_line_by_every_command(tmp_path: Path) -> None:
    path, line = failing_variant(tmp_path, "pattern")
    said = f"{path}:{line}: pattern 'bad': a division by zero (99 // 0)"
    status, out, err = cli_run("score", path, HAND)
    assert status == 2 and out == "" and err == f"error: {said}\n"
    status, out, _ = cli_run("score", path, HAND, "--json")
    assert status == 2 and json.loads(out) == {"error": said}
    status, out, _ = cli_run("score", path, "--jsonl", stdin=f"{WIN_LINE}\n{WIN_LINE}\n".encode())
    assert status == 0 and out.splitlines() == [json.dumps({"error": f"line {n}: {said}"}) for n in (1, 2)]
    status, _, err = cli_run("waits", path, WAITING)
    assert status == 2 and err == f"error: {said}\n"
    status, out, _ = cli_run("waits", path, "--jsonl", stdin=f"{WAITING_LINE}\n".encode())
    assert status == 0 and json.loads(out) == {"error": f"line 1: {said}"}
    status, _, err = cli_run("replay", "-", stdin=json.dumps({"variant": path, "seed": 4, "autoplay": "ai"}).encode())
    assert status == 2 and err == f"error: -: {said}\n"
    status, _, err = cli_run("simulate", path, "--deals", "3")
    assert status == 1 and err.startswith("error: deal ") and err.endswith(f": {said}\n")
    from cardavia.runtime.terminal import play_session

    with pytest.raises(ArithmeticError, match="a division by zero"):  # the play command says it (below)
        play_session(path, 1, io.StringIO("\n" * 300), io.StringIO())


def test_a_base_formula_failing_on_a_total_is_named_by_its_place(tmp_path: Path) -> None:
    path, _ = failing_variant(tmp_path, "base")
    said = f"{path}: settlement.base: a division by zero (99 // 0)"
    status, _, err = cli_run("simulate", path, "--deals", "20")
    assert status == 1 and err.startswith("error: deal ") and err.endswith(f": {said}\n")
    status, out, _ = cli_run("score", path, HAND, "--json")  # score leaves out a base it cannot work out
    assert status == 0 and "base" not in json.loads(out)


def test_the_play_command_names_a_failing_pattern(tmp_path: Path) -> None:
    path, line = failing_variant(tmp_path, "pattern")
    done = subprocess_run(["play", path, "--seed", "1", "--pace", "0"], stdin=b"\n" * 300)
    assert done.returncode == 2
    assert done.stderr.decode() == f"error: {path}:{line}: pattern 'bad': a division by zero (99 // 0)\n"


# ------------------------------------------------------------ the last resort stays the exception

def test_the_last_resort_prints_one_line_and_the_traceback_with_debug(monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import cardavia.commands.check as check

    def broken(args: object) -> int:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(check, "run", broken)
    assert main(["check", "hk"]) == 1
    _, err = capsys.readouterr()
    assert err == "error: internal error: ZeroDivisionError: a bug (run again with --debug for the traceback)\n"
    for argv in (["--debug", "check", "hk"], ["check", "hk", "--debug"]):
        assert main(argv) == 1
        _, err = capsys.readouterr()
        assert "Traceback" in err and err.endswith("error: internal error: ZeroDivisionError: a bug\n")


DOCUMENTED_ERRORS = [  # (argv, standard input, the status the page gives, a part of the message)
    (["score", "hk", "123m 456m 789m 123p 5x +5p"], b"", 2, "cannot read the hand at column 21"),
    (["score", "nowhere", HAND], b"", 2, "unknown variant 'nowhere'"),
    (["score", "hk", HAND, "--jsonl"], b"", 2, "give no HAND"),
    (["score", "hk"], b"", 2, "give a HAND"),
    (["replay", "-"], json.dumps({**SCENARIO, "actions": [{"seat": 0, "do": "discard", "tile": "5m"}]}).encode(),
     2, "action 0 (seat 0, discard 5m): discard 5m is not a legal answer"),
    (["replay", "-"], json.dumps({**SCENARIO, "actions": [{"seat": 0, "do": "steal"}]}).encode(), 2,
     "'do' is 'steal'"),
    (["replay", "-"], json.dumps({**SCENARIO, "wall": SCENARIO["wall"][:-1]}).encode(), 2,
     "wall: the wall has 143 tiles"),
    (["replay", "-"], json.dumps({**SCENARIO, "actions": [*SCENARIO["actions"], {"seat": 2, "do": "pung"}]}).encode(),
     2, "still queued when the deal ended"),
    (["replay", "nonesuch.json"], b"", 2, "cannot read nonesuch.json: No such file or directory"),
    (["replay", "-"], b"{", 2, "not JSON"),
    (["simulate", "hk", "--players", "ai,ai,ai"], b"", 2, "one per seat"),
    (["simulate", "hk", "--players", "ai,ai,ai,wizard"], b"", 2, "unknown kind 'wizard'"),
    (["simulate", "nowhere"], b"", 2, "unknown variant"),
    (["rules", "hk", "--lang", "xx"], b"", 2, "unknown language 'xx'"),
    (["rules"], b"", 2, "give a variant"),
    (["rules", "--all"], b"", 2, "--all needs --out DIR"),
    (["check", "nowhere"], b"", 1, "unknown variant 'nowhere'"),
    (["check", "hk", "--emit-scorer", "nothing"], b"", 1, "unknown shape 'nothing'"),
    (["schema", "-o", "/nonexistent-dir/x.json"], b"", 2, "cannot write"),
]


@pytest.mark.parametrize(("argv", "stdin", "status", "message"), DOCUMENTED_ERRORS,
                         ids=[" ".join(a[:3])[:40] for a, *_ in DOCUMENTED_ERRORS])
def test_every_documented_error_has_its_own_message(argv: list[str], stdin: bytes, status: int, message: str) -> None:
    got, _, err = cli_run(*argv, stdin=stdin)  # cli_run: never the last resort's message
    assert got == status and message in err and err.startswith("error: ")


def test_the_parser_shows_arguments_visibly() -> None:
    with pytest.raises(SystemExit), contextlib.redirect_stderr(io.StringIO()) as err:
        cli.main(["score", "hk", HAND, "--seat", "\x1b[31m"])
    assert "\x1b" not in err.getvalue() and "\\x1b[31m" in err.getvalue()


def test_the_documented_bounds_are_the_codes() -> None:
    from cardavia.compiler.language.checker import MAX_CHARS, MAX_COST, MAX_DEPTH, MAX_TOTAL_COST
    from cardavia.compiler.loading.files import MAX_FILE_BYTES
    from cardavia.compiler.loading.overlay import MAX_CHAIN, MAX_ENTRIES, MAX_OPTIONS
    from cardavia.compiler.loading.source import MAX_NODES

    from cardavia.commands import LONGEST_MESSAGE
    from cardavia.commands.play import MAX_PACE
    from cardavia.commands.replay import MAX_INDENT, MAX_SCENARIO_BYTES
    from cardavia.commands.score import MAX_LINE_BYTES

    page = (ROOT / "docs" / "interfaces.md").read_text(encoding="utf-8").split("## Exit statuses and limits")[1]
    said = {
        "variant file": f"at most {MAX_FILE_BYTES:,} bytes", "values": f"at most {MAX_NODES:,} values",
        "chain": f"at most {MAX_CHAIN} files",
        "entries": f"at most {MAX_ENTRIES:,} patterns and {MAX_ENTRIES:,} shapes",
        "options": f"and {MAX_OPTIONS} options", "steps": f"at most {MAX_COST:,} steps",
        "characters": f"{MAX_CHARS:,} characters once", "nesting": f"{MAX_DEPTH} levels of nesting",
        "table": f"together at most {MAX_TOTAL_COST:,} steps", "scenario": f"at most {MAX_SCENARIO_BYTES:,} bytes",
        "indent": f"`--indent` 0 to {MAX_INDENT}", "line": f"at most {MAX_LINE_BYTES:,} bytes (a longer one",
        "pace": f"`--pace` 0 to {MAX_PACE:g} seconds", "message": f"at most {LONGEST_MESSAGE:,} characters",
    }
    assert [what for what, words in said.items() if words not in page] == []

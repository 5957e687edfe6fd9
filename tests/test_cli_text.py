"""The command line as people read it: the version, only commands that exist, help without
notes about later work, plurals, the unknown-variant message, ``--json`` errors as JSON and
``simulate``'s summary as a table."""

from __future__ import annotations

import json
import re

import pytest
from cardavia.compiler import shipped_variants

from cardavia.cli import COMMANDS, build_parser, main, version


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"cardavia {version()}\n"


def test_every_listed_command_exists_and_its_help_says_what_it_does_now(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    listed = parser._subparsers._group_actions[0].choices  # type: ignore[union-attr]
    assert list(listed) == list(COMMANDS)
    for name in COMMANDS:
        with pytest.raises(SystemExit):
            main([name, "--help"])
        text = capsys.readouterr().out
        assert not re.search(r"until a stronger|for now|not yet|will be|later", text), name


@pytest.mark.parametrize("argv", [["score", "xx", "1m +1m"], ["waits", "xx", "1m"], ["simulate", "xx"],
                                  ["check", "xx"], ["play", "xx"]])
def test_an_unknown_variant_names_the_known_ones(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) in (1, 2)
    known = ", ".join(shipped_variants())
    assert f"error: unknown variant 'xx' (known: {known})\n" in capsys.readouterr().err


@pytest.mark.parametrize("argv", [["score", "xx", "1m +1m", "--json"], ["score", "hk", "12x", "--json"],
                                  ["waits", "hk", "123m", "--json"], ["simulate", "hk", "--players", "x", "--json"],
                                  ["simulate", "xx", "--json"], ["simulate", "hk", "--deals", "-1", "--json"]])
def test_json_modes_answer_errors_as_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert err == "" and set(json.loads(out)) == {"error"}


def test_units_take_their_number(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "mcr", "12345678m 55s [777z] 2f +9m", "--seat", "S"]) == 0
    out = capsys.readouterr().out
    assert "One Voided Suit  one_voided_suit   1 point\n" in out and "total: 20 points" in out
    assert main(["score", "mcr", "123m 567p 789s 234s 5p +5p"]) == 0
    assert "4 points counted toward it, 8 needed" in capsys.readouterr().out


def test_simulate_prints_a_table_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "sichuan", "--deals", "8", "--players", "ai,baseline,random,random"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Sichuan Bloody Mahjong: 8 deals in ")
    assert re.search(r"\n  seat +0 +1 +2 +3\n  players +ai +baseline +random +random\n  wins ", out)
    assert "invariant violations: 0" in out and "player kind" in out and "{" not in out

"""Options on the command line (``--option NAME=CHOICE``) and in replay scenarios: every
command that takes a variant takes them, the rules page states them, and every shipped
option's every choice compiles, plays and renders."""

from __future__ import annotations

import json

import pytest
from cardavia.compiler.registry import each_choice, shipped_variants
from cardavia.runtime.simulate import simulate
from scenarios.helpers import checked, run_cli, scenario

from cardavia.cli import main
from cardavia.render.catalog import CHOICE_NAME, translator, variant_text
from cardavia.render.languages import LANGUAGES
from cardavia.render.pages import render_game

THIRTEEN = "111m 999m 111p 999p 1s +1s"  # all terminals: 13 faan, the limit
CHOICES = [(name, v.options, v.table.players) for name in shipped_variants() for v in each_choice(name) if v.options]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_score_reads_the_chosen_base_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(["score", "hk", THIRTEEN, "--json"], capsys)
    assert status == 0 and json.loads(out)["base"] == 8192
    status, out, _ = run(["score", "hk", THIRTEEN, "--json", "--option", "base_table=half_spicy"], capsys)
    assert status == 0 and json.loads(out)["base"] == 384


@pytest.mark.parametrize("argv, message", [
    (["--option", "base_table"], "--option base_table: expected NAME=CHOICE"),
    (["--option", "base_table=half_spicy", "--option", "base_table=full_spicy"], "given twice"),
    (["--option", "payout=half"], "no option 'payout': expected one of base_table, discard_pays"),
    (["--option", "base_table=quarter"], "--option base_table=quarter: no such choice: expected one of "
                                         "full_spicy, half_spicy"),
])
def test_a_bad_option_is_refused_with_what_was_expected(argv: list[str], message: str,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["score", "hk", THIRTEEN], ["waits", "hk", "111m 999m 111p 999p 1s"], ["rules", "hk"],
                    ["simulate", "hk", "--deals", "1"]):
        status, out, err = run(command + argv, capsys)
        assert status == 2 and message in err and out == "", (command, err)


def test_the_rules_page_states_the_chosen_options_in_every_language() -> None:
    from cardavia.compiler import load_variant

    half = load_variant("hk", {"base_table": "half_spicy", "discard_pays": "full_gun"})
    for lang in LANGUAGES:
        t = translator(lang)
        page = render_game(half, lang, "txt")
        for english in ("Half spicy", "Full gun"):
            assert variant_text(t, "faan", CHOICE_NAME, english) in page, (lang.tag, english)
    english = render_game(half, "en", "md")
    assert "Faan to base: Half spicy." in english and "Other choices: Full spicy." in english
    assert "the table 1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384" in english


def test_a_replay_scenario_names_its_options(tmp_path, capsys) -> None:
    # Seat 1 wins all pungs on the dealer's discard (docs/examples/hk-discard-win.json's hand).
    hands = {0: "147m 258p 369s 1234z", 1: "111m 222m 333p 444s 9p", 2: "", 3: ""}
    actions = [{"seat": 0, "do": "discard", "tile": "9p"}, {"seat": 1, "do": "win"}]
    plain = scenario("hk", hands, actions, dealer_draw="9p")
    status, r, _ = run_cli(plain, tmp_path, capsys)
    assert status == 0 and r["wins"][0]["total"] == 5  # all pungs 3, concealed hand 1, no flowers 1
    assert [(p["from"], p["to"], p["amount"]) for p in r["payments"]] == [(0, 1, 96)]  # 3 bases of 32
    half_gun = {**plain, "options": {"discard_pays": "half_gun", "base_table": "half_spicy"}}
    status, r, _ = run_cli(half_gun, tmp_path, capsys)
    assert status == 0
    checked(half_gun, r)
    # half spicy: base 24 at 5 faan; the discarder pays 2 bases, the other two 1 each
    assert [(p["from"], p["to"], p["amount"]) for p in r["payments"]] == [(0, 1, 48), (2, 1, 24), (3, 1, 24)]
    full_gun = {**plain, "options": {"discard_pays": "full_gun"}}
    status, r, _ = run_cli(full_gun, tmp_path, capsys)
    assert status == 0 and [(p["from"], p["to"], p["amount"]) for p in r["payments"]] == [(0, 1, 128)]
    status, r, err = run_cli({**plain, "options": {"discard_pays": 3}}, tmp_path, capsys)
    assert status == 2 and "'options'" in err


@pytest.mark.parametrize("variant, options, players", CHOICES, ids=lambda x: str(x))
def test_every_shipped_choice_simulates_200_deals_soundly(variant: str, options: dict[str, str],
                                                          players: int) -> None:
    out = simulate(variant, 200, seed=7, players=["baseline"] * players, options=options)
    assert out["deals"] == 200 and out["invariant_violations"] == 0

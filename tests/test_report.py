"""``cardavia report``: its figures against simulate's on the same deals, comparisons and
their tests, the page (self-contained, a table for every chart) and its errors."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from timings import untimed

from cardavia.cli import main

TIMINGS = ("deals_per_second", "seconds", "workers")


def run(capsys, *args: str) -> tuple[int, dict | None, str]:
    capsys.readouterr()
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip().startswith("{") else None), err


def stable(result: dict) -> dict:
    """The result without its timings: the run's, and each player kind's decision times."""
    return untimed(result, TIMINGS)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory) -> tuple[dict, dict, str]:
    """A report of Sichuan with three kinds of players (the page too), and simulate on the same deals."""
    out = tmp_path_factory.mktemp("report") / "sichuan.html"
    args = ["sichuan", "--deals", "40", "--seed", "4", "--players", "ai,baseline,random,ai"]
    report_out = _main_json(["report", *args, "--json", "--out", str(out)])
    simulate_out = _main_json(["simulate", *args, "--json"])
    return report_out, simulate_out, out.read_text(encoding="utf-8")


def _main_json(argv: list[str]) -> dict:
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(argv) == 0
    return json.loads(buffer.getvalue())


def test_figures_equal_those_of_simulate_on_the_same_deals(mixed):
    report, sim, _ = mixed
    (one,) = report["runs"]
    assert stable(one["simulate"]) == stable(sim)
    f = one["figures"]
    deals = sim["deals"]
    assert f["deals"] == deals == 40
    assert f["wins_by_seat"] == sim["wins_by_seat"]
    assert f["points_by_seat"] == sim["points_by_seat"]
    assert f["outcomes"]["draws"]["count"] == sim["draws"]
    assert f["outcomes"]["deals_with_a_win"]["count"] == deals - sim["draws"]
    wins = sum(sim["wins_by_seat"])
    assert round(f["outcomes"]["wins_per_deal"]["estimate"] * deals) == wins
    assert sum(p["win_rate"]["count"] for p in f["by_position"]) == wins
    assert sum(p["share_of_wins"]["count"] for p in f["by_position"]) == wins
    assert sum(f["hand_value"]["histogram"].values()) == wins
    assert sum(f["points_exchanged"]["histogram"].values()) == deals
    assert sum(f["deal_length"]["histogram"].values()) == deals
    seen = {p["id"]: p["wins"] for p in f["patterns"] if p["wins"]}
    assert seen == sim["fan_frequency"]
    for kind, k in sim["by_kind"].items():
        mine = f["by_kind"][kind]
        assert mine["win_rate"]["count"] == k["wins"]
        assert round(mine["points"]["estimate"] * mine["seat_deals"]) == k["points"]
        assert mine["seat_deals"] == k["seats"] * deals
    assert f["invariant_violations"] == sim["invariant_violations"] == 0
    # Sichuan has no minimum: no hand is refused for it.
    assert f["refusals"]["minimum"] == 0 and f["refusals"]["deals_with_a_refusal"]["count"] == 0


def test_page_is_self_contained_with_a_table_for_every_chart(mixed):
    _, _, html = mixed
    assert html.startswith("<!DOCTYPE html>") and '<html lang="en">' in html
    assert 'name="viewport"' in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), "the page loads nothing from the network"
    assert "@import" not in html and "<script" not in html
    for section in re.findall(r"<section aria-labelledby=\"(\w+)\">(.*?)</section>", html, flags=re.S):
        name, body = section
        if "<svg" in body:
            assert "<table>" in body, f"section {name}: a chart without its table"
    assert html.count("<svg") >= 8  # outcomes, seats (2), players (2), length, values, exchanged, patterns
    assert "Player kinds" in html and "random" in html
    assert "Wilson" in html and "Student t" in html


#: The comparisons below are about the statistics, not the players: the baseline bots play
#: them, ten times faster than the AI (which the first test above plays).
BASELINES = ("--players", "baseline,baseline,baseline,baseline")


def test_compare_against_itself(capsys):
    # The same walls: every figure is the same and nothing differs.
    status, same, _ = run(capsys, "report", "hk", "--compare", "hk", "--deals", "30", "--json", *BASELINES)
    assert status == 0
    first, second = same["runs"]
    assert first["figures"] == second["figures"]
    assert not any(d["significant"] for d in same["differences"])
    assert all(d["difference"] == 0 for d in same["differences"])
    # Other walls: the figures differ by chance only, and none is called significant.
    status, other, _ = run(capsys, "report", "hk", "--compare", "hk", "--compare-seed", "1", "--deals", "100",
                           "--json", *BASELINES)
    assert status == 0
    a, b = other["runs"]
    assert a["figures"]["wins_by_seat"] != b["figures"]["wins_by_seat"]
    assert [r["label"] for r in other["runs"]] == ["hk (seed 0)", "hk (seed 1)"]
    assert len(other["differences"]) > 20
    assert not any(d["significant"] for d in other["differences"])


def test_a_minimum_raised_to_8_wins_less_and_significantly(capsys, tmp_path: Path):
    overlay = tmp_path / "hk-8.yaml"
    overlay.write_text("extends: hk\nid: hk_minimum_8\nscoring:\n  minimum: 8\n", encoding="utf-8")
    page = tmp_path / "compare.html"
    status, out, _ = run(capsys, "report", "hk", "--compare", str(overlay), "--deals", "50", "--json",
                         "--out", str(page), *BASELINES)
    assert status == 0
    a, b = (r["figures"] for r in out["runs"])
    assert a["refusals"]["minimum"] == 3 and b["refusals"]["minimum"] == 8
    assert b["outcomes"]["deals_with_a_win"]["count"] < a["outcomes"]["deals_with_a_win"]["count"]
    by_key = {d["key"]: d for d in out["differences"]}
    assert by_key["draws"]["significant"] and by_key["draws"]["difference"] > 0
    assert by_key["wins_per_deal"]["significant"] and by_key["wins_per_deal"]["difference"] < 0
    assert by_key["refusals"]["difference"] > 0
    html = page.read_text(encoding="utf-8")
    assert "Differences: hk_minimum_8 against hk" in html and "Significant differences" in html


def test_the_minimum_refuses_complete_hands(mixed, capsys):
    status, out, _ = run(capsys, "report", "mcr", "--deals", "15", "--json")
    assert status == 0
    refusals = out["runs"][0]["figures"]["refusals"]
    assert refusals["minimum"] == 8
    assert refusals["deals_with_a_refusal"]["count"] > 0
    assert refusals["per_deal"]["estimate"] >= refusals["deals_with_a_refusal"]["estimate"]


def test_bad_arguments_exit_2(capsys, tmp_path: Path):
    status, _, err = run(capsys, "report", "hk", "--deals", "2")
    assert status == 2 and "--out" in err
    status, _, err = run(capsys, "report", "hk", "--deals", "2", "--json", "--compare-option", "a=b")
    assert status == 2
    status, answer, _ = run(capsys, "report", "hk", "--deals", "2", "--json", "--option", "nonesuch=x")
    assert status == 2 and "nonesuch" in answer["error"]
    status, _, err = run(capsys, "report", "hk", "--deals", "2", "--out", str(tmp_path / "x.html"),
                         "--players", "ai,ai,ai,wizard")
    assert status == 2 and "'wizard'" in err
    status, _, err = run(capsys, "report", "hk", "--deals", "2", "--out", str(tmp_path / "no" / "such" / "x.html"))
    assert status == 2 and "cannot write" in err
    status, _, err = run(capsys, "report", "nonesuch.yaml", "--deals", "2", "--out", str(tmp_path / "x.html"))
    assert status == 2 and "no such file" in err
    status, _, err = run(capsys, "report", "hk", "--deals", "2", "--json", "--address", "127.0.0.1:1")
    assert status == 2

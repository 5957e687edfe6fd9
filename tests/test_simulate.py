"""``cardavia simulate``: the contract's fields, independence from --workers, --duplicate, --players."""

from __future__ import annotations

import json

from cardavia.cli import main

FIELDS = ("deals", "deals_per_second", "wins_by_seat", "points_by_seat", "draws", "fan_frequency",
          "invariant_violations")


def run(capsys, *args: str) -> tuple[int, dict | None, str]:
    capsys.readouterr()
    status = main(["simulate", *args])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if out.strip().startswith("{") else None), err


def stable(result: dict) -> dict:
    """The result without its timings: the run's, and each player kind's decision times."""
    out = {k: v for k, v in result.items() if k not in ("deals_per_second", "seconds", "workers")}
    if "by_kind" in out:
        out["by_kind"] = {kind: {f: x for f, x in k.items() if f != "decision_ms"}
                          for kind, k in out["by_kind"].items()}
    return out


def test_json_fields_and_zero_sum(capsys):
    for variant in ("hk", "mcr", "sichuan"):
        status, r, _ = run(capsys, variant, "--deals", "12", "--seed", "3", "--json")
        assert status == 0
        assert all(f in r for f in FIELDS)
        assert r["deals"] == 12 and r["invariant_violations"] == 0
        assert sum(r["points_by_seat"]) == 0
        assert len(r["wins_by_seat"]) == 4
        assert r["draws"] <= r["deals"]
        assert all(isinstance(n, int) and n > 0 for n in r["fan_frequency"].values())


def test_results_do_not_depend_on_workers(capsys):
    _, one, _ = run(capsys, "sichuan", "--deals", "10", "--seed", "7", "--json")
    _, two, _ = run(capsys, "sichuan", "--deals", "10", "--seed", "7", "--json", "--workers", "2")
    assert stable(one) == stable(two)
    _, other, _ = run(capsys, "sichuan", "--deals", "10", "--seed", "8", "--json")
    assert stable(other) != stable(one)


def test_duplicate_plays_each_wall_four_times_and_players_by_kind(capsys):
    status, r, _ = run(capsys, "hk", "--deals", "3", "--duplicate", "--players", "ai,random,random,random", "--json")
    assert status == 0
    assert r["deals"] == 12
    kinds = r["by_kind"]
    assert set(kinds) == {"ai", "random"}
    assert kinds["ai"]["seats"] == 1 and kinds["random"]["seats"] == 3
    assert kinds["ai"]["points"] + kinds["random"]["points"] == 0
    assert kinds["ai"]["mean_points_per_deal"] == round(kinds["ai"]["points"] / 12, 3)
    assert kinds["ai"]["wins"] + kinds["random"]["wins"] == sum(r["wins_by_seat"])


def test_bad_options_exit_2(capsys):
    status, _, err = run(capsys, "hk", "--players", "ai,ai,ai", "--deals", "1")
    assert status == 2 and "one per seat" in err
    status, _, err = run(capsys, "hk", "--players", "ai,ai,ai,wizard", "--deals", "1")
    assert status == 2 and "'wizard'" in err
    status, _, err = run(capsys, "nowhere", "--deals", "1")
    assert status == 2 and "unknown variant" in err

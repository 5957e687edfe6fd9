"""docs/interfaces.md shows what the commands do, and the documentation stays inside the repository.

The examples whose output depends only on the rules (scoring, a scripted replay, its
errors) are run again here and must appear in the page as printed; for the computer
players' runs, whose figures change with the players, every field the commands print must
be documented. Every relative link of the README and docs/ leads to a file of the
repository (and to a heading there, when it names one).
"""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path

import pytest
from cardavia.compiler import load_variant
from cardavia.runtime.replay import ScenarioError, replay
from cardavia.runtime.simulate import simulate

from cardavia.cli import COMMANDS, main
from cardavia.commands.score import jsonl

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGE = (DOCS / "interfaces.md").read_text(encoding="utf-8")
EXAMPLES = DOCS / "examples"
STALE = "docs/interfaces.md is out of date: run the example again and copy its output"


def shown(lines: str) -> None:
    """Each line of ``lines`` is in the page as an indented block line (trimming aside)."""
    missing = [line for line in lines.splitlines() if line.strip() and f"\n    {line}\n" not in PAGE]
    assert not missing, f"{STALE}: {missing}"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_the_scoring_examples_are_real(capsys) -> None:
    shown(run(capsys, "score", "mcr", "12345678m 55s [777z] 2f +9m", "--seat", "S"))
    shown(run(capsys, "score", "mcr", "123m 567p 789s 234s 5p +5p", "--json"))
    out = io.StringIO()
    assert jsonl(load_variant("mcr"), io.BytesIO((EXAMPLES / "hands.jsonl").read_bytes()), out) == 0
    assert out.getvalue().count("\n") == 6
    shown(out.getvalue())


def test_the_replay_example_is_real() -> None:
    scenario = json.loads((EXAMPLES / "hk-discard-win.json").read_text(encoding="utf-8"))
    text = json.dumps(replay(scenario))
    head, events = text.split(', "events": ', 1)
    decisions = events[events.index(', "decisions": '):]
    assert f"\n    {head}" in PAGE and f"{decisions}\n" in PAGE, STALE
    result = replay(scenario)
    for field in result:
        assert f"`{field}`" in PAGE, f"the replay result's {field!r} is not documented"


def test_the_replay_error_example_is_real() -> None:
    scenario = json.loads((EXAMPLES / "hk-discard-win.json").read_text(encoding="utf-8"))
    wrong = copy.deepcopy(scenario)
    wrong["actions"][0]["tile"] = "5m"  # what the page's sed makes of it
    with pytest.raises(ScenarioError) as caught:
        replay(wrong)
    shown(f"error: -: {caught.value}")


def test_every_simulate_field_is_documented() -> None:
    out = simulate("hk", 1, players=["ai", "baseline", "random", "random"])
    fields = set(out) | set(out["by_kind"]["ai"])
    missing = sorted(f for f in fields if f"`{f}`" not in PAGE)
    assert not missing, f"simulate prints fields docs/interfaces.md does not describe: {missing}"


def test_every_command_for_programs_has_its_section() -> None:
    for name in COMMANDS:
        if name == "play":  # for people
            continue
        assert f"`cardavia {name}`" in PAGE, f"docs/interfaces.md has no section on cardavia {name}"


# ------------------------------------------------------------ links

def _anchors(text: str) -> set[str]:
    """The anchors of a Markdown page's headings, as GitHub makes them."""
    out = set()
    for heading in re.findall(r"^#{1,6} (.+)$", text, flags=re.MULTILINE):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        out.add(slug)
    return out


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_links_lead_inside_the_repository(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # an address elsewhere (https:, mailto:) is not a file
            continue
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        assert resolved.is_relative_to(ROOT), f"{page.name}: {target} points outside the repository"
        assert resolved.exists(), f"{page.name}: {target} does not exist"
        if anchor and resolved.suffix == ".md":
            assert anchor in _anchors(resolved.read_text(encoding="utf-8")), f"{page.name}: no heading for {target}"

"""Overlays, options and pattern tables an attacker writes: each refused at once with a
located message of bounded length, never worked out at a cost that grows with the
square of the file or the product of its parts."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from cardavia.compiler import VariantError, compile_file, compile_text, load_variant
from cardavia.compiler.language.checker import MAX_COST, MAX_TOTAL_COST
from cardavia.compiler.loading.overlay import MAX_CHAIN, MAX_ENTRIES, MAX_OPTIONS
from cardavia.compiler.loading.schema import SCHEMA_PATH

from cardavia.cli import main

ROOT = Path(__file__).resolve().parent.parent
HK = (ROOT / "variants" / "hk.yaml").read_text(encoding="utf-8")


def refused(path: Path) -> str:
    """The problems of the variant file ``path``, refused within a few seconds."""
    started = time.process_time()
    with pytest.raises(VariantError) as info:
        compile_file(path)
    assert time.process_time() - started < 10
    text = "\n".join(str(p) for p in info.value.problems)
    assert all(len(str(p)) < 600 for p in info.value.problems), text
    return text


def test_a_loop_through_three_files_and_a_file_extending_itself(tmp_path: Path) -> None:
    (tmp_path / "a.yaml").write_text("extends: b.yaml\nid: a\n")
    (tmp_path / "b.yaml").write_text("extends: c.yaml\nid: b\n")
    (tmp_path / "c.yaml").write_text("extends: a.yaml\nid: c\n")
    assert "extends makes a loop: a.yaml -> b.yaml -> c.yaml -> a.yaml" in refused(tmp_path / "a.yaml")
    (tmp_path / "self.yaml").write_text("extends: self.yaml\nid: s\n")
    assert "a loop: self.yaml -> self.yaml" in refused(tmp_path / "self.yaml")


def test_a_chain_longer_than_the_bound_is_refused_where_it_goes_too_far(tmp_path: Path) -> None:
    for i in range(40):
        base = f"c{i + 1}.yaml" if i < 39 else "hk"
        (tmp_path / f"c{i}.yaml").write_text(f"extends: {base}\nid: c{i}\n")
    last = f"c{MAX_CHAIN}.yaml"
    assert refused(tmp_path / "c0.yaml") == (f"{tmp_path / last}:1:1: extends makes too long a chain: more than "
                                             f"{MAX_CHAIN} files (c0.yaml -> ... -> {last})")
    # a chain within the bound compiles
    first = 40 - MAX_CHAIN + 1
    assert compile_file(tmp_path / f"c{first}.yaml").id == f"c{first}"


@pytest.mark.parametrize("base", ["/dev/zero", "/dev/stdin", ".", "missing.yaml", "a\\0b.yaml", "x" * 5000])
def test_a_base_that_is_a_device_a_folder_nothing_or_no_name(tmp_path: Path, base: str) -> None:
    (tmp_path / "over.yaml").write_text(f'extends: "{base}"\nid: over\n')
    text = refused(tmp_path / "over.yaml")
    assert any(words in text for words in ("not a regular file", "no such file", "cannot read the file",
                                           "unknown variant"))


def test_a_base_that_is_a_named_pipe_is_not_waited_on(tmp_path: Path) -> None:
    import os

    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "over.yaml").write_text("extends: pipe.yaml\nid: over\n")
    assert "not a regular file" in refused(tmp_path / "over.yaml")


def test_a_base_that_is_not_a_variant(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("- just\n- a list\n")
    (tmp_path / "over.yaml").write_text("extends: base.yaml\nid: over\nscoring: {minimum: 1}\n")
    refused(tmp_path / "over.yaml")
    (tmp_path / "base.yaml").write_bytes(b"id: \xff\n")
    assert "not UTF-8" in refused(tmp_path / "over.yaml")


def test_thousands_of_entries_moved_by_an_overlay_are_refused_before_the_merge(tmp_path: Path) -> None:
    # each `before:` looks its target up in the list: 25,000 of them took minutes
    entries = "".join(f"    - {{id: p{i}, before: all_chows}}\n" for i in range(MAX_ENTRIES + 1))
    (tmp_path / "over.yaml").write_text(f"extends: hk\nid: over\nscoring:\n  patterns:\n{entries}")
    text = refused(tmp_path / "over.yaml")
    assert f"scoring.patterns: expected at most {MAX_ENTRIES:,} entries, got {MAX_ENTRIES + 1:,}" in text


def test_the_bounds_of_the_merge_are_the_schemas() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    scoring = schema["properties"]["scoring"]["properties"]
    assert scoring["patterns"]["maxItems"] == scoring["shapes"]["maxItems"] == MAX_ENTRIES
    assert schema["properties"]["options"]["maxProperties"] == MAX_OPTIONS


def test_a_plain_file_of_too_many_patterns_is_refused_by_the_schema() -> None:
    patterns = "".join(f'    - {{id: q{i}, name: Q, value: 1, when: "len(chows) == 4"}}\n'
                       for i in range(MAX_ENTRIES))
    text = HK.replace("  patterns:\n", "  patterns:\n" + patterns, 1)
    with pytest.raises(VariantError) as info:
        compile_text(text, "many.yaml", use_cache=False)
    assert f"scoring.patterns: expected at most {MAX_ENTRIES:,} elements, got" in str(info.value)


def test_too_many_options_are_refused_before_any_is_applied(tmp_path: Path) -> None:
    option = "  o{i}:\n    default: a\n    choices:\n      a:\n        changes:\n          scoring: {{minimum: 1}}\n"
    options = "".join(option.format(i=i) for i in range(MAX_OPTIONS + 1))
    (tmp_path / "many.yaml").write_text(f"extends: hk\nid: many\noptions:\n{options}")
    got = re.search(rf"expected at most {MAX_OPTIONS} options, got (\d+)", refused(tmp_path / "many.yaml"))
    assert got and int(got.group(1)) > MAX_OPTIONS  # counted with the options hk declares itself


@pytest.mark.parametrize("ident", ["x" * 50_000, "9" * 5000, "\x1b[2J"])
def test_an_overlay_naming_what_does_not_exist_is_quoted_short(tmp_path: Path, ident: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    for key in ("remove: true", "before: " + json.dumps(ident)):
        entry = f"{{id: {json.dumps(ident)}, {key}}}" if key == "remove: true" else f"{{id: a, {key}}}"
        (tmp_path / "over.yaml").write_text(f"extends: hk\nid: over\nscoring:\n  patterns:\n    - {entry}\n")
        assert main(["check", str(tmp_path / "over.yaml")]) == 1
        _, err = capsys.readouterr()
        assert "there is no" in err and len(err) < 400 and "\x1b" not in err, err


def test_the_patterns_of_a_table_are_bounded_together() -> None:
    # each condition is within the bound of one expression; twenty of them are not
    heavy = "exists(a in tiles: exists(b in tiles: exists(c in tiles: exists(d in tiles: " \
            "a.rank + b.rank + c.rank + d.rank == {n}))))"
    patterns = "".join(f'    - id: heavy{n}\n      name: Heavy\n      value: 1\n'
                       f'      when: "{heavy.format(n=n + 100)}"\n' for n in range(30))
    text = HK.replace("    - id: all_chows\n", patterns + "    - id: all_chows\n", 1)
    started = time.process_time()
    with pytest.raises(VariantError) as info:
        compile_text(text, "heavy.yaml", use_cache=False)
    assert time.process_time() - started < 20
    problems = info.value.problems
    assert len(problems) == 1 and "may take too long to score a hand" in str(problems[0])
    assert f"at most {MAX_TOTAL_COST:,}" in str(problems[0]) and MAX_TOTAL_COST < 30 * MAX_COST
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("    - id: heavy"))
    assert problems[0].line > line  # the first pattern beyond the bound, not the first one


@pytest.mark.parametrize("name", ["hk", "mcr", "sichuan"])
def test_the_shipped_tables_stay_far_within_the_bound_of_a_table(name: str) -> None:
    variant = load_variant(name)
    total = sum(c.node.cost for c, _ in variant.scoring.valid_when)
    for p in variant.scoring.table.patterns:
        total += sum(e.node.cost for e in (p.when, p.count, p.value) if e is not None and not isinstance(e, int))
    assert total * 100 < MAX_TOTAL_COST
    assert len(variant.scoring.table.patterns) * 10 < MAX_ENTRIES


# ------------------------------------------------------------------ numbers

def test_a_number_of_thousands_of_digits_in_an_expression_is_refused_where_it_is() -> None:
    huge = "9" * 5000
    for text in (HK.replace('  base: "2 ** total"', f"  base: {huge}", 1),  # a YAML number read as a formula
                 HK.replace('  base: "2 ** total"', f'  base: "total + {huge}"', 1)):
        assert text != HK
        with pytest.raises(VariantError) as info:
            compile_text(text, "huge.yaml", use_cache=False)
        message = str(info.value)
        assert "is too large: a number is at most 2 ** 64" in message and "(5,002 characters)" in message


def test_powers_and_products_beyond_the_largest_number_fail_at_once_with_their_place(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Four powers of 64 nested took 30 s to work out (five: hours); a product of many such
    # values was a number Python will not write out (more than 4,300 digits).
    for n, value in enumerate(["((((len(tiles) ** 64) ** 64) ** 64) ** 64) ** 64",
                               " * ".join(["(len(tiles) + len(chows))"] * 40)]):
        path = tmp_path / f"big{n}.yaml"
        path.write_text(HK.replace("    - id: all_chows\n", f'    - id: big\n      name: Big\n      value: "{value}"\n'
                                   '      when: "true"\n    - id: all_chows\n', 1), encoding="utf-8")
        started = time.process_time()
        assert main(["score", str(path), "123m 456m 789m 123p 5p +5p"]) == 2
        assert time.process_time() - started < 10
        err = capsys.readouterr().err
        assert err.startswith(f"error: {path}: scoring.patterns[") and "is beyond 2 ** 64, the largest number" in err


def test_a_power_always_beyond_the_largest_number_is_refused() -> None:
    text = HK.replace("    - id: all_chows\n", '    - id: big\n      name: Big\n      value: 1\n'
                      '      when: "(len(chows) + 3) ** 64 > 0"\n    - id: all_chows\n', 1)
    with pytest.raises(VariantError) as info:
        compile_text(text, "big.yaml", use_cache=False)
    assert "'**' is always beyond 2 ** 64, the largest number: at least 3 ** 64" in str(info.value)

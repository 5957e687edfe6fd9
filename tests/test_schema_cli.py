"""``cardavia schema``: the shipped JSON Schema on standard output, in a file, or its path;
a stable ``$id`` that names the schema without posing as an address to fetch it from;
and the editor line the shipped variant files carry leads to that same file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cardavia.compiler.loading import schema
from cardavia.compiler.registry import shipped_variants, variants_dir

from cardavia.cli import main

SCHEMA_ID = "urn:cardavia:schema:variant"
MODELINE = "# yaml-language-server: $schema="


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse usage errors
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_the_schema_has_a_stable_identifier_that_is_not_an_address() -> None:
    assert schema.schema()["$id"] == SCHEMA_ID
    assert not SCHEMA_ID.startswith(("http:", "https:"))


def test_prints_the_shipped_schema(capsys) -> None:
    status, out, err = run(capsys, "schema")
    assert status == 0 and err == ""
    assert out == schema.SCHEMA_PATH.read_text(encoding="utf-8")
    assert json.loads(out) == schema.schema()


def test_writes_the_schema_to_a_file(capsys, tmp_path: Path) -> None:
    target = tmp_path / "variant.schema.json"
    status, out, err = run(capsys, "schema", "-o", str(target))
    assert (status, out, err) == (0, "", "")
    assert target.read_bytes() == schema.SCHEMA_PATH.read_bytes()


def test_prints_the_installed_path(capsys) -> None:
    status, out, err = run(capsys, "schema", "--path")
    assert status == 0 and err == ""
    path = Path(out.strip())
    assert path.is_absolute() and path.name == "variant.schema.json"
    assert path.read_bytes() == schema.SCHEMA_PATH.read_bytes()


def test_a_file_that_cannot_be_written_is_an_error(capsys, tmp_path: Path) -> None:
    status, out, err = run(capsys, "schema", "-o", str(tmp_path / "no-such-folder" / "s.json"))
    assert status == 2 and out == ""
    assert err.startswith("error: cannot write ") and "Traceback" not in err


def test_output_and_path_do_not_go_together(capsys, tmp_path: Path) -> None:
    status, out, err = run(capsys, "schema", "-o", str(tmp_path / "s.json"), "--path")
    assert status == 2 and out == ""
    assert "not allowed with" in err
    assert not (tmp_path / "s.json").exists()


@pytest.mark.parametrize("name", shipped_variants())
def test_shipped_variants_point_their_editor_at_the_schema(name: str) -> None:
    """The first line of a shipped file names the schema by a path relative to the file, which
    holds in the repository and in the installed package alike (variants/ and compiler/ sit
    side by side in both)."""
    path = variants_dir() / f"{name}.yaml"
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith(MODELINE)
    target = (path.parent / first[len(MODELINE):]).resolve()
    assert target == schema.SCHEMA_PATH.resolve()


def test_a_copy_elsewhere_points_at_the_written_schema(capsys, tmp_path: Path) -> None:
    """What docs/variant-language.md tells the author of a copy outside the repository to do."""
    assert run(capsys, "schema", "-o", str(tmp_path / "variant.schema.json"))[0] == 0
    text = (variants_dir() / "hk.yaml").read_text(encoding="utf-8")
    _, rest = text.split("\n", 1)
    mine = tmp_path / "my-hk.yaml"
    mine.write_text(f"{MODELINE}variant.schema.json\n{rest}", encoding="utf-8")
    declared = mine.read_text(encoding="utf-8").splitlines()[0][len(MODELINE):]
    assert json.loads((mine.parent / declared).read_text(encoding="utf-8"))["$id"] == SCHEMA_ID
    assert run(capsys, "check", str(mine))[0] == 0


@pytest.mark.parametrize("name", shipped_variants())
def test_editors_that_know_only_draft_7_read_the_schema_alike(name: str) -> None:
    """The schema declares draft 2020-12 but uses only what draft 7 has (YAML editors often
    know no later draft): a draft 7 validator accepts it and the shipped files."""
    import jsonschema
    import yaml

    jsonschema.Draft7Validator.check_schema(schema.schema())
    document = yaml.safe_load((variants_dir() / f"{name}.yaml").read_text(encoding="utf-8"))
    if "extends" in document:  # an overlay holds only what changes: its merged document is checked
        from cardavia.compiler import load_variant

        document = load_variant(name).data
    assert list(jsonschema.Draft7Validator(schema.schema()).iter_errors(document)) == []
    broken = {**document, "scoring": {**document["scoring"], "minimum": "lots"}}
    assert list(jsonschema.Draft7Validator(schema.schema()).iter_errors(broken))

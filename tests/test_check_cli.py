"""`cardavia check` on the shipped variants and on an edited copy."""

from pathlib import Path

from cardavia.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_check_shipped_variants(capsys):
    assert main(["check", "hk", "mcr", "sichuan"]) == 0
    out = capsys.readouterr().out
    assert "hk: Hong Kong Mahjong" in out
    assert "tiles: 144" in out and "tiles: 108" in out
    assert "minimum: 3 faan" in out and "minimum: 8 points" in out


def test_check_edited_copy_reports_new_minimum(tmp_path, capsys):
    text = (ROOT / "variants" / "hk.yaml").read_text(encoding="utf-8")
    assert "  minimum: 3\n" in text
    copy = tmp_path / "hk-min1.yaml"
    copy.write_text(text.replace("  minimum: 3\n", "  minimum: 1\n"), encoding="utf-8")
    assert main(["check", str(copy)]) == 0
    assert "minimum: 1 faan" in capsys.readouterr().out


def test_check_unknown_variant_fails(capsys):
    assert main(["check", "nonesuch"]) == 1
    assert "unknown variant 'nonesuch'" in capsys.readouterr().err

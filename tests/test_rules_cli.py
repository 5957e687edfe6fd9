"""``cardavia rules``: one page on standard output or in a file, the whole static site,
and clear errors (exit status 2) for bad input."""

from __future__ import annotations

from pathlib import Path

import pytest
from cardavia.compiler.registry import shipped_variants, variants_dir

from cardavia.cli import main
from cardavia.render.languages import LANGUAGES
from cardavia.render.reader import read_page


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exc:  # argparse usage errors
        status = int(exc.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("tag", [lang.tag for lang in LANGUAGES])
def test_html_on_standard_output_carries_the_language(capsys, tag: str) -> None:
    status, out, err = run(capsys, "rules", "sichuan", "--lang", tag, "--format", "html")
    assert status == 0 and err == ""
    assert out.startswith("<!DOCTYPE html>")
    page = read_page(out)
    assert page.lang == tag
    assert page.headings[0][0] == "h1" and [h for h, _ in page.headings[1:6]] == ["h2"] * 5


def test_markdown_and_text(capsys) -> None:
    status, md, _ = run(capsys, "rules", "hk", "--lang", "it", "--format", "md")
    assert status == 0 and md.startswith("# Mahjong di Hong Kong")
    assert "## 1. Obiettivo" in md and "## 5. Punteggio e fine" in md
    status, txt, _ = run(capsys, "rules", "hk", "--lang", "it", "--format", "txt")
    assert status == 0 and txt.splitlines()[1].startswith("====")
    assert "<" not in txt


def test_output_file(capsys, tmp_path: Path) -> None:
    target = tmp_path / "mcr.de.html"
    status, out, err = run(capsys, "rules", "mcr", "--lang", "de", "-o", str(target))
    assert (status, out, err) == (0, "", "")
    assert 'lang="de"' in target.read_text(encoding="utf-8")


def test_a_variant_path_works(capsys, tmp_path: Path) -> None:
    copy = tmp_path / "my.yaml"
    copy.write_text((variants_dir() / "hk.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    status, out, _ = run(capsys, "rules", str(copy), "--lang", "zh-Hant", "--format", "txt")
    assert status == 0 and out.startswith("香港麻將")


@pytest.mark.parametrize("argv, message", [
    (["rules", "nosuch"], "unknown variant 'nosuch'"),
    (["rules", "hk", "--lang", "fr"], "unknown language 'fr': expected one of en, it, pt, ms, de, zh-Hans, zh-Hant"),
    (["rules", "hk", "--format", "pdf"], "invalid choice: 'pdf'"),
    (["rules"], "give a variant"),
    (["rules", "--all"], "--all needs --out DIR"),
    (["rules", "hk", "--all", "--out", "x"], "--all builds every variant"),
    (["rules", "missing.yaml"], "no such file"),
])
def test_bad_input_exits_2_with_a_message(capsys, argv: list[str], message: str) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == ""
    assert message in err
    assert "Traceback" not in err


def test_unwritable_output(capsys, tmp_path: Path) -> None:
    status, _, err = run(capsys, "rules", "hk", "-o", str(tmp_path / "no" / "dir" / "x.html"))
    assert status == 2 and "cannot write" in err


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    assert main(["rules", "--all", "--out", str(out)]) == 0
    return out


def test_the_site_has_every_page(site: Path) -> None:
    assert (site / "index.html").is_file()
    for lang in LANGUAGES:
        for name in ["index", "china", *shipped_variants()]:
            assert (site / lang.tag / f"{name}.html").is_file(), (lang.tag, name)


def test_site_links_resolve_and_nothing_is_loaded_from_outside(site: Path) -> None:
    for path in site.rglob("*.html"):
        page = read_page(path.read_text(encoding="utf-8"))
        assert page.resources == [], f"{path} loads {page.resources}"
        for href in page.links:
            if href.startswith("#"):
                continue
            if href.startswith("https://"):
                assert "wikipedia.org" in href, href  # a link, never a resource
                continue
            target = (path.parent / href.split("#")[0]).resolve()
            assert target.is_file(), f"{path}: broken link {href}"


def test_the_language_switcher(site: Path) -> None:
    html = (site / "pt" / "sichuan.html").read_text(encoding="utf-8")
    assert 'data-role="language"' in html
    for lang in LANGUAGES:
        assert f'href="../{lang.tag}/sichuan.html" hreflang="{lang.tag}" lang="{lang.tag}"' in html
        assert f">{lang.native}</a>" in html
    assert 'aria-current="page">Português<' in html


def test_the_family_page(site: Path) -> None:
    page = read_page((site / "it" / "china.html").read_text(encoding="utf-8"))
    assert page.lang == "it"
    assert page.headings[0] == ("h1", "Cina · 144 tessere")
    titles = [text for level, text in page.headings if level == "h3"]
    assert titles == ["Mahjong di Hong Kong", "Mahjong cinese ufficiale (MCR)", "Mahjong sanguinoso del Sichuan",
                      "Mahjong Sichuan Fiume di sangue", "Mahjong del Sichuan a tre giocatori",
                      "Mahjong taiwanese a 16 tessere"]
    assert ("Scegli Hong Kong, Cinese ufficiale, Sichuan, Sichuan Fiume di sangue, Sichuan a tre o Taiwanese."
            in page.text)
    assert page.table_headers == 6 * 3  # each game's pattern table has its column headers


def test_display_sliders_and_accessibility(site: Path) -> None:
    html = (site / "de" / "hk.html").read_text(encoding="utf-8")
    for name in ("contrast", "grain", "temperature"):
        assert f'name="{name}"' in html and 'value="50"' in html
    assert '<th scope="col">' in html and "<caption>" in html
    assert 'class="skip" href="#main"' in html

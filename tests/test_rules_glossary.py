"""Each language's glossary (locales/<locale>/glossary.yaml) names one established term per
concept, with its source, and no page of the site uses a competing term for a concept."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
import yaml
from cardavia.compiler.registry import each_choice, load_variant, shipped_variants

from cardavia.render.catalog import locales_dir
from cardavia.render.languages import LANGUAGES, Language
from cardavia.render.pages import family_document, render_family, render_game, render_index
from cardavia.render.reader import read_page

CONCEPTS = ["chow", "pung", "kong", "pair", "deal", "round", "turn", "draw", "discard", "dealer", "seat", "wind",
            "dragon", "flower", "season", "missing suit", "ready", "fan", "limit", "minimum"]


def glossary_path(lang: Language) -> Path:
    return locales_dir() / lang.locale / "glossary.yaml"


def load_glossary(lang: Language) -> dict:
    return yaml.safe_load(glossary_path(lang).read_text(encoding="utf-8"))


@cache
def site_texts(tag: str) -> dict[str, str]:
    """The text of every page of the site in one language, by page name."""
    variants = [load_variant(name) for name in shipped_variants()]
    pages = {v.id: render_game(v, tag, "html") for v in variants}
    # every choice of every option, for the texts only a choice brings
    pages.update({f"{v.id} {v.options}": render_game(v, tag, "html")
                  for name in shipped_variants() for v in each_choice(name)[1:]})
    pages["family"] = render_family(variants, tag)
    pages["index"] = render_index([family_document(variants, tag)], tag)
    return {name: read_page(html).text for name, html in pages.items()}


#: Proper names that contain a glossary word ("Kong" of Hong Kong is no kong).
PROPER_NAMES = ("Hong Kong",)


def occurrences(term: str, text: str, cjk: bool) -> list[str]:
    """Where ``term`` stands in ``text``: as a whole word (Latin scripts, any case), or
    anywhere (Chinese has no spaces between words)."""
    for name in PROPER_NAMES:
        text = text.replace(name, "…")
    pattern = re.escape(term) if cjk else rf"(?<![\w-]){re.escape(term)}(?![\w-])"
    return [text[max(0, m.start() - 40):m.end() + 40] for m in re.finditer(pattern, text, 0 if cjk else re.I)]


@pytest.mark.parametrize("lang", LANGUAGES, ids=lambda lang: lang.tag)
def test_the_glossary_has_a_sourced_term_for_every_concept(lang: Language) -> None:
    glossary = load_glossary(lang)
    assert glossary["language"] == lang.tag
    sources = glossary["sources"]
    missing = [c for c in CONCEPTS if c not in glossary["terms"]]
    assert not missing, f"{glossary_path(lang)} lacks {missing}"
    for concept, entry in glossary["terms"].items():
        assert entry["term"], concept
        assert entry["source"] in sources, (concept, entry["source"])
        assert isinstance(entry.get("avoid", []), list), concept


@pytest.mark.parametrize("lang", LANGUAGES, ids=lambda lang: lang.tag)
def test_no_page_uses_a_competing_term(lang: Language) -> None:
    glossary = load_glossary(lang)
    cjk = lang.tag.startswith("zh")
    found = []
    for page, text in site_texts(lang.tag).items():
        for concept, entry in glossary["terms"].items():
            for term in entry.get("avoid") or []:
                for where in occurrences(str(term), text, cjk):
                    found.append(f"{page}: {concept} is {entry['term']!r}, not {term!r}: …{where}…")
    assert not found, "\n".join(found[:20])


def test_the_check_finds_a_competing_term() -> None:
    assert occurrences("kong", "un kong esposto", cjk=False)
    assert not occurrences("kong", "Hong-Kong", cjk=False)
    assert not occurrences("kong", "Mahjong di Hong Kong", cjk=False)
    assert occurrences("十三么", "十三么：…", cjk=True)  # noqa: RUF001 (the full-width colon of Chinese text is the case)

"""The catalogs are complete: every message of the code, the templates and the shipped
variant files is translated (not fuzzy) in every shipped language, with the same
placeholders and every plural form; the template (.pot) matches what extraction finds."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from cardavia.compiler.registry import each_choice, load_variant, shipped_variants

from cardavia.render.catalog import (
    PATTERN_NAME,
    catalog_path,
    is_optional,
    is_translated,
    load_catalog,
    missing_translations,
    template_path,
    translated_languages,
    translator,
    variant_messages,
    variant_text,
)
from cardavia.render.extract import build_template, template_is_current
from cardavia.render.languages import LANGUAGES, UnknownLanguage, language

LANGS = translated_languages()
PLACEHOLDER = re.compile(r"\{[a-z_]+\}|%\([a-z_]+\)s")


@pytest.fixture(scope="module")
def template() -> Catalog:
    with open(template_path(), "rb") as fh:
        return read_po(fh)


def test_the_template_is_current() -> None:
    """Run ``python -m cardavia.render.extract`` after changing code, templates or variants."""
    assert template_is_current()


def test_the_template_holds_the_variant_messages(template: Catalog) -> None:
    for variant in (v for name in shipped_variants() for v in each_choice(name)):
        for m in variant_messages(variant):
            assert template.get(m.msgid, context=m.context) is not None, m.where


@pytest.mark.parametrize("lang", LANGS, ids=lambda lang: lang.tag)
def test_every_message_is_translated(template: Catalog, lang) -> None:
    cat = load_catalog(lang)
    assert cat is not None, f"{catalog_path(lang)} is missing"
    missing = [(m.context, m.id) for m in template if m.id and not is_optional(m.context)
               and not is_translated(cat, m.context, m.id[0] if isinstance(m.id, tuple) else m.id)]
    assert not missing, f"{lang.tag}: {len(missing)} untranslated, e.g. {missing[:5]}"


@pytest.mark.parametrize("lang", LANGS, ids=lambda lang: lang.tag)
def test_every_variant_text_is_translated(lang) -> None:
    for variant in (v for name in shipped_variants() for v in each_choice(name)):
        lacking = [m.where for m, tags in missing_translations(variant) if lang.tag in tags]
        assert not lacking, f"{variant.id} {variant.options} in {lang.tag}: {lacking[:10]}"


@pytest.mark.parametrize("lang", LANGS, ids=lambda lang: lang.tag)
def test_translations_keep_placeholders_and_plural_forms(lang) -> None:
    cat = load_catalog(lang)
    assert cat is not None
    forms = cat.num_plurals
    for m in cat:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if isinstance(m.id, tuple):
            assert len(strings) == forms, (lang.tag, m.id)
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for s in strings:
            got = set(PLACEHOLDER.findall(s))
            # a plural form may leave out {n} (Chinese "每种各 {n} 张" keeps it; "a tile" need not)
            assert got <= wanted | set(PLACEHOLDER.findall(ids[0])), (lang.tag, m.id, s)
            assert wanted - got <= {"{n}"}, (lang.tag, m.id, s)


def test_plural_forms_come_from_cldr() -> None:
    assert load_catalog(language("de")).num_plurals == 2
    assert load_catalog(language("zh-Hans")).num_plurals == 1
    de = translator("de")
    assert de.ngettext("{n} player · you against {ai} AI · one deal",
                       "{n} players · you against {ai} AI · one deal", 1, ai=0).startswith("1 Spieler")
    assert de.join(["a", "b", "c"]) == "a, b und c"
    assert translator("zh-Hant").join(["甲", "乙"]) == "甲和乙"


def test_language_names_are_in_their_own_language() -> None:
    assert [lang.native for lang in LANGUAGES] == [
        "English", "Italiano", "Português", "Bahasa Melayu", "Deutsch", "简体中文", "繁體中文"]
    assert [lang.tag for lang in LANGUAGES] == ["en", "it", "pt", "ms", "de", "zh-Hans", "zh-Hant"]
    assert language("zh_hant").tag == "zh-Hant" and language("PT").tag == "pt"
    with pytest.raises(UnknownLanguage, match="expected one of en, it"):
        language("fr")


def test_mcr_chinese_names_are_the_official_ones() -> None:
    t = translator("zh-Hans")
    mcr = load_variant("mcr")
    names = {p.id: variant_text(t, mcr.scoring.unit, PATTERN_NAME, p.name) for p in mcr.scoring.table.patterns}
    official = {"pure_straight": "清龙", "chicken_hand": "无番和", "thirteen_orphans": "十三幺",
                "robbing_the_kong": "抢杠和", "all_pungs": "碰碰和", "seven_shifted_pairs": "连七对"}
    for pid, name in official.items():
        if pid in names:
            assert names[pid] == name


def test_hong_kong_names_are_cantonese_in_traditional_chinese() -> None:
    t = translator("zh-Hant")
    hk = load_variant("hk")
    names = {p.id: variant_text(t, hk.scoring.unit, PATTERN_NAME, p.name) for p in hk.scoring.table.patterns}
    for pid, name in {"all_pungs": "對對糊", "all_chows": "平糊", "nine_gates": "九子連環"}.items():
        if pid in names:
            assert names[pid] == name


def test_extraction_finds_code_and_template_messages() -> None:
    pot = build_template(variant_names=[])
    ids = {m.id if isinstance(m.id, str) else m.id[0] for m in pot if m.id}
    assert "Contrast" in ids  # a template message
    assert "The minimum is {amount}." in ids  # a prose message
    assert "{base} to the power of {exp}" in ids  # a formula message

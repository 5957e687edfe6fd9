"""Message catalogs: gettext ``.po`` files read with Babel, with English fallback.

Why ``.po`` read at run time rather than compiled ``.mo`` files: the ``.po`` files are
the single source of truth (no build step to forget, nothing generated in git), and
reading them with Babel keeps what ``.mo`` files drop: fuzzy flags, which tell the
completeness check that a translation is stale. Each catalog is turned into an
in-memory ``.mo`` once per process (``write_mo`` skips fuzzy and empty entries), so the
standard library's ``GNUTranslations`` does the lookups, plural forms included; a
message without a usable translation falls back to its English source text.

Messages from the variant files (names, titles, summaries, units, pattern names and
descriptions, shape names, reasons) are keyed by their text and their role (the
context, e.g. ``pattern name``), not by the variant: an edited copy keeps every
translation of what it did not change. Where one English text names different things
in different scoring traditions (Hong Kong's and Sichuan's "All pungs" are 對對糊 and
碰碰胡), a second entry with the tradition in its context is looked up first; see
:func:`tradition_context`.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from string import Formatter
from typing import TYPE_CHECKING, Any, Literal, TypedDict

from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from cardavia.compiler.errors import visible

from .languages import LANGUAGES, SOURCE, Language, language

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant

DOMAIN = "cardavia"


def locales_dir() -> Path:
    """The gettext catalogs: ``cardavia/locales`` when installed, the repository's
    ``locales/`` in a checkout (where ``cardavia/`` is the folder beside it)."""
    package = Path(__file__).resolve().parent.parent
    installed = package / "locales"
    return installed if installed.is_dir() else package.parent / "locales"


def catalog_path(lang: Language, root: Path | None = None) -> Path:
    return (root or locales_dir()) / lang.locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def template_path(root: Path | None = None) -> Path:
    return (root or locales_dir()) / f"{DOMAIN}.pot"


@lru_cache(maxsize=16)
def _read(path: str, mtime_ns: int, locale: str) -> Catalog:
    with open(path, "rb") as fh:
        return read_po(fh, locale=locale, domain=DOMAIN)


def load_catalog(lang: Language) -> Catalog | None:
    """The language's catalog, or None when it ships none (English needs none)."""
    path = catalog_path(lang)
    try:
        mtime = path.stat().st_mtime_ns
    except OSError:
        return None
    return _read(str(path), mtime, lang.locale)


class _SafeFormatter(Formatter):
    """``str.format`` that leaves an unknown placeholder visible instead of failing:
    a translator's typo must not break a page."""

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        if isinstance(key, str):
            return kwargs.get(key, "{" + key + "}")
        return super().get_value(key, args, kwargs)


_FORMAT = _SafeFormatter()


def _fill(text: str, values: dict[str, Any]) -> str:
    if not values:
        return text
    try:
        return _FORMAT.format(text, **values)
    except (ValueError, IndexError, AttributeError):
        return text


# A phrase filled into a sentence meets the preposition before it: Italian and Portuguese
# then contract them ("elevato a" + "il totale" -> "elevato al totale"; "de" + "o" -> "do").
_ITALIAN = {("a", "il"): "al", ("a", "lo"): "allo", ("a", "la"): "alla", ("a", "i"): "ai", ("a", "gli"): "agli",
            ("a", "le"): "alle", ("di", "il"): "del", ("di", "lo"): "dello", ("di", "la"): "della",
            ("di", "i"): "dei", ("di", "gli"): "degli", ("di", "le"): "delle", ("da", "il"): "dal",
            ("da", "lo"): "dallo", ("da", "la"): "dalla", ("da", "i"): "dai", ("da", "gli"): "dagli",
            ("da", "le"): "dalle", ("in", "il"): "nel", ("in", "lo"): "nello", ("in", "la"): "nella",
            ("in", "i"): "nei", ("in", "gli"): "negli", ("in", "le"): "nelle", ("su", "il"): "sul",
            ("su", "la"): "sulla", ("su", "i"): "sui", ("su", "le"): "sulle"}
_PORTUGUESE = {("a", "o"): "ao", ("a", "a"): "à", ("a", "os"): "aos", ("a", "as"): "às", ("de", "o"): "do",
               ("de", "a"): "da", ("de", "os"): "dos", ("de", "as"): "das", ("em", "o"): "no", ("em", "a"): "na",
               ("em", "os"): "nos", ("em", "as"): "nas", ("por", "o"): "pelo", ("por", "a"): "pela",
               ("por", "os"): "pelos", ("por", "as"): "pelas"}
_ELISION = {"a": "all'", "di": "dell'", "da": "dall'", "in": "nell'", "su": "sull'"}


def _contract(table: dict[tuple[str, str], str], text: str) -> str:
    words = "|".join(sorted({p for p, _ in table}, key=len, reverse=True))
    articles = "|".join(sorted({a for _, a in table}, key=len, reverse=True))

    def one(m: re.Match[str]) -> str:
        prep, art = m.group(1), m.group(2)
        joined = table[(prep.lower(), art.lower())]
        return joined[:1].upper() + joined[1:] if prep[:1].isupper() else joined

    return re.sub(rf"\b({words}) ({articles})\b(?!')", one, text, flags=re.I)


def _contract_it(text: str) -> str:
    text = _contract(_ITALIAN, text)
    return re.sub(r"\b(a|di|da|in|su) l'", lambda m: _ELISION[m.group(1).lower()], text)


_CJK = "\u2e80-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef"
_CJK_SPACE = re.compile(rf"(?<=[{_CJK}])[ \t]+(?=[{_CJK}0-9])|(?<=[0-9])[ \t]+(?=[{_CJK}])")


def _cjk_spacing(text: str) -> str:
    """Chinese sets digits and Chinese characters without spaces between them ("至少3番的和牌"),
    whatever spaces a filled placeholder brought."""
    return _CJK_SPACE.sub("", text)


#: The last step of every lookup, by language: what joining phrases into sentences needs.
FINISH = {"it": _contract_it, "pt": lambda text: _contract(_PORTUGUESE, text),
          "zh_Hans": _cjk_spacing, "zh_Hant": _cjk_spacing}


def _same(text: str) -> str:
    return text


class JinjaCallables(TypedDict):
    """The four lookups Jinja2's i18n extension installs (``install_gettext_callables``)."""

    gettext: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]
    pgettext: Callable[[str, str], str]
    npgettext: Callable[[str, str, str, int], str]


class Translator:
    """Lookups for one language. Placeholders are ``{name}``, filled from keywords."""

    def __init__(self, lang: Language | str) -> None:
        self.lang = language(lang) if isinstance(lang, str) else lang
        cat = load_catalog(self.lang)
        self.catalog = cat
        self._finish = FINISH.get(self.lang.locale, _same)
        if cat is None:
            self._t: gettext.NullTranslations = gettext.NullTranslations()
        else:
            buf = io.BytesIO()
            write_mo(buf, cat)
            buf.seek(0)
            self._t = gettext.GNUTranslations(buf)

    # The four gettext calls (the extractor knows these names).
    def _(self, message: str, **values: Any) -> str:
        return self._finish(_fill(self._t.gettext(message), values))

    def ngettext(self, singular: str, plural: str, n: int, **values: Any) -> str:
        return self._finish(_fill(self._t.ngettext(singular, plural, n), {"n": n, **values}))

    def pgettext(self, context: str, message: str, **values: Any) -> str:
        return self._finish(_fill(self._t.pgettext(context, message), values))

    def npgettext(self, context: str, singular: str, plural: str, n: int, **values: Any) -> str:
        return self._finish(_fill(self._t.npgettext(context, singular, plural, n), {"n": n, **values}))

    def has(self, context: str | None, message: str) -> bool:
        """True when the catalog translates the message (a fuzzy or empty entry does not)."""
        return is_translated(self.catalog, context, message)

    def sentences(self, parts: Iterable[str]) -> str:
        """Sentences one after another: a space between them (none in Chinese)."""
        return self._finish(" ".join(p for p in parts if p))

    # Helpers that use CLDR data.
    def join(self, items: Iterable[str], style: Literal["standard", "or"] = "standard") -> str:
        """A localized list: "a, b and c" (style "or": "a, b or c")."""
        items = [i for i in items if i]
        if not items:
            return ""
        return format_list(items, style=style, locale=self.lang.locale)

    # Jinja2's i18n extension calls these (newstyle: placeholders as %(name)s).
    def jinja_callables(self) -> JinjaCallables:
        t, finish = self._t, self._finish
        return {"gettext": lambda m: finish(t.gettext(m)),
                "ngettext": lambda s, p, n: finish(t.ngettext(s, p, n)),
                "pgettext": lambda c, m: finish(t.pgettext(c, m)),
                "npgettext": lambda c, s, p, n: finish(t.npgettext(c, s, p, n))}


@lru_cache(maxsize=16)
def _translator(tag: str, stamp: int) -> Translator:
    return Translator(tag)


def translator(lang: Language | str) -> Translator:
    """A cached translator, rebuilt when its catalog file changes."""
    lang = language(lang) if isinstance(lang, str) else lang
    path = catalog_path(lang)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = 0
    return _translator(lang.tag, stamp)


# --------------------------------------------------------- variant messages

#: The roles of a variant file's texts. A text is looked up by its role (the catalog
#: context) and its English text (the msgid), never by the variant's id: a copy of a
#: variant under another id, or a file that changes only some of its patterns, keeps
#: the translation of every text it did not change.
VARIANT_NAME = "variant name"
VARIANT_TITLE = "variant title"
VARIANT_SUMMARY = "variant summary"
UNIT = "unit"
FAMILY = "family"
SHAPE_NAME = "shape name"
PATTERN_NAME = "pattern name"
PATTERN_DESCRIPTION = "pattern description"
VALIDITY_REASON = "validity reason"
SETTLEMENT_REASON = "settlement reason"
OPTION_NAME = "option name"
OPTION_DESCRIPTION = "option description"
CHOICE_NAME = "option choice name"
CHOICE_DESCRIPTION = "option choice description"


def tradition_context(role: str, unit: str) -> str:
    """The context of a text in one scoring tradition, named by its unit (``faan``: Hong
    Kong, ``fan``: Sichuan, ``points``: MCR). Where the shipped variants of several
    traditions share an English text (\"All pungs\", \"Seven pairs\"), the catalogs have one
    entry per tradition as well, because Chinese players of each tradition have their own
    word (Hong Kong 對對糊, Sichuan 碰碰胡); it is looked up before the plain entry."""
    return f"{role} | {unit}"


@dataclass(slots=True, frozen=True)
class VariantMessage:
    """One text a variant file contributes to its pages."""

    role: str  # the catalog context
    msgid: str
    plural: str | None = None  # units are plural messages ("point", "points")
    where: str = ""  # a short human description for reports

    @property
    def context(self) -> str:
        return self.role

    @property
    def key(self) -> tuple[str, str]:
        return (self.role, self.msgid)


def humanize(identifier: str) -> str:
    """English text for an id that has no text of its own: ``flower_pig`` -> ``Flower pig``."""
    words = str(identifier).replace("_", " ").replace("-", " ").split()
    return " ".join(words)[:1].upper() + " ".join(words)[1:] if words else str(identifier)


def _one_line(text: Any) -> str:
    return " ".join(str(text).split())


def variant_messages(variant: CompiledVariant) -> list[VariantMessage]:
    """Every translatable text of a compiled variant, in page order.

    The extractor writes these into the catalog template; the pages look them up with
    the same roles (:func:`variant_text`), so the two cannot drift apart.
    """
    unit = variant.scoring.unit
    out = [
        VariantMessage(VARIANT_NAME, variant.name, where="name"),
        VariantMessage(VARIANT_TITLE, variant.title, where="title"),
        VariantMessage(VARIANT_SUMMARY, _one_line(variant.summary), where="summary"),
        VariantMessage(UNIT, unit, unit, where="unit"),
    ]
    if variant.family:
        out.append(VariantMessage(FAMILY, humanize(variant.family), where=f"family {variant.family!r}"))
    for raw in variant.data["scoring"]["shapes"]:
        out.append(VariantMessage(SHAPE_NAME, raw.get("name") or humanize(raw["id"]),
                                  where=f"shape {raw['id']!r} name"))
    for i, raw in enumerate(variant.data["scoring"].get("valid_when") or []):
        out.append(VariantMessage(VALIDITY_REASON, _one_line(raw["reason"]), where=f"validity reason {i + 1}"))
    for p in variant.scoring.table.patterns:
        out.append(VariantMessage(PATTERN_NAME, p.name, where=f"pattern {p.id!r} name"))
        if p.description:
            out.append(VariantMessage(PATTERN_DESCRIPTION, _one_line(p.description),
                                      where=f"pattern {p.id!r} description"))
    for rule in variant.settlement.exhausted:
        out.append(VariantMessage(SETTLEMENT_REASON, humanize(rule.reason), where=f"settlement reason {rule.reason!r}"))
    for oid, option in (variant.data.get("options") or {}).items():
        out.append(VariantMessage(OPTION_NAME, _one_line(option.get("name") or humanize(oid)),
                                  where=f"option {oid!r} name"))
        if option.get("description"):
            out.append(VariantMessage(OPTION_DESCRIPTION, _one_line(option["description"]),
                                      where=f"option {oid!r} description"))
        for cid, choice in option["choices"].items():
            out.append(VariantMessage(CHOICE_NAME, _one_line(choice.get("name") or humanize(cid)),
                                      where=f"option {oid!r} choice {cid!r} name"))
            if choice.get("description"):
                out.append(VariantMessage(CHOICE_DESCRIPTION, _one_line(choice["description"]),
                                          where=f"option {oid!r} choice {cid!r} description"))
    seen: set[tuple[str, str]] = set()
    unique = []
    for m in out:
        if m.key not in seen:
            seen.add(m.key)
            unique.append(m)
    return unique


def variant_text(t: Translator, unit: str, role: str, english: str) -> str:
    """A variant file's text in the translator's language: the entry of the variant's
    tradition (its unit) when the catalog has one, else the entry of the text itself,
    else the English text, shown as text (a control character or an escape sequence in
    the file is written out, never sent to a terminal)."""
    english = visible(_one_line(english))
    special = tradition_context(role, unit)
    if t.has(special, english):
        return t.pgettext(special, english)
    return t.pgettext(role, english)


def unit_word(t: Translator, unit: str, n: int) -> str:
    """The variant's unit for ``n`` ("1 point", "2 points")."""
    return t.npgettext(UNIT, unit, unit, n)


def is_translated(cat: Catalog | None, context_: str | None, msgid: str) -> bool:
    """True when the catalog has a non-fuzzy, complete translation of the message."""
    if cat is None:
        return False
    msg = cat.get(msgid, context=context_)
    if msg is None or msg.fuzzy:
        return False
    strings = msg.string if isinstance(msg.string, (tuple, list)) else (msg.string,)
    return bool(strings) and all(s for s in strings)


def is_optional(context_: str | None) -> bool:
    """True for a tradition's entry (``pattern name | fan``): left empty, the plain entry serves."""
    return bool(context_) and " | " in str(context_)


def translated_languages() -> list[Language]:
    """The languages whose text must be complete (every one but the source)."""
    return [lang for lang in LANGUAGES if lang != SOURCE]


def missing_translations(variant: CompiledVariant) -> list[tuple[VariantMessage, list[str]]]:
    """Each variant message that some shipped language lacks, with those languages' tags."""
    out = []
    cats = {lang.tag: load_catalog(lang) for lang in translated_languages()}
    unit = variant.scoring.unit
    for m in variant_messages(variant):
        missing = [tag for tag, cat in cats.items()
                   if not is_translated(cat, m.role, m.msgid)
                   and not is_translated(cat, tradition_context(m.role, unit), m.msgid)]
        if missing:
            out.append((m, missing))
    return out


def missing_translation_lines(variant: CompiledVariant, verbose: bool = False) -> list[str]:
    """Lines for ``cardavia check``: one line saying how many of the variant's texts pages
    show in English for lack of a translation, and with ``verbose`` one line per text
    (run ``python -m cardavia.render.extract`` and translate locales/*.po)."""
    missing = missing_translations(variant)
    if not missing:
        return []
    tags = [lang.tag for lang in translated_languages() if any(lang.tag in m[1] for m in missing)]
    n = len(missing)
    lines = [f"  missing translations: {n} text{'s' if n != 1 else ''} shown in English in {', '.join(tags)}"
             + ("" if verbose else " (--verbose lists them)")]
    if verbose:
        for m, langs in missing:
            lines.append(f"    {m.where}: {m.msgid!r} [{', '.join(langs)}]")
        lines.append("  add them with: python -m cardavia.render.extract, then translate locales/*/LC_MESSAGES/*.po")
    return lines

"""Message catalogs: gettext ``.po`` files read with Babel, with English fallback.

Why ``.po`` read at run time rather than compiled ``.mo`` files: the ``.po`` files are
the single source of truth (no build step to forget, nothing generated in git), and
reading them with Babel keeps what ``.mo`` files drop: fuzzy flags, which tell the
completeness check that a translation is stale. Each catalog is turned into an
in-memory ``.mo`` once per process (``write_mo`` skips fuzzy and empty entries), so the
standard library's ``GNUTranslations`` does the lookups, plural forms included; a
message without a usable translation falls back to its English source text.

Messages from the variant files (names, titles, summaries, units, pattern names and
descriptions, shape names, reasons) carry a context ``<variant>/<kind>/<id>/<field>``:
the same English text may need different words in different variants (MCR's and
Sichuan's "Seven pairs" have different Chinese names).
"""

from __future__ import annotations

import gettext
import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from string import Formatter
from typing import Any, Iterable

from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from .languages import LANGUAGES, SOURCE, Language, language

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

    def get_value(self, key: Any, args: Any, kwargs: dict[str, Any]) -> Any:
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


class Translator:
    """Lookups for one language. Placeholders are ``{name}``, filled from keywords."""

    def __init__(self, lang: Language | str) -> None:
        self.lang = language(lang) if isinstance(lang, str) else lang
        cat = load_catalog(self.lang)
        if cat is None:
            self._t: gettext.NullTranslations = gettext.NullTranslations()
        else:
            buf = io.BytesIO()
            write_mo(buf, cat)
            buf.seek(0)
            self._t = gettext.GNUTranslations(buf)

    # The four gettext calls (the extractor knows these names).
    def _(self, message: str, **values: Any) -> str:
        return _fill(self._t.gettext(message), values)

    def ngettext(self, singular: str, plural: str, n: int, **values: Any) -> str:
        return _fill(self._t.ngettext(singular, plural, n), {"n": n, **values})

    def pgettext(self, context: str, message: str, **values: Any) -> str:
        return _fill(self._t.pgettext(context, message), values)

    def npgettext(self, context: str, singular: str, plural: str, n: int, **values: Any) -> str:
        return _fill(self._t.npgettext(context, singular, plural, n), {"n": n, **values})

    # Helpers that use CLDR data.
    def join(self, items: Iterable[str], style: str = "standard") -> str:
        """A localized list: "a, b and c" (style "or": "a, b or c")."""
        items = [i for i in items if i]
        if not items:
            return ""
        return format_list(items, style=style, locale=self.lang.locale)

    # Jinja2's i18n extension calls these (newstyle: placeholders as %(name)s).
    def jinja_callables(self) -> dict[str, Any]:
        return {"gettext": self._t.gettext, "ngettext": self._t.ngettext,
                "pgettext": self._t.pgettext, "npgettext": self._t.npgettext}


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

@dataclass(frozen=True)
class VariantMessage:
    """One text a variant file contributes to its pages."""

    context: str
    msgid: str
    plural: str | None = None  # units are plural messages ("point", "points")
    where: str = ""  # a short human description for reports

    @property
    def key(self) -> tuple[str, str]:
        return (self.context, self.msgid)


def humanize(identifier: str) -> str:
    """English text for an id that has no text of its own: ``flower_pig`` -> ``Flower pig``."""
    words = str(identifier).replace("_", " ").replace("-", " ").split()
    return " ".join(words)[:1].upper() + " ".join(words)[1:] if words else str(identifier)


def context(variant_id: str, *parts: str) -> str:
    return "/".join((variant_id,) + parts)


def variant_messages(variant: Any) -> list[VariantMessage]:
    """Every translatable text of a compiled variant, in page order.

    The extractor writes these into the catalog template; the pages look them up with
    the same contexts, so the two cannot drift apart.
    """
    vid = variant.id
    out = [
        VariantMessage(context(vid, "name"), variant.name, where="name"),
        VariantMessage(context(vid, "title"), variant.title, where="title"),
        VariantMessage(context(vid, "summary"), variant.summary, where="summary"),
        VariantMessage(context(vid, "unit"), variant.scoring.unit, variant.scoring.unit, where="unit"),
    ]
    if variant.family:
        out.append(VariantMessage(context("family", variant.family), humanize(variant.family),
                                  where=f"family {variant.family!r}"))
    for raw in variant.data["scoring"]["shapes"]:
        out.append(VariantMessage(context(vid, "shape", raw["id"], "name"), raw.get("name") or humanize(raw["id"]),
                                  where=f"shape {raw['id']!r} name"))
    for i, raw in enumerate(variant.data["scoring"].get("valid_when") or []):
        out.append(VariantMessage(context(vid, "valid_when", str(i)), " ".join(str(raw["reason"]).split()),
                                  where=f"validity reason {i + 1}"))
    for p in variant.scoring.table.patterns:
        out.append(VariantMessage(context(vid, "pattern", p.id, "name"), p.name, where=f"pattern {p.id!r} name"))
        if p.description:
            out.append(VariantMessage(context(vid, "pattern", p.id, "description"), " ".join(p.description.split()),
                                      where=f"pattern {p.id!r} description"))
    for rule in variant.settlement.exhausted:
        out.append(VariantMessage(context(vid, "reason", rule.reason), humanize(rule.reason),
                                  where=f"settlement reason {rule.reason!r}"))
    for key in variant.scoring.principles:
        out.append(VariantMessage(context(vid, "principle", key), humanize(key), where=f"principle {key!r}"))
    seen: set[tuple[str, str]] = set()
    unique = []
    for m in out:
        if m.key not in seen:
            seen.add(m.key)
            unique.append(m)
    return unique


def is_translated(cat: Catalog | None, context_: str | None, msgid: str) -> bool:
    """True when the catalog has a non-fuzzy, complete translation of the message."""
    if cat is None:
        return False
    msg = cat.get(msgid, context=context_)
    if msg is None or msg.fuzzy:
        return False
    strings = msg.string if isinstance(msg.string, (tuple, list)) else (msg.string,)
    return bool(strings) and all(s for s in strings)


def translated_languages() -> list[Language]:
    """The languages whose text must be complete (every one but the source)."""
    return [lang for lang in LANGUAGES if lang != SOURCE]


def missing_translations(variant: Any) -> list[tuple[VariantMessage, list[str]]]:
    """Each variant message that some shipped language lacks, with those languages' tags."""
    out = []
    cats = {lang.tag: load_catalog(lang) for lang in translated_languages()}
    for m in variant_messages(variant):
        missing = [tag for tag, cat in cats.items() if not is_translated(cat, m.context, m.msgid)]
        if missing:
            out.append((m, missing))
    return out


def missing_translation_lines(variant: Any) -> list[str]:
    """Lines for ``cardavia check``: the variant texts pages show in English for lack of a
    translation (run ``python -m cardavia.render.extract`` and translate locales/*.po)."""
    missing = missing_translations(variant)
    if not missing:
        return []
    lines = [f"  missing translations: {len(missing)} message{'s' if len(missing) != 1 else ''} "
             f"(shown in English; update with: python -m cardavia.render.extract)"]
    for m, tags in missing:
        lines.append(f"    {m.where}: {m.msgid!r} [{', '.join(tags)}]")
    return lines

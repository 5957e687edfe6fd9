"""The shipped page languages: BCP 47 tags, their Babel locales and their own names.

Tags are what users type and what pages carry in ``lang=""``; catalogs live under
``locales/<locale>/LC_MESSAGES/`` with the POSIX locale name translators' tools expect.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardavia.compiler.errors import quoted


@dataclass(slots=True, frozen=True)
class Language:
    tag: str  # BCP 47, e.g. "zh-Hant"
    locale: str  # Babel / gettext locale, e.g. "zh_Hant"
    native: str  # the language's name in itself
    wikipedia: str  # the Mahjong article in that language


LANGUAGES: tuple[Language, ...] = (
    Language("en", "en", "English", "https://en.wikipedia.org/wiki/Mahjong"),
    Language("it", "it", "Italiano", "https://it.wikipedia.org/wiki/Mahjong"),
    Language("pt", "pt", "Português", "https://pt.wikipedia.org/wiki/Mahjong"),
    Language("ms", "ms", "Bahasa Melayu", "https://ms.wikipedia.org/wiki/Mahjong"),
    Language("de", "de", "Deutsch", "https://de.wikipedia.org/wiki/Mahjong"),
    Language("zh-Hans", "zh_Hans", "简体中文", "https://zh.wikipedia.org/zh-cn/%E9%BA%BB%E5%B0%86"),
    Language("zh-Hant", "zh_Hant", "繁體中文", "https://zh.wikipedia.org/zh-tw/%E9%BA%BB%E5%B0%87"),
)

#: The language the variant files and the source messages are written in.
SOURCE = LANGUAGES[0]

_BY_KEY = {k.lower(): lang for lang in LANGUAGES for k in (lang.tag, lang.locale)}


class UnknownLanguage(ValueError):
    """A language tag that no shipped catalog serves."""


def language(tag: str) -> Language:
    """The shipped language for a tag (case-insensitive, ``-`` or ``_``)."""
    found = _BY_KEY.get(str(tag).strip().lower().replace("_", "-")) or _BY_KEY.get(str(tag).strip().lower())
    if found is None:
        expected = ", ".join(lang.tag for lang in LANGUAGES)
        raise UnknownLanguage(f"unknown language {quoted(tag)}: expected one of {expected}")
    return found


def tags() -> list[str]:
    return [lang.tag for lang in LANGUAGES]

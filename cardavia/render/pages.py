"""Rendering: compiled variant -> facts -> localized document -> a Jinja2 template.

``render_game`` is what ``cardavia rules VARIANT`` prints; ``site`` uses the same
functions for every page of the static site.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast

import jinja2

from cardavia.compiler.errors import visible_lines

from .catalog import translator
from .document import FamilyPage, GamePage
from .facts import facts_of, family_of
from .languages import LANGUAGES, Language, language
from .prose import family_page, game_page

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant

FORMATS = ("html", "md", "txt")
TEMPLATES = Path(__file__).with_name("templates")


class UnknownFormat(ValueError):
    """An output format the renderer does not write."""


class _I18nEnvironment(Protocol):
    """What ``jinja2.ext.i18n`` adds to an Environment (through ``Environment.extend``, which
    the type stubs cannot see)."""

    def install_gettext_callables(self, gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str],
                                  newstyle: bool | None = None,
                                  pgettext: Callable[[str, str], str] | None = None,
                                  npgettext: Callable[[str, str, str, int], str] | None = None) -> None: ...


@dataclass(slots=True, frozen=True)
class NavLink:
    """One link of the games' navigation at the top of a page."""

    href: str
    label: str
    current: bool = False


@dataclass(slots=True, frozen=True)
class Switch:
    """One entry of the language switcher."""

    tag: str
    native: str
    href: str
    current: bool


def _plain(value: Any) -> str:
    """What a text page (txt) prints of a value: control characters written as escapes."""
    return visible_lines(str(value))


_MARKUP = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;"})


def _markdown(value: Any) -> str:
    """What a Markdown page prints of a value: text, never markup a reader's renderer would
    run (raw HTML from a variant file's names and descriptions is escaped)."""
    return visible_lines(str(value)).translate(_MARKUP)


@lru_cache(maxsize=16)
def _environment(tag: str, fmt: str, extra: tuple[str, ...] = ()) -> jinja2.Environment:
    html = fmt == "html"
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([*extra, str(TEMPLATES)]),
        autoescape=html, extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, undefined=jinja2.StrictUndefined,
        finalize=None if html else _markdown if fmt == "md" else _plain,
    )
    callables = translator(tag).jinja_callables()
    cast(_I18nEnvironment, env).install_gettext_callables(
        callables["gettext"], callables["ngettext"], newstyle=True,
        pgettext=callables["pgettext"], npgettext=callables["npgettext"])
    env.filters["md_cell"] = lambda s: str(s).replace("|", "\\|").replace("\n", " ")
    env.filters["wrap"] = _wrap
    env.filters["columns"] = _columns
    return env


def _columns(text: str) -> int:
    """The columns a text takes in a terminal: Chinese characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in str(text))


def _wrap(text: str, width: int = 78, indent: str = "", first: str = "") -> str:
    import textwrap

    text = str(text)
    wide = _columns(text) > len(text) * 1.5  # mostly Chinese: no spaces to break at, two columns a character
    return "\n".join(textwrap.wrap(text, width=width // 2 if wide else width, initial_indent=first or indent,
                                   subsequent_indent=indent, break_long_words=wide, break_on_hyphens=False)) or first


def _switches(lang: Language, page: str | None) -> list[Switch]:
    if page is None:
        return []
    return [Switch(other.tag, other.native, f"../{other.tag}/{page}", other == lang) for other in LANGUAGES]


def html_environment(lang: Language, templates: Path) -> jinja2.Environment:
    """The HTML environment of a language with a second folder of templates searched first
    (the web app's), so that its pages extend and include these."""
    return _environment(lang.tag, "html", (str(templates),))


def page_values(lang: Language, values: dict[str, Any]) -> dict[str, Any]:
    """What every page template reads, with the static site's defaults: links to pages as
    ``VARIANT.html`` (``suffix``), no "Start game" (``start``: where games start), no icon."""
    values.setdefault("nav", [])
    values.setdefault("home", None)
    values.setdefault("suffix", ".html")
    values.setdefault("start", None)
    values.setdefault("icon", None)
    return {"lang": lang.tag, "languages": LANGUAGES, **values}


def _render(template: str, lang: Language, fmt: str, **values: Any) -> str:
    env = _environment(lang.tag, fmt)
    return env.get_template(template).render(**page_values(lang, values))


def check_format(fmt: str) -> str:
    if fmt not in FORMATS:
        raise UnknownFormat(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")
    return fmt


def game_document(variant: CompiledVariant, lang: str | Language) -> GamePage:
    lang = language(lang) if isinstance(lang, str) else lang
    return game_page(facts_of(variant), translator(lang))


def render_game(variant: CompiledVariant, lang: str | Language, fmt: str = "html", *, site_page: str | None = None,
                home: str | None = None, nav: list[NavLink] | None = None) -> str:
    """One variant's rules page. ``site_page`` (a file name) adds the language switcher
    with links to the same page in the other languages of a site; ``home`` links the
    language's landing page and ``nav`` the games, at the top of the page."""
    check_format(fmt)
    lang = language(lang) if isinstance(lang, str) else lang
    page = game_document(variant, lang)
    return _render(f"game.{fmt}", lang, fmt, page=page, switches=_switches(lang, site_page), home=home,
                   nav=nav or [])


def family_document(variants: list[CompiledVariant], lang: str | Language) -> FamilyPage:
    lang = language(lang) if isinstance(lang, str) else lang
    return family_page(family_of([facts_of(v) for v in variants]), translator(lang))


def render_family(variants: list[CompiledVariant], lang: str | Language, *, site_page: str | None = None,
                  home: str | None = None, nav: list[NavLink] | None = None) -> str:
    """A family page ("China · 144 tiles") with every game of the family and its rules."""
    lang = language(lang) if isinstance(lang, str) else lang
    page = family_document(variants, lang)
    return _render("family.html", lang, "html", page=page, switches=_switches(lang, site_page), home=home,
                   nav=nav or [])


def render_index(families: list[FamilyPage], lang: str | Language, *, site_page: str = "index.html",
                 nav: list[NavLink] | None = None) -> str:
    """A language's landing page: each family, its games with their summaries and key figures."""
    lang = language(lang) if isinstance(lang, str) else lang
    return _render("index.html", lang, "html", families=families, switches=_switches(lang, site_page),
                   home=site_page, nav=nav or [], prefix="")


def render_root(families: list[FamilyPage], nav: list[NavLink] | None = None) -> str:
    """The site's entry page: the languages, each named in itself, and the games (in English,
    linked into ``en/``)."""
    switches = [Switch(lang.tag, lang.native, f"{lang.tag}/index.html", lang == LANGUAGES[0]) for lang in LANGUAGES]
    return _render("root.html", LANGUAGES[0], "html", families=families, switches=switches, home="index.html",
                   nav=nav or [], prefix=f"{LANGUAGES[0].tag}/")

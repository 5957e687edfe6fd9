"""The static site: every variant page in every language, a family page and an index
per language, and a root page that lists the languages.

Layout (relative links only, so the directory can be opened from disk or served)::

    index.html                 the landing page: languages, each named in itself, and the games
    <tag>/index.html           a language's landing page: the families and their games
    <tag>/<family>.html        "China · 144 tiles": every game of the family with its rules
    <tag>/<variant>.html       one game's rules page
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from cardavia.compiler.registry import load_variant, shipped_variants

from .facts import page_name
from .languages import LANGUAGES, Language
from .pages import NavLink, family_document, render_family, render_game, render_index, render_root

if TYPE_CHECKING:
    from cardavia.compiler.variant import CompiledVariant

    from .document import GamePage


def _families(variants: list[CompiledVariant]) -> dict[str, list[CompiledVariant]]:
    out: dict[str, list[CompiledVariant]] = {}
    for v in variants:
        out.setdefault(v.family or "other", []).append(v)
    return out


def _nav(games: list[GamePage], current: str | None, prefix: str = "") -> list[NavLink]:
    """The links to every game of a language's pages, ``current`` marked."""
    return [NavLink(f"{prefix}{g.page}.html", g.name, g.page == current) for g in games]


def build_site(out: str | Path, variants: list[CompiledVariant] | None = None,
               languages: tuple[Language, ...] = LANGUAGES) -> list[Path]:
    """Write the site under ``out``; returns the files written."""
    root = Path(out)
    if variants is None:
        variants = [load_variant(name) for name in shipped_variants()]
    families = _families(variants)
    written: list[Path] = []

    def write(rel: str, text: str) -> None:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        written.append(path)

    for lang in languages:
        docs = [family_document(members, lang) for members in families.values()]
        games = [g for doc in docs for g in doc.games]
        for family, members in families.items():
            write(f"{lang.tag}/{family}.html", render_family(members, lang, site_page=f"{family}.html",
                                                             home="index.html", nav=_nav(games, None)))
            for v in members:
                page = page_name(v)
                write(f"{lang.tag}/{page}.html", render_game(v, lang, "html", site_page=f"{page}.html",
                                                             home="index.html", nav=_nav(games, page)))
        write(f"{lang.tag}/index.html", render_index(docs, lang, nav=_nav(games, None)))
        if lang == LANGUAGES[0]:
            write("index.html", render_root(docs, nav=_nav(games, None, f"{lang.tag}/")))
    return written

"""The static site: every variant page in every language, a family page and an index
per language, and a root page that lists the languages.

Layout (relative links only, so the directory can be opened from disk or served)::

    index.html                 languages, each named in itself
    <tag>/index.html           the families and their games
    <tag>/<family>.html        "China · 144 tiles": every game of the family with its rules
    <tag>/<variant>.html       one game's rules page
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardavia.compiler.registry import load_variant, shipped_variants

from .languages import LANGUAGES, Language
from .pages import family_document, render_family, render_game, render_index, render_root


def _families(variants: list[Any]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for v in variants:
        out.setdefault(v.family or "other", []).append(v)
    return out


def build_site(out: str | Path, variants: list[Any] | None = None,
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

    write("index.html", render_root())
    for lang in languages:
        docs = []
        for family, members in families.items():
            docs.append(family_document(members, lang))
            write(f"{lang.tag}/{family}.html", render_family(members, lang, site_page=f"{family}.html"))
            for v in members:
                write(f"{lang.tag}/{v.id}.html", render_game(v, lang, "html", site_page=f"{v.id}.html",
                                                             home=f"{family}.html", family=family))
        write(f"{lang.tag}/index.html", render_index(docs, lang))
    return written

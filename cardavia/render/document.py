"""The localized content of a page, independent of its output format.

``prose`` fills these from facts and a translator; the HTML, Markdown and text
templates only lay them out, so the three formats always say the same thing.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True, frozen=True)
class PatternRow:
    id: str
    name: str
    value: str  # as shown, e.g. "3" or a formula sentence
    number: int | None  # the fixed value, None for a formula
    description: str
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True, frozen=True)
class Block:
    """A paragraph (``text``), a bullet list (``items``) or the pattern table (``rows``)."""

    text: str = ""
    items: list[str] = field(default_factory=list)
    rows: list[PatternRow] = field(default_factory=list)
    caption: str = ""
    headers: tuple[str, str, str] = ("", "", "")

    @property
    def kind(self) -> str:
        return "table" if self.rows else "list" if self.items else "paragraph"


@dataclass(slots=True, frozen=True)
class Section:
    number: int
    heading: str
    blocks: list[Block]


@dataclass(slots=True, frozen=True)
class Figure:
    """A key number shown at a glance (``key`` names the fact for tools and tests)."""

    key: str
    label: str
    number: int
    text: str


@dataclass(slots=True, frozen=True)
class GamePage:
    variant: str
    lang: str
    name: str
    title: str
    summary: str
    frame: str  # "4 players · you against 3 AI · one deal"
    sections: list[Section]
    rules_heading: str
    figures: list[Figure] = field(default_factory=list)
    figures_label: str = ""
    page: str = ""  # the page's file name without .html


@dataclass(slots=True, frozen=True)
class FamilyPage:
    family: str
    lang: str
    heading: str  # "China · 144 tiles"
    intro: str
    games_heading: str
    games: list[GamePage]
    wikipedia: str
    wikipedia_label: str

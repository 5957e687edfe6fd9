"""Reading a rendered HTML rules page back: its language, figures, pattern rows, links and
resources (used by the tests and by anyone checking a built site)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser


@dataclass(slots=True)
class Row:
    id: str
    name: str = ""
    value: str | None = None
    cells: list[str] = field(default_factory=list)


class PageReader(HTMLParser):
    """Collects the text, the html lang, the figures (data-fact), the pattern rows and every
    resource reference of an HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lang: str | None = None
        self.text_parts: list[str] = []
        self.figures: dict[str, int] = {}
        self.rows: dict[str, Row] = {}
        self.row_order: list[str] = []
        self.resources: list[str] = []
        self.links: list[str] = []
        self.headings: list[tuple[str, str]] = []
        self._row: Row | None = None
        self._cell: list[str] | None = None
        self._heading: tuple[str, list[str]] | None = None
        self.table_headers = 0
        self._skip = 0  # inside <style> or <script>: not page text

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag in ("style", "script"):
            self._skip += 1
        if tag == "html":
            self.lang = a.get("lang")
        if "data-fact" in a:
            self.figures[a["data-fact"]] = int(a["data-value"])
        if tag == "tr" and "data-pattern" in a:
            self._row = Row(a["data-pattern"])
            self.rows[self._row.id] = self._row
            self.row_order.append(self._row.id)
        if tag in ("td", "th") and self._row is not None:
            self._cell = []
            if "data-value" in a:
                self._row.value = a["data-value"]
        if tag == "th" and a.get("scope") == "col":
            self.table_headers += 1
        if tag in ("h1", "h2", "h3", "h4"):
            self._heading = (tag, [])
        if tag in ("img", "script", "iframe", "audio", "video", "source") and a.get("src"):
            self.resources.append(a["src"])
        if tag == "link" and a.get("href"):
            self.resources.append(a["href"])
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])

    def handle_endtag(self, tag: str) -> None:
        if tag in ("style", "script"):
            self._skip -= 1
        if tag in ("td", "th") and self._row is not None and self._cell is not None:
            self._row.cells.append(" ".join("".join(self._cell).split()))
            if len(self._row.cells) == 1:
                self._row.name = self._row.cells[0]
            self._cell = None
        if tag == "tr":
            self._row = None
        if tag in ("h1", "h2", "h3", "h4") and self._heading:
            self.headings.append((self._heading[0], " ".join("".join(self._heading[1]).split())))
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        self.text_parts.append(data)
        if self._cell is not None:
            self._cell.append(data)
        if self._heading is not None:
            self._heading[1].append(data)

    @property
    def text(self) -> str:
        return " ".join(" ".join(self.text_parts).split())


def read_page(html: str) -> PageReader:
    reader = PageReader()
    reader.feed(html)
    reader.close()
    return reader


def has_number(text: str, n: int) -> bool:
    """``n`` written with ASCII digits as a whole number somewhere in ``text``."""
    return re.search(rf"(?<![0-9]){n}(?![0-9])", text) is not None

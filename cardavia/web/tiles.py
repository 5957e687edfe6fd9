"""The tiles, drawn by the project as SVG (lines and circles only, no font), and their names.

Every kind is one ``<symbol id="t-CODE">`` of one sprite (:func:`sprite`), served once and
cached by the browser; a page draws a tile with ``<use href="...#t-5p">`` and names it in
words for assistive technology (:func:`tile_name`, in the page's language). Characters
show their Chinese numeral over 万, winds their initial, dragons 中, 发 and a frame, flowers
and seasons a flower or a sun; every suited tile also carries its rank in a corner, so
players who do not read Chinese numerals read the tile at a glance.
"""

from __future__ import annotations

from functools import lru_cache

from cardavia.compiler.model.tiles import CODES
from cardavia.render.catalog import Translator

W, H = 30, 40
INK = "#1d2b53"
RED = "#b3261e"
GREEN = "#1e6b3a"
BLUE = "#1f4f9f"

#: Digits and wind initials as strokes in a 4 x 6 box.
GLYPHS = {
    "1": "M1,1.2 L2.2,0 L2.2,6",
    "2": "M0.2,1.5 Q0.4,0 2,0 Q3.8,0 3.8,1.6 Q3.8,3 0.2,6 L4,6",
    "3": "M0.3,0.7 Q2,-0.5 3.4,0.7 Q4,2.6 1.6,2.9 Q4.2,3.1 3.8,5 Q2.6,6.6 0.2,5.5",
    "4": "M3,6 L3,0 L0,4.2 L4,4.2",
    "5": "M3.8,0 L0.7,0 L0.4,2.7 Q2,2 3.4,2.8 Q4.4,4 3.6,5.3 Q2,6.6 0.1,5.6",
    "6": "M3.5,0.3 Q1,0.6 0.3,3.6 Q0,6 2,6 Q4,6 4,4.1 Q4,2.4 2,2.4 Q0.6,2.4 0.2,3.8",
    "7": "M0,0 L4,0 L1.5,6",
    "8": "M2,2.8 Q0.2,2.6 0.4,1.3 Q0.8,0 2,0 Q3.2,0 3.6,1.3 Q3.8,2.6 2,2.8 Q0,3.1 0,4.5 Q0.2,6 2,6 "
         "Q3.8,6 4,4.5 Q4,3.1 2,2.8 Z",
    "9": "M0.4,5.7 Q3,5.4 3.7,2.4 Q4,0 2,0 Q0,0 0,1.9 Q0,3.6 2,3.6 Q3.4,3.6 3.8,2.2",
    "E": "M4,0 L0,0 L0,6 L4,6 M0,3 L3.2,3",
    "S": "M3.8,0.8 Q2.6,-0.4 1.2,0.3 Q0,1 0.4,2.2 Q0.8,3 2,3 Q3.6,3.2 3.9,4.4 Q4,6 2,6 Q0.8,6 0,5.2",
    "W": "M0,0 L1,6 L2,2 L3,6 L4,0",
    "N": "M0,6 L0,0 L4,6 L4,0",
}

#: Chinese numerals one to nine as strokes in a 10 x 8 box.
NUMERALS = (
    "M1,4 L9,4",
    "M2,2 L8,2 M1,6 L9,6",
    "M2,1 L8,1 M3,4 L7,4 M1,7 L9,7",
    "M1,1 L1,7.5 M1,1 L9,1 L9,7.5 M1,7.5 L9,7.5 M4,1 Q4,4 2.2,5.6 M6,1 L6,4.6 Q6,5.6 8,5.6",
    "M2,1 L8,1 M4.6,1 L3.6,7.5 M2.4,4.2 L7.2,4.2 L7.2,7.5 M1,7.5 L9,7.5",
    "M5,0 L5.6,1.4 M1,2.6 L9,2.6 M4,4.2 L2,7.6 M6,4.2 L8.5,7.6",
    "M1,4 L9,3 M4,0.5 L4,6.5 Q4,7.5 5.5,7.5 L9,7.5 L9,6",
    "M4,1.5 Q4,5 1,7.5 M6,1.5 Q6.5,5 9,7.5",
    "M1,3 L7,3 Q7,7.5 8,7.5 L9.5,7.5 L9.5,6 M4.5,0.5 Q4.5,5 1,7.5",
)
WAN = "M1,1 L9,1 M4.6,1 Q4.6,7 1,9.5 M4,4 L8,4 Q8,9 6.5,9.5 L5.5,9"
ZHONG = "M3,8 L17,8 L17,18 L3,18 Z M10,2 L10,26"
FA = ("M5,2 L4,9 M1,9 L18,9 M13,2 L15,5 M10,2 Q9,14 2,22 M7,13 L15,13 Q13,19 6,23 M9,16 Q13,20 18,23")

#: Where dots and bamboo sticks sit for ranks 1-9, in a 20 x 28 field.
LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(10, 14)],
    2: [(10, 6), (10, 22)],
    3: [(4, 5), (10, 14), (16, 23)],
    4: [(5, 6), (15, 6), (5, 22), (15, 22)],
    5: [(5, 5), (15, 5), (10, 14), (5, 23), (15, 23)],
    6: [(5, 4), (15, 4), (5, 14), (15, 14), (5, 24), (15, 24)],
    7: [(3, 3), (10, 5), (17, 7), (5, 16), (15, 16), (5, 25), (15, 25)],
    8: [(5, 3), (15, 3), (5, 10.5), (15, 10.5), (5, 18), (15, 18), (5, 25.5), (15, 25.5)],
    9: [(3.5, 4), (10, 4), (16.5, 4), (3.5, 14), (10, 14), (16.5, 14), (3.5, 24), (10, 24), (16.5, 24)],
}
DOT_COLORS = (BLUE, GREEN, RED)
FLOWER_COLORS = ("#c2477a", "#7b4fb0", "#c99a06", GREEN)


def _stroke(d: str, color: str, width: float, transform: str = "") -> str:
    t = f' transform="{transform}"' if transform else ""
    return (f'<path d="{d}" fill="none" stroke="{color}" stroke-width="{width}" stroke-linecap="round" '
            f'stroke-linejoin="round"{t}/>')


def _corner(glyph: str, color: str = INK) -> str:
    return _stroke(GLYPHS[glyph], color, 0.9, "translate(3.2 3.2) scale(0.85)")


def _dots(rank: int) -> str:
    big = 6.5 if rank == 1 else 3.6 if rank <= 2 else 3.0 if rank <= 6 else 2.7
    out = []
    for i, (x, y) in enumerate(LAYOUT[rank]):
        color = RED if rank == 1 else DOT_COLORS[(i + rank) % 3]
        cx, cy = 5 + x, 7 + y * 0.95
        out.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{big:g}" fill="{color}"/>'
                   f'<circle cx="{cx:g}" cy="{cy:g}" r="{big * 0.55:g}" fill="#fffdf6"/>'
                   f'<circle cx="{cx:g}" cy="{cy:g}" r="{big * 0.25:g}" fill="{color}"/>')
    return "".join(out)


def _bamboo(rank: int) -> str:
    if rank == 1:  # one tall stalk with a red bird's eye
        return (f'<rect x="12" y="8" width="6" height="26" rx="3" fill="{GREEN}"/>'
                f'<path d="M12,17 L18,17 M12,25 L18,25" stroke="#fffdf6" stroke-width="1"/>'
                f'<circle cx="15" cy="7" r="3.2" fill="{RED}"/>')
    out = []
    half = 4.2 if rank <= 6 else 3.3
    for i, (x, y) in enumerate(LAYOUT[rank]):
        color = RED if rank in (5, 7, 9) and i == (len(LAYOUT[rank]) // 2 if rank != 7 else 0) else GREEN
        cx, cy = 5 + x, 7 + y * 0.95
        out.append(f'<rect x="{cx - 1.3:g}" y="{cy - half:g}" width="2.6" height="{2 * half:g}" rx="1.2" '
                   f'fill="{color}"/><path d="M{cx - 1.3:g},{cy:g} L{cx + 1.3:g},{cy:g}" stroke="#fffdf6" '
                   f'stroke-width="0.6"/>')
    return "".join(out)


def _face(kind: int) -> str:
    code = CODES[kind]
    rank, suit = code[0], code[1]
    if suit == "m":
        return (_corner(rank) + _stroke(NUMERALS[int(rank) - 1], INK, 1.5, "translate(10 8) scale(1)")
                + _stroke(WAN, RED, 1.6, "translate(9.5 21) scale(1.1)"))
    if suit == "p":
        return _corner(rank) + _dots(int(rank))
    if suit == "s":
        return _corner(rank) + _bamboo(int(rank))
    if suit == "z":
        n = int(rank)
        if n <= 4:
            return _stroke(GLYPHS["ESWN"[n - 1]], INK, 0.75, "translate(7 8) scale(4)")
        if n == 5:
            return (f'<rect x="6" y="7" width="18" height="26" rx="1.5" fill="none" stroke="{BLUE}" '
                    f'stroke-width="2"/><rect x="9.5" y="10.5" width="11" height="19" fill="none" '
                    f'stroke="{BLUE}" stroke-width="1.2"/>')
        if n == 6:
            return _stroke(FA, GREEN, 2.1, "translate(5 7)")
        return _stroke(ZHONG, RED, 2.6, "translate(5 6)")
    n = int(rank)
    if n <= 4:  # flowers: five petals
        color = FLOWER_COLORS[n - 1]
        petals = "".join(f'<circle cx="{15 + 5 * c:g}" cy="{21 + 5 * s:g}" r="3.6" fill="{color}"/>'
                         for c, s in ((0, -1), (0.95, -0.31), (0.59, 0.81), (-0.59, 0.81), (-0.95, -0.31)))
        return _corner(str(n), color) + petals + '<circle cx="15" cy="21" r="2.4" fill="#f2c230"/>'
    color = ("#3d8b3d", "#d9661f", "#b5651d", "#3b6db3")[n - 5]
    rays = "".join(f'<path d="M{15 + 6 * c:.2f},{21 + 6 * s:.2f} L{15 + 9.5 * c:.2f},{21 + 9.5 * s:.2f}"/>'
                   for c, s in ((1, 0), (0.71, 0.71), (0, 1), (-0.71, 0.71), (-1, 0), (-0.71, -0.71), (0, -1),
                                (0.71, -0.71)))
    return (_corner(str(n - 4), color) + f'<circle cx="15" cy="21" r="4.6" fill="{color}"/>'
            f'<g stroke="{color}" stroke-width="1.6" stroke-linecap="round">{rays}</g>')


def tile_symbol(kind: int) -> str:
    return (f'<symbol id="t-{CODES[kind]}" viewBox="0 0 {W} {H}">'
            f'<rect x="0.75" y="0.75" width="{W - 1.5}" height="{H - 1.5}" rx="3.5" fill="#fffdf6" '
            f'stroke="#8c8478" stroke-width="1.5"/>{_face(kind)}</symbol>')


@lru_cache(maxsize=1)
def sprite() -> str:
    """Every tile kind as one SVG document of symbols."""
    symbols = "".join(tile_symbol(k) for k in range(len(CODES)))
    back = (f'<symbol id="t-back" viewBox="0 0 {W} {H}"><rect x="0.75" y="0.75" width="{W - 1.5}" '
            f'height="{H - 1.5}" rx="3.5" fill="#2f6f5e" stroke="#1d4a3e" stroke-width="1.5"/></symbol>')
    return f'<svg xmlns="http://www.w3.org/2000/svg">{symbols}{back}</svg>\n'


def favicon() -> str:
    """The site's icon: the red dragon."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}">'
            f'<rect x="0.75" y="0.75" width="{W - 1.5}" height="{H - 1.5}" rx="3.5" fill="#fffdf6" '
            f'stroke="#8c8478" stroke-width="1.5"/>{_face(33)}</svg>\n')


def tile_name(t: Translator, code: str) -> str:
    """A tile in words, in the translator's language ("5 of dots", "Red dragon")."""
    rank, suit = code[0], code[1]
    n = int(rank)
    if suit == "m":
        return t.pgettext("tile", "{n} of characters", n=n)
    if suit == "p":
        return t.pgettext("tile", "{n} of dots", n=n)
    if suit == "s":
        return t.pgettext("tile", "{n} of bamboo", n=n)
    if suit == "z":
        names = (t.pgettext("tile", "East wind"), t.pgettext("tile", "South wind"), t.pgettext("tile", "West wind"),
                 t.pgettext("tile", "North wind"), t.pgettext("tile", "White dragon"),
                 t.pgettext("tile", "Green dragon"), t.pgettext("tile", "Red dragon"))
        return names[n - 1]
    bonus = (t.pgettext("tile", "Plum"), t.pgettext("tile", "Orchid"), t.pgettext("tile", "Chrysanthemum"),
             t.pgettext("tile", "Bamboo flower"), t.pgettext("tile", "Spring"), t.pgettext("tile", "Summer"),
             t.pgettext("tile", "Autumn"), t.pgettext("tile", "Winter"))
    return bonus[n - 1]

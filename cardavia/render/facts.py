"""Everything a rules page states, read from a compiled variant (language-free).

This is the only place the renderer looks at a compiled variant: pages are written
from these facts, so a page can say nothing the variant file does not hold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from cardavia.compiler.model.tiles import TILE_GROUPS, WIND_LETTERS, rank_of

from .bounds import can_repeat
from .catalog import humanize

if TYPE_CHECKING:
    from cardavia.compiler.model.tiles import TileSet
    from cardavia.compiler.variant import CompiledVariant


@dataclass(slots=True, frozen=True)
class TileGroupFact:
    group: str  # characters, dots, bamboo, winds, dragons, flowers, seasons
    copies: int
    kinds: int  # how many tile kinds of the group the set has
    ranks: tuple[int, ...] | None = None  # the ranks a suit keeps, when not all nine


@dataclass(slots=True, frozen=True)
class ShapeFact:
    """A winning shape as the shape itself says what it is made of (``Shape.parts``)."""

    id: str
    name: str
    kind: str  # an engine shape kind (compiler.shapes.kinds.SHAPE_KINDS)
    sets: int  # sets (chows, pungs, kongs), those beside a knitted straight
    pairs: int
    singles: int  # different single tiles, no pair
    knitted: bool  # a knitted straight: whole beside the sets, or among the singles
    tiles: tuple[int, ...]  # one each of these (and a second copy of one)
    quads_as_two_pairs: bool
    max_melds: int


@dataclass(slots=True, frozen=True)
class PatternFact:
    id: str
    name: str
    description: str
    value: int | None  # None when the value is a formula
    value_formula: str | None
    per_instance: bool  # may count more than once in a hand (see bounds.can_repeat)
    limit: bool
    fallback: bool
    toward_minimum: bool
    excludes: tuple[str, ...]
    replaces: tuple[tuple[str, int], ...]
    shapes: tuple[str, ...] | None
    combination: str | None


@dataclass(slots=True, frozen=True)
class PaymentFact:
    when: str | None  # condition text, None: always
    payer: str  # compiler.settlement.PAYERS
    amount: str  # formula text
    kong: str | None = None  # exposed / added / concealed for kong payments


@dataclass(slots=True, frozen=True)
class ExhaustedFact:
    reason: str
    refund_when: str | None = None  # a refund rule: who refunds kong income
    payer: str | None = None  # a pair rule: payer condition, payee condition, amount
    payee: str | None = None
    amount: str | None = None


@dataclass(slots=True, frozen=True)
class ChoiceFact:
    id: str
    name: str
    description: str


@dataclass(slots=True, frozen=True)
class OptionFact:
    """One of the variant's options (house rules): the choice this page follows, and the others."""

    id: str
    name: str
    description: str
    chosen: ChoiceFact
    others: list[ChoiceFact]


@dataclass(slots=True, frozen=True)
class VariantFacts:
    id: str
    name: str
    title: str
    summary: str
    family: str
    unit: str
    tile_count: int
    tile_groups: list[TileGroupFact]
    players: int
    dealer_tiles: int
    other_tiles: int
    round_wind: str  # E, S, W, N
    rotate_dealer: bool
    chow: str
    kongs: dict[str, bool]
    discard_win: str
    after_win: str
    max_winners: int
    missing_suit: dict[str, Any] | None
    minimum: int
    cap: int | None
    shapes: list[ShapeFact]
    valid_reasons: list[str]
    patterns: list[PatternFact]
    principles: dict[str, Any]
    base: str
    ready_value: str | None
    win_payments: list[PaymentFact]
    kong_payments: list[PaymentFact]
    exhausted: list[ExhaustedFact] = field(default_factory=list)
    options: list[OptionFact] = field(default_factory=list)
    kong_transfer: str | None = None  # several_winners of settlement.kong_transfer, None without one
    page: str = ""  # the page's file name without .html: a shipped variant's name (its file stem), else its id
    exchange: dict[str, Any] | None = None  # play.exchange: tiles, same_suit, direction

    @property
    def has_group(self) -> set[str]:
        return {g.group for g in self.tile_groups}

    @property
    def has_bonus(self) -> bool:
        return bool(self.has_group & {"flowers", "seasons"})

    @property
    def has_winds(self) -> bool:
        return "winds" in self.has_group

    @property
    def limit_patterns(self) -> list[PatternFact]:
        return [p for p in self.patterns if p.limit]

    @property
    def outside_minimum(self) -> list[PatternFact]:
        return [p for p in self.patterns if not p.toward_minimum]

    def pattern(self, pid: str) -> PatternFact | None:
        return next((p for p in self.patterns if p.id == pid), None)


def _text(compiled: Any) -> str | None:
    return None if compiled is None else " ".join(str(compiled.text).split())


def tile_groups(tiles: TileSet) -> list[TileGroupFact]:
    out = []
    for name, kinds in TILE_GROUPS.items():
        present = [k for k in kinds if tiles.copies(k)]
        if present:
            ranks = None if len(present) == len(kinds) else tuple(rank_of(k) for k in present)
            out.append(TileGroupFact(name, tiles.copies(present[0]), len(present), ranks))
    return out


def page_name(variant: CompiledVariant) -> str:
    """A shipped variant's name (its file stem, as the command line, ``extends`` and the web
    app know it), or the id of a variant from elsewhere."""
    from pathlib import Path

    from cardavia.compiler.registry import variants_dir

    path = Path(variant.path)
    try:
        shipped = path.resolve().parent == variants_dir()
    except OSError:
        shipped = False
    return path.stem if shipped else variant.id


def option_facts(variant: CompiledVariant) -> list[OptionFact]:
    """The variant's options, each with the choice it was compiled with."""
    out = []
    for oid, raw in (variant.data.get("options") or {}).items():
        choices = [ChoiceFact(cid, " ".join(str(c.get("name") or humanize(cid)).split()),
                              " ".join(str(c.get("description") or "").split()))
                   for cid, c in raw["choices"].items()]
        pick = variant.options.get(oid, raw.get("default"))
        chosen = next((c for c in choices if c.id == pick), None)
        if chosen is None:
            continue
        out.append(OptionFact(oid, " ".join(str(raw.get("name") or humanize(oid)).split()),
                              " ".join(str(raw.get("description") or "").split()), chosen,
                              [c for c in choices if c.id != pick]))
    return out


def facts_of(variant: CompiledVariant) -> VariantFacts:
    """The facts of a compiled variant (:class:`compiler.variant.CompiledVariant`)."""
    sc = variant.scoring
    raw_shapes = {s["id"]: s for s in variant.data["scoring"]["shapes"]}
    shapes = []
    for s in sc.shapes:
        parts = s.parts()
        shapes.append(ShapeFact(s.id, raw_shapes.get(s.id, {}).get("name") or "", s.kind, parts.sets, parts.pairs,
                                parts.singles, parts.knitted, tuple(parts.tiles), parts.quads_as_two_pairs,
                                parts.max_melds))
    patterns = []
    for p in sc.table.patterns:
        fixed = p.value if isinstance(p.value, int) else None
        patterns.append(PatternFact(
            id=p.id, name=p.name, description=" ".join(p.description.split()), value=fixed,
            value_formula=None if fixed is not None else _text(p.value), per_instance=can_repeat(p, variant),
            limit=p.limit, fallback=p.fallback, toward_minimum=p.toward_minimum, excludes=tuple(p.excludes),
            replaces=tuple(p.replaces.items()), shapes=tuple(sorted(p.shapes)) if p.shapes else None,
            combination=p.combination))
    st = variant.settlement
    raw_settlement = variant.data["settlement"]
    exhausted = []
    for rule in st.exhausted:
        if hasattr(rule, "who"):
            exhausted.append(ExhaustedFact(rule.reason, refund_when=_text(rule.who)))
        else:
            exhausted.append(ExhaustedFact(rule.reason, payer=_text(rule.payer), payee=_text(rule.payee),
                                           amount=_text(rule.amount)))
    table, play = variant.table, variant.play
    return VariantFacts(
        id=variant.id, name=variant.name, title=variant.title, summary=variant.summary, family=variant.family,
        unit=sc.unit, tile_count=len(variant.tiles), tile_groups=tile_groups(variant.tiles),
        players=table.players, dealer_tiles=table.dealer_tiles, other_tiles=table.other_tiles,
        round_wind=WIND_LETTERS[table.round_wind - 27], rotate_dealer=table.rotate_dealer,
        chow=play.chow, kongs=dict(play.kongs), discard_win=play.discard_win, after_win=play.after_win,
        max_winners=play.max_winners, missing_suit=dict(play.missing_suit) if play.missing_suit else None,
        minimum=sc.minimum, cap=sc.cap, shapes=shapes,
        valid_reasons=[" ".join(str(r["reason"]).split()) for r in variant.data["scoring"].get("valid_when") or []],
        patterns=patterns, principles=dict(sc.principles), base=_text(st.base) or "",
        ready_value=_text(st.ready_value) if "ready_value" in raw_settlement else None,
        win_payments=[PaymentFact(_text(r.when), r.payer, _text(r.amount) or "") for r in st.win],
        kong_payments=[PaymentFact(_text(r.when), r.payer, _text(r.amount) or "", kong=r.kong) for r in st.kongs],
        exhausted=exhausted, options=option_facts(variant),
        kong_transfer=st.kong_transfer.several_winners if st.kong_transfer is not None else None,
        page=page_name(variant), exchange=dict(play.exchange) if play.exchange else None,
    )


@dataclass(slots=True, frozen=True)
class FamilyFacts:
    """A family page ("China · 144 tiles"): the games of one family and their tiles."""

    id: str
    tile_count: int
    tile_groups: list[TileGroupFact]
    games: list[VariantFacts]


def family_of(games: list[VariantFacts]) -> FamilyFacts:
    """The family of ``games`` (all of one family): the largest tile set among them."""
    largest = max(games, key=lambda g: g.tile_count)
    return FamilyFacts(games[0].family, largest.tile_count, largest.tile_groups, games)

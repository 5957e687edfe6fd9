"""The compiler pipeline: YAML -> schema -> names and expressions -> a compiled variant.

Stages share one :class:`Report`; a stage that finds problems stops the pipeline
after it has reported all of its own, so an author sees every problem of a stage at
once, each at its file:line:column.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cached_property
from pathlib import Path
from typing import Any

from .errors import Problem, Report, VariantError, did_you_mean
from .language import ir
from .language.checker import MAX_TOTAL_COST, Env
from .language.compiled import Compiled, Recipe, build, generate
from .language.parser import ExpressionError
from .language.types import BOOL, INT, Type
from .loading import cache
from .loading import schema as schema_mod
from .loading.files import read_variant_file, resolve
from .loading.overlay import load_document
from .loading.source import Source
from .model.tiles import SUIT_GROUPS, TileSet, wind_kind
from .records import Record
from .scoring.codegen import emitted_scorer
from .scoring.context import PATTERN_FACTS
from .scoring.patterns import Pattern, PatternTable
from .scoring.scorer import Scorer, Scoring
from .settlement import Settlement, compile_settlement
from .shapes.base import Shape
from .shapes.kinds import shape_kind

COMPILER_VERSION = "1"
#: With ``play.exchange.direction: dice`` and no ``dice:``, which totals of two dice send the
#: tiles which way (the convention most Sichuan tables use).
DICE_TOTALS = {"across": (3, 6, 9, 12), "next": (4, 7, 10), "previous": (2, 5, 8, 11)}


class Table(Record):
    players: int
    dealer_tiles: int
    other_tiles: int
    round_wind: int
    rotate_dealer: bool

    def __init__(self, players: int, dealer_tiles: int, other_tiles: int, round_wind: int,
                 rotate_dealer: bool) -> None:
        self.players = players
        self.dealer_tiles = dealer_tiles
        self.other_tiles = other_tiles
        self.round_wind = round_wind
        self.rotate_dealer = rotate_dealer

    @property
    def hand_size(self) -> int:
        """The tiles of a complete hand: a hand as dealt to a player other than the dealer,
        plus the tile that completes it (a declared set counted three)."""
        return self.other_tiles + 1


class Play(Record):
    chow: str
    kongs: dict[str, bool]
    discard_win: str
    after_win: str
    max_winners: int
    missing_suit: dict[str, Any] | None
    exchange: dict[str, Any] | None  # tiles, same_suit, direction (defaults filled in)

    def __init__(self, chow: str, kongs: dict[str, bool], discard_win: str, after_win: str, max_winners: int,
                 missing_suit: dict[str, Any] | None, exchange: dict[str, Any] | None = None) -> None:
        self.chow = chow
        self.kongs = kongs
        self.discard_win = discard_win
        self.after_win = after_win
        self.max_winners = max_winners
        self.missing_suit = missing_suit
        self.exchange = exchange


class CompiledVariant(Record):
    HIDDEN = ("data",)

    id: str
    name: str
    title: str
    family: str
    summary: str
    path: str
    digest: str
    tiles: TileSet
    table: Table
    play: Play
    scoring: Scoring
    settlement: Settlement
    data: dict[str, Any]
    options: dict[str, str]  # the choice made for each option the variant declares

    def __init__(self, id: str, name: str, title: str, family: str, summary: str, path: str, digest: str,
                 tiles: TileSet, table: Table, play: Play, scoring: Scoring, settlement: Settlement,
                 data: dict[str, Any], options: dict[str, str] | None = None) -> None:
        self.id = id
        self.name = name
        self.title = title
        self.family = family
        self.summary = summary
        self.path = path
        self.digest = digest
        self.tiles = tiles
        self.table = table
        self.play = play
        self.scoring = scoring
        self.settlement = settlement
        self.data = data
        self.options = options if options is not None else {}

    @cached_property
    def scorer(self) -> Scorer:
        copies = [0] * 42
        for k in self.tiles.kinds:
            copies[k] += 1
        playable = frozenset(k for k in self.tiles.kinds if k < 34)
        return Scorer(self.scoring, playable, self.tiles.has_bonus(), copies, self.table.hand_size)

    def scorer_source(self, shape: str) -> str:
        """The generated Python that scores arrangements of ``shape`` (its choosers first),
        as ``cardavia check --emit-scorer`` prints it; KeyError for an unknown shape."""
        if shape not in {s.id for s in self.scoring.shapes}:
            raise KeyError(shape)
        source = self.scoring.table.generate_all([shape])[shape]
        return emitted_scorer(source, self.path)

    def summary_lines(self) -> list[str]:
        p = self.play
        chows = "chow from the previous player" if p.chow == "previous_player" else "no chows"
        kongs = ", ".join(k for k, v in p.kongs.items() if v) or "none"
        wins = "several winners on one discard" if p.discard_win == "all" else "first winner in seat order"
        after = ("winners stay in, locked, until the wall runs out" if p.after_win == "stay"
                 else f"play continues after a win until {p.max_winners} have won" if p.after_win == "continue"
                 else "the first win ends the deal")
        settle = self.settlement
        return [
            f"{self.id}: {self.title}",
            f"  tiles: {len(self.tiles)}",
            f"  deal: dealer {self.table.dealer_tiles}, others {self.table.other_tiles}",
            f"  minimum: {self.scoring.minimum} {self.scoring.unit}",
            f"  cap: {self.scoring.cap if self.scoring.cap is not None else 'none'}",
            f"  patterns: {len(self.scoring.table.patterns)}",
            f"  shapes: {', '.join(s.id for s in self.scoring.shapes)}",
            f"  claims: {chows}; kongs: {kongs}; {wins}; {after}",
            f"  missing suit: {'declared after the deal' if p.missing_suit else 'no'}",
            f"  payment rules: {len(settle.win)} win, {len(settle.kongs)} kong, {len(settle.exhausted)} end of wall",
        ]


_TOO_DEEP = "the expression nests too deeply: expected at most a few hundred levels of brackets and operators"


def _quote(text: str, line: int, column: int, width: int = 60) -> str:
    """The expression as messages quote it: whole when short, else the part around the problem."""
    if len(text) <= width and "\n" not in text:
        return repr(text)
    lines = text.split("\n")
    row = lines[min(max(line, 1), len(lines)) - 1]
    start = max(0, min(column - 1 - width // 2, len(row) - width))
    part = row[start:start + width]
    return ("..." if start > 0 else "") + repr(part) + ("..." if start + width < len(row) else "")


class _Compiler:
    """The stages after the schema, sharing one report.

    Every expression goes through :meth:`recipe`, which records the checked result (plain
    data) under the expression's path, or, when ``replay`` holds the records of an earlier
    compile of the same text, takes them from there without parsing anything.
    """

    def __init__(self, source: Source, report: Report, replay: dict[str, Any] | None = None,
                 codes: cache.CodeStore | None = None, replay_lines: dict[str, int] | None = None) -> None:
        self.source = source
        self.report = report
        self.filename = source.file
        self.replay = replay
        self.compile_code = compile if codes is None else codes.compile  # the cache's code objects, if any
        self.recipes: dict[str, Recipe] = {}
        self.lines: dict[str, int] = {}  # the lines asked for, kept in the cache entry
        self.replay_lines = replay_lines or {}

    def recipe(self, path: tuple[Any, ...], text: str, env: Env, want: Type | None, what: str) -> Recipe:
        key = json.dumps(path)
        recipe = Recipe.from_json(self.replay[key]) if self.replay is not None else generate(text, env, want, what)
        self.recipes[key] = recipe
        return recipe

    def line(self, path: tuple[Any, ...]) -> int:
        """The line of ``path`` in the file (from the cache entry when replaying it)."""
        key = json.dumps(path)
        if self.replay is not None:
            return int(self.replay_lines.get(key, 0))
        line = self.lines[key] = self.source.mark(path).line
        return line

    def problem(self, path: tuple[Any, ...], message: str, key: bool = False) -> None:
        mark = self.source.key_mark(path) if key else self.source.mark(path)
        self.report.add(mark.line, mark.column, message, mark.file)

    def expression(self, path: tuple[Any, ...], env: Env, want: Type | None, what: str) -> Compiled | None:
        text = self.source.data
        for p in path:
            text = text[p]
        try:
            return build(self.recipe(path, text, env, want, what), f"{self.filename}:{'/'.join(map(str, path))}",
                         self.compile_code)
        except ExpressionError as exc:
            self.expression_problem(path, text, exc)
        except (RecursionError, MemoryError):
            self.expression_problem(path, text, ExpressionError(_TOO_DEEP))
        return None

    def expression_problem(self, path: tuple[Any, ...], text: str, exc: ExpressionError) -> None:
        """Report ``exc`` at its place in the file, quoting the expression (or the part at fault)."""
        line, col = self.source.expression_position(path, exc.line, exc.column)
        self.report.add(line, col, f"in expression {_quote(text, exc.line, exc.column)}: {exc.message}",
                        self.source.file_of(path))

    # ------------------------------------------------------------- stages

    def tiles(self, data: dict[str, Any]) -> TileSet:
        groups: list[tuple[str, int, frozenset[int] | None]] = []
        seen: set[str] = set()
        for i, g in enumerate(data["tiles"]):
            name = g["group"]
            if name in seen:
                self.problem(("tiles", i, "group"), f"tile group {name!r} is listed twice: expected each group once")
            seen.add(name)
            ranks = g.get("ranks")
            if ranks is not None and name not in SUIT_GROUPS:
                self.problem(("tiles", i, "ranks"), f"tile group {name!r} takes no ranks: expected ranks only on "
                             f"a suit ({', '.join(SUIT_GROUPS)})")
                ranks = None
            groups.append((name, g["copies"], None if ranks is None else frozenset(ranks)))
        return TileSet.build(groups)

    def table(self, data: dict[str, Any], tiles: TileSet) -> Table:
        t = data["table"]
        table = Table(t["players"], t["dealer_tiles"], t["other_tiles"], wind_kind(t.get("round_wind", "E")),
                      t.get("rotate_dealer", True))
        if table.dealer_tiles != table.other_tiles + 1:
            self.problem(("table", "dealer_tiles"), "the dealer receives one tile more than the others")
        dealt = table.dealer_tiles + (table.players - 1) * table.other_tiles
        if dealt >= len(tiles):
            self.problem(("table",), f"the deal needs {dealt} tiles but the variant has only {len(tiles)}")
        return table

    def play(self, data: dict[str, Any], tiles: TileSet) -> Play:
        p = data["play"]
        kongs = {"exposed": True, "concealed": True, "added": True, "robbing": True}
        kongs.update(p.get("kongs", {}))
        # The table as written, where it may have errors of its own (reported by the schema):
        # a count that is not a number is left out here.
        table = data["table"] if isinstance(data.get("table"), dict) else {}
        players = table.get("players", 4)
        if not isinstance(players, int):
            players = 4
        dealt = table.get("other_tiles", 13)
        max_winners = p.get("max_winners", 1 if p["after_win"] == "end_deal" else players - 1)
        if p["after_win"] == "continue" and max_winners >= players:
            self.problem(("play", "max_winners"),
                         f"with {players} players the deal ends when at most {players - 1} have won: "
                         f"expected max_winners 1-{players - 1}")
        if p["after_win"] == "end_deal" and "max_winners" in p and max_winners != 1:
            self.problem(("play", "max_winners"),
                         "with after_win: end_deal the first win ends the deal: max_winners must be 1")
        if p["after_win"] == "stay" and "max_winners" in p:
            self.problem(("play", "max_winners"),
                         "with after_win: stay every winner stays in and the deal ends when the wall runs out: "
                         "expected no max_winners")
        missing = p.get("missing_suit")
        if missing is not None:
            suits = {k // 9 for k in tiles.kinds if k < 27}
            if len(suits) < 3:
                self.problem(("play", "missing_suit"), "a missing suit needs all three suits in the tile set")
        exchange = p.get("exchange")
        if exchange is not None:
            exchange = {"same_suit": True, "direction": "dice", **exchange}
            direction = exchange["direction"]
            if direction == "dice":
                exchange["dice"] = dice = {d: list(t) for d, t in exchange.get("dice", DICE_TOTALS).items() if t}
                totals = sorted(t for ts in dice.values() for t in ts)
                if totals != list(range(2, 13)):
                    twice = sorted({t for t in totals if totals.count(t) > 1})
                    absent = sorted(set(range(2, 13)) - set(totals))
                    self.problem(("play", "exchange", "dice"),
                                 "expected every total of two dice, 2 to 12, once: "
                                 + "; ".join(part for part in (
                                     f"missing {', '.join(map(str, absent))}" if absent else "",
                                     f"given twice {', '.join(map(str, twice))}" if twice else "") if part))
            elif "dice" in exchange:
                self.problem(("play", "exchange", "dice"), f"dice say where tiles go only with direction: dice, "
                                                           f"not {direction!r}")
            if (direction == "across" or "across" in exchange.get("dice", {})) and table.get("players") != 4:
                self.problem(("play", "exchange", "dice" if direction == "dice" else "direction"),
                             "passing across needs four players: expected next or previous")
            if isinstance(dealt, int) and exchange["tiles"] > dealt:
                self.problem(("play", "exchange", "tiles"), "a player cannot pass more tiles than it is dealt")
        return Play(p["chow"], kongs, p["discard_win"], p["after_win"], max_winners, missing, exchange)

    def shapes(self, data: dict[str, Any], table: Table | None) -> tuple[Shape, ...]:
        """Each declaration read by its kind's class (compiler/shapes/kinds.py), which reports
        what is wrong with it, the tiles it takes against the table's hand size included."""
        out = []
        ids: set[str] = set()
        dealt = table.other_tiles if table is not None else None
        for i, s in enumerate(data["scoring"]["shapes"]):
            path = ("scoring", "shapes", i)
            if s["id"] in ids:
                self.problem(path + ("id",), f"duplicate shape id {s['id']!r}: expected each shape id once")
            ids.add(s["id"])

            def problem(where: tuple[Any, ...], message: str, key: bool, path: tuple[Any, ...] = path) -> None:
                self.problem(path + where, message, key)

            out.append(shape_kind(s["kind"]).declare(s, dealt, problem))
        return tuple(out)

    def scoring(self, data: dict[str, Any], shapes: tuple[Shape, ...]) -> Scoring:
        sc = data["scoring"]
        # The shape's values are the ids this file declares: a misspelt one is an error.
        facts = dict(PATTERN_FACTS, shape=PATTERN_FACTS["shape"].with_(values=frozenset(s.id for s in shapes)))
        env = Env.of(facts)
        definitions: dict[str, str] = {}
        for name, text in (sc.get("definitions") or {}).items():
            path = ("scoring", "definitions", name)
            if name in env.names:
                self.problem(path, f"definition {name!r} hides the built-in name {name!r}", key=True)
                continue
            try:
                recipe = self.recipe(path, text, env, None, "a definition")
            except ExpressionError as exc:
                self.expression_problem(path, text, exc)
                continue
            except (RecursionError, MemoryError):
                self.expression_problem(path, text, ExpressionError(_TOO_DEEP))
                continue
            if self.replay is None:  # (from the cache, every expression comes checked)
                env = env.bind(name, ir.Def(name, recipe.node))  # inlined where it is used
            definitions[name] = text
        valid_when = []
        for i, rule in enumerate(sc.get("valid_when") or []):
            c = self.expression(("scoring", "valid_when", i, "when"), env, BOOL, "a validity condition")
            if c is not None:
                valid_when.append((c, rule["reason"]))
        shape_ids = {s.id for s in shapes}
        patterns: list[Pattern] = []
        ids: dict[str, int] = {}
        spent = sum(c.node.cost for c, _ in valid_when)  # the steps of the table so far
        for i, p in enumerate(sc["patterns"]):
            path = ("scoring", "patterns", i)
            pid = p["id"]
            if pid in ids:
                first = self.source.mark(("scoring", "patterns", ids[pid], "id"))
                self.problem(path + ("id",), f"duplicate pattern id {pid!r} (first at line {first.line}): "
                                             "expected each pattern id once")
                continue
            ids[pid] = i
            when = count = None
            if "when" in p:
                when = self.expression(path + ("when",), env, BOOL, "a pattern's 'when'")
            else:
                count = self.expression(path + ("count",), env, INT, "a pattern's 'count'")
            value: int | Compiled | None = p["value"]
            if isinstance(value, str):
                value = self.expression(path + ("value",), env, INT, "a pattern's value")
            for j, sid in enumerate(p.get("shapes") or []):
                if sid not in shape_ids:
                    self.problem(path + ("shapes", j), f"unknown shape {sid!r}{did_you_mean(sid, shape_ids)}: "
                                                       f"expected one of {', '.join(sorted(shape_ids))}")
            if value is None or (when is None and count is None):
                continue
            if self.replay is None and spent <= MAX_TOTAL_COST:  # (the first pattern beyond is named)
                spent += sum(e.node.cost for e in (when, count, value) if isinstance(e, Compiled))
                if spent > MAX_TOTAL_COST:
                    self.problem(path, f"pattern {pid!r}: the pattern table may take too long to score a hand: "
                                       f"the conditions and values up to this one may take {spent:,} steps, at "
                                       f"most {MAX_TOTAL_COST:,} for the whole table")
            patterns.append(Pattern(
                id=pid, name=p["name"], description=p.get("description", ""), value=value, index=i,
                when=when, count=count,
                shapes=frozenset(p["shapes"]) if p.get("shapes") else None,
                excludes=tuple(p.get("excludes") or ()), replaces=dict(p.get("replaces") or {}),
                limit=p.get("limit", False), fallback=p.get("fallback", False),
                toward_minimum=p.get("toward_minimum", True), combination=p.get("combination"),
                line=self.line(path),
            ))
        self._check_references(sc["patterns"], ids)
        table = PatternTable(patterns, sc.get("principles"), self.filename)
        for where, message in table.problems():  # combination patterns and principles (patterns.py)
            self.problem(where, message)
        return Scoring(sc["unit"], sc["minimum"], sc.get("cap"), shapes, valid_when, definitions,
                       table, dict(sc.get("principles") or {}))

    def _check_references(self, raw: list[dict[str, Any]], ids: dict[str, int]) -> None:
        edges: dict[str, list[str]] = {}
        for i, p in enumerate(raw):
            path = ("scoring", "patterns", i)
            targets = []
            for key in ("excludes", "replaces"):
                for j, other in enumerate(p.get(key) or []):
                    where = path + (key, j) if key == "excludes" else path + (key, other)
                    if other not in ids:
                        self.problem(where, f"{key} names unknown pattern {other!r}{did_you_mean(other, ids)}: "
                                            "expected the id of a pattern of this table", key=key == "replaces")
                    elif other == p["id"]:
                        self.problem(where, f"pattern {other!r} {key} itself: expected another pattern's id",
                                     key=key == "replaces")
                    else:
                        targets.append(other)
            if "replaces" in p:
                edges.setdefault(p["id"], []).extend(t for t in p["replaces"] if t in ids and t != p["id"])
        # A cycle of replacements can never be resolved: A replaces B ... replaces A.
        state: dict[str, int] = {}

        def visit(node: str, trail: list[str]) -> None:
            state[node] = 1
            for nxt in edges.get(node, []):
                if state.get(nxt) == 1:
                    cycle = trail[trail.index(nxt):] + [nxt] if nxt in trail else [node, nxt]
                    i = ids[nxt]
                    self.problem(("scoring", "patterns", i, "replaces"),
                                 "cycle of replacements: " + " -> ".join(cycle)
                                 + ": a pattern cannot (indirectly) replace itself")
                elif state.get(nxt) is None:
                    visit(nxt, trail + [nxt])
            state[node] = 2

        for node in list(edges):
            if state.get(node) is None:
                visit(node, [node])


def _pipeline(source: Source, digest: str, replay: dict[str, Any] | None = None,
              codes: cache.CodeStore | None = None,
              replay_lines: dict[str, int] | None = None) -> tuple[CompiledVariant, _Compiler]:
    """Compile a loaded document; with ``replay`` (a cache entry's expressions), trust that
    the document was validated when the entry was made and take its expressions from it;
    with ``codes``, the code objects of their sources too."""
    report = Report(source.file)
    report.problems.extend(source.problems)
    if not isinstance(source.data, dict):
        report.add(1, 1, "a variant file is a mapping of sections (id, name, tiles, table, play, scoring, settlement)")
        report.raise_if_any()
    bad = schema_mod.validate(source, report) if replay is None else set()
    if "" in bad or "tiles" in bad:  # the whole document, or what every later stage counts on
        report.raise_if_any()
    # Later stages check every section the schema found well formed, so an author sees
    # the problems of the whole file at once; a section with schema problems is skipped.
    c = _Compiler(source, report, replay, codes, replay_lines)
    data = source.data
    tiles = c.tiles(data)
    table = c.table(data, tiles) if "table" not in bad else None
    play = c.play(data, tiles) if "play" not in bad else None
    scoring = c.scoring(data, c.shapes(data, table)) if "scoring" not in bad else None
    settlement = compile_settlement(c, data) if "settlement" not in bad else None
    report.raise_if_any()
    assert table is not None and play is not None and scoring is not None and settlement is not None
    return CompiledVariant(
        id=data["id"], name=data["name"], title=data["title"], family=data.get("family", ""),
        summary=" ".join(data["summary"].split()), path=source.file, digest=digest, tiles=tiles, table=table,
        play=play, scoring=scoring, settlement=settlement, data=data, options=dict(source.chosen),
    ), c


def _from_cache(entry_key: str, text: str, file: str) -> CompiledVariant | None:
    """The variant rebuilt from its cache entry, or None to compile it afresh (no entry, a
    damaged one, or one whose overlay bases have changed since)."""
    entry = cache.read(entry_key)
    if entry is None:
        return None
    codes = cache.CodeStore(entry_key)  # the code objects of its sources, kept by an earlier process
    try:
        for base, digest in entry.get("depends") or ():
            if _digest(read_variant_file(base)) != digest:
                return None
        source = Source(file, entry["data"], {}, text, chosen=dict(entry.get("chosen") or {}))
        variant, _ = _pipeline(source, str(entry["digest"]), entry["expressions"], codes, entry.get("lines") or {})
        codes.save()
        scorers = entry.get("scorers") or {}
        if isinstance(scorers, dict):  # checked when used: a damaged one is generated again
            variant.scoring.table.sources.update(
                (shape, cache.StoredSource(src, codes) if isinstance(src, dict) else src)
                for shape, src in scorers.items())
    except Exception:
        return None
    return variant


def _folder(file: str) -> str:
    """The resolved folder of ``file``, against which an overlay's relative bases are read."""
    try:
        return str(Path(file).resolve().parent)
    except (OSError, ValueError, RuntimeError):
        return file


def _digest(text: str) -> str:
    return cache.hasher(text.encode("utf-8", "surrogatepass")).hexdigest()


def compile_text(text: str, file: str = "<variant>", options: Mapping[str, str] | None = None, *,
                 use_cache: bool = True) -> CompiledVariant:
    """Compile a variant from YAML text (an overlay's bases are read from their files), with
    a choice for some of its ``options``; raises :class:`VariantError` listing every problem.

    A variant compiled before (same text, same choices, same compiler, same bases) is
    rebuilt from the on-disk cache (compiler/loading/cache.py) without parsing: that is
    what keeps a fresh process's load fast.
    """
    chosen = json.dumps(dict(options or {}), sort_keys=True)
    # The folder too: an overlay's `extends: base.yaml` names a file beside it, so the same
    # text in another folder is another variant.
    entry_key = cache.key("\0".join((text, chosen, _folder(file)))) if use_cache else None
    if entry_key is not None:
        cached = _from_cache(entry_key, text, file)
        if cached is not None:
            return cached
    try:
        source = load_document(text, file, resolve, read_variant_file, options)
        made_of = [COMPILER_VERSION, *source.texts.values(), json.dumps(source.chosen, sort_keys=True)]
        digest = _digest("\0".join(made_of))
        variant, compiler = _pipeline(source, digest)
    except VariantError:
        raise
    except RecursionError:
        raise VariantError([Problem(file, 1, 1, "the file nests too deeply to be a variant description")]) from None
    if entry_key is not None:
        # The generated scorers go with it (compiler/scoring/codegen.py): generating them is most
        # of what a fresh process would otherwise spend before its first score.
        scorers = variant.scoring.table.generate_all([s.id for s in variant.scoring.shapes])
        expressions = {path: recipe.to_json() for path, recipe in compiler.recipes.items()}
        depends = [[base, _digest(t)] for base, t in source.texts.items() if base != file]
        cache.write(entry_key, source.data, expressions, {"scorers": scorers, "lines": compiler.lines,
                                                          "depends": depends, "digest": digest,
                                                          "chosen": source.chosen})
    return variant


def compile_file(path: str | Path, options: Mapping[str, str] | None = None) -> CompiledVariant:
    return compile_text(read_variant_file(path), str(path), options)

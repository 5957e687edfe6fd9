"""Pattern tables: evaluation of one arrangement and the one exclusion mechanism.

Every pattern yields *instances*. A ``when`` pattern yields one instance, a ``count``
pattern n; both concern the whole hand. A *combination* pattern (``combination: NAME``
with ``count: "count(a, b in chows: ...)"``) yields one instance per choice of groups
its count accepts, and each instance remembers which groups of the arrangement it
used (its *cover*).

Resolution of an arrangement, in this order (every step is configured by YAML):

1. Patterns restricted to other shapes (``shapes``) are skipped. The conditions of a
   table are compiled into one function per shape that also applies steps 2-4
   (compiler/scoring/codegen.py); a pattern that an accepted instance excluded whole is not
   evaluated at all.
2. Limit patterns: if any holds, the first in table order is the whole result.
3. Instances are taken in table order (one pattern's instances in the order its count
   found them). An instance is dropped when an accepted instance excluded it (see
   below) or when a principle of ``scoring.principles`` forbids it:

   * ``account_once``: the accepted instances of combinations with the same
     ``combination`` name must never join groups already joined with each other: each
     new instance must link groups that were, so far, in different combinations (the
     used groups stay a forest). A set can so join an existing combination only once,
     a combination cannot be split into smaller ones, and four sets carry at most
     three two-set combinations;
   * ``non_identical``: a group takes part in at most one instance of each
     combination pattern.

   An accepted instance then removes what it ``excludes``: when both it and the
   excluded pattern are combinations, only the excluded instances whose groups all lie
   within its own cover (non-repeat within the combined sets); otherwise every
   instance of the excluded pattern. Each accepted instance also removes
   ``replaces[id]`` instances of the replaced pattern (those within its cover first),
   now or, for a pattern listed later, as they come.
   Exclusions therefore act in table order: list a pattern before those it excludes;
   an instance removed after it was accepted keeps the effects it already had.
4. Fallback patterns count only when nothing toward the minimum was counted.

Between arrangements the scorer keeps the highest total; ``principles.prefer`` names
patterns that win a tie (compiler/scoring/scorer.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from ..language.compiled import Compiled
from ..records import FrozenRecord, Record
from .codegen import FILE_MARK, Naming, build_scorer, covers, covers_every_group, scorer_source

#: The keys of ``scoring.principles``.
PRINCIPLES = ("account_once", "non_identical", "prefer")
#: Bits per word of the generated scorers' exclusion masks: CPython's one-digit ints.
_DEAD_WORD = 30


class Pattern(Record):
    id: str
    name: str
    description: str
    value: int | Compiled
    index: int
    when: Compiled | None
    count: Compiled | None
    shapes: frozenset[str] | None
    excludes: tuple[str, ...]
    replaces: dict[str, int]
    limit: bool
    fallback: bool
    toward_minimum: bool
    combination: str | None
    line: int

    def __init__(self, id: str, name: str, description: str, value: int | Compiled, index: int,
                 when: Compiled | None = None, count: Compiled | None = None, shapes: frozenset[str] | None = None,
                 excludes: tuple[str, ...] = (), replaces: dict[str, int] | None = None, limit: bool = False,
                 fallback: bool = False, toward_minimum: bool = True, combination: str | None = None,
                 line: int = 0) -> None:
        self.id = id
        self.name = name
        self.description = description
        self.value = value
        self.index = index
        self.when = when
        self.count = count
        self.shapes = shapes
        self.excludes = excludes
        self.replaces = replaces if replaces is not None else {}
        self.limit = limit
        self.fallback = fallback
        self.toward_minimum = toward_minimum
        self.combination = combination
        self.line = line  # in the variant file (0: unknown)

    @property
    def condition(self) -> Compiled:
        cond = self.when if self.when is not None else self.count
        assert cond is not None
        return cond

    def problem(self) -> str | None:
        """Why this pattern cannot be evaluated as declared, or None."""
        if self.combination is not None and (self.count is None or not self.count.counts_choices):
            return ("a combination pattern counts choices of groups: expected "
                    "count: \"count(a, b in chows: ...)\" over a list of sets")
        return None

    def instances(self, ctx: Any) -> int:
        if self.when is not None:
            return 1 if self.when.fn(ctx) else 0
        assert self.count is not None
        n = self.count.fn(ctx)
        return n if n > 0 else 0

    def value_of(self, ctx: Any) -> int:
        return self.value if isinstance(self.value, int) else self.value.fn(ctx)


class Fan(NamedTuple):
    """One pattern scored: its id, value per instance and number of instances."""

    id: str
    value: int
    count: int  # type: ignore[assignment]  # the field the output names "count" (hides tuple.count)
    toward_minimum: bool = True

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "value": self.value, "count": self.count}


class Evaluation:
    """The patterns one arrangement scores, after exclusions.

    ``scored`` holds (pattern position, value per instance, count) in table order; the
    :class:`Fan` list is built when asked for (the scorer asks only of the best one).
    """

    __slots__ = ("scored", "total", "minimum_points", "limit", "_table", "_fans")

    def __init__(self, scored: list[tuple[int, int, int]], total: int, minimum_points: int, limit: bool,
                 table: PatternTable) -> None:
        self.scored = scored
        self.total = total  # before any cap
        self.minimum_points = minimum_points  # the part that counts toward the minimum
        self.limit = limit
        self._table = table
        self._fans: list[Fan] | None = None

    @property
    def fans(self) -> list[Fan]:
        if self._fans is None:
            patterns = self._table.patterns
            self._fans = [Fan(patterns[i].id, value, n, patterns[i].toward_minimum) for i, value, n in self.scored]
        return self._fans


class Principles(FrozenRecord):
    """``scoring.principles`` of a variant file (see the schema's descriptions)."""

    account_once: bool
    non_identical: bool
    prefer: frozenset[str]

    def __init__(self, account_once: bool = False, non_identical: bool = False,
                 prefer: frozenset[str] = frozenset()) -> None:
        vars(self).update(account_once=account_once, non_identical=non_identical, prefer=prefer)

    @classmethod
    def of(cls, data: Mapping[str, Any] | None) -> Principles:
        data = data or {}
        return cls(bool(data.get("account_once", False)), bool(data.get("non_identical", False)),
                   frozenset(data.get("prefer") or ()))


class _Plan:
    """What one shape scores: its patterns split by role, in table order, and the
    generated function scoring an arrangement of that shape (compiler/scoring/codegen.py)."""

    def __init__(self, table: PatternTable, shape: str, build: bool = True) -> None:
        entries = [(i, p) for i, p in enumerate(table.patterns) if p.shapes is None or shape in p.shapes]
        self.table = table
        self.limits = [e for e in entries if e[1].limit]
        self.ordinary = [e for e in entries if not e[1].limit and not e[1].fallback]
        self.fallbacks = [e for e in entries if e[1].fallback]
        if build:
            self._build(shape)

    def _build(self, shape: str) -> None:
        table = self.table
        namespace = {"LIMIT": table._limit, "FINISH": self.finish, "FALLBACK": self.fallback, "JOIN": join,
                     "TAKE_BACK": take_back, "PAY_BACK": pay_back, "EVAL": Evaluation, "TABLE": table}
        namespace.update((f"V{i}", p.value.fn) for i, p in self.ordinary if not isinstance(p.value, int))
        what = f"shape {shape}"
        file = table.file
        source = table.sources.get(shape)
        score = None
        if source is not None:  # kept by the compile cache
            try:
                score = build_scorer(source, table._condition, namespace, what, file)
            except Exception:
                score = None
        if score is None:
            source = table.sources[shape] = self.source()
            score = build_scorer(source, table._condition, namespace, what, file)
        self.score: Callable[[Any], Evaluation] = score

    def source(self) -> dict[str, Any]:
        """The generated scorer of this shape, as plain data (compiler/scoring/codegen.py)."""
        table = self.table
        return scorer_source(self.limits, self.ordinary, table._state_lines(self.ordinary), table._guards,
                             table._accept_lines, table._result(bool(self.fallbacks)), table._local_covers(),
                             table.naming, table._where)

    def finish(self, ctx: Any, accepted: list[Any]) -> Evaluation:
        """The evaluation of the accepted (position, cover, count) instances of a table
        whose instances may be taken back (fallbacks added when nothing counted toward
        the minimum)."""
        table = self.table
        counted = table._summed(accepted) if accepted else []
        if self.fallbacks:
            toward = table._toward_minimum
            if not any(toward[i] for i, _ in counted):
                counted = table._with_fallbacks(self, counted, ctx)
        return self._evaluation(ctx, counted)

    def fallback(self, ctx: Any, scored: list[tuple[int, int, int]]) -> Evaluation:
        """The evaluation when nothing counted toward the minimum: the (position, value,
        count) already scored and the fallback patterns."""
        return self._evaluation(ctx, self.table._with_fallbacks(self, [(i, n) for i, _, n in scored], ctx))

    def _evaluation(self, ctx: Any, counted: list[tuple[int, int]]) -> Evaluation:
        table = self.table
        toward = table._toward_minimum
        values = table._values
        scored = []
        total = minimum_points = 0
        for i, n in counted:
            value = values[i]
            if value is None:
                value = table.patterns[i].value_of(ctx)
            scored.append((i, value, n))
            total += value * n
            if toward[i]:
                minimum_points += value * n
        return Evaluation(scored, total, minimum_points, False, table)


Instance = tuple[int, int, int]  # (pattern position, cover bit mask (0: the whole hand), count)


class PatternTable:
    """A compiled pattern table with its exclusion and replacement graph."""

    def __init__(self, patterns: list[Pattern], principles: Mapping[str, Any] | None = None,
                 file: str = "<variant>") -> None:
        self.patterns = patterns
        self.file = file  # the variant file, named in generated code
        self.by_id = {p.id: p for p in patterns}
        self.limits = [p for p in patterns if p.limit]
        self.ordinary = [p for p in patterns if not p.limit and not p.fallback]
        self.fallbacks = [p for p in patterns if p.fallback]
        self.principles = Principles.of(principles)
        pos = {p.id: i for i, p in enumerate(patterns)}
        self._excl = [tuple(pos[x] for x in p.excludes if x in pos) for p in patterns]
        self._repl = [tuple((pos[x], k) for x, k in p.replaces.items() if x in pos) for p in patterns]
        self._combination = [p.combination for p in patterns]
        self._toward_minimum = [p.toward_minimum for p in patterns]
        self._effects = [bool(self._excl[i] or self._repl[i]) for i in range(len(patterns))]
        self._values = [p.value if type(p.value) is int else None for p in patterns]
        # Each pattern some accepted instance may exclude whole has a bit in one of the
        # words excluded0, excluded1, ...: numbered densely, _DEAD_WORD to a word, every mask is a
        # one-digit int, whose & CPython works out without allocating a number.
        targets = sorted({q for ex in self._excl for q in ex})
        self._dead_bit = {q: (j // _DEAD_WORD, 1 << j % _DEAD_WORD) for j, q in enumerate(targets)}
        self._dead_words = -(-len(targets) // _DEAD_WORD)
        self.naming = Naming([p.id for p in patterns])
        self._guards = {q: f"{self.naming.excluded(w)} & {bit}" for q, (w, bit) in self._dead_bit.items()}
        # Combinations some combination excludes within its cover; patterns a replacement
        # may owe instances of; a number for each combination name.
        self._scoped_targets = {q for i, ex in enumerate(self._excl) if self._combination[i] is not None
                                for q in ex if self._combination[q] is not None}
        self._owed = {q for rep in self._repl for q, _ in rep}
        self._group_names = sorted({c for c in self._combination if c is not None})
        self._group_no = [self._group_names.index(c) if c is not None else -1 for c in self._combination]
        # Without exclusions or replacements of patterns listed earlier nothing accepted
        # is ever taken back: the scorer sums values as it accepts (else FINISH does).
        self._direct = not any(q < i for i, ex in enumerate(self._excl) for q in ex) and not any(
            q < i for i, rep in enumerate(self._repl) for q, _ in rep)
        self._plans: dict[str, _Plan] = {}
        #: The generated scorer of each shape built so far (see :meth:`scorer`).
        self.scorers: dict[str, Callable[[Any], Evaluation]] = {}
        self._local: frozenset[int] | None = None  # see _local_covers
        #: The generated scorer of each shape as plain data, filled on first use or from
        #: the compile cache (see :meth:`generate_all`).
        self.sources: dict[str, dict[str, Any]] = {}

    def configure(self, principles: Mapping[str, Any] | None) -> None:
        """Switch on the principles a variant declares (``scoring.principles``)."""
        new = Principles.of(principles)
        if new != self.principles:
            self.principles = new
            self._plans.clear()  # the generated scorers apply the principles
            self.scorers.clear()
            self._local = None
            self.sources.clear()

    def generate_all(self, shapes: list[str]) -> dict[str, dict[str, Any]]:
        """The generated scorer of every shape (what a compile cache entry keeps, so that a
        fresh process does not generate them again)."""
        for shape in shapes:
            if shape not in self.sources:
                self.sources[shape] = _Plan(self, shape, build=False).source()
        return {shape: self.sources[shape] for shape in shapes}

    def _where(self, i: int) -> str:
        """Where pattern ``i`` is written: the variant file (named when the code is
        compiled: see codegen.FILE_MARK) and its line."""
        line = self.patterns[i].line
        return f"{FILE_MARK}:{line}" if line else FILE_MARK

    def _condition(self, i: int) -> Compiled:
        return self.patterns[i].condition

    def problems(self) -> list[tuple[tuple[Any, ...], str]]:
        """(path in the variant file, message) for what cannot be evaluated as declared."""
        out: list[tuple[tuple[Any, ...], str]] = []
        for p in self.patterns:
            msg = p.problem()
            if msg is not None:
                out.append((("scoring", "patterns", p.index, "combination"), msg))
        for pid in sorted(self.principles.prefer):
            if pid not in self.by_id:
                out.append((("scoring", "principles", "prefer"),
                            f"prefer names unknown pattern {pid!r}: expected the id of a pattern of this table"))
        return out

    def preferred(self, ev: Evaluation) -> bool:
        """Whether ``ev`` scores a pattern that ``principles.prefer`` favours in a tie."""
        prefer = self.principles.prefer
        if not prefer:
            return False
        patterns = self.patterns
        return any(patterns[i].id in prefer for i, _, _ in ev.scored)

    def _plan(self, shape: str) -> _Plan:
        plan = self._plans.get(shape)
        if plan is None:
            plan = self._plans[shape] = _Plan(self, shape)
        return plan

    # ---------------------------------------------------- generated scoring
    #
    # The generated scorer (compiler/scoring/codegen.py) resolves instances as it finds them, in
    # table order, with plain local variables: ``excluded<w>`` (a bit per pattern excluded
    # whole, _dead_bit), ``accepted`` ((position, cover, count) tuples, in table order), and
    # only where the table needs them: ``W<q>`` the covers within which combination q
    # is excluded, ``D<q>`` the instances of q still owed to a replacement, ``U<i>`` the
    # groups already in an instance of combination i (non_identical), ``A<g>`` the
    # groups joined so far by combinations named g, as bit masks of connected groups
    # (account_once). What each pattern needs is decided here, once per table.

    def _state_lines(self, entries: list[tuple[int, Pattern]]) -> list[str]:
        """The local variables the scorer of ``entries`` keeps, initialised."""
        names = self.naming
        lines = [f"{names.excluded(w)} = 0" for w in range(self._dead_words)]
        mine = {i for i, _ in entries}
        for q in sorted(self._scoped_targets & mine):
            lines.append(f"{names.within(q)} = ()")
        for q in sorted(self._owed & mine):
            lines.append(f"{names.owed(q)} = 0")
        principles = self.principles
        groups = []
        for i, p in entries:
            if p.combination is not None and principles.account_once and self._group_no[i] not in groups:
                groups.append(self._group_no[i])
        if principles.non_identical:
            lines.extend(f"{names.used(i)} = 0" for i, p in entries if p.combination is not None)
        lines.extend(f"{names.joined(self._group_names[g])} = ()" for g in groups)
        if self._direct:
            # What does not count toward the minimum is summed apart (points in apart,
            # instances in apart_count): the minimum's points and whether any counted follow.
            lines += ["total = 0", "apart = 0", "apart_count = 0"]
        return lines

    def _result(self, fallbacks: bool) -> str:
        """What the generated scorer returns once every pattern is resolved."""
        if not self._direct:
            return "FINISH(c, accepted)"
        done = "EVAL(accepted, total, total - apart, False, TABLE)"
        return f"{done} if len(accepted) > apart_count else FALLBACK(c, accepted)" if fallbacks else done

    def _local_covers(self) -> frozenset[int]:
        """The combinations whose covers number their own list (:meth:`_find_local_covers`)."""
        if self._local is None:
            self._local = self._find_local_covers()
        return self._local

    def _find_local_covers(self) -> frozenset[int]:
        """The combination patterns whose covers may number the groups of their own list
        (bit j: its j-th element) rather than the arrangement's groups, so that a choice
        comes with its cover from a table keyed by the list's kinds (compiler/scoring/codegen.py).

        That holds where the covers of different patterns never meet unless they number
        the same list: in a table that sums as it accepts (nothing is taken back), every
        combination linked to the pattern (a scoped exclusion, a replacement, the same
        account_once name, in either direction) chooses a fixed number of groups from the
        same list, every element of which is a group of the arrangement."""
        if not self._direct:
            return frozenset()
        patterns = self.patterns
        comb = [i for i, c in enumerate(self._combination) if c is not None]
        root = {i: i for i in comb}

        def find(i: int) -> int:
            while root[i] != i:
                i = root[i]
            return i

        def link(i: int, q: int) -> None:
            if i in root and q in root:
                root[find(i)] = find(q)

        for i in comb:
            for q in self._excl[i]:
                link(i, q)
            for q, _ in self._repl[i]:
                link(i, q)
        if self.principles.account_once:
            first: dict[int, int] = {}
            for i in comb:
                link(i, first.setdefault(self._group_no[i], i))
        members: dict[int, list[int]] = {}
        for i in comb:
            members.setdefault(find(i), []).append(i)
        local: set[int] = set()
        for group in members.values():
            combs = [patterns[i].condition.combination for i in group]
            if (all(c is not None and c.arity for c in combs) and len({c.domain for c in combs}) == 1  # type: ignore[union-attr]
                    and covers_every_group(combs[0].domain)):  # type: ignore[union-attr]
                local.update(group)
        return frozenset(local)

    def _accept_lines(self, i: int, combination: bool, local: bool = False, count: str = "n") -> list[str]:
        """What the generated scorer does with the instances of pattern ``i``: ``count``
        (a name or a number) of a whole-hand pattern, or each choice ``cc`` of ``ch`` (cover
        bits ``rb``) of a combination, or with ``local`` each cover ``m`` of ``ch`` (see
        :meth:`_local_covers`); see the module docstring for the rules applied."""
        if not combination:
            return self._whole_lines(i, count, False)
        comb = self.patterns[i].condition.combination
        assert comb is not None
        arity = comb.arity
        if local:
            lines = ["for m in ch:"]
        elif arity:
            lines = ["for cc in ch:"]
            lines.append("    m = " + " | ".join(f"rb[cc[{j}]]" for j in range(arity)))
        else:
            lines = ["for cc in ch:", "    m = 0", "    for j in cc:", "        m |= rb[j]"]
        if not covers_every_group(comb.domain):
            # A choice of groups outside the arrangement covers nothing: a whole-hand instance.
            lines += ["    if not m:"] + [f"        {line}" for line in self._whole_lines(i, "1", True)]
            lines.append("        continue")
        if i in self._scoped_targets:
            within = self.naming.within(i)
            lines += [f"    if {within} and any(m & ~w == 0 for w in {within}):", "        continue"]
        if i in self._owed:
            owed = self.naming.owed(i)
            lines += [f"    if {owed}:", f"        {owed} -= 1", "        continue"]
        principles = self.principles
        if principles.non_identical:
            lines += [f"    if {self.naming.used(i)} & m:", "        continue"]
        if principles.account_once:
            a = self.naming.joined(self._group_names[self._group_no[i]])
            lines += ["    if m & (m - 1):", f"        if {a}:", f"            joined = JOIN({a}, m)",
                      "            if joined is None:", "                continue", f"            {a} = joined",
                      "        else:  # the first groups joined", f"            {a} = [m]"]
        if principles.non_identical:
            lines.append(f"    {self.naming.used(i)} |= m")
        lines += [f"    {line}" for line in self._effect_lines(i, "m", "1", True)]
        if self._direct:  # the choices accepted were counted in k
            lines = ["k = 0", *lines, "if k:", *(f"    {line}" for line in self._scored_lines(i, "k"))]
        return lines

    def _whole_lines(self, i: int, n: str, in_loop: bool) -> list[str]:
        """Accept ``n`` whole-hand instances of ``i``, less what a replacement still owes
        (``in_loop``: a choice of a combination that covers nothing)."""
        if i not in self._owed:
            return self._effect_lines(i, "0", n, in_loop)
        lines = [f"n = {n}"] if n != "n" else []
        owed = self.naming.owed(i)
        lines += [f"if {owed}:", f"    t = {owed} if {owed} < n else n", f"    {owed} -= t", "    n -= t", "if n:"]
        return lines + [f"    {line}" for line in self._effect_lines(i, "0", "n", in_loop)]

    def _scored_lines(self, i: int, n: str) -> list[str]:
        """``n`` instances of ``i`` scored: (position, value, count) and the totals."""
        value = self._values[i]
        lines = [] if value is not None else [f"v = V{i}(c)"]
        v = str(value) if value is not None else "v"
        points = n if v == "1" else v if n == "1" else f"{v} * {n}"
        lines += [f"accepted.append(({i}, {v}, {n}))", f"total += {points}"]
        if not self._toward_minimum[i]:
            lines += [f"apart += {points}", "apart_count += 1"]
        return lines

    def _effect_lines(self, i: int, mask: str, n: str, in_loop: bool) -> list[str]:
        """Accept an instance of ``i`` (cover ``mask``, count ``n``) and apply its effects."""
        if not self._direct:
            lines = [f"accepted.append(({i}, {mask}, {n}))"]
        elif in_loop:
            lines = ["k += 1"]
        else:
            lines = self._scored_lines(i, n)
        combination = self._combination
        whole: dict[int, int] = {}  # word -> bits
        for q in self._excl[i]:
            scoped = mask != "0" and combination[q] is not None
            if scoped:
                lines.append(f"{self.naming.within(q)} += ({mask},)")
            else:
                w, bit = self._dead_bit[q]
                whole[w] = whole.get(w, 0) | bit
            if q < i:  # listed earlier: take back what it already has
                lines.append(f"TAKE_BACK(accepted, {q}, {mask if scoped else '0'})")
        lines.extend(f"{self.naming.excluded(w)} |= {bits}" for w, bits in sorted(whole.items()))
        for q, k in self._repl[i]:
            left = f"{k} * {n}" if n != "1" else str(k)
            if q < i:
                lines.append(f"{self.naming.owed(q)} += PAY_BACK(accepted, {q}, {left}, {mask})")
            else:
                lines.append(f"{self.naming.owed(q)} += {left}")
        return lines

    def _limit(self, ctx: Any, i: int) -> Evaluation:
        """The evaluation of an arrangement that scores limit pattern ``i``: that pattern alone."""
        p = self.patterns[i]
        value = p.value_of(ctx)
        return Evaluation([(i, value, 1)], value, value if p.toward_minimum else 0, True, self)

    def evaluate(self, ctx: Any) -> Evaluation:
        """Score one arrangement (a context of :mod:`compiler.scoring.context`)."""
        return (self.scorers.get(ctx.shape) or self.scorer(ctx.shape))(ctx)

    def scorer(self, shape: str) -> Callable[[Any], Evaluation]:
        """The function scoring an arrangement of ``shape`` (what :meth:`evaluate` calls;
        a caller scoring many may keep it, or read :attr:`scorers` first)."""
        fn = self.scorers[shape] = self._plan(shape).score
        return fn

    # ------------------------------------------------------------ instances

    def _evaluate_one(self, i: int, p: Pattern, ctx: Any) -> list[Instance]:
        if p.combination is None:
            n = p.instances(ctx)
            return [(i, 0, n)] if n else []
        assert p.count is not None and p.count.matches is not None
        return covers(i, ctx, p.count.matches(ctx))

    @staticmethod
    def _summed(accepted: list[Any]) -> list[tuple[int, int]]:
        """(position, count) of the accepted instances (in table order), one per pattern."""
        counted: list[tuple[int, int]] = []
        cur = -1
        total_n = 0
        for i, _, n in accepted:
            if n > 0:
                if i == cur:
                    total_n += n
                else:
                    if cur >= 0:
                        counted.append((cur, total_n))
                    cur = i
                    total_n = n
        if cur >= 0:
            counted.append((cur, total_n))
        return counted

    def _with_fallbacks(self, plan: _Plan, counted: list[tuple[int, int]], ctx: Any) -> list[tuple[int, int]]:
        counts = dict(counted)
        for i, p in plan.fallbacks:
            for j, _, n in self._evaluate_one(i, p, ctx):
                counts[j] = counts.get(j, 0) + n
        return sorted(counts.items())


def join(components: list[int], mask: int) -> list[int] | None:
    """account_once: the groups joined so far (``components``, bit masks of groups
    connected by accepted combinations) with the groups of ``mask`` joined, or None when
    two of them are already connected (the instance would close a cycle)."""
    joined = mask
    rest = []
    for comp in components:
        common = comp & mask
        if common:
            if common & (common - 1):
                return None
            joined |= comp
        else:
            rest.append(comp)
    rest.append(joined)
    return rest


def take_back(accepted: list[Any], q: int, mask: int) -> None:
    """Remove the accepted instances of ``q`` (those within ``mask``, when it is not 0):
    a pattern listed later excluded them."""
    for k, (i, cover, _) in enumerate(accepted):
        if i == q and (not mask or (cover and cover & ~mask == 0)):
            accepted[k] = (q, cover, 0)


def pay_back(accepted: list[Any], q: int, owed: int, mask: int) -> int:
    """Take ``owed`` accepted instances of ``q`` back for a replacement (those within
    ``mask`` first); returns how many are still owed."""
    mine = [k for k, o in enumerate(accepted) if o[0] == q and o[2] > 0]
    mine.sort(key=lambda k: 0 if mask and accepted[k][1] and accepted[k][1] & ~mask == 0 else 1)
    for k in mine:
        _, cover, n = accepted[k]
        take = min(owed, n)
        accepted[k] = (q, cover, n - take)
        owed -= take
        if not owed:
            break
    return owed

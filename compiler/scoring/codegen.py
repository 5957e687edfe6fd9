"""Compiling a pattern table into plain Python functions (the fast path of scoring).

A table is evaluated by one generated function per shape (:func:`scorer_source`, then
:func:`build_scorer`). The conditions of the patterns are IR (compiler/language/ir.py);
this module runs the scorer's passes over them and writes the source once, at the end:

* each condition's cheap conjuncts first (passes.cheap_first), so that a condition
  failing on a plain fact fails before any loop runs; a pattern that an accepted
  instance may exclude whole is also tested against the bit mask of excluded patterns:
  after the cheap conjuncts, before the rest, which is not evaluated at all when the
  pattern is excluded;
* a part computed alike by several conditions (a definition of the variant file is
  inlined wherever it is named) is computed once at the top (passes.share_common), the
  counts and filters over the same list in one loop;
* combination patterns choosing k sets from the same list share one loop over the
  choices, at the top of the function; when their conditions read only the chosen sets
  and single immutable facts, the choices come from a bounded table keyed by the sets'
  kinds (when nothing else of the sets is read: passes.reads_kind_only) and those facts,
  filled by a generated chooser; else the loop runs only when a part of some condition
  that the choice does not change holds (:func:`_choice_loops`).

Then, in table order, each pattern's code (compiler/scoring/patterns.py says what
accepting an instance does), preceded by a comment naming the pattern and its line in
the variant file. Local names say what they hold (``chosen_<id>``, ``excluded0``,
``def_<definition>``). The source never contains the author's text, only what was
emitted from the checked IR; it is plain data, kept by the compile cache, and
registered in ``linecache`` when compiled, so a traceback shows its lines.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any

from ..language import ir
from ..language.compiled import register_source
from ..language.emit import emit
from ..language.passes import cheap_first, is_cheap, reads_kind_only, share_common
from ..language.vocabulary import RUNTIME
from ..loading.cache import StoredSource
from ..shapes.arrangements import group_positions

#: Most entries of one table of choice results (:func:`_choice_loops`); past it, the
#: choices of a list not yet in the table are worked out without being kept.
CHOICE_TABLE_LIMIT = 20000
#: Stands for the variant file in the comments of generated source: the file is named
#: when the source is compiled (a cached source may be read for a file elsewhere).
FILE_MARK = "<variant file>"

Part = str | ir.Node


class Line:
    """One line of a generated function: text and IR, written out at the end (``names``:
    the Python names of bound names the IR reads, such as the chosen sets of a loop)."""

    __slots__ = ("indent", "parts", "names")

    def __init__(self, indent: int, parts: Sequence[Part], names: Mapping[tuple[str, int], str] | None = None) -> None:
        self.indent = indent
        self.parts = list(parts)
        self.names = names

    def text(self) -> str:
        return "    " * self.indent + "".join(p if isinstance(p, str) else emit(p, self.names) for p in self.parts)


def _lines(indent: int, texts: Iterable[str]) -> list[Line]:
    return [Line(indent, [t]) for t in texts]


class Naming:
    """The names of a generated scorer's locals, from the pattern ids of its table (ids
    and combination names are lowercase identifiers: the schema says so)."""

    def __init__(self, ids: Sequence[str]) -> None:
        self.ids = ids

    @staticmethod
    def excluded(word: int) -> str:
        """A word of the bit mask of patterns excluded whole (30 patterns to a word)."""
        return f"excluded{word}"

    def within(self, i: int) -> str:
        """The covers (bit masks of sets) within which combination ``i`` is excluded."""
        return f"within_{self.ids[i]}"

    def owed(self, i: int) -> str:
        """The instances of ``i`` a replacement still takes back."""
        return f"owed_{self.ids[i]}"

    def used(self, i: int) -> str:
        """The sets already in an instance of combination ``i`` (non_identical)."""
        return f"used_{self.ids[i]}"

    @staticmethod
    def joined(combination: str) -> str:
        """The sets joined so far by combinations of one name (account_once)."""
        return f"joined_{combination}"

    def chosen(self, i: int) -> str:
        """The accepted choices (or covers) of combination pattern ``i``."""
        return f"chosen_{self.ids[i]}"

    def fixed(self, i: int) -> str:
        """Whether the part of pattern ``i``'s choice condition the choice does not change holds."""
        return f"fixed_{self.ids[i]}"

    @staticmethod
    def shared(part: ir.Node, k: int) -> str:
        """A part several conditions compute alike: a definition's name where it is one."""
        return f"def_{part.name}" if isinstance(part, ir.Def) else f"shared{k}"


def scorer_source(limits: list[tuple[int, Any]], entries: list[tuple[int, Any]], state: list[str],
                  guards: dict[int, str], accept: Callable[..., list[str]], result: str,
                  local: frozenset[int], naming: Naming, where: Callable[[int], str] | None = None) -> dict[str, Any]:
    """The source of one Python function scoring an arrangement, ``def score(c)``, as plain
    data (``main``, and ``choosers``: the functions choosing sets for combination
    patterns, by tag; ``own``: the names below that it calls) that :func:`build_scorer`
    turns into the function and that a compiled variant's cache entry can keep.

    In order: the ``limits`` (pattern position, pattern): the first that holds returns
    ``LIMIT(c, i)``; the choices of every combination pattern, each list's computed once
    (:func:`_choice_loops`); the ``state`` lines (local variables of the resolution);
    then each of ``entries`` in table order, its condition evaluated only when no
    accepted pattern excluded it (``guards[i]``: the test of its exclusion bit; absent:
    nothing excludes it), its instances handed to the lines ``accept(i, combination)``
    returns (compiler/scoring/patterns.py owns what acceptance means; they read ``n``, or
    ``ch`` and ``rb`` for the choices and their cover bits); finally ``return <result>``.
    A combination limit calls its matcher ``M<i>(c)``. The combinations of ``local``
    number the sets of their own list: their choices are listed as covers (``accept(i,
    True, True)`` reads each as ``m``), not as index tuples. ``where(i)`` is the place of
    pattern ``i`` in the variant file, for the comment above its code.
    """
    choosers: dict[str, str] = {}
    own: list[str] = []  # M<i> the source calls
    body: list[Line] = []
    for i, p in limits:
        body.append(_comment(i, p, where))
        if p.combination is not None:
            own.append(f"M{i}")
            test: list[Part] = [f"M{i}(c)[1]"]
        else:
            limit = cheap_first(p.condition.node)
            test = [limit] if p.when is not None else ["(", limit, ") > 0"]
        body.append(Line(1, ["if ", *test, ":"]))
        body.append(Line(2, [f"return LIMIT(c, {i})"]))
    body.extend(_lines(1, _one_assignment(state)))
    loops: dict[tuple[ir.Node, int], list[tuple[int, Any]]] = {}
    for i, p in entries:
        if p.combination is not None:
            comb = p.condition.combination
            assert comb is not None  # a combination pattern without one is a compile error
            loops.setdefault((comb.domain, comb.arity), []).append((i, p))
    by_domain: dict[ir.Node, list[tuple[int, list[tuple[int, Any]]]]] = {}
    for (domain, k), group in loops.items():
        by_domain.setdefault(domain, []).append((k, group))
    choices: dict[int, tuple[str, str | None]] = {}  # position -> (its choices, their cover bits or None)
    for domain, loops_of in by_domain.items():
        pre, found = _choice_loops(domain, loops_of, choosers, local, naming)
        body.extend(pre)
        choices.update(found)
    entry_code: list[tuple[int, Any, ir.Node | None]] = [
        (i, p, None if p.combination is not None else cheap_first(p.condition.node)) for i, p in entries]
    # Parts computed alike by several conditions, once at the top.
    roots = [part for line in body for part in line.parts if isinstance(part, ir.Node)]
    roots += [cond for _, _, cond in entry_code if cond is not None]
    shared_roots, shared = share_common(roots, Naming.shared)
    replaced = dict(zip(map(id, roots), shared_roots))
    for line in body:
        line.parts = [replaced.get(id(part), part) if isinstance(part, ir.Node) else part for part in line.parts]
    entry_code = [(i, p, replaced[id(cond)] if cond is not None else None) for i, p, cond in entry_code]
    lines = [Line(0, ["def score(c):"]), Line(1, ["accepted = []"]), *_shared_statements(shared), *body]
    for i, p, cond in entry_code:
        lines.append(_comment(i, p, where))
        lines.extend(_entry_lines(i, p, cond, guards.get(i), choices, accept))
    lines.append(Line(1, [f"return {result}"]))
    return {"main": "\n".join(line.text() for line in lines), "choosers": choosers, "own": own}


def _comment(i: int, p: Any, where: Callable[[int], str] | None) -> Line:
    place = where(i) if where is not None else ""
    return Line(1, [f"# {p.id}" + (f" ({place})" if place else "")])


def _entry_lines(i: int, p: Any, cond: ir.Node | None, guard: str | None, choices: dict[int, tuple[str, str | None]],
                 accept: Callable[..., list[str]]) -> list[Line]:
    """The code of one ordinary pattern: its test (after its exclusion guard, if any) and
    what accepting its instances does."""
    if cond is None:  # a combination: its choices already worked out (most lists are empty)
        got, bits = choices[i]
        out = [Line(1, [f"if {got}:" if guard is None else f"if {got} and not {guard}:"]), Line(2, [f"ch = {got}"])]
        if bits is not None:
            out.append(Line(2, [f"rb = {bits}"]))
        return out + _lines(2, accept(i, True, bits is None))
    if p.when is not None:  # one instance
        if guard is None:
            return [Line(1, ["if ", cond, ":"]), *_lines(2, accept(i, False, False, "1"))]
        # Reading a fact costs less than testing the mask, and most conditions fail: the
        # cheap conjuncts first (cheap_first put them first), the guard, then the rest.
        parts = ir.conjuncts(cond)
        cheap = 0
        while cheap < len(parts) and is_cheap(parts[cheap]):
            cheap += 1
        if cheap == len(parts):
            return [Line(1, ["if ", cond, f" and not {guard}:"]), *_lines(2, accept(i, False, False, "1"))]
        if cheap:
            return [Line(1, ["if ", ir.and_of(parts[:cheap]), f" and not {guard}:"]),
                    Line(2, ["if ", ir.and_of(parts[cheap:]), ":"]), *_lines(3, accept(i, False, False, "1"))]
        return [Line(1, [f"if not {guard}:"]), Line(2, ["if ", cond, ":"]), *_lines(3, accept(i, False, False, "1"))]
    pad = 1
    out = []
    if guard is not None:
        out.append(Line(1, [f"if not {guard}:"]))
        pad = 2
    out.append(Line(pad, ["n = ", cond]))
    out.append(Line(pad, ["if n > 0:"]))
    return out + _lines(pad + 1, accept(i, False))


def _one_assignment(state: list[str]) -> list[str]:
    """The state's ``name = 0`` and ``name = ()`` lines as one assignment from a constant
    tuple: one unpacking instead of a load and a store per name, on every arrangement."""
    simple = [line.split(" = ") for line in state if line.count(" = ") == 1 and line.split(" = ")[1] in ("0", "()")]
    if len(simple) < 2:
        return state
    names = ", ".join(name for name, _ in simple)
    values = ", ".join(value for _, value in simple)
    rest = [line for line in state if line.split(" = ") not in simple]
    return [f"{names} = ({values},)", *rest]


def _shared_statements(shared: list[ir.Local]) -> list[Line]:
    """``name = value`` for each shared part, in order, at the top of a generated function.

    A count or a filter over a list of the context is a plain loop (no comprehension to
    call for a list of a few sets), and those over the same list that read no other shared
    part share one loop, placed where the first of them was."""
    out: list[Any] = []
    loops: dict[ir.Node, list[tuple[str, ir.Quant]]] = {}
    for local in shared:
        value = local.value
        inner = value.body if isinstance(value, ir.Def) else value
        if (isinstance(inner, ir.Quant) and inner.quant in ("count", "filter") and len(inner.vars) == 1
                and isinstance(inner.domain, ir.FactRead)
                and not any(isinstance(n, ir.Local) for n in inner.body.walk())):
            if inner.domain not in loops:
                loops[inner.domain] = []
                out.append(inner.domain)  # where the loop goes
            loops[inner.domain].append((local.name, inner))
            continue
        out.append(Line(1, [f"{local.name} = ", value]))
    lines: list[Line] = []
    for item in out:
        if isinstance(item, Line):
            lines.append(item)
            continue
        members = loops[item]
        var = members[0][1].vars[0]
        lines += [Line(1, [f"{name} = 0" if q.quant == "count" else f"{name} = []"]) for name, q in members]
        lines.append(Line(1, ["for ", var, " in ", item, ":"]))
        for name, q in members:
            lines.append(Line(2, ["if ", q.body, ":"], {q.vars[0].ident: emit(var)}))
            lines.append(Line(3, [f"{name} += 1"] if q.quant == "count" else [f"{name}.append(", var, ")"]))
    return lines


def build_scorer(source: Mapping[str, Any], condition: Callable[[int], Any], namespace: dict[str, Any],
                 what: str, file: str = "<variant>") -> Callable[[Any], Any]:
    """The function of :func:`scorer_source`'s ``source``; ``condition(i)`` gives pattern
    ``i``'s compiled condition (for ``M<i>``), ``namespace`` the other names the accepting
    lines use; ``file`` the variant file the comments name.

    A source read from the compile cache (:class:`cache.StoredSource`) is compiled
    through the entry's code store: a fresh process takes the code objects an earlier
    one compiled instead of compiling some 150 kB of source again. Every source is
    registered in ``linecache`` under the name of its code, for tracebacks.
    """
    ns: dict[str, Any] = dict(RUNTIME)
    ns.update(namespace)
    ns["BITS"] = bits_of
    ns["KIND_ID"] = _KIND_ID
    ns["map"] = map
    store = source.codes if isinstance(source, StoredSource) else None
    to_code = compile if store is None else store.compile
    for tag, src in source["choosers"].items():
        scope: dict[str, Any] = {}
        name = f"<choices {tag} of {what}, {file}>"
        exec(to_code(src, name, "exec"), ns, scope)  # noqa: S102 - emitted from checked IR
        register_source(name, src)
        ns[f"CHOOSE{tag}"] = scope["choose"]
        ns[f"CHOSEN{tag}"] = {}
    for own in source["own"]:
        ns[own] = condition(int(own[1:])).matches
    name = f"<scorer of {what}, {file}>"
    main = source["main"].replace(FILE_MARK, file)
    scope = {}
    exec(to_code(main, name, "exec"), ns, scope)  # noqa: S102 - assembled from emitted IR
    register_source(name, main)
    if store is not None:
        store.save()
    return scope["score"]


def emitted_scorer(source: Mapping[str, Any], file: str) -> str:
    """The whole generated scorer of one shape as people read it: choosers, then the scorer."""
    parts = [f"# choices {tag}\n{src}" for tag, src in source["choosers"].items()]
    parts.append(source["main"].replace(FILE_MARK, file))
    return "\n\n\n".join(parts) + "\n"


def _choice_loops(domain: ir.Node, loops_of: list[tuple[int, list[tuple[int, Any]]]], choosers: dict[str, str],
                  local: frozenset[int], naming: Naming) -> tuple[list[Line], dict[int, tuple[str, str | None]]]:
    """The choices of ``k`` sets of ``domain`` for the combination patterns of each
    (k, group) of ``loops_of``: the lines computing them, and for each pattern the name of
    its list of accepted choices (index tuples) and the source of their cover bits.

    The patterns whose condition reads only the chosen sets (no fact of the context, no
    division or power) answer alike for every list of the same sets: sets are shared
    objects (compiler/model/groups.py), so the list's sets in order are an exact key.
    Their accepted choices, for every k at once, come from one bounded table per list
    keyed by that tuple, filled by a generated chooser on first sight (at most
    :data:`CHOICE_TABLE_LIMIT` entries; past it, worked out without being kept). The
    other patterns keep their loop, run on every arrangement, unless they read besides
    the sets only single immutable facts: those facts then join the table's key. A
    pattern of ``local`` lists each choice as its cover over the list (bit j for
    ``G[j]``), with no cover bits of the arrangement to look up (its bits are None).

    (Separate loops per pattern, each conjunct tested as soon as its sets are chosen,
    were measured: with the four or five sets of a hand they cost more than they save.)
    """
    bits = _bits_source(domain)
    pure: list[_Choices] = []
    rest: list[_Choices] = []
    for k, group in loops_of:
        mine = [(i, p) for i, p in group if _choice(p).reads == frozenset() and not _choice(p).fails]
        theirs = [(i, p) for i, p in group if (i, p) not in mine]
        if mine:
            pure.append(_Choices(k, mine))
        if theirs:
            rest.append(_Choices(k, theirs))
    out = [Line(1, ["G = ", domain]), Line(1, ["n = len(G)"])]
    found: dict[int, tuple[str, str | None]] = {}
    # The table's key: the sets' kinds and first tiles when no condition can tell two sets
    # of the same kind and first tile apart, else the sets themselves.
    by_kind = all(c.kind_only for c in pure)
    kinds_from = None  # the fewest sets for which ``kinds_key`` holds the sets' kinds
    if pure:
        tag = str(len(choosers))
        slots = [i for c in pure for i, _ in c.group]
        choosers[tag] = _chooser_source(pure, local, "G", slots, naming)
        least = min(c.k for c in pure)
        kinds_from = least if by_kind else None
        out.append(Line(1, [f"choices{tag} = {_nothing_chosen(slots)}"]))
        out.append(Line(1, [f"if n >= {least}:"]))
        out.append(Line(2, [f"kinds_key = {_KEY_OF_GROUPS if by_kind else '(*G,)'}"]))
        out.extend(_memo_lines(tag, f"CHOOSE{tag}(G)", "kinds_key"))
        out.append(Line(1, [f"{_slot_names(slots, naming)} = choices{tag}"]))
        for i in slots:
            found[i] = (naming.chosen(i), None if i in local else bits)
    for c in rest:
        fixed = {i: _split_fixed(_choice(p)) for i, p in c.group}
        facts = {n.fact.name for i, p in c.group for n in _choice(p).walk() if isinstance(n, ir.FactRead)}
        if not all(fixed[i][0] for i, _ in c.group) and _keyable(c):
            # Besides the chosen sets, the conditions read only single immutable facts:
            # those values and the sets make a table's key.
            tag = str(len(choosers))
            slots = [i for i, _ in c.group]
            choosers[tag] = _chooser_source([c], local, "G, c", slots, naming)
            groups_key = "(*G,)"
            if c.kind_only:
                groups_key = "kinds_key" if kinds_from is not None and kinds_from <= c.k else _KEY_OF_GROUPS
            out.append(Line(1, [f"choices{tag} = {_nothing_chosen(slots)}"]))
            out.append(Line(1, [f"if n >= {c.k}:"]))
            out.append(Line(2, [f"key = ({groups_key}, {', '.join(f'c.{name}' for name in sorted(facts))})"]))
            out.extend(_memo_lines(tag, f"CHOOSE{tag}(G, c)"))
            out.append(Line(1, [f"{_slot_names(slots, naming)} = choices{tag}"]))
            for i in slots:
                found[i] = (naming.chosen(i), None if i in local else bits)
            continue
        out.extend(Line(1, [f"{naming.chosen(i)} = ()"]) for i, _ in c.group)
        if all(fixed[i][0] for i, _ in c.group):
            # Every condition has a part the choice does not change: the loop runs only
            # when one of those parts holds, and each condition tests its own first.
            out.append(Line(1, [f"if n >= {c.k}:"]))
            first: dict[ir.Node, int] = {}  # a part several conditions share is computed once
            for i, _ in c.group:
                part = fixed[i][0]
                assert part is not None
                j = first.setdefault(part, i)
                out.append(Line(2, [f"{naming.fixed(i)} = ", part] if j == i
                                else [f"{naming.fixed(i)} = {naming.fixed(j)}"]))
            out.append(Line(2, [f"if {' or '.join(naming.fixed(i) for i in first.values())}:"]))
            conds: dict[int, list[Part]] = {i: [f"{naming.fixed(i)} and ", fixed[i][1]] for i, _ in c.group}
            out.extend(_loop_lines(c, conds, 2, local, naming))
        else:
            out.append(Line(1, [f"if n >= {c.k}:"]))
            out.extend(_loop_lines(c, {i: [c.condition(p)] for i, p in c.group}, 1, local, naming))
        for i, _ in c.group:
            found[i] = (naming.chosen(i), None if i in local else bits)
    return out, found


def _choice(p: Any) -> ir.Node:
    comb = p.condition.combination
    assert comb is not None
    return comb.choice


class _Choices:
    """The combination patterns choosing ``k`` sets of one list, with their conditions."""

    def __init__(self, k: int, group: list[tuple[int, Any]]) -> None:
        self.k = k
        self.group = group
        self.kind_only = all(reads_kind_only(_choice(p), self.chosen(p)) for _, p in group)

    @staticmethod
    def chosen(p: Any) -> frozenset[tuple[str, int]]:
        return frozenset(v.ident for v in p.condition.combination.chosen)

    def condition(self, p: Any) -> ir.Node:
        return cheap_first(_choice(p))

    def names(self, p: Any) -> dict[tuple[str, int], str]:
        """The chosen sets are ``g0``, ``g1``... in the loops."""
        return {v.ident: f"g{j}" for j, v in enumerate(p.condition.combination.chosen)}


def _keyable(c: _Choices) -> bool:
    """Whether the choice conditions read of the context only facts holding one immutable
    value (and nothing that can fail): a table keyed by them answers as they would."""
    for _, p in c.group:
        cond = _choice(p)
        if cond.fails:
            return False
        for n in cond.walk():
            if isinstance(n, (ir.Slot, ir.Local)) or (isinstance(n, ir.FactRead) and not n.fact.single):
                return False
    return True


def _split_fixed(cond: ir.Node) -> tuple[ir.Node | None, ir.Node]:
    """A choice condition as (the conjuncts that do not read the choice, or None; the
    others, or True). Only conjuncts before the first that can fail move, and none that
    reads a fact computed on demand."""
    fixed: list[ir.Node] = []
    moving: list[ir.Node] = []
    for part in ir.conjuncts(cheap_first(cond)):
        if (moving and moving[-1].fails) or part.fails or part.free or part.lazy:
            moving.append(part)
        else:
            fixed.append(part)
    return (ir.and_of(fixed) if fixed else None), (ir.and_of(moving) if moving else ir.Const(True))


def _chooser_source(parts: list[_Choices], local: frozenset[int], args: str, slots: list[int],
                    naming: Naming) -> str:
    """A chooser: for each group of patterns of ``parts``, the loop over the choices of k
    sets; it returns the accepted choices (or covers, for ``local``) of each pattern of
    ``slots``, in that order, as a tuple (read by position: no look-up)."""
    lines = [Line(0, [f"def choose({args}):"]), Line(1, ["n = len(G)"])]
    lines += [Line(1, [f"{naming.chosen(i)} = ()"]) for i in slots]
    for c in parts:
        lines += [Line(1, [f"if n >= {c.k}:"]), *_loop_lines(c, {i: [c.condition(p)] for i, p in c.group}, 1,
                                                              local, naming)]
    answer = ", ".join(f"{naming.chosen(i)} or ()" for i in slots) + ("," if len(slots) == 1 else "")
    lines.append(Line(1, [f"return ({answer})"]))  # kept in a table: no empty lists
    return "\n".join(line.text() for line in lines)


def _slot_names(slots: list[int], naming: Naming) -> str:
    """The local names a chooser's answer is unpacked into (one per pattern)."""
    return ", ".join(naming.chosen(i) for i in slots) + ("," if len(slots) == 1 else "")


def _nothing_chosen(slots: list[int]) -> str:
    """A chooser's answer for a list too short for any of its patterns."""
    return "(" + ", ".join(["()"] * len(slots)) + ("," if len(slots) == 1 else "") + ")"


def _memo_lines(tag: str, compute: str, key: str = "key") -> list[Line]:
    """Inside ``if n >= k:``, with the key in ``key``: the choices from table ``CHOSEN<tag>``,
    computed by ``compute`` and kept (while the table has room) when not there."""
    return _lines(2, [f"choices{tag} = CHOSEN{tag}.get({key})",
                      f"if choices{tag} is None:",
                      f"    choices{tag} = {compute}",
                      f"    if len(CHOSEN{tag}) < {CHOICE_TABLE_LIMIT}:",
                      f"        CHOSEN{tag}[{key}] = choices{tag}"])


def _loop_lines(c: _Choices, conds: dict[int, list[Part]], indent: int, local: frozenset[int],
                naming: Naming) -> list[Line]:
    """The loop over the choices of ``k`` elements of ``G`` (of length ``n``) appending each
    choice that ``conds[i]`` accepts to pattern ``i``'s list (as indexes, or as a cover
    over ``G`` for the patterns of ``local``), ``indent`` levels deeper than a function."""
    k = c.k
    idx = [f"i{j}" for j in range(k)]
    tuple_of = f"({', '.join(idx)},)"
    cover = " | ".join(f"1 << {x}" for x in idx)
    out = [Line(indent + 1, [f"{naming.chosen(i)} = []"]) for i, _ in c.group]
    for j in range(k):
        start = "0" if j == 0 else f"{idx[j - 1]} + 1"
        stop = "n" if j == k - 1 else f"n - {k - 1 - j}"
        out.append(Line(indent + j + 1, [f"for {idx[j]} in range({start}, {stop}):"]))
        out.append(Line(indent + j + 2, [f"g{j} = G[{idx[j]}]"]))
    for i, p in c.group:
        out.append(Line(indent + k + 1, ["if ", *conds[i], ":"], c.names(p)))
        out.append(Line(indent + k + 2, [f"{naming.chosen(i)}.append({cover if i in local else tuple_of})"]))
    return out


_KIND_ID = attrgetter("kind_id")

#: The kind and first tile of each set of ``G``, in order (``Group.kind_id``).
_KEY_OF_GROUPS = "(*map(KIND_ID, G),)"


Instance = tuple[int, int, int]  # (pattern position, cover bit mask over the groups, count)

#: Lists whose elements' bits (places in ``c.groups``) the context keeps: ``c._arr.bits(name)``.
_BIT_LISTS = frozenset({"groups", "sets", "chows", "pungs", "kongs", "pairs", "knitted"})


def covers_every_group(domain: ir.Node | None) -> bool:
    """Whether every element of the list ``domain`` has a cover bit (a list of the
    arrangement's groups); else an element may have none (:func:`bits_of` gives 0)."""
    return isinstance(domain, ir.FactRead) and domain.fact.name in _BIT_LISTS


def _bits_source(domain: ir.Node) -> str:
    if covers_every_group(domain):
        assert isinstance(domain, ir.FactRead)
        return f"c._arr.bits({domain.fact.name!r})"
    return "BITS(c, G)"


def covers(i: int, ctx: Any, got: tuple[list[Any], list[tuple[int, ...]]]) -> list[Instance]:
    """Instances of combination pattern ``i`` from its chooser's answer: each with its cover."""
    domain, chosen = got
    return bit_cover(i, chosen, bits_of(ctx, domain)) if chosen else []


def bit_cover(i: int, chosen: list[tuple[int, ...]], bits: list[int]) -> list[Instance]:
    """One instance of pattern ``i`` per choice, covering the groups whose bits are ``bits[j]``."""
    out = []
    for choice in chosen:
        mask = 0
        for j in choice:
            mask |= bits[j]
        out.append((i, mask, 1))
    return out


def bits_of(ctx: Any, domain: list[Any]) -> list[int]:
    """The cover bit of each element of ``domain`` in the context's arrangement (equal
    groups: in turn); 0 if absent."""
    return [1 << q if q >= 0 else 0 for q in group_positions(ctx._arr.canonical(), domain)]

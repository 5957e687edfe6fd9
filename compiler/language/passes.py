"""Optimising passes over the IR. Conditions are pure, and only a checked division or
a power can fail, so a pass may reorder, share or replace parts freely as long as
nothing moves across a part that can fail.

* :func:`lower`: constructs the context answers without a loop: membership in a
  constant collection as a folded constant, ``copies(t, L)`` and counts by rank or suit
  from the copies per kind the context keeps, ``any``/``all`` over a list of tiles with
  a condition on the tile alone as one test of a bit mask of kinds;
* :func:`cheap_first`: the conjuncts that only read and compare facts before those that
  work, so that a condition failing on a plain fact fails before any loop runs;
* :func:`reads_kind_only`: whether a condition on chosen sets reads of them only what
  their kind and first tile fix (a table of answers may then be keyed by those);
* :func:`share_common`: the parts several conditions of one generated function compute
  alike (definitions of the variant file are inlined wherever they are named), computed
  once into local variables.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..model.groups import KIND_ATTRIBUTES, TILES
from . import ir
from .emit import emit, var_name
from .types import GROUP, TILE, Type, list_of
from .vocabulary import KIND_ONLY_FUNCTIONS, RUNTIME

#: The type of the copies per kind a context keeps (bytes indexed by kind).
COUNTS = Type("counts")
#: The type of a bit mask of kinds.
MASK = Type("kind mask")
ALL_TILES_MASK = (1 << len(TILES)) - 1


def lower(node: ir.Node) -> ir.Node:
    """``node`` with every construct the context can answer directly rewritten (see the
    module docstring); bottom-up, so a rewrite sees its parts already lowered."""
    return ir.transform(node, _lower_one)


def _lower_one(n: ir.Node) -> ir.Node | None:
    if isinstance(n, ir.Compare):
        return _constant_membership(n)
    if isinstance(n, ir.Call) and n.name == "copies":
        counts = counts_of(n.args[1])
        if counts is not None:  # a count kept per kind by the context
            return ir.Index(counts, ir.KindOf(n.args[0], len(TILES)))
        return None
    if isinstance(n, ir.Quant) and len(n.vars) == 1:
        if n.quant in ("any", "exists", "all"):
            return _mask_test(n)
        if n.quant == "count":
            return _counted_kinds(n) or _counted_by_attribute(n)
    return None


def counts_of(node: ir.Node) -> ir.Slot | None:
    """The copies per kind the context keeps of a list of tiles: of a fact that is such a
    list, or of the tiles of a fact that is a list of sets (``tiles_of(declared)``)."""
    if isinstance(node, ir.FactRead) and node.fact.counts and node.type == list_of(TILE):
        return ir.Slot(node.fact.counts, COUNTS)
    if (isinstance(node, ir.Call) and node.name == "tiles_of" and isinstance(node.args[0], ir.FactRead)
            and node.args[0].fact.counts and node.args[0].type == list_of(GROUP)):
        return ir.Slot(node.args[0].fact.counts, COUNTS)
    return None


def _constant_membership(n: ir.Compare) -> ir.Node | None:
    """``x in {1, 9}`` or ``t in {2s, 6z}`` with literals only: a constant collection of
    numbers or texts, which Python folds into the code (tiles compare by kind)."""
    left, right = n.operands[0], n.operands[-1]
    if len(n.ops) != 1 or n.ops[0] not in ("in", "not in") or not isinstance(right, ir.SetLit):
        return None
    values = [i.value for i in right.items if isinstance(i, ir.Const) and type(i.value) in (int, str)]
    if len(values) == len(right.items):
        return ir.Compare((left, ir.ConstSet(tuple(values), right.type)), n.ops)
    kinds = [i.kind for i in right.items if isinstance(i, ir.TileConst)]
    if len(kinds) == len(right.items) and left.type == TILE:
        return ir.Compare((ir.KindOf(left, -1), ir.ConstSet(tuple(kinds), right.type)), n.ops)
    return None


def _mask_test(n: ir.Quant) -> ir.Node | None:
    """``any``/``all`` over a list of tiles whose bit mask of kinds the context keeps, with
    a condition on the bound tile alone: one test of that mask."""
    domain = n.domain
    if not (isinstance(domain, ir.FactRead) and domain.fact.mask):
        return None
    mask = tile_mask(n.vars[0], n.body)
    if mask is None:
        return None
    held = ir.Slot(domain.fact.mask, MASK)
    if n.quant == "all":
        return ir.MaskTest(held, ALL_TILES_MASK & ~mask, True)
    return ir.MaskTest(held, mask, False)


def tile_mask(var: ir.Var, body: ir.Node) -> int | None:
    """The kinds for which ``body`` holds, when it depends on the bound tile ``var`` alone.

    The condition is evaluated for every tile kind at compile time; one that reads
    anything else (the context, another bound name) is not a condition on the tile
    alone. Evaluating all kinds covers every value the tile can take, so the mask is
    exact whatever the condition's short-circuits.
    """
    if body.reads or body.free - {var.ident}:
        return None
    name = var_name(var)
    try:
        fn = eval(compile(f"lambda {name}: {emit(body)}", "<tile condition>", "eval"), dict(RUNTIME))  # noqa: S307
        mask = 0
        for tile in TILES:
            result = fn(tile)
            if not isinstance(result, bool):
                return None
            if result:
                mask |= 1 << tile.kind
        return mask
    except Exception:
        return None


def _counted_kinds(n: ir.Quant) -> ir.Node | None:
    """``count(k in kinds(L): copies(k, L) == n)`` (n > 0) when the context keeps the copies
    per kind of ``L``: the kinds held exactly n times, counted in those copies."""
    domain, body, var = n.domain, n.body, n.vars[0]
    if not (isinstance(domain, ir.Call) and domain.name == "kinds"):
        return None
    counts = counts_of(domain.args[0])
    if counts is None or not (isinstance(body, ir.Compare) and body.ops == ("==",)):
        return None
    left, right = body.operands
    if (isinstance(left, ir.Index) and left.seq == counts and left.index == ir.KindOf(var, len(TILES))
            and isinstance(right, ir.Const) and type(right.value) is int and right.value > 0):
        return ir.CountOf(counts, right.value)
    return None


def _counted_by_attribute(n: ir.Quant) -> ir.Node | None:
    """``count(t in L: t.rank == e)`` (or ``t.suit``), ``e`` not reading ``t``, as a sum of
    the copies of a few kinds when the context keeps the copies per kind of ``L``: no loop
    over the tiles, for a count whose value the enclosing expression chooses."""
    counts = counts_of(n.domain)
    body, var = n.body, n.vars[0]
    if counts is None or not (isinstance(body, ir.Compare) and body.ops == ("==",)):
        return None
    left, value = body.operands
    if (isinstance(left, ir.Attr) and left.name in ("rank", "suit") and left.obj == var
            and var.ident not in value.free):
        return ir.Tally(counts, left.name, value)
    return None


def cheap_first(node: ir.Node) -> ir.Node:
    """``node`` with its cheap conjuncts (reads and comparisons: no call, no loop, no list,
    no fact computed on demand) tested before the others. Only a part that can fail keeps
    its place: from the first conjunct that can fail, the order stays."""
    parts = ir.conjuncts(node)
    if len(parts) < 2:
        return node
    cheap: list[ir.Node] = []
    dear: list[ir.Node] = []
    rest: list[ir.Node] = []
    for part in parts:
        if rest or part.fails:
            rest.append(part)
        elif part.work:
            dear.append(part)
        else:
            cheap.append(part)
    if not dear:
        return node
    return ir.and_of(cheap + dear + rest)


def is_cheap(node: ir.Node) -> bool:
    """Whether a condition only reads facts and compares them (and cannot fail)."""
    return not (node.work or node.fails)


def reads_kind_only(node: ir.Node, chosen: frozenset[tuple[str, int]]) -> bool:
    """Whether ``node`` reads of the sets bound to ``chosen`` only attributes fixed by their
    kind and first tile (compiler/model/groups.py ``KIND_ATTRIBUTES``), and passes whole
    sets to nothing but functions reading such attributes: a set compared or counted as
    itself reads more."""
    def ok(n: ir.Node, parent: Any) -> bool:
        if isinstance(n, ir.Var) and n.ident in chosen:
            if isinstance(parent, ir.Attr):
                return parent.name in KIND_ATTRIBUTES
            if isinstance(parent, ir.ListLit):
                return parent in kind_lists
            return False
        return all(ok(c, n) for c in n.children())

    # Lists of chosen sets handed to a function reading kind attributes only.
    kind_lists = {a for n in node.walk() if isinstance(n, ir.Call) and n.name in KIND_ONLY_FUNCTIONS
                  for a in n.args if isinstance(a, ir.ListLit)
                  and all(isinstance(i, ir.Var) and i.ident in chosen for i in a.items)}
    return ok(node, None)


def reads_length_only(node: ir.Node, fact: str) -> bool:
    """Whether ``node`` reads the fact ``fact`` (a list) only as ``len(fact)``: its items
    could then be any others, as many, and the value would be the same."""
    for n in node.walk():
        for child in n.children():
            if (isinstance(child, ir.FactRead) and child.fact.name == fact
                    and not (isinstance(n, ir.Call) and n.name == "len")):
                return False
    return not (isinstance(node, ir.FactRead) and node.fact.name == fact)


def substitute(node: ir.Node, replace: dict[ir.Node, ir.Node]) -> ir.Node:
    """``node`` with every part equal to a key of ``replace`` replaced (largest first:
    a replaced part is not looked into)."""
    if not replace:
        return node
    done: dict[int, ir.Node] = {}

    def visit(n: ir.Node) -> ir.Node:
        got = done.get(id(n))
        if got is not None:
            return got
        out = replace.get(n)
        if out is None:
            kids = n.children()
            new = tuple(visit(k) for k in kids)
            out = n.rebuild(new) if any(a is not b for a, b in zip(new, kids)) else n
        done[id(n)] = out
        return out

    return visit(node)


#: Nodes whose evaluation costs more than a read: worth computing once when repeated.
_WORK_NODES = (ir.Quant, ir.Call, ir.ListLit, ir.SetLit, ir.Index, ir.CountOf, ir.Tally, ir.Distinct)


def worth_sharing(node: ir.Node) -> bool:
    """Whether ``node`` may be computed once at the top of a generated function and kept:
    it reads the context, binds nothing it does not bind itself, cannot fail, reads no
    fact computed on demand (worth computing only when asked), and does some work (a
    call, a loop, a list)."""
    return (bool(node.reads) and not node.free and not node.fails and not node.lazy
            and not isinstance(node, ir.Local) and any(isinstance(n, _WORK_NODES) for n in node.walk()))


def share_common(nodes: list[ir.Node], name_of: Callable[[ir.Node, int], str]) -> tuple[list[ir.Node], list[ir.Local]]:
    """``nodes`` (the conditions of one generated function) with every part that occurs
    more than once and is worth sharing (:func:`worth_sharing`) replaced by a
    :class:`~ir.Local`; the locals in an order where each comes after those it reads.

    Largest part first: once a part is shared, the parts inside it occur once there
    instead of once per occurrence, and are shared in turn only when they also occur
    elsewhere. ``name_of(part, k)`` names the k-th local (a definition's name, say: the
    part may be a :class:`~ir.Def`). Conditions are pure, so computing a part early
    changes no result."""
    counts: dict[ir.Node, int] = {}
    named: dict[ir.Node, ir.Node] = {}  # a definition equal to the part, for its name
    for root in nodes:
        for n in root.walk():
            if isinstance(n, ir.Def):  # equal to its body: one occurrence, counted there
                named.setdefault(n, n)
            else:
                counts[n] = counts.get(n, 0) + 1
    chosen: list[ir.Node] = []
    for part in sorted((n for n, k in counts.items() if k > 1 and worth_sharing(n)), key=lambda n: -n.size):
        k = counts[part]
        if k < 2:  # its occurrences were inside parts shared before
            continue
        for n in part.walk():
            if n is not part and not isinstance(n, ir.Def):
                counts[n] -= k - 1
        counts[part] = 1
        chosen.append(part)
    if not chosen:
        return nodes, []
    locals_ = {part: ir.Local(name_of(named.get(part, part), j), named.get(part, part))
               for j, part in enumerate(chosen)}
    replace: dict[ir.Node, ir.Node] = dict(locals_)
    shared = [ir.Local(local.name, _inside_replaced(local.value, replace)) for local in locals_.values()]
    # Each after the locals it reads (a smaller part shared later may be read by a larger one).
    ordered: list[ir.Local] = []
    placed: set[str] = set()
    pending = shared[::-1]
    while pending:
        for s in pending:
            needs = {n.name for n in s.value.walk() if isinstance(n, ir.Local)}
            if needs <= placed:
                ordered.append(s)
                placed.add(s.name)
                pending.remove(s)
                break
        else:  # pragma: no cover - sharing never makes a cycle
            raise AssertionError("shared parts read each other")
    return [substitute(n, replace) for n in nodes], ordered


def _inside_replaced(node: ir.Node, replace: dict[ir.Node, ir.Node]) -> ir.Node:
    """``node`` with the parts inside it replaced, not itself (nor a definition's body,
    which is equal to it)."""
    if isinstance(node, ir.Def):
        return ir.Def(node.name, _inside_replaced(node.body, replace))
    return node.rebuild(tuple(substitute(c, replace) for c in node.children()))


__all__ = ["ALL_TILES_MASK", "COUNTS", "MASK", "cheap_first", "counts_of", "is_cheap", "lower",
           "reads_kind_only", "share_common", "substitute", "tile_mask", "worth_sharing"]

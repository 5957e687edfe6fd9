"""Checked expressions, ready to run: :class:`Recipe` (plain data, what the compile cache
keeps) and :class:`Compiled` (its functions, compiled on first use).

An expression's IR is kept with it (as JSON text in the cache, decoded only when a pass
asks for it), so that the scorer generator (compiler/scoring/codegen.py) can run its own
passes over the conditions of a pattern table, whether the variant was compiled now or
read from the cache.
"""

from __future__ import annotations

import json
import linecache
from collections.abc import Callable
from typing import Any

from ..records import FrozenRecord
from . import ir
from .checker import Env, check
from .emit import emit
from .passes import lower
from .types import GROUP, Type, is_collection
from .types import from_json as type_from_json
from .types import to_json as type_to_json
from .vocabulary import RUNTIME


class Combination(FrozenRecord):
    """A count over choices of ``arity`` sets of one list, ``count(a, b in chows: ...)``:
    the IR of that list (``domain``), of the names bound to the chosen sets (``chosen``) and
    of the condition on one choice (``choice``)."""

    domain: ir.Node
    chosen: tuple[ir.Var, ...]
    choice: ir.Node

    def __init__(self, domain: ir.Node, chosen: tuple[ir.Var, ...], choice: ir.Node) -> None:
        vars(self).update(domain=domain, chosen=chosen, choice=choice)

    @property
    def arity(self) -> int:
        return len(self.chosen)


def combination_of(node: ir.Node) -> Combination | None:
    """The combination an expression counts, when it is a count over choices of sets."""
    if (isinstance(node, ir.Quant) and node.quant == "count" and is_collection(node.domain.type)
            and node.domain.type.item == GROUP):
        return Combination(node.domain, node.vars, node.body)
    return None


def matcher_source(comb: Combination) -> str:
    """``def matches(c)``: the list and the index tuple of every choice the count accepts,
    in order (an engine can then tell which sets each counted choice used)."""
    k = comb.arity
    idx = [f"i{j}" for j in range(k)]
    body = emit(comb.choice, {v.ident: f"G[{idx[j]}]" for j, v in enumerate(comb.chosen)})
    lines = ["def matches(c):", f"    G = {emit(comb.domain)}", "    n = len(G)", "    out = []"]
    if k:
        lines.append(f"    if n < {k}:")
        lines.append("        return G, out")
    for j in range(k):
        start = "0" if j == 0 else f"{idx[j - 1]} + 1"
        lines.append("    " * (j + 1) + f"for {idx[j]} in range({start}, n):")
    lines.append("    " * (k + 1) + f"if {body}:")
    lines.append("    " * (k + 2) + f"out.append(({', '.join(idx)},))")
    lines.append("    return G, out")
    return "\n".join(lines)


class Recipe(FrozenRecord):
    """A checked expression before Python compiles it: plain data (text, type, generated
    source, IR as JSON text), so a compiled variant can be cached on disk and rebuilt
    without parsing. ``node`` is the IR (decoded from ``ir_json`` when first asked)."""

    COMPARED = ("text", "type", "source", "matcher", "ir_json")
    HIDDEN = ("ir_json", "_node")

    text: str
    type: Type
    source: str  # the body of ``lambda c: ...``
    matcher: str | None  # ``def matches(c)`` for a count over choices of sets
    ir_json: str
    _node: ir.Node | None

    def __init__(self, text: str, type: Type, source: str, matcher: str | None, ir_json: str,
                 node: ir.Node | None = None) -> None:
        vars(self).update(text=text, type=type, source=source, matcher=matcher, ir_json=ir_json, _node=node)

    @property
    def node(self) -> ir.Node:
        if self._node is None:
            vars(self)["_node"] = ir.from_json(json.loads(self.ir_json))
        assert self._node is not None
        return self._node

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "type": type_to_json(self.type), "source": self.source, "matcher": self.matcher,
                "ir": self.ir_json}

    @classmethod
    def from_json(cls, obj: Any) -> Recipe:
        matcher = obj["matcher"]
        if not (isinstance(obj["text"], str) and isinstance(obj["source"], str) and isinstance(obj["ir"], str)
                and (matcher is None or isinstance(matcher, str))):
            raise ValueError("not a stored expression")
        return cls(obj["text"], type_from_json(obj["type"]), obj["source"], matcher, obj["ir"])


def generate(text: str, env: Env, want: Type | None = None, what: str = "the expression") -> Recipe:
    """Parse, type-check and lower ``text`` in ``env``; raises ExpressionError."""
    node = lower(check(text, env, want, what))
    comb = combination_of(node)
    return Recipe(text, node.type, emit(node), matcher_source(comb) if comb is not None else None,
                  json.dumps(ir.to_json(node), separators=(",", ":")), node)


def register_source(filename: str, source: str) -> None:
    """Let tracebacks and debuggers show lines of generated code: ``linecache`` keeps the
    source under its (made-up) file name, with no file to check it against."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)


class Compiled:
    """A checked expression: its type, IR, generated source and the function ``fn(c)``.

    ``combination`` is set when the expression counts choices of sets,
    ``count(a, b in chows: ...)``; ``matches(c)`` then returns the list counted over and
    the index tuple of every choice counted (compiler/scoring/patterns.py, combination
    patterns).
    """

    __slots__ = ("recipe", "filename", "_fn", "_matches", "_compile", "_combination")

    def __init__(self, recipe: Recipe, filename: str = "<variant>",
                 compile_code: Callable[[str, str, str], Any] = compile) -> None:
        self.recipe = recipe
        self.filename = filename
        self._fn: Callable[[Any], Any] | None = None
        self._matches: Callable[[Any], Any] | None = None
        self._compile = compile_code  # e.g. a compile cache's store of code objects (compiler/loading/cache.py)
        self._combination: Combination | bool | None = False  # False: not worked out yet

    @property
    def text(self) -> str:
        return self.recipe.text

    @property
    def type(self) -> Type:
        return self.recipe.type

    @property
    def source(self) -> str:
        return self.recipe.source

    @property
    def node(self) -> ir.Node:
        return self.recipe.node

    @property
    def counts_choices(self) -> bool:
        """Whether the expression counts choices of sets (see :attr:`combination`): known
        without decoding the IR of an expression read from the cache."""
        return self.recipe.matcher is not None

    @property
    def names(self) -> frozenset[str]:
        """The context attributes the expression reads (definitions expanded)."""
        return self.node.reads

    @property
    def arity(self) -> int:
        """How many sets each choice of a combination holds (0: not a combination)."""
        comb = self.combination
        return comb.arity if comb is not None else 0

    @property
    def combination(self) -> Combination | None:
        if self._combination is False:
            self._combination = combination_of(self.node) if self.recipe.matcher is not None else None
        return self._combination  # type: ignore[return-value]

    @property
    def fn(self) -> Callable[[Any], Any]:
        if self._fn is None:
            source = f"lambda c: {self.source}"
            code = self._compile(source, self.filename, "eval")
            register_source(self.filename, source)
            self._fn = eval(code, dict(RUNTIME))  # noqa: S307 - source emitted from the checked IR
        return self._fn

    @property
    def matches(self) -> Callable[[Any], tuple[Any, list[tuple[int, ...]]]] | None:
        if self._matches is None and self.recipe.matcher is not None:
            scope: dict[str, Any] = {}
            filename = f"{self.filename} (choices)"
            exec(self._compile(self.recipe.matcher, filename, "exec"), dict(RUNTIME), scope)  # noqa: S102
            register_source(filename, self.recipe.matcher)
            self._matches = scope["matches"]
        return self._matches

    def __call__(self, context: Any) -> Any:
        return self.fn(context)

    def __repr__(self) -> str:
        return f"Compiled({self.text!r}: {self.type})"


def build(recipe: Recipe, filename: str = "<variant>",
          compile_code: Callable[[str, str, str], Any] = compile) -> Compiled:
    """A :class:`Compiled` from a recipe, its functions compiled (by ``compile_code``, which
    a compile cache may answer from code objects it keeps)."""
    compiled = Compiled(recipe, filename, compile_code)
    _ = compiled.fn, compiled.matches  # compiled now: a damaged cache entry fails here, as the cache expects
    return compiled


def compile_expression(text: str, env: Env, want: Type | None = None, what: str = "the expression",
                       filename: str = "<variant>") -> Compiled:
    return build(generate(text, env, want, what), filename)


__all__ = ["Combination", "Compiled", "Recipe", "build", "combination_of", "compile_expression", "generate",
           "matcher_source", "register_source"]

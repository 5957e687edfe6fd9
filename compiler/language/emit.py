"""Writing Python source from the IR: the last step, after every pass.

The source is an expression of the context ``c`` (a generated function's argument),
reading the names of the run-time vocabulary (vocabulary.RUNTIME): ``T`` the shared
tiles, ``P`` and ``D`` the checked power and division, ``F_<name>`` the built-in
functions, ``COMB``/``PERM`` the choices of several names, ``TALLY`` a count by
attribute. A bound name is written ``v<depth>_<name>`` unless the caller names it
(``names``: the chosen sets of a combination loop, for example).
"""

from __future__ import annotations

from collections.abc import Mapping

from . import ir


def var_name(var: ir.Var) -> str:
    """The Python name of a bound name (a prefix keeps it apart from generated locals)."""
    return f"v{var.depth}_{var.name}"


def emit(node: ir.Node, names: Mapping[tuple[str, int], str] | None = None) -> str:
    """Python source computing ``node``."""
    return _Emitter(names or {}).emit(node)


class _Emitter:
    def __init__(self, names: Mapping[tuple[str, int], str]) -> None:
        self.names = names

    def emit(self, n: ir.Node) -> str:
        method = getattr(self, "e_" + type(n).__name__)
        return method(n)

    def e_Const(self, n: ir.Const) -> str:
        return repr(n.value)

    def e_TileConst(self, n: ir.TileConst) -> str:
        return f"T[{n.kind}]"

    def e_FactRead(self, n: ir.FactRead) -> str:
        return f"c.{n.fact.name}"

    def e_Slot(self, n: ir.Slot) -> str:
        return f"c.{n.attr}"

    def e_Var(self, n: ir.Var) -> str:
        return self.names.get(n.ident) or var_name(n)

    def e_Local(self, n: ir.Local) -> str:
        return n.name

    def e_Def(self, n: ir.Def) -> str:
        return self.emit(n.body)  # every form emitted is an atom or parenthesized

    def e_Unary(self, n: ir.Unary) -> str:
        return f"({n.op} {self.emit(n.operand)})" if n.op == "not" else f"(-{self.emit(n.operand)})"

    def e_BoolOp(self, n: ir.BoolOp) -> str:
        return "(" + f" {n.op} ".join(self.emit(p) for p in n.parts) + ")"

    def e_Compare(self, n: ir.Compare) -> str:
        parts = [self.emit(n.operands[0])]
        for op, right in zip(n.ops, n.operands[1:]):
            parts.append(op)
            parts.append(self.emit(right))
        return "(" + " ".join(parts) + ")"

    def e_Arith(self, n: ir.Arith) -> str:
        left, right = self.emit(n.left), self.emit(n.right)
        if not n.checked:
            return f"({left} {n.op} {right})"
        return f"M({left}, {right})" if n.op == "*" else f"D({left}, {right}, {n.op!r})"

    def e_Pow(self, n: ir.Pow) -> str:
        return f"P({self.emit(n.base)}, {self.emit(n.exp)})"

    def e_IfElse(self, n: ir.IfElse) -> str:
        return f"({self.emit(n.then)} if {self.emit(n.test)} else {self.emit(n.orelse)})"

    def e_Attr(self, n: ir.Attr) -> str:
        return f"{self.emit(n.obj)}.{n.name}"

    def e_ListLit(self, n: ir.ListLit) -> str:
        return "[" + ", ".join(self.emit(p) for p in n.items) + "]"

    def e_SetLit(self, n: ir.SetLit) -> str:
        return "frozenset((" + ", ".join(self.emit(p) for p in n.items) + ",))"

    def e_ConstSet(self, n: ir.ConstSet) -> str:
        return "{" + ", ".join(repr(v) for v in n.values) + "}"

    def e_KindOf(self, n: ir.KindOf) -> str:
        return f"getattr({self.emit(n.tile)}, 'kind', {n.default})"

    def e_Call(self, n: ir.Call) -> str:
        args = ", ".join(self.emit(a) for a in n.args)
        return f"len({args})" if n.name == "len" else f"F_{n.name}({args})"

    def e_Same(self, n: ir.Same) -> str:
        return "(" + " == ".join(self.emit(a) for a in n.args) + ")"

    def e_Distinct(self, n: ir.Distinct) -> str:
        return f"(len({{{', '.join(self.emit(a) for a in n.args)}}}) == {len(n.args)})"

    def e_Index(self, n: ir.Index) -> str:
        seq = n.seq
        if isinstance(seq, ir.ListLit) and all(isinstance(i, ir.Const) for i in seq.items):
            # a table of constants: a tuple Python folds into one constant
            return "(" + ", ".join(self.emit(i) for i in seq.items) + f",)[{self.emit(n.index)}]"
        return f"{self.emit(seq)}[{self.emit(n.index)}]"

    def e_MaskTest(self, n: ir.MaskTest) -> str:
        held = self.emit(n.held)
        return f"(not ({held} & {n.mask}))" if n.all else f"(({held} & {n.mask}) != 0)"

    def e_CountOf(self, n: ir.CountOf) -> str:
        return f"{self.emit(n.counts)}.count({n.n})"

    def e_Tally(self, n: ir.Tally) -> str:
        return f"TALLY({self.emit(n.counts)}, {n.attr!r}, {self.emit(n.value)})"

    def e_Quant(self, n: ir.Quant) -> str:
        dom = self.emit(n.domain)
        names = [self.emit(v) for v in n.vars]
        body = self.emit(n.body)
        if len(names) == 1:
            target, source = names[0], dom
        else:
            target = "(" + ", ".join(names) + ")"
            source = f"{'COMB' if n.quant in ('count', 'sum') else 'PERM'}({dom}, {len(names)})"
        # Over a list the context holds, an empty list answers without running the loop.
        plain = len(names) == 1 and isinstance(n.domain, ir.FactRead)
        quant = n.quant
        if quant == "filter":
            src, empty = f"[{target} for {target} in {source} if {body}]", "[]"
        elif quant in ("any", "exists"):
            src, empty = f"any({body} for {target} in {source})", "False"
        elif quant == "all":
            src, empty = f"all({body} for {target} in {source})", "True"
        elif quant == "count":
            src, empty = f"len([1 for {target} in {source} if {body}])", "0"
        else:
            src, empty = f"sum({body} for {target} in {source})", "0"
        return f"({src} if {dom} else {empty})" if plain else src


__all__ = ["emit", "var_name"]

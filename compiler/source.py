"""Loading YAML while keeping where every value came from.

Values are plain dicts, lists and scalars (what JSON Schema validates); a side table
maps each value's path (a tuple of keys and indexes) to its node's line and column,
so every later stage can point at the exact place in the file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

from .errors import Problem, VariantError

Path_ = tuple[Any, ...]


@dataclass(frozen=True)
class Mark:
    line: int  # 1-based
    column: int  # 1-based
    style: str | None = None  # YAML scalar style: None (plain), "'", '"', "|", ">"


@dataclass
class Source:
    """A parsed YAML document with the position of every node."""

    file: str
    data: Any
    marks: dict[Path_, Mark]

    def mark(self, path: Path_) -> Mark:
        """The position of ``path``, or of its nearest ancestor that has one."""
        p = tuple(path)
        while p not in self.marks and p:
            p = p[:-1]
        return self.marks.get(p, Mark(1, 1))

    def key_mark(self, path: Path_) -> Mark:
        """The position of the mapping key at ``path`` (for 'unknown key' and 'duplicate' errors)."""
        return self.marks.get(tuple(path) + ("<key>",), self.mark(path))

    def expression_position(self, path: Path_, line: int, column: int) -> tuple[int, int]:
        """File position of (line, column) inside the expression scalar at ``path``."""
        m = self.mark(path)
        if m.style in ("|", ">"):
            return (m.line + line, column + 2)  # block scalars start on the next line, indented
        if line == 1:
            return (m.line, m.column + column - 1 + (1 if m.style in ("'", '"') else 0))
        return (m.line + line - 1, column)


class _Loader(yaml.SafeLoader):
    """SafeLoader that rejects duplicate keys (PyYAML silently keeps the last)."""


def _build(node: yaml.Node, path: Path_, marks: dict[Path_, Mark], problems: list[Problem], file: str) -> Any:
    marks[path] = Mark(node.start_mark.line + 1, node.start_mark.column + 1,
                       getattr(node, "style", None) if isinstance(node, yaml.ScalarNode) else None)
    if isinstance(node, yaml.MappingNode):
        out: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key = _build(key_node, path + ("<key>",), {}, problems, file)
            if isinstance(key, (list, dict)):
                problems.append(Problem(file, key_node.start_mark.line + 1, key_node.start_mark.column + 1,
                                        "a mapping key must be a plain value"))
                continue
            if key in out:
                problems.append(Problem(file, key_node.start_mark.line + 1, key_node.start_mark.column + 1,
                                        f"duplicate key {key!r}"))
                continue
            marks[path + (key, "<key>")] = Mark(key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            out[key] = _build(value_node, path + (key,), marks, problems, file)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(child, path + (i,), marks, problems, file) for i, child in enumerate(node.value)]
    loader = _Loader("")
    return loader.construct_object(node, deep=True)


def load(text: str, file: str) -> Source:
    """Parse YAML text; raise :class:`VariantError` with the position of a syntax error."""
    try:
        node = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = exc.problem or "invalid YAML"
        if exc.context:
            what = f"{exc.context}, {what}"
        raise VariantError([Problem(file, line, col, f"YAML syntax error: {what}")]) from None
    except yaml.YAMLError as exc:
        raise VariantError([Problem(file, 1, 1, f"YAML error: {exc}")]) from None
    except ValueError as exc:  # e.g. NUL characters rejected by the reader
        raise VariantError([Problem(file, 1, 1, f"cannot read the file as YAML text: {exc}")]) from None
    if node is None:
        raise VariantError([Problem(file, 1, 1, "the file is empty: expected a variant description")])
    marks: dict[Path_, Mark] = {}
    problems: list[Problem] = []
    try:
        data = _build(node, (), marks, problems, file)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise VariantError([Problem(file, line, col, f"YAML error: {exc.problem}")]) from None
    except (yaml.YAMLError, ValueError, TypeError, RecursionError) as exc:
        raise VariantError([Problem(file, 1, 1, f"YAML error: {exc}")]) from None
    if problems:
        raise VariantError(problems)
    return Source(file, data, marks)

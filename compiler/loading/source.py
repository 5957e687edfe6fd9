"""Loading YAML while keeping where every value came from.

Values are plain dicts, lists and scalars (what JSON Schema validates); a side table
maps each value's path (a tuple of keys and indexes) to its node's line and column,
so every later stage can point at the exact place in the file.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # PyYAML is imported when a file is parsed, not when a cached variant loads
    import yaml

from ..errors import Problem, VariantError, shorten
from ..records import FrozenRecord, Record

Path_ = tuple[Any, ...]


class Mark(FrozenRecord):
    line: int  # 1-based
    column: int  # 1-based
    style: str | None  # YAML scalar style: None (plain), "'", '"', "|", ">"
    start: int  # character offsets of the node in the text (scalars only)
    end: int
    file: str | None  # the file the value came from, when not the document's own (an overlay's base)

    def __init__(self, line: int, column: int, style: str | None = None, start: int = -1, end: int = -1,
                 file: str | None = None) -> None:
        vars(self).update(line=line, column=column, style=style, start=start, end=end, file=file)

    def with_file(self, file: str) -> Mark:
        return Mark(self.line, self.column, self.style, self.start, self.end, file)


_BREAKS = "\n\x85\u2028\u2029"


def _advance(text: str, i: int, line: int, column: int) -> tuple[int, int]:
    """Line and column (1-based) after the character at ``i``, counted as PyYAML counts them."""
    ch = text[i]
    if ch in _BREAKS or (ch == "\r" and text[i + 1:i + 2] != "\n"):
        return line + 1, 1
    if ch != "\ufeff":
        return line, column + 1
    return line, column


def align_scalar(raw: str, value: str, style: str | None) -> list[int]:
    """For each character of ``value`` (and one past its end), its offset in ``raw``.

    ``raw`` is the node's text in the file, ``value`` what YAML made of it. YAML only drops
    characters (quotes, indentation, escape backslashes, block headers) and turns line
    breaks into spaces, so a greedy in-order match locates every character; an escape such
    as ``\\t`` maps near its backslash.
    """
    j = 0
    if style in ("|", ">"):
        j = min(len(raw), next((k + 1 for k, ch in enumerate(raw) if ch in _BREAKS or ch == "\r"), len(raw)))
    elif style in ("'", '"'):
        j = 1
    skippable = " \t\r\n\x85\u2028\u2029\ufeff'\"\\"
    out: list[int] = []
    for ch in value:
        if ch.isspace():
            out.append(min(j, len(raw)))
            if j < len(raw) and raw[j].isspace():
                j += 1
            continue
        k = j
        while k < len(raw) and raw[k] != ch and raw[k] in skippable:
            k += 1
        if k < len(raw) and raw[k] == ch:
            out.append(k)
            j = k + 1
        else:  # an escape: stay near it
            out.append(min(j, len(raw)))
            j = min(j + 1, len(raw))
    out.append(min(j, len(raw)))
    return out


class Source(Record):
    """A parsed YAML document with the position of every node."""

    file: str
    data: Any
    marks: dict[Path_, Mark]
    text: str
    #: Problems found while building the data (duplicate keys): reported with the later
    #: stages' problems, since the data (first occurrence kept) can still be checked.
    problems: list[Problem]
    #: The text of each file the document was merged from (an overlay's bases), by name.
    texts: dict[str, str]
    #: The choice made for each of the variant's options.
    chosen: dict[str, str]

    def __init__(self, file: str, data: Any, marks: dict[Path_, Mark], text: str = "",
                 problems: list[Problem] | None = None, texts: dict[str, str] | None = None,
                 chosen: dict[str, str] | None = None) -> None:
        self.file = file
        self.data = data
        self.marks = marks
        self.text = text
        self.problems = problems if problems is not None else []
        self.texts = texts if texts is not None else {}
        self.chosen = chosen if chosen is not None else {}

    def file_of(self, path: Path_) -> str:
        """The file holding the value at ``path``."""
        return self.mark(path).file or self.file

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
        """File position of (line, column), 1-based, inside the expression scalar at ``path``.

        Works for every scalar style (plain, quoted, folded ``>``, literal ``|``): the
        offset inside the value is matched back to the node's characters in the file.
        """
        m = self.mark(path)
        value: Any = self.data
        try:
            for p in path:
                value = value[p]
        except (KeyError, IndexError, TypeError):
            return (m.line, m.column)
        if not isinstance(value, str) or m.start < 0:
            return (m.line, m.column)
        lines = value.split("\n")
        line = min(max(line, 1), len(lines))
        offset = sum(len(x) + 1 for x in lines[:line - 1]) + min(max(column, 1) - 1, len(lines[line - 1]))
        offset = min(offset, len(value.rstrip()))  # "ends too early" points after the last character
        text = self.texts.get(m.file, self.text) if m.file else self.text
        target = align_scalar(text[m.start:m.end], value, m.style)[offset] + m.start
        row, col = m.line, m.column
        for i in range(m.start, min(target, len(text))):
            row, col = _advance(text, i, row, col)
        return (row, col)


@lru_cache(maxsize=1)
def _loader() -> type:
    """The safe loader (plain data only), reading 2024-01-01 as text: a variant has no dates."""
    import yaml

    class Loader(yaml.SafeLoader):
        pass

    Loader.yaml_implicit_resolvers = {
        first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }
    return Loader


#: Most nodes a file may expand to: aliases can make a small file enormous ("billion laughs").
MAX_NODES = 200_000
#: A lone UTF-16 surrogate: YAML's escapes can write one, but it is not text (it cannot be printed).
_SURROGATE = re.compile("[\ud800-\udfff]")


class _Builder:
    """Turns composed YAML nodes into plain data, recording every node's mark."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.marks: dict[Path_, Mark] = {}
        self.problems: list[Problem] = []
        self.nodes = 0
        self.loader = _loader()("")
        import yaml

        self.yaml = yaml

    def problem(self, node: yaml.Node, message: str) -> None:
        self.problems.append(Problem(self.file, node.start_mark.line + 1, node.start_mark.column + 1, message))

    def build(self, node: yaml.Node, path: Path_, record: bool = True) -> Any:
        yaml = self.yaml
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise VariantError([Problem(self.file, node.start_mark.line + 1, node.start_mark.column + 1,
                                        f"the file expands to more than {MAX_NODES} values (aliases?): "
                                        "expected a variant description of reasonable size")])
        if record:
            if isinstance(node, yaml.ScalarNode):
                self.marks[path] = Mark(node.start_mark.line + 1, node.start_mark.column + 1, node.style,
                                        node.start_mark.index, node.end_mark.index)
            else:
                self.marks[path] = Mark(node.start_mark.line + 1, node.start_mark.column + 1)
        if isinstance(node, yaml.MappingNode):
            out: dict[Any, Any] = {}
            for key_node, value_node in node.value:
                key = self.build(key_node, path, record=False)
                if isinstance(key, (list, dict)) or key is None:
                    self.problem(key_node, "a mapping key must be a plain name or value")
                    continue
                if key in out:
                    first = self.marks.get(path + (key, "<key>"))
                    where = f" (first at line {first.line}, column {first.column})" if first else ""
                    self.problem(key_node, f"duplicate key {key!r}{where}: expected each key once")
                    continue
                self.marks[path + (key, "<key>")] = Mark(key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                out[key] = self.build(value_node, path + (key,))
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(child, path + (i,)) for i, child in enumerate(node.value)]
        try:
            value = self.loader.construct_object(node, deep=True)
        except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:
            # an explicit tag that does not fit its value (!!int abc), a number of 5,000 digits
            reason = shorten(getattr(exc, "problem", None) or str(exc))
            self.problem(node, f"cannot read the value {shorten(repr(node.value))} as {node.tag}: {reason}")
            return node.value
        bad = _SURROGATE.search(value) if isinstance(value, str) else None
        if bad is not None:  # "\ud800" in a quoted text
            self.problem(node, f"the text holds U+{ord(bad[0]):04X}, half of a UTF-16 pair, which is not a "
                               "character: expected text")
            return _SURROGATE.sub("\ufffd", value)
        return value


def _syntax_problem(file: str, exc: yaml.MarkedYAMLError) -> Problem:
    mark = exc.problem_mark or exc.context_mark
    line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
    what = exc.problem or "invalid YAML"
    if exc.context:
        ctx = exc.context_mark
        started = f" that starts at line {ctx.line + 1}, column {ctx.column + 1}" if ctx and ctx is not mark else ""
        what = f"{what}, {exc.context}{started}"
    return Problem(file, line, col, f"YAML syntax error: {what}")


def load(text: str, file: str) -> Source:
    """Parse YAML text; raise :class:`VariantError` with the position of a syntax error.

    Duplicate keys do not stop loading: they are in ``Source.problems``.
    """
    import yaml

    try:
        node = yaml.compose(text, Loader=_loader())
    except yaml.MarkedYAMLError as exc:
        raise VariantError([_syntax_problem(file, exc)]) from None
    except yaml.YAMLError as exc:
        raise VariantError([Problem(file, 1, 1, f"YAML error: {exc}")]) from None
    except ValueError as exc:  # e.g. NUL characters rejected by the reader
        raise VariantError([Problem(file, 1, 1, f"cannot read the file as YAML text: {exc}")]) from None
    if node is None:
        raise VariantError([Problem(file, 1, 1, "the file is empty: expected a variant description")])
    builder = _Builder(file)
    try:
        data = builder.build(node, ())
    except RecursionError:
        raise VariantError([Problem(file, 1, 1, "the file nests too deeply (a recursive alias?): "
                                                "expected a variant description")]) from None
    return Source(file, data, builder.marks, text, builder.problems)

"""Variants made of other variants: ``extends:`` overlays and named ``options``.

An overlay file starts with ``extends: NAME|PATH`` (a shipped variant's name, or a path
relative to the overlay) and holds only what changes. An option is a named choice among
fragments of the same kind, each merged on top when chosen. Both merge parsed trees, so
every value keeps the file and the line it came from, and a problem in an inherited
part is reported in the file that holds it.

The merge, one rule for each kind of value:

* mappings merge key by key; a key given ``null`` (``~``) is removed: the base's value
  no longer applies (a key a mapping may leave out, such as ``play.max_winners``);
* the lists ``scoring.patterns`` and ``scoring.shapes`` merge by ``id``: an entry whose
  id exists changes only the keys it gives, ``remove: true`` deletes it, a new id is
  appended unless it says ``before: ID`` or ``after: ID`` (order matters: an instance
  excluded before its turn excludes nothing); an existing entry moves when it says either;
* every other list, and every scalar, replaces what it overrides.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ..errors import Problem, VariantError, quoted
from .source import Mark, Path_, Source, load

#: Lists merged by the ``id`` of their entries.
BY_ID: frozenset[Path_] = frozenset({("scoring", "patterns"), ("scoring", "shapes")})
#: Keys of an entry of such a list that steer the merge and are not part of the result.
_STEERING = ("remove", "before", "after")
#: The most files one variant may be made of (a longer chain is a mistake, or a loop).
MAX_CHAIN = 16
#: The most entries of a list merged by id, and the most options: what the schema allows
#: (variant.schema.json's maxItems and maxProperties), checked before merging, whose work
#: grows with their product.
MAX_ENTRIES = 1000
MAX_OPTIONS = 100


class Located:
    """A value with the place it came from: a scalar, or a mapping or list of Located."""

    __slots__ = ("value", "mark", "key_marks")

    def __init__(self, value: Any, mark: Mark, key_marks: dict[Any, Mark] | None = None) -> None:
        self.value = value
        self.mark = mark
        self.key_marks = key_marks if key_marks is not None else {}


def located(source: Source) -> Located:
    """The tree of ``source``, each value with its mark (in ``source``'s file)."""

    def mark_of(path: Path_) -> Mark:
        return _in_file(source.mark(path), source.file)

    def build(value: Any, path: Path_) -> Located:
        if isinstance(value, dict):
            keys = {k: _in_file(source.key_mark(path + (k,)), source.file) for k in value}
            return Located({k: build(v, path + (k,)) for k, v in value.items()}, mark_of(path), keys)
        if isinstance(value, list):
            return Located([build(v, path + (i,)) for i, v in enumerate(value)], mark_of(path))
        return Located(value, mark_of(path))

    return build(source.data, ())


def _in_file(mark: Mark, file: str) -> Mark:
    return mark if mark.file is not None else mark.with_file(file)


def flatten(tree: Located) -> tuple[Any, dict[Path_, Mark]]:
    """(plain data, marks by path) of a located tree: what later stages read."""
    marks: dict[Path_, Mark] = {}

    def walk(node: Located, path: Path_) -> Any:
        marks[path] = node.mark
        value = node.value
        if isinstance(value, dict):
            for k, m in node.key_marks.items():
                marks[path + (k, "<key>")] = m
            return {k: walk(v, path + (k,)) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, path + (i,)) for i, v in enumerate(value)]
        return value

    return walk(tree, ()), marks


class _Merger:
    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def problem(self, mark: Mark, message: str) -> None:
        self.problems.append(Problem(mark.file or "<variant>", mark.line, mark.column, message))

    def merge(self, base: Located, over: Located, path: Path_) -> Located:
        if isinstance(base.value, dict) and isinstance(over.value, dict):
            value = dict(base.value)
            keys = dict(base.key_marks)
            for k, v in over.value.items():
                if v.value is None:  # removed
                    value.pop(k, None)
                    keys.pop(k, None)
                    continue
                value[k] = self.merge(base.value[k], v, path + (k,)) if k in base.value else v
                keys[k] = over.key_marks.get(k, over.mark)
            # A merged mapping or list is the overlay's: a problem of the whole (a key it
            # removed that was required) is located where the overlay changed it.
            return Located(value, over.mark, keys)
        if path in BY_ID and isinstance(base.value, list) and isinstance(over.value, list):
            return Located(self.merge_by_id(base.value, over.value, path), over.mark)
        return over

    def merge_by_id(self, base: list[Located], over: list[Located], path: Path_) -> list[Located]:
        entries = list(base)
        if len(over) > MAX_ENTRIES or len(base) > MAX_ENTRIES:
            self.problem(over[0].mark if len(over) > MAX_ENTRIES else base[0].mark,
                         f"{'.'.join(path)}: expected at most {MAX_ENTRIES:,} entries, got "
                         f"{max(len(over), len(base)):,}")
            return entries

        def index_of(ident: Any) -> int | None:
            return next((i for i, e in enumerate(entries) if _id(e) == ident), None)

        for entry in over:
            ident = _id(entry)
            if ident is None:
                self.problem(entry.mark, f"an entry of {'.'.join(path)} in an overlay names the entry it changes "
                                         "or adds: expected an 'id'")
                continue
            assert isinstance(entry.value, dict)
            at = index_of(ident)
            steer = {k: entry.value[k] for k in _STEERING if k in entry.value}
            if steer.get("remove") is not None and steer["remove"].value is True:
                if at is None:
                    self.problem(entry.key_marks.get("remove", entry.mark),
                                 f"remove: there is no {quoted(ident)} to remove in {'.'.join(path)}")
                else:
                    del entries[at]
                continue
            kept = Located({k: v for k, v in entry.value.items() if k not in _STEERING}, entry.mark,
                           {k: m for k, m in entry.key_marks.items() if k not in _STEERING})
            if at is not None:
                merged = self.merge(entries[at], kept, path + (at,))
                if "before" not in steer and "after" not in steer:
                    entries[at] = merged
                    continue
                del entries[at]
            else:
                merged = kept
            where = len(entries)
            for key in ("before", "after"):
                if key in steer:
                    other = index_of(steer[key].value)
                    if other is None:
                        self.problem(entry.key_marks.get(key, entry.mark),
                                     f"{key}: there is no {quoted(steer[key].value)} in {'.'.join(path)}: "
                                     "expected the id of an entry")
                    else:
                        where = other if key == "before" else other + 1
                    break
            entries.insert(where, merged)
        return entries


def _id(entry: Located) -> Any:
    if isinstance(entry.value, dict) and "id" in entry.value:
        return entry.value["id"].value
    return None


def merge(base: Located, over: Located) -> tuple[Located, list[Problem]]:
    """``over`` merged on top of ``base`` (see the module docstring), and what was wrong."""
    merger = _Merger()
    return merger.merge(base, over, ()), merger.problems


def load_document(text: str, file: str, resolve: Callable[[str, str], Path],
                  read: Callable[[Path], str], options: Mapping[str, str] | None = None) -> Source:
    """The variant document of ``text``: its ``extends`` chain merged (``resolve(name,
    file)`` finds a base, ``read`` reads it) and its chosen ``options`` applied. Its
    ``texts`` are those of every file it was made of, this one first."""
    texts: list[str] = []
    chain: list[str] = []
    problems: list[Problem] = []  # duplicate keys: reported with the later stages' problems

    def tree_of(text: str, file: str) -> Located:
        if file in chain:  # the files named by their last part: a message of bounded length
            loop = " -> ".join(Path(f).name for f in [*chain[chain.index(file):], file])
            raise VariantError([Problem(file, 1, 1, f"extends makes a loop: {loop}")])
        if len(chain) >= MAX_CHAIN:
            raise VariantError([Problem(file, 1, 1, f"extends makes too long a chain: more than {MAX_CHAIN} files "
                                                    f"({Path(chain[0]).name} -> ... -> {Path(file).name})")])
        chain.append(file)
        texts.append(text)
        source = load(text, file)
        problems.extend(source.problems)
        tree = located(source)
        data = source.data
        if isinstance(data, dict) and "extends" in data:
            name = data["extends"]
            where = _in_file(source.mark(("extends",)), file)
            if not isinstance(name, str) or not name:
                raise VariantError([Problem(file, where.line, where.column,
                                            "extends names the variant this one changes: a shipped name or a path")])
            try:
                base_file = resolve(name, file)
            except VariantError as exc:
                raise VariantError([Problem(file, where.line, where.column, p.message) for p in exc.problems]) from None
            base = tree_of(read(base_file), str(base_file))
            assert isinstance(tree.value, dict)
            del tree.value["extends"]
            tree.key_marks.pop("extends", None)
            tree, wrong = merge(base, tree)
            if wrong:
                raise VariantError(wrong)
        return tree

    tree = tree_of(text, file)
    tree, chosen = apply_options(tree, options or {})
    data, marks = flatten(tree)
    return Source(file, data, marks, text, problems, texts=dict(zip(chain, texts)), chosen=chosen)


def _offers(choices: dict[Any, Any], value: Any) -> bool:
    """Whether ``value`` names one of ``choices``. Options are applied before the schema
    looks at the file, so a default may still be a list or a mapping: it names none."""
    try:
        return value in choices
    except TypeError:
        return False


def apply_options(tree: Located, given: Mapping[str, str]) -> tuple[Located, dict[str, str]]:
    """``tree`` with each option's chosen fragment merged on top (the default where
    ``given`` says nothing), and the choices made. A choice asked for that the variant
    does not offer is a problem placed at its ``options`` section (or the file's start)."""
    problems: list[Problem] = []
    declared = tree.value.get("options") if isinstance(tree.value, dict) else None
    where = declared.mark if declared is not None else tree.mark
    table = declared.value if declared is not None and isinstance(declared.value, dict) else {}

    def problem(mark: Mark, message: str) -> None:
        problems.append(Problem(mark.file or "<variant>", mark.line, mark.column, message))

    if len(table) > MAX_OPTIONS:
        raise VariantError([Problem(where.file or "<variant>", where.line, where.column,
                                    f"options: expected at most {MAX_OPTIONS} options, got {len(table):,}")])
    for name in given:
        if name not in table:
            problem(where, f"--option {name}: this variant has no option {quoted(name)}: "
                           f"expected one of {', '.join(table) or 'none (it declares no options)'}")
    chosen: dict[str, str] = {}
    for name, option in table.items():
        spec = option.value
        if not isinstance(spec, dict) or not isinstance(spec.get("choices"), Located):
            continue  # the schema says what an option is
        choices = spec["choices"].value
        default = spec.get("default")
        if not isinstance(choices, dict):
            continue
        if default is not None and not _offers(choices, default.value):
            problem(default.mark, f"option {name}: the default {quoted(default.value)} is not one of its choices: "
                                  f"expected one of {', '.join(map(str, choices))}")
            continue
        pick = given.get(name, default.value if default is not None else None)
        if pick is None:
            continue
        if pick not in choices:
            problem(option.mark, f"--option {name}={pick}: no such choice: expected one of "
                                 f"{', '.join(map(str, choices))}")
            continue
        chosen[name] = pick
        body = choices[pick].value
        changes = body.get("changes") if isinstance(body, dict) else None
        if changes is not None and isinstance(changes.value, dict):
            tree, found = merge(tree, changes)
            problems += found
    if problems:
        raise VariantError(problems)
    return tree, chosen

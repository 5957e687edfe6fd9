"""Validating a variant document against the shipped JSON Schema, errors mapped to YAML marks.

Messages are rewritten from jsonschema's into what an author reads: the place (a path
such as ``scoring.patterns[3].value``, plus the file:line:column of the node) and what
was expected there. jsonschema is imported only when a file is actually validated, so
loading a variant from the compile cache does not pay for it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..errors import Report, quoted
from .source import Source, shorten

if TYPE_CHECKING:  # pragma: no cover
    from jsonschema.exceptions import ValidationError

SCHEMA_PATH = Path(__file__).with_name("variant.schema.json")

#: How JSON types are called in messages.
_TYPE_WORDS = {
    "integer": "a whole number", "number": "a number", "string": "a text", "boolean": "true or false",
    "array": "a list", "object": "a mapping (key: value lines)", "null": "nothing",
}

#: Regular expressions of the schema, in words.
_PATTERN_WORDS = {
    "^[a-z][a-z0-9_]*$": "a lowercase name of letters, digits and _ starting with a letter (e.g. my_name)",
}


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator() -> Any:
    """The validator, built (and the schema itself checked) once per process."""
    import jsonschema

    base = jsonschema.validators.validator_for(schema())
    base.check_schema(schema())
    # JSON Schema counts 4.0 as an integer; YAML reads it as a float, which the stages
    # after the schema cannot count with (range(4.0)): a whole number is an int here.
    checker = base.TYPE_CHECKER.redefine(
        "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool))
    return jsonschema.validators.extend(base, type_checker=checker)(schema())


def where(path: tuple[Any, ...]) -> str:
    """``('scoring', 'patterns', 3, 'value')`` -> ``scoring.patterns[3].value``."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "the file"


def _got(instance: Any) -> str:
    if isinstance(instance, bool):
        return f"{str(instance).lower()}"
    if isinstance(instance, (dict, list)):
        return "a mapping" if isinstance(instance, dict) else "a list"
    if isinstance(instance, str):
        return f"the text {shorten(repr(instance))}"
    if instance is None:
        return "nothing"
    return quoted(instance)


def _type_words(t: Any) -> str:
    names = t if isinstance(t, list) else [t]
    return " or ".join(_TYPE_WORDS.get(n, str(n)) for n in names)


def _alternatives(error: ValidationError) -> str | None:
    """A oneOf/anyOf whose branches only differ by type or by a required key, in words."""
    branches = error.validator_value
    if not isinstance(branches, list):
        return None
    if all(isinstance(b, dict) and set(b) <= {"required"} and len(b.get("required", [])) == 1 for b in branches):
        keys = " or ".join(repr(b["required"][0]) for b in branches)
        present = [b["required"][0] for b in branches
                   if isinstance(error.instance, dict) and b["required"][0] in error.instance]
        if len(present) > 1:
            return f"has both {' and '.join(map(repr, present))}: expected exactly one of {keys}"
        return f"expected exactly one of the keys {keys}"
    if all(isinstance(b, dict) and "type" in b for b in branches):
        return f"expected {' or '.join(_type_words(b['type']) for b in branches)}, got {_got(error.instance)}"
    return None


def _describe(error: ValidationError, path: tuple[Any, ...]) -> str:
    """One problem, in the author's words: where, what was expected, and what was found."""
    at = where(path)
    # (jsonschema types these "Any | Unset"; an error from validation always has them)
    v, value, inst = error.validator, cast(Any, error.validator_value), cast(Any, error.instance)
    if v == "required":
        missing = [k for k in value if not (isinstance(inst, dict) and k in inst)]
        return f"{at}: missing the required key {missing[0]!r}" if missing else f"{at}: {error.message}"
    if v == "enum":
        return f"{at}: {quoted(inst)} is not allowed: expected one of {', '.join(repr(x) for x in value)}"
    if v == "const":
        return f"{at}: expected {value!r}, got {_got(inst)}"
    if v == "type":
        return f"{at}: expected {_type_words(value)}, got {_got(inst)}"
    if v == "pattern":
        return f"{at}: expected {_PATTERN_WORDS.get(value, f'a text matching {value}')}, got {_got(inst)}"
    if v in ("minimum", "maximum"):
        return f"{at}: expected a number {'>=' if v == 'minimum' else '<='} {value}, got {_got(inst)}"
    if v == "minLength":
        return f"{at}: expected a non-empty text" if value == 1 else f"{at}: expected at least {value} characters"
    if v == "minItems":
        return f"{at}: expected at least {value} element{'s' if value != 1 else ''}, got {len(inst)}"
    if v == "maxItems":
        return f"{at}: expected at most {value:,} elements, got {len(inst):,}"
    if v == "maxProperties":
        return f"{at}: expected at most {value:,} entries, got {len(inst):,}"
    if v == "uniqueItems":
        return f"{at}: expected each element once, got duplicates"
    if v in ("oneOf", "anyOf"):
        words = _alternatives(error)
        if words:
            return f"{at}: {words}"
    return f"{at}: {error.message}"


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The most specific error under a oneOf/anyOf, unless the alternatives read better whole."""
    if error.context and _alternatives(error) is None:
        from jsonschema.exceptions import best_match

        yield from _leaves(best_match(error.context))
    else:
        yield error


def validate(source: Source, report: Report) -> set[str]:
    """Add one problem per schema violation (all of them), located in the YAML file.

    Returns the top-level sections that had problems, so later stages can still check
    the sections that are well formed.
    """
    seen: set[tuple[int, int, str]] = set()
    bad: set[str] = set()

    def add(path: tuple[Any, ...], message: str, key: bool = False) -> None:
        mark = source.key_mark(path) if key else source.mark(path)
        if (mark.line, mark.column, message) not in seen:
            seen.add((mark.line, mark.column, message))
            report.add(mark.line, mark.column, message, mark.file)
        bad.add(str(path[0]) if path else "")

    for top in _validator().iter_errors(source.data):
        for error in _leaves(top):
            path = tuple(error.absolute_path)
            inst = error.instance
            if error.validator == "additionalProperties" and isinstance(inst, dict):
                allowed = sorted(cast(Mapping[str, Any], error.schema).get("properties", {}))
                extra = [k for k in inst if k not in allowed]
                for k in extra:
                    expected = f": expected one of {', '.join(allowed)}" if allowed else ""
                    add(path + (k,), f"{where(path)}: unknown key {quoted(k)}{expected}", key=True)
                if extra:
                    continue
            if error.validator == "required":
                add(path, _describe(error, path), key=bool(path))
                continue
            if error.validator_value is not None and error.schema_path and "propertyNames" in error.schema_path:
                add(path + (inst,), f"{where(path)}: the key {quoted(inst)} is not allowed: "
                    f"{_describe(error, path).split(': ', 1)[1]}", key=True)
                continue
            add(path, _describe(error, path))
    return bad

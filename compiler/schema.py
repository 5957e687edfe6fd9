"""Validating a variant document against the shipped JSON Schema, errors mapped to YAML marks."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import jsonschema
from jsonschema.exceptions import ValidationError, best_match

from .errors import Report
from .source import Source

SCHEMA_PATH = Path(__file__).with_name("variant.schema.json")


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator() -> jsonschema.protocols.Validator:
    cls = jsonschema.validators.validator_for(schema())
    cls.check_schema(schema())
    return cls(schema())


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The most specific error under a oneOf/anyOf, else the error itself."""
    if error.context:
        yield from _leaves(best_match(error.context))
    else:
        yield error


def _describe(error: ValidationError, path: tuple[Any, ...]) -> str:
    where = "/".join(str(p) for p in path) or "the document"
    if error.validator == "additionalProperties":
        return error.message.replace("Additional properties are not allowed", f"unknown key in {where}")
    if error.validator == "required":
        return f"{where}: {error.message}"
    if error.validator == "enum":
        allowed = ", ".join(repr(v) for v in error.validator_value)
        return f"{where}: {error.instance!r} is not allowed: expected one of {allowed}"
    if error.validator == "type":
        return f"{where}: expected {error.validator_value}, got {type(error.instance).__name__} {error.instance!r}"
    return f"{where}: {error.message}"


def validate(source: Source, report: Report) -> None:
    """Add one problem per schema violation (all of them), located in the YAML file."""
    seen: set[tuple[int, int, str]] = set()
    for top in _validator().iter_errors(source.data):
        for error in _leaves(top):
            path = tuple(error.absolute_path)
            mark = source.mark(path)
            if error.validator == "additionalProperties" and isinstance(error.instance, dict):
                allowed = set(error.schema.get("properties", {}))
                extra = [k for k in error.instance if k not in allowed]
                if extra:
                    mark = source.key_mark(path + (extra[0],))
            message = _describe(error, path)
            key = (mark.line, mark.column, message)
            if key not in seen:
                seen.add(key)
                report.add(mark.line, mark.column, message)

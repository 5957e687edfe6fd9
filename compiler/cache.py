"""An on-disk cache of compiled variants, so a fresh process loads a variant in milliseconds.

What is stored, per variant text, is plain JSON: the validated document and, for each
expression, its checked type and the Python source the checker generated (closures are
never pickled; the source is compiled again on load, which is cheap). The key is the
SHA-256 of the file's text and of the compiler itself (the content of every file of this
package and the Python version), so editing a variant or upgrading the compiler simply
misses the cache. Entries are written atomically; an unreadable or unwritable cache is
ignored, never an error.

The folder is ``$CARDAVIA_CACHE_DIR`` if set (an empty value or ``off`` disables the
cache), else ``$XDG_CACHE_HOME/cardavia``, else ``~/.cache/cardavia``.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from .expressions import Recipe, Type

ENV_VAR = "CARDAVIA_CACHE_DIR"
FORMAT = 1  # bump when the entry layout changes


def cache_dir() -> Path | None:
    """The cache folder, or None when caching is switched off."""
    override = os.environ.get(ENV_VAR)
    if override is not None:
        return None if override.strip().lower() in ("", "off", "0", "false", "no") else Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cardavia"


@lru_cache(maxsize=1)
def compiler_version() -> str:
    """A digest of the compiler's own files: any change to the compiler invalidates the cache."""
    h = hashlib.sha256(f"{FORMAT}\0{sys.version_info[:2]}\0".encode())
    here = Path(__file__).resolve().parent
    for path in sorted(here.iterdir()):
        if path.suffix in (".py", ".lark", ".json") and path.is_file():
            h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def key(text: str) -> str:
    return hashlib.sha256((compiler_version() + "\0" + text).encode("utf-8", "surrogatepass")).hexdigest()


def parser_cache_file() -> str | None:
    """Where Lark may keep its parse tables (it checks the grammar's hash itself)."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return str(folder / f"expression-parser-py{sys.version_info[0]}{sys.version_info[1]}.lark-cache")


# ------------------------------------------------------------------ entries


def type_to_json(t: Type) -> Any:
    return [t.name, type_to_json(t.item) if t.item is not None else None]


def type_from_json(obj: Any) -> Type:
    name, item = obj
    return Type(str(name), type_from_json(item) if item is not None else None)


def recipe_to_json(recipe: Recipe) -> Any:
    return {"text": recipe.text, "type": type_to_json(recipe.type), "source": recipe.source,
            "consts": recipe.consts, "matcher": recipe.matcher, "arity": recipe.arity}


def recipe_from_json(obj: Any) -> Recipe:
    return Recipe(str(obj["text"]), type_from_json(obj["type"]), str(obj["source"]), dict(obj["consts"]),
                  obj["matcher"], int(obj["arity"]))


def read(entry_key: str) -> dict[str, Any] | None:
    """The entry stored under ``entry_key``, or None (missing, unreadable or not ours)."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        with open(folder / f"{entry_key}.json", encoding="utf-8") as f:
            entry = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(entry, dict) or entry.get("key") != entry_key:
        return None
    return entry


def write(entry_key: str, data: Any, recipes: dict[str, Recipe], extra: dict[str, Any] | None = None) -> bool:
    """Store a compiled variant if it is plain JSON data; True when it was written."""
    folder = cache_dir()
    if folder is None:
        return False
    entry = {"key": entry_key, "data": data,
             "expressions": {path: recipe_to_json(r) for path, r in recipes.items()}, **(extra or {})}
    try:
        text = json.dumps(entry, allow_nan=False)
        if json.loads(text) != entry:  # e.g. integer mapping keys: not faithfully JSON
            return False
    except (TypeError, ValueError, RecursionError):
        return False
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, folder / f"{entry_key}.json")
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    return True

"""An on-disk cache of compiled variants, so a fresh process loads a variant in milliseconds.

What is stored, per variant text, is plain JSON: the validated document and, for each
expression, its checked type, its IR and the Python source emitted from it (closures
are never pickled; the source is compiled again on load), and the generated scorers'
sources.
The key is a BLAKE2b digest of the file's text and of the compiler itself (the content of
every file of this package and the Python version), so editing a variant or upgrading the
compiler simply misses the cache. Entries are written atomically; an unreadable or unwritable cache is
ignored, never an error.

Compiling the generated sources again is not free (tens of milliseconds for a variant's
scorers, a good part of a fresh process's first hands), so the code objects Python
compiled from an entry's sources are kept too, in a side file ``<key>.<tag>.code``
(:class:`CodeStore`): ``marshal`` data, which only the Python that wrote it may read.
Its name holds ``sys.implementation.cache_tag`` and its header Python's bytecode magic
number and a digest of the entry's key and the data, so another Python never reads it,
it is read beside its own entry only, and a damaged or foreign file is ignored and
written again. Each code object is kept under the exact text,
file name and mode it was compiled from, so a side file can never give the code of
another source. It is filled as the sources are first compiled (a process compiling
something the file lacks writes the file again), not when the entry is written: the JSON
entry stays plain data for any Python.

Tables an engine precomputes once (e.g. every suit's tile counts that split into sets,
compiler/shapes/arrangements.py) are kept in the same folder as bytes (:func:`table`), under a
name that changes with what computes them, with a digest that lets a damaged file be
noticed, ignored and written again.

The folder is ``$CARDAVIA_CACHE_DIR`` if set (an empty value or ``off`` disables the
cache), else ``$XDG_CACHE_HOME/cardavia``, else ``~/.cache/cardavia``. Everything is kept
in a subfolder named after the compiler's version (:func:`folder`); the first process
that writes there removes the subfolders of other versions (and the files of the
layout before subfolders), so an upgrade does not leave dead entries behind.

Trust: an entry holds code that the next process runs, as ``__pycache__`` does, so the
cache is trusted exactly as far as its folder. It is used only when the folder (and this
version's subfolder) belongs to the user and no one else may write it (:func:`private`;
folders it makes are the user's alone); otherwise every variant is compiled without it,
and a warning says so once. Nothing read from the folder is unpickled: entries are JSON,
code files marshal data whose digest binds them to their entry, tables raw bytes.
"""

from __future__ import annotations

import json
import marshal
import os
import re
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable
from functools import lru_cache
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any

try:  # BLAKE2 as Python builds it in: importing hashlib would load OpenSSL (milliseconds per start)
    from _blake2 import blake2b as _blake2b
except ImportError:  # pragma: no cover - a Python without the module
    from hashlib import blake2b as _blake2b


def hasher(data: bytes = b"") -> Any:
    """A 256-bit BLAKE2b hash object: the digest of every key and check of this cache."""
    return _blake2b(data, digest_size=32)

ENV_VAR = "CARDAVIA_CACHE_DIR"
FORMAT = 1  # bump when the entry layout changes


def cache_dir() -> Path | None:
    """The cache folder, or None when caching is switched off."""
    override = os.environ.get(ENV_VAR)
    if override is not None:
        return None if override.strip().lower() in ("", "off", "0", "false", "no") else Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cardavia"


def folder() -> Path | None:
    """The folder of this compiler version's entries, code files and tables (None: no cache,
    or a folder this process may not trust, see :func:`private`)."""
    base = cache_dir()
    if base is None:
        return None
    where = base / f"v-{compiler_version()[:16]}"
    for path in (base, where):
        if os.path.lexists(path) and not private(path):
            _distrust(path)
            return None
    return where


def private(path: Path) -> bool:
    """Whether ``path`` is a folder of this user's that no one else may write: the cache
    holds code that is run, so it is trusted as far as its folder and no further (as
    Python trusts ``__pycache__`` as far as the folder of the module). Where the system
    has no owners and modes of this kind, the folder of the user's profile is trusted."""
    if not hasattr(os, "geteuid"):  # pragma: no cover - not POSIX
        return path.is_dir()
    try:
        st = os.stat(path)  # a link to a folder is judged by the folder
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.geteuid() and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)


_distrusted: set[Path] = set()


def _distrust(path: Path) -> None:
    """Say once per folder that the cache is not used there."""
    if path not in _distrusted:
        _distrusted.add(path)
        print(f"warning: not using the compile cache in {path}: it is not a folder of yours that only you "
              f"may write (set {ENV_VAR} to one, or to off); compiling without it", file=sys.stderr)


#: What other compiler versions left in the cache folder: their subfolders, and the files
#: of the layout before subfolders (entries, code files, tables, Lark's parser tables).
_OTHER_VERSION = re.compile(r"v-[0-9a-f]{16}")
_OLD_LAYOUT = re.compile(r"[0-9a-f]{64}\.json|[0-9a-f]{64}\.[\w-]+\.code|[\w-]+\.table"
                         r"|expression-parser-[\w-]+\.lark-cache")
_pruned = False


def _prepare(path: Path) -> None:
    """Make this version's folder, removing what other versions left once per process."""
    global _pruned
    os.makedirs(path.parent, mode=0o700, exist_ok=True)
    os.makedirs(path, mode=0o700, exist_ok=True)
    if _pruned:
        return
    _pruned = True
    for old in path.parent.iterdir():
        if old == path:
            continue
        try:
            if old.is_dir() and not old.is_symlink() and _OTHER_VERSION.fullmatch(old.name):
                shutil.rmtree(old)
            elif old.is_file() and _OLD_LAYOUT.fullmatch(old.name):
                old.unlink()
        except OSError:  # another process removed it first, or we may not: it stays
            pass


@lru_cache(maxsize=1)
def compiler_version() -> str:
    """A digest of the compiler's own files: any change to the compiler invalidates the cache."""
    h = hasher(f"{FORMAT}\0{sys.version_info[:2]}\0".encode())
    package = Path(__file__).resolve().parent.parent  # the whole compiler, every stage
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".lark", ".json") and path.is_file():
            h.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def key(text: str) -> str:
    return hasher((compiler_version() + "\0" + text).encode("utf-8", "surrogatepass")).hexdigest()


# ------------------------------------------------------------------ entries


def read(entry_key: str) -> dict[str, Any] | None:
    """The entry stored under ``entry_key``, or None (missing, unreadable or not ours)."""
    where = folder()
    if where is None:
        return None
    try:
        with open(where / f"{entry_key}.json", encoding="utf-8") as f:
            entry = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(entry, dict) or entry.get("key") != entry_key:
        return None
    return entry


def write(entry_key: str, data: Any, expressions: dict[str, Any], extra: dict[str, Any] | None = None) -> bool:
    """Store a compiled variant (its validated document, its expressions as plain data) if
    it is plain JSON data; True when it was written."""
    where = folder()
    if where is None:
        return False
    entry = {"key": entry_key, "data": data, "expressions": expressions, **(extra or {})}
    try:
        text = json.dumps(entry, allow_nan=False)
        if json.loads(text) != entry:  # e.g. integer mapping keys: not faithfully JSON
            return False
    except (TypeError, ValueError, RecursionError):
        return False
    return _write_atomically(where / f"{entry_key}.json", text.encode("utf-8"))


def _write_atomically(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` through a temporary file; False when the folder refuses."""
    try:
        _prepare(path.parent)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        return False
    return True


# ------------------------------------------------------------ code objects

#: The header of a code side file: what it is, then the bytecode magic number of the
#: Python that wrote it; the BLAKE2b digest of the marshal data follows (:func:`hasher`).
CODE_HEADER = b"cardavia-code-1\0" + MAGIC_NUMBER
CodeKey = tuple[str, str, str]  # (mode, file name, source)


def code_file(entry_key: str) -> Path | None:
    """The side file of an entry's code objects, or None (no cache, or a Python without
    a bytecode cache tag)."""
    where = folder()
    tag = sys.implementation.cache_tag
    if where is None or not tag:
        return None
    return where / f"{entry_key}.{tag}.code"


def read_codes(path: Path, entry_key: str) -> dict[CodeKey, CodeType]:
    """The code objects kept in ``path``; empty when it is missing, damaged or foreign."""
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except OSError:
        return {}
    head = len(CODE_HEADER)
    # The digest covers the entry's key: a code file is read only beside its own entry.
    if blob[:head] != CODE_HEADER or hasher(entry_key.encode() + blob[head + 32:]).digest() != blob[head:head + 32]:
        return {}
    try:
        codes = marshal.loads(blob[head + 32:])
    except (ValueError, EOFError, TypeError):
        return {}
    if not isinstance(codes, dict) or not all(
            type(k) is tuple and len(k) == 3 and all(type(x) is str for x in k) and type(v) is CodeType
            for k, v in codes.items()):
        return {}
    return codes


class CodeStore:
    """The code objects compiled from one cache entry's generated sources, kept in its
    side file so that a fresh process takes them instead of compiling the sources again.

    :meth:`compile` is ``compile(source, filename, mode)`` with a memory: what it had
    to compile is written to the side file by :meth:`save`, which the caller runs after
    a batch of compiles (one write, not one per source).
    """

    def __init__(self, entry_key: str) -> None:
        self.key = entry_key
        self.path = code_file(entry_key)
        self._codes: dict[CodeKey, CodeType] | None = None  # read on first use
        self.changed = False

    @property
    def codes(self) -> dict[CodeKey, CodeType]:
        if self._codes is None:
            self._codes = read_codes(self.path, self.key) if self.path is not None else {}
        return self._codes

    def compile(self, source: str, filename: str, mode: str) -> CodeType:
        key = (mode, filename, source)
        codes = self.codes
        code = codes.get(key)
        if code is None:
            # Compiled here as the callers would (this module has their __future__ imports).
            code = codes[key] = compile(source, filename, mode)
            self.changed = True
        return code

    def save(self) -> bool:
        """Write the side file if something was compiled since it was read; True when written."""
        if not self.changed or self.path is None:
            return False
        data = marshal.dumps(self.codes)
        self.changed = False
        return _write_atomically(self.path, CODE_HEADER + hasher(self.key.encode() + data).digest() + data)


class StoredSource(dict):
    """A generated scorer's source (plain data) read from a cache entry, with that entry's
    :class:`CodeStore`, which compiler/scoring/codegen.py's build_scorer compiles it through."""

    def __init__(self, source: dict[str, Any], codes: CodeStore) -> None:
        super().__init__(source)
        self.codes = codes


# ------------------------------------------------------------------ tables

TABLE_HEADER = b"cardavia-table-1\0"


def table(name: str, build: Callable[[], bytes], valid: Callable[[bytes], bool] = lambda data: True) -> bytes:
    """The bytes of a precomputed table, read from the cache folder, else ``build()`` (and
    kept there). ``name`` must change whenever what ``build`` computes changes (callers
    include :func:`compiler_version`); ``valid`` rejects data of the wrong shape. A
    missing, damaged or invalid file is built and written again, never an error."""
    where = folder()
    path = where / f"{name}.table" if where is not None else None
    if path is not None:
        try:
            with open(path, "rb") as f:
                blob = f.read()
        except OSError:
            blob = b""
        head = len(TABLE_HEADER)
        data = blob[head + 32:]
        if blob[:head] == TABLE_HEADER and hasher(data).digest() == blob[head:head + 32] and valid(data):
            return data
    data = build()
    if path is not None:
        _write_atomically(path, TABLE_HEADER + hasher(data).digest() + data)
    return data

"""Finding and reading variant files: shipped names, paths, and the checks every file passes."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import Problem, VariantError, quoted


def variants_dir() -> Path:
    """The shipped variant files: ``variants/`` beside ``compiler/``, in a checkout (the
    repository's root) as in the installed package (``cardavia/``)."""
    return Path(__file__).resolve().parent.parent.parent / "variants"


def shipped_variants() -> list[str]:
    return sorted(p.stem for p in variants_dir().glob("*.yaml"))


def resolve(name_or_path: str, relative_to: str | None = None) -> Path:
    """The file behind a shipped name (case-insensitive) or a path (relative to the file
    ``relative_to`` when given: an overlay names its base so)."""
    if "/" not in name_or_path and "\\" not in name_or_path and not name_or_path.endswith((".yaml", ".yml")):
        candidate = variants_dir() / f"{name_or_path.lower()}.yaml"
        try:
            shipped = candidate.is_file()
        except OSError:  # a name too long for a file name is no shipped variant's either
            shipped = False
        if shipped:
            return candidate
        # line 0: a name, not a place in a file (the message is printed without a position)
        known = ", ".join(shipped_variants())
        raise VariantError([Problem(name_or_path, 0, 0, f"unknown variant {quoted(name_or_path)} (known: {known})")])
    path = Path(name_or_path)
    if relative_to is not None and not path.is_absolute():
        path = Path(relative_to).parent / path
    return path


#: The largest variant file read (the shipped ones are under 40 kB): checked before reading,
#: so that a device or a huge file is refused at once.
MAX_FILE_BYTES = 1_000_000


def read_variant_file(path: str | Path) -> str:
    """The text of a variant file: a regular file of at most :data:`MAX_FILE_BYTES`, UTF-8."""
    p = Path(path)
    where = str(p)
    try:
        st = os.stat(p)
        if not stat.S_ISREG(st.st_mode):
            raise VariantError([Problem(where, 1, 1, "not a regular file: expected a variant's YAML file")])
        if st.st_size > MAX_FILE_BYTES:
            raise VariantError([Problem(where, 1, 1, f"the file holds {st.st_size:,} bytes, more than a variant "
                                                     f"description needs: expected at most {MAX_FILE_BYTES:,}")])
        with open(p, "rb") as f:
            data = f.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise VariantError([Problem(where, 1, 1, "no such file")]) from None
    except (OSError, ValueError) as exc:  # a loop of links, a name with a NUL, no permission...
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise VariantError([Problem(where, 1, 1, f"cannot read the file: {reason}")]) from None
    if len(data) > MAX_FILE_BYTES:  # grew while being read
        raise VariantError([Problem(where, 1, 1, f"the file holds more than {MAX_FILE_BYTES:,} bytes")])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise VariantError([Problem(where, line, 1, f"the file is not UTF-8 text (byte {exc.start})")]) from None



"""Finding variants: shipped names (hk, mcr, sichuan) or paths to YAML files.

Installed, the variant files live in the ``cardavia`` package (``cardavia/variants``,
beside ``cardavia/compiler``); in a source checkout, at the repository's ``variants/``
(beside ``compiler/``).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from .errors import Problem, VariantError
from .variant import CompiledVariant, compile_file


def variants_dir() -> Path:
    """The shipped variant files: ``variants/`` beside ``compiler/``, in a checkout (the
    repository's root) as in the installed package (``cardavia/``)."""
    return Path(__file__).resolve().parent.parent / "variants"


def shipped_variants() -> list[str]:
    return sorted(p.stem for p in variants_dir().glob("*.yaml"))


def resolve(name_or_path: str) -> Path:
    """The file behind a shipped name (case-insensitive) or a path."""
    candidate = variants_dir() / f"{name_or_path.lower()}.yaml"
    if "/" not in name_or_path and "\\" not in name_or_path and not name_or_path.endswith((".yaml", ".yml")):
        if candidate.is_file():
            return candidate
        raise VariantError([Problem(name_or_path, 0, 0, f"unknown variant {name_or_path!r} "
                                                        f"(known: {', '.join(shipped_variants())})")])
    return Path(name_or_path)


@lru_cache(maxsize=32)
def _load(path: str, mtime_ns: int, size: int) -> CompiledVariant:
    return compile_file(path)


def load_variant(name_or_path: str) -> CompiledVariant:
    """Compile a shipped variant or a YAML file (cached per process while the file is unchanged)."""
    path = resolve(name_or_path)
    try:
        st = path.stat()
    except FileNotFoundError:
        raise VariantError([Problem(str(path), 1, 1, "no such file")]) from None
    except (OSError, ValueError):  # the reader says what is wrong (a loop of links, a NUL...)
        return compile_file(path)
    return _load(str(path), st.st_mtime_ns, st.st_size)

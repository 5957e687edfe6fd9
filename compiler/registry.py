"""Finding variants: shipped names (hk, mcr, sichuan) or paths to YAML files.

Installed, the variant files live in the ``cardavia`` package (``cardavia/variants``,
beside ``cardavia/compiler``); in a source checkout, at the repository's ``variants/``
(beside ``compiler/``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from .errors import Problem, VariantError
from .loading.files import resolve, shipped_variants, variants_dir
from .variant import CompiledVariant, compile_file

__all__ = ["each_choice", "load_variant", "resolve", "shipped_variants", "variants_dir"]


@lru_cache(maxsize=32)
def _load(path: str, mtime_ns: int, size: int, options: tuple[tuple[str, str], ...]) -> CompiledVariant:
    return compile_file(path, dict(options))


def load_variant(name_or_path: str, options: Mapping[str, str] | None = None) -> CompiledVariant:
    """Compile a shipped variant or a YAML file, with a choice for some of its ``options``
    (cached per process while the file is unchanged)."""
    path = resolve(name_or_path)
    chosen = tuple(sorted((options or {}).items()))
    try:
        st = path.stat()
    except FileNotFoundError:
        raise VariantError([Problem(str(path), 1, 1, "no such file")]) from None
    except (OSError, ValueError):  # the reader says what is wrong (a loop of links, a NUL...)
        return compile_file(path, dict(chosen))
    return _load(str(path), st.st_mtime_ns, st.st_size, chosen)


def each_choice(name_or_path: str) -> list[CompiledVariant]:
    """The variant as its defaults make it, then once with each other choice of each of its
    options (one option changed at a time): every text and rule any choice brings."""
    default = load_variant(name_or_path)
    out = [default]
    for option, spec in (default.data.get("options") or {}).items():
        for choice in spec["choices"]:
            if choice != default.options.get(option):
                out.append(load_variant(name_or_path, {option: choice}))
    return out

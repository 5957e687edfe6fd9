"""Catalog maintenance: ``python -m cardavia.render.extract`` (re-run after any change).

Extracts every message of the rules pages into ``locales/cardavia.pot``:

* the Python modules of this package, the web app's (cardavia/web/) and the terminal
  game's (runtime/terminal.py, runtime/telling.py; calls ``_``, ``ngettext``,
  ``pgettext``, ``npgettext``),
* the Jinja2 templates of this package and of the web app (``_()`` and ``{% trans %}``),
* every shipped variant file (names, titles, summaries, units, shapes, patterns, reasons;
  see :func:`cardavia.render.catalog.variant_messages`),

then updates each language's ``locales/<locale>/LC_MESSAGES/cardavia.po`` from it with
Babel: new messages appear untranslated, changed ones are marked fuzzy (with the old
translation as a hint), removed ones are dropped. ``--check`` only reports whether the
template is out of date (exit status 1), for CI.
"""

from __future__ import annotations

import argparse
import io
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO, cast

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_python
from babel.messages.pofile import read_po, write_po
from jinja2.ext import babel_extract

from cardavia.compiler.registry import each_choice, shipped_variants

from .catalog import (
    DOMAIN,
    PATTERN_DESCRIPTION,
    PATTERN_NAME,
    SHAPE_NAME,
    catalog_path,
    locales_dir,
    template_path,
    tradition_context,
    variant_messages,
)
from .languages import LANGUAGES

PACKAGE = Path(__file__).parent
#: The web app, whose pages use these catalogs too.
WEB = PACKAGE.parent / "web"
#: The runtime's modules whose text the catalogs translate (the terminal game's).
GAME_MODULES = ("telling.py", "terminal.py")
#: The roles whose shared texts get one entry per tradition as well.
TRADITION_ROLES = (SHAPE_NAME, PATTERN_NAME, PATTERN_DESCRIPTION)
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "npgettext": ((1, "c"), 2, 3)}
COMMENT_TAGS = ["Translators:"]

#: One call an extractor found: (line, function name, the call's arguments: one string, or a
#: tuple with None for each argument that is not a string literal, translator comments).
_Call = tuple[int, str, str | tuple[str | None, ...] | None, list[str]]


def _python_calls(fh: BinaryIO) -> Iterable[_Call]:
    """The calls of KEYWORDS in a Python file. Babel annotates ``extract_python`` with the
    tuple its ``extract()`` yields, (line, message, comments, context), but it yields _Call."""
    return cast(Iterable[_Call], extract_python(fh, KEYWORDS, COMMENT_TAGS, {}))


def _template_calls(fh: BinaryIO) -> Iterable[_Call]:
    """The calls of KEYWORDS in a Jinja2 template (the extractor takes their names only)."""
    options = {"extensions": "jinja2.ext.i18n", "trim_blocks": "true", "lstrip_blocks": "true"}
    return babel_extract(fh, tuple(KEYWORDS), COMMENT_TAGS, options)


def _messages_from(funcname: str, messages: object) -> tuple[str | None, str | tuple[str, str]] | None:
    """(context, msgid) from one extracted call, following KEYWORDS' argument specs."""
    args = messages if isinstance(messages, tuple) else (messages,)
    if funcname in ("_", "gettext"):
        return (None, args[0]) if args and isinstance(args[0], str) else None
    if funcname == "ngettext":
        if len(args) >= 2 and all(isinstance(a, str) for a in args[:2]):
            return None, (args[0], args[1])
        return None
    if funcname == "pgettext":
        if len(args) >= 2 and all(isinstance(a, str) for a in args[:2]):
            return args[0], args[1]
        return None
    if funcname == "npgettext":
        if len(args) >= 3 and all(isinstance(a, str) for a in args[:3]):
            return args[0], (args[1], args[2])
        return None
    return None


def source_messages() -> Iterable[tuple[str | None, str | tuple[str, str], str, int]]:
    """(context, msgid, file, line) of every literal message in code and templates."""
    for folder in (PACKAGE, WEB):
        for path in sorted(folder.glob("*.py")):
            with open(path, "rb") as fh:
                for lineno, funcname, messages, _comments in _python_calls(fh):
                    found = _messages_from(funcname, messages)
                    if found:
                        yield found[0], found[1], f"cardavia/{folder.name}/{path.name}", lineno
    import cardavia.runtime

    runtime = Path(cardavia.runtime.__file__).parent
    for name in GAME_MODULES:
        with open(runtime / name, "rb") as fh:
            for lineno, funcname, messages, _comments in _python_calls(fh):
                found = _messages_from(funcname, messages)
                if found:
                    yield found[0], found[1], f"runtime/{name}", lineno
    for folder in (PACKAGE, WEB):
        for path in sorted((folder / "templates").iterdir()):
            if path.suffix not in (".html", ".md", ".txt"):
                continue
            with open(path, "rb") as fh:
                for lineno, funcname, messages, _comments in _template_calls(fh):
                    found = _messages_from(funcname, messages)
                    if found:
                        yield found[0], found[1], f"cardavia/{folder.name}/templates/{path.name}", lineno


def build_template(variant_names: Iterable[str] | None = None) -> Catalog:
    """The catalog template (.pot) for the code, the templates and the shipped variants."""
    pot = Catalog(domain=DOMAIN, project="Cardavia", version="0.1", msgid_bugs_address="",
                  copyright_holder="Cardavia contributors", charset="utf-8")
    for ctx, msgid, file, line in source_messages():
        pot.add(msgid, context=ctx, locations=[(file, line)])
    # A variant text is one entry per (role, English text), wherever it occurs; a name or
    # description that variants of several traditions (units) share gets one more entry per
    # tradition, which translators fill only where their language names it otherwise.
    found: dict[tuple[str, str], tuple[str | tuple[str, str], list[str], list[str], dict[str, None]]] = {}
    names = variant_names if variant_names is not None else shipped_variants()
    for variant in (v for name in names for v in each_choice(name)):
        for m in variant_messages(variant):
            text = (m.msgid, m.plural) if m.plural else m.msgid
            entry = found.setdefault(m.key, (text, [], [], {}))
            entry[1].append(f"variants/{Path(variant.path).name}")
            if f"{variant.id}: {m.where}" not in entry[2]:
                entry[2].append(f"{variant.id}: {m.where}")
            entry[3][variant.scoring.unit] = None
    for (role, _english), (text, files, wheres, units) in found.items():
        locations = [(f, 0) for f in dict.fromkeys(files)]
        pot.add(text, context=role, locations=locations, auto_comments=wheres)
        if len(units) > 1 and role in TRADITION_ROLES:
            for unit in units:
                pot.add(text, context=tradition_context(role, unit), locations=locations,
                        auto_comments=[f"Translators: only where variants scored in {unit} name it otherwise; "
                                       "leave empty to use the entry without \"| " + unit + "\""])
    return pot


def _dump(catalog: Catalog) -> bytes:
    catalog.fuzzy = False
    catalog.last_translator = "Cardavia contributors"
    catalog.language_team = f"{catalog.locale or 'none'} (Cardavia contributors)" if catalog.locale else "none"
    catalog.msgid_bugs_address = ""
    buf = io.BytesIO()
    write_po(buf, catalog, width=100, omit_header=False, sort_output=False, include_lineno=False,
             ignore_obsolete=True)
    return buf.getvalue()


_DATES = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): .*\\n"$', re.M)


def _write(path: Path, data: bytes) -> None:
    """Write unless only the dates in the header would change (keeps git diffs quiet)."""
    if path.is_file() and _DATES.sub(b"", path.read_bytes()) == _DATES.sub(b"", data):
        return
    path.write_bytes(data)


def _keys(catalog: Catalog) -> set[tuple[object, str | None]]:
    return {(m.id, m.context) for m in catalog if m.id}


def template_is_current(root: Path | None = None) -> bool:
    """True when the .pot on disk holds exactly the messages extraction finds now."""
    path = template_path(root)
    if not path.is_file():
        return False
    with open(path, "rb") as fh:
        on_disk = read_po(fh)
    return _keys(on_disk) == _keys(build_template())


def update(root: Path | None = None) -> list[str]:
    """Write the .pot and update every language's .po; returns a report line per file."""
    root = root or locales_dir()
    pot = build_template()
    root.mkdir(parents=True, exist_ok=True)
    _write(template_path(root), _dump(pot))
    report = [f"{template_path(root)}: {len([m for m in pot if m.id])} messages"]
    for lang in LANGUAGES:
        path = catalog_path(lang, root)
        if path.is_file():
            with open(path, "rb") as fh:
                catalog = read_po(fh, locale=lang.locale, domain=DOMAIN)
        else:
            catalog = Catalog(locale=lang.locale, domain=DOMAIN, project="Cardavia", version="0.1",
                              copyright_holder="Cardavia contributors", charset="utf-8")
        source = lang == LANGUAGES[0]
        catalog.update(pot, no_fuzzy_matching=source, update_header_comment=False)
        if source:  # English needs no guesses: its text is the msgid (only plural units differ)
            for m in catalog:
                if m.id and m.fuzzy:
                    m.string = ("",) * catalog.num_plurals if isinstance(m.id, tuple) else ""
                    m.flags.discard("fuzzy")
        path.parent.mkdir(parents=True, exist_ok=True)
        _write(path, _dump(catalog))
        real = [m for m in catalog if m.id]
        done = sum(1 for m in real if m.string and (all(m.string) if isinstance(m.string, tuple) else True)
                   and not m.fuzzy)
        fuzzy = sum(1 for m in real if m.fuzzy)
        report.append(f"{path}: {done}/{len(real)} translated, {fuzzy} fuzzy")
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m cardavia.render.extract", description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that locales/cardavia.pot is current")
    args = parser.parse_args(argv)
    if args.check:
        if template_is_current():
            print("locales/cardavia.pot is current")
            return 0
        print("locales/cardavia.pot is out of date: run python -m cardavia.render.extract", file=sys.stderr)
        return 1
    for line in update():
        print(line)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

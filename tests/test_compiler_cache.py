"""The on-disk cache of compiled variants: keyed by text and compiler, equivalent to a
full compile, never a source of errors, and what lets a fresh process skip parsing."""

from __future__ import annotations

import json
import marshal
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from cardavia.compiler import VariantError, compile_text, parse_notation
from cardavia.compiler.loading import cache
from cardavia.compiler.loading import source as source_mod

ROOT = Path(__file__).resolve().parent.parent

HANDS = {
    "hk": ["123m 456m 789m 123p 5p +5p", "555z 666z 7z 123m 456m +7z", "19m19p19s1234567z +1m"],
    "mcr": ["123m 456m 789m 123p 5p +5p", "123m 234m 345m 456m 9p +9p", "147m258p369s1234z +5z",
            "12345678m 55s [777z] 2f +9m"],
    "sichuan": ["111m 222m 333m 444m 5m +5m", "1122334455667m +7m"],
}


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV_VAR, str(folder))
    return folder


def shipped(name: str) -> str:
    return (ROOT / "variants" / f"{name}.yaml").read_text(encoding="utf-8")


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("v-*/*.json")) if folder.is_dir() else []


def no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the cached variant was parsed again")
    monkeypatch.setattr(source_mod, "load", refuse)
    monkeypatch.setattr("cardavia.compiler.variant.load_document", refuse)
    monkeypatch.setattr("cardavia.compiler.language.checker.parse", refuse)


def summary(variant: object) -> list[object]:
    v = variant
    out: list[object] = list(v.summary_lines())  # type: ignore[attr-defined]
    for p in v.scoring.table.patterns:  # type: ignore[attr-defined]
        for c in (p.when, p.count, p.value if not isinstance(p.value, int) else None):
            if c is not None:
                out.append((p.id, c.text, str(c.type), c.source, sorted(c.names), c.matches is None, c.arity))
    return out


@pytest.mark.parametrize("name", ["hk", "mcr", "sichuan"])
def test_second_compile_comes_from_the_cache_and_scores_the_same(
        name: str, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = shipped(name)
    cold = compile_text(text, f"{name}.yaml")
    assert len(entries(cache_dir)) == 1
    with monkeypatch.context() as m:
        no_parsing(m)
        warm = compile_text(text, f"{name}.yaml")
    assert summary(warm) == summary(cold)
    assert warm.data == cold.data and warm.digest == cold.digest and warm.path == cold.path
    for notation in HANDS[name]:
        hand = parse_notation(notation)
        a, b = cold.scorer.score(hand), warm.scorer.score(hand)
        assert (a.valid, a.total, [f.as_json() for f in a.fans]) == (b.valid, b.total, [f.as_json() for f in b.fans])


def test_a_different_text_or_compiler_is_a_different_entry(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = shipped("hk")
    compile_text(text)
    compile_text(text.replace("  minimum: 3", "  minimum: 1"))
    assert len(entries(cache_dir)) == 2
    before = cache.key(text)
    monkeypatch.setattr(cache, "compiler_version", lambda: "another compiler")
    assert cache.key(text) != before


def test_the_file_name_is_not_part_of_the_entry(cache_dir: Path) -> None:
    text = shipped("sichuan")
    compile_text(text, "a.yaml")
    assert compile_text(text, "b.yaml").path == "b.yaml"
    assert len(entries(cache_dir)) == 1


def test_errors_are_never_cached(cache_dir: Path) -> None:
    text = shipped("hk").replace('  base: "2 ** total"', '  base: "2 ** totl"')
    for _ in range(2):
        with pytest.raises(VariantError, match="unknown name 'totl'"):
            compile_text(text, "broken.yaml")
    assert entries(cache_dir) == []


@pytest.mark.parametrize("damage", [
    lambda e: "not json at all {",
    lambda e: json.dumps({**e, "key": "someone else's"}),
    lambda e: json.dumps({**e, "expressions": {}}),
    lambda e: json.dumps({**e, "expressions": {k: {**r, "source": "1 +"} for k, r in e["expressions"].items()}}),
    lambda e: json.dumps({**e, "data": {"id": 3}}),
    lambda e: json.dumps([1, 2, 3]),
])
def test_a_damaged_entry_means_a_full_compile(cache_dir: Path, damage: object) -> None:
    text = shipped("mcr")
    good = summary(compile_text(text))
    (path,) = entries(cache_dir)
    path.write_text(damage(json.loads(path.read_text(encoding="utf-8"))), encoding="utf-8")  # type: ignore[operator]
    assert summary(compile_text(text)) == good


def test_cache_switched_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.ENV_VAR, "off")
    monkeypatch.chdir(tmp_path)
    assert cache.cache_dir() is None
    compile_text(shipped("hk"))
    assert list(tmp_path.iterdir()) == []


def test_default_folder_follows_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(cache.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / "cardavia"


def test_an_unusable_cache_folder_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv(cache.ENV_VAR, str(blocker / "cache"))
    assert compile_text(shipped("sichuan")).id == "sichuan"
    assert compile_text(shipped("sichuan")).id == "sichuan"


def test_use_cache_false_neither_reads_nor_writes(cache_dir: Path) -> None:
    compile_text(shipped("hk"), use_cache=False)
    assert entries(cache_dir) == []


def test_a_fresh_process_loads_a_cached_variant_without_the_parsers(cache_dir: Path) -> None:
    code = ("import sys; from cardavia.compiler import load_variant; "
            "[load_variant(n) for n in ('hk', 'mcr', 'sichuan')]; "
            "print(sorted({m.split('.')[0] for m in sys.modules} & {'yaml', 'lark', 'jsonschema'}))")
    env = dict(os.environ, PYTHONPATH=str(ROOT), **{cache.ENV_VAR: str(cache_dir)})

    def loaded() -> str:
        return subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                              check=True).stdout.strip()

    assert loaded() == "['jsonschema', 'lark', 'yaml']"  # cold: everything is parsed and validated
    assert loaded() == "[]"  # warm: nothing is


@pytest.mark.parametrize("name", sorted(HANDS))
def test_the_entry_keeps_the_generated_scorers_and_a_warm_load_uses_them(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    fresh = compile_text(shipped(name), f"{name}.yaml")
    [entry] = entries(cache_dir)
    kept = json.loads(entry.read_text(encoding="utf-8"))["scorers"]
    assert sorted(kept) == sorted(s.id for s in fresh.scoring.shapes)
    warm = compile_text(shipped(name), f"{name}.yaml")
    import cardavia.compiler.scoring.patterns as patterns_mod

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a scorer kept by the cache was generated again")
    monkeypatch.setattr(patterns_mod, "scorer_source", refuse)
    for text in HANDS[name]:
        hand = parse_notation(text)
        assert warm.scorer.score(hand) == fresh.scorer.score(hand)


def test_a_damaged_scorer_in_the_entry_is_generated_again(cache_dir: Path) -> None:
    fresh = compile_text(shipped("mcr"), "mcr.yaml")
    [entry] = entries(cache_dir)
    data = json.loads(entry.read_text(encoding="utf-8"))
    for source in data["scorers"].values():
        source["main"] = "def score(c):\n    return (("  # not Python
    entry.write_text(json.dumps(data), encoding="utf-8")
    warm = compile_text(shipped("mcr"), "mcr.yaml")
    for text in HANDS["mcr"]:
        hand = parse_notation(text)
        assert warm.scorer.score(hand) == fresh.scorer.score(hand)


# ------------------------------------------------------------ code objects


def entry_key(code_file: Path) -> str:
    """The key of the entry a code file belongs to (its name's first part)."""
    return code_file.name.split(".")[0]


def code_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("v-*/*.code")) if folder.is_dir() else []


def scores(variant: object, name: str) -> list[object]:
    out = []
    for text in HANDS[name]:
        r = variant.scorer.score(parse_notation(text))  # type: ignore[attr-defined]
        out.append((r.valid, r.total, [f.as_json() for f in r.fans]))
    return out


def refuse_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a kept code object was compiled again")
    monkeypatch.setattr(cache, "compile", refuse, raising=False)


@pytest.mark.parametrize("name", sorted(HANDS))
def test_the_scorers_code_objects_are_kept_next_to_the_entry(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    fresh = scores(compile_text(shipped(name), f"{name}.yaml"), name)
    assert code_files(cache_dir) == []  # a fresh compile keeps plain data only
    assert scores(compile_text(shipped(name), f"{name}.yaml"), name) == fresh  # compiles the cached sources
    [kept] = code_files(cache_dir)
    [entry] = entries(cache_dir)
    assert kept.name == f"{entry.stem}.{sys.implementation.cache_tag}.code"
    codes = cache.read_codes(kept, entry_key(kept))
    assert any(mode == "exec" and name.startswith("<scorer of shape ") for mode, name, _ in codes)
    with monkeypatch.context() as m:
        refuse_compiling(m)
        assert scores(compile_text(shipped(name), f"{name}.yaml"), name) == fresh


def _rehead(blob: bytes, magic: bytes) -> bytes:
    return blob[:len(cache.CODE_HEADER) - 4] + magic + blob[len(cache.CODE_HEADER):]


@pytest.mark.parametrize("damage", [
    lambda b: b"",
    lambda b: b"not marshal data at all",
    lambda b: b[:len(b) // 2],  # truncated
    lambda b: b[:-1] + bytes([b[-1] ^ 1]),  # one bit flipped: the digest no longer matches
    lambda b: _rehead(b, b"\x00\x00\r\n"),  # another Python's bytecode
    lambda b: cache.CODE_HEADER + cache.hasher(marshal.dumps([1, 2])).digest() + marshal.dumps([1, 2]),
    lambda b: cache.CODE_HEADER + cache.hasher(marshal.dumps({("exec", "x", "y"): 3})).digest()
    + marshal.dumps({("exec", "x", "y"): 3}),
])
def test_a_damaged_or_foreign_code_file_is_ignored_and_written_again(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch, damage: object) -> None:
    fresh = scores(compile_text(shipped("mcr")), "mcr")
    scores(compile_text(shipped("mcr")), "mcr")
    [kept] = code_files(cache_dir)
    good = cache.read_codes(kept, entry_key(kept))
    kept.write_bytes(damage(kept.read_bytes()))  # type: ignore[operator]
    assert cache.read_codes(kept, entry_key(kept)) == {}
    assert scores(compile_text(shipped("mcr")), "mcr") == fresh
    assert cache.read_codes(kept, entry_key(kept)).keys() == good.keys()  # written again, whole
    with monkeypatch.context() as m:
        refuse_compiling(m)
        assert scores(compile_text(shipped("mcr")), "mcr") == fresh


def test_a_code_object_is_kept_under_its_exact_source(cache_dir: Path) -> None:
    store = cache.CodeStore("k" * 64)
    a = store.compile("x = 1", "<a>", "exec")
    assert store.compile("x = 1", "<a>", "exec") is a
    assert store.compile("x = 2", "<a>", "exec") is not a
    assert store.compile("x = 1", "<b>", "exec").co_filename == "<b>"
    assert store.save() and not store.save()  # written once, then nothing new to write
    again = cache.CodeStore("k" * 64)
    assert sorted(again.codes) == sorted(store.codes)
    ns: dict[str, object] = {}
    exec(again.compile("x = 2", "<a>", "exec"), ns)  # noqa: S102
    assert ns["x"] == 2


def test_no_code_file_without_a_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.ENV_VAR, "off")
    store = cache.CodeStore("k" * 64)
    assert store.path is None
    assert store.compile("x = 1", "<a>", "exec").co_filename == "<a>"
    assert not store.save()


def test_a_warm_load_compiles_no_expression_again(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = shipped("mcr")
    fresh = summary(compile_text(text, "mcr.yaml"))
    assert summary(compile_text(text, "mcr.yaml")) == fresh  # compiles the cached expressions, keeps their code
    with monkeypatch.context() as m:
        refuse_compiling(m)
        assert summary(compile_text(text, "mcr.yaml")) == fresh


# ------------------------------------------------------------------ trust

POISON = "(F_min.__globals__.__setitem__('POISONED', True) or 0)"


def poisoned_entry(cache_dir: Path, text: str) -> None:
    """Compile ``text`` into the cache, then make one of its stored expressions run code."""
    compile_text(text, "hk.yaml")
    [entry] = entries(cache_dir)
    data = json.loads(entry.read_text(encoding="utf-8"))
    data["expressions"][json.dumps(["settlement", "base"])]["source"] = POISON
    entry.write_text(json.dumps(data), encoding="utf-8")


@pytest.fixture()
def vocabulary() -> Iterator[object]:
    from cardavia.compiler.language import vocabulary as module

    yield module
    vars(module).pop("POISONED", None)


def test_a_cache_folder_others_may_write_is_not_used(cache_dir: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str], vocabulary: object) -> None:
    text = shipped("hk")
    poisoned_entry(cache_dir, text)
    # In a folder of the user's own, the cache is trusted: the poisoned source runs (so
    # this test could tell if it did below).
    compile_text(text, "hk.yaml").settlement.base.fn(None)
    assert vars(vocabulary).pop("POISONED", False)
    cache_dir.chmod(0o777)
    try:
        variant = compile_text(text, "hk.yaml")
        assert variant.settlement.base.fn(SimpleNamespace(total=3)) == 8
        assert "POISONED" not in vars(vocabulary)
        assert variant.scorer.score(parse_notation("123m 456m 789m 123p 5p +5p")).total > 0
        err = capsys.readouterr().err
        assert err.count("warning: not using the compile cache") == 1 and str(cache_dir) in err
        compile_text(text, "hk.yaml")  # said once
        assert "not using" not in capsys.readouterr().err
    finally:
        cache_dir.chmod(0o700)


def test_a_code_file_is_read_beside_its_own_entry_only(cache_dir: Path) -> None:
    for name in ("hk", "sichuan"):
        scores(compile_text(shipped(name), f"{name}.yaml"), name)
        scores(compile_text(shipped(name), f"{name}.yaml"), name)
    first, second = code_files(cache_dir)
    assert cache.read_codes(first, entry_key(first))
    assert cache.read_codes(first, entry_key(second)) == {}  # moved beside another entry: ignored


def test_nothing_in_the_cache_is_a_pickle(cache_dir: Path) -> None:
    compile_text(shipped("mcr"), "mcr.yaml")
    scores(compile_text(shipped("mcr"), "mcr.yaml"), "mcr")
    kept = [p for p in cache_dir.rglob("*") if p.is_file()]
    assert kept and all(p.suffix in (".json", ".code", ".table") for p in kept), kept

"""The per-suit tables of compiler/shapes/suits.py: the precomputed set of splitting suits
(kept in the compile cache's folder) and the direct honor rule agree with the search they
replace, and a damaged table file is ignored and written again."""

from __future__ import annotations

import random
from itertools import product
from pathlib import Path

import pytest
from cardavia.compiler.loading import cache
from cardavia.compiler.shapes import suits as A


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.ENV_VAR, str(folder))
    monkeypatch.setattr(A, "_SPLITTING", None)  # read again from this folder
    return folder


def key_of(counts: tuple[int, ...]) -> int:
    return int.from_bytes(bytes(counts), "little")


def searched(counts: tuple[int, ...], honors: bool) -> int:
    return A._form_mask(A._forms(counts, honors))


def test_small_suits_split_as_the_search_says(cache_dir: Path) -> None:
    for counts in product(range(5), repeat=9):
        if sum(counts) <= 8:
            assert A._suited_forms(key_of(counts)) == searched(counts, False), counts


def test_random_suits_split_as_the_search_says(cache_dir: Path) -> None:
    rng = random.Random(7)
    for _ in range(20000):  # counts up to 5 and up to 20 tiles: the search beyond the table too
        counts = tuple(rng.choice((0, 0, 0, 1, 1, 2, 2, 3, 4, 5)) for _ in range(9))
        assert A._suited_forms(key_of(counts)) == searched(counts, False), counts


def test_every_suit_of_the_table_splits(cache_dir: Path) -> None:
    table = A.splitting_suits()
    found = 0
    for i, byte in enumerate(table):
        for b in range(8):
            if byte >> b & 1:
                n = 8 * i + b
                counts = tuple(n // 5 ** r % 5 for r in range(9))
                assert searched(counts, False), counts
                found += 1
    assert found == 165916


def test_honors_split_as_the_search_says() -> None:
    for counts in product(range(9), repeat=7):
        if sum(counts) <= 12:
            assert A._honor_forms(key_of(counts)) == searched(counts, True), counts


def test_the_table_is_kept_in_the_cache_and_read_back(cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    built = A._splitting_bits()
    assert A.splitting_suits() == built
    [kept] = cache_dir.glob("v-*/*.table")
    monkeypatch.setattr(A, "_SPLITTING", None)
    monkeypatch.setattr(A, "_splitting_bits", lambda: pytest.fail("the kept table was built again"))
    assert A.splitting_suits() == built
    assert kept.name.startswith("splitting-suits-")


@pytest.mark.parametrize("damage", [
    lambda b: b"",
    lambda b: b[:len(b) // 2],
    lambda b: b[:-1] + bytes([b[-1] ^ 1]),
    lambda b: b[:len(cache.TABLE_HEADER)] + b"\0" * 32 + b[len(cache.TABLE_HEADER) + 32:],
])
def test_a_damaged_table_file_is_ignored_and_written_again(
        cache_dir: Path, monkeypatch: pytest.MonkeyPatch, damage: object) -> None:
    built = A.splitting_suits()
    [kept] = cache_dir.glob("v-*/*.table")
    good = kept.read_bytes()
    kept.write_bytes(damage(good))  # type: ignore[operator]
    monkeypatch.setattr(A, "_SPLITTING", None)
    assert A.splitting_suits() == built
    assert kept.read_bytes() == good


def test_a_table_of_the_wrong_size_is_built_again(cache_dir: Path) -> None:
    data = cache.table("some-table", lambda: b"abc", lambda d: len(d) == 3)
    assert data == b"abc"
    assert cache.table("some-table", lambda: b"xyzw", lambda d: len(d) == 4) == b"xyzw"
    assert cache.table("some-table", lambda: pytest.fail("kept"), lambda d: len(d) == 4) == b"xyzw"


def test_without_a_cache_there_is_no_table_and_the_search_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(cache.ENV_VAR, "off")
    monkeypatch.setattr(A, "_SPLITTING", None)
    assert A.splitting_suits() == b""
    rng = random.Random(3)
    for _ in range(2000):
        counts = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(counts) <= 14:
            A._FORMS[0].clear()
            assert A._suited_forms(key_of(counts)) == searched(counts, False), counts
            assert A._wait_ranks(0, key_of(counts)) == reference_wait_ranks(counts, False), counts


def reference_wait_ranks(counts: tuple[int, ...], honors: bool) -> int:
    """Each rank near a held one (any held one, for honors) whose tile lets the suit split, by search."""
    ranks = 0
    for j in range(len(counts)):
        near = counts[j] if honors else any(counts[max(0, j - 2):j + 3])
        if near and searched(counts[:j] + (counts[j] + 1,) + counts[j + 1:], honors):
            ranks |= 1 << j
    return ranks


def test_wait_ranks_are_those_of_the_search(cache_dir: Path) -> None:
    rng = random.Random(11)
    for _ in range(6000):
        size, honors = rng.choice(((9, False), (9, False), (7, True)))
        counts = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(size))
        if sum(counts) > 16:
            continue
        key = key_of(counts)
        A._FORMS[int(honors)].clear()
        assert A._wait_ranks(int(honors), key) == reference_wait_ranks(counts, honors), counts


def reference_table(suit: int, key: int) -> tuple[object, ...]:
    """A suit's table as it was built before the forms came from a table: by search, split by split."""
    base, end, honors = A._SUITS[suit]
    counts = tuple(key.to_bytes(end - base, "little"))
    splits, pairs = [], []
    for d in A._decompose(counts, honors, 1):
        splits.append(tuple(A.make_group(kind, base + i, True) for kind, i in d))
        pairs.append(sum(1 for kind, _ in d if kind == "pair"))
    plain = tuple(s for s, n in zip(splits, pairs) if not n)
    paired = tuple(s for s, n in zip(splits, pairs) if n)
    return tuple(splits), tuple(pairs), plain, paired, searched(counts, honors)


def test_suit_tables_are_those_of_the_search(cache_dir: Path) -> None:
    rng = random.Random(5)
    for _ in range(4000):
        suit = rng.randrange(4)
        size = 7 if suit == 3 else 9
        counts = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(size))
        if sum(counts) > 14:
            continue
        key = key_of(counts)
        t = A.SuitTable(suit, key)
        assert (t.splits, t.pairs, t.plain, t.paired, t.forms) == reference_table(suit, key), counts

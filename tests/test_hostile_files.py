"""Variant files that are not what they claim: each is refused with a located message, at
once, never with a traceback or by reading without end."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from cardavia.cli import main

ROOT = Path(__file__).resolve().parent.parent
HK = (ROOT / "variants" / "hk.yaml").read_text(encoding="utf-8")


def check(capsys: pytest.CaptureFixture[str], path: str) -> str:
    started = time.process_time()
    assert main(["check", path]) == 1
    assert time.process_time() - started < 5
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and err.startswith("error: ")
    return err


def test_a_device_or_a_folder_is_not_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert "not a regular file" in check(capsys, "/dev/zero")
    assert "not a regular file" in check(capsys, str(tmp_path))


def test_a_loop_of_links_is_named_as_such(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    err = check(capsys, str(tmp_path / "a.yaml"))
    assert "cannot read the file" in err and "no such file" not in err


def test_a_huge_file_is_refused_before_it_is_read(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    huge = tmp_path / "huge.yaml"
    with open(huge, "wb") as f:
        f.truncate(50_000_000)  # sparse: 50 MB that cost nothing to make
    assert "50,000,000 bytes" in check(capsys, str(huge))


def test_text_that_is_not_utf8_or_holds_half_a_character(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    latin = tmp_path / "latin.yaml"
    latin.write_bytes(HK.replace("name: Hong Kong", "name: Hong K\xf6ng", 1).encode("latin-1", "replace"))
    assert "not UTF-8" in check(capsys, str(latin))
    half = tmp_path / "half.yaml"
    half.write_text(HK.replace("title: ", 'title: "\\ud800" #', 1), encoding="utf-8")
    err = check(capsys, str(half))
    assert f"{half}:" in err and "U+D800" in err


def test_a_number_of_thousands_of_digits_is_quoted_short(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_text(HK.replace("  minimum: 3\n", "  minimum: " + "9" * 5000 + "\n", 1), encoding="utf-8")
    err = check(capsys, str(big))
    assert "5,002 characters" in err and all(len(line) < 400 for line in err.splitlines())


def test_a_name_with_a_nul_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert "cannot read the file" in check(capsys, "my\0variant.yaml")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_is_not_waited_on(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    assert "not a regular file" in check(capsys, str(fifo))

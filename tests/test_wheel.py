"""Installed, not only editable: the wheel is one package, carries the variants and locales, and works.

Builds the wheel (offline: no build isolation, setuptools comes with the test extra),
checks its contents, installs it into a fresh virtual environment (``--no-deps
--no-index``: no network) that sees the dependencies of the environment running the
tests through a ``.pth`` file, and runs ``cardavia check`` from an unrelated folder.
Takes about 20 seconds: ``-m "not slow"`` skips it.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, f"{' '.join(cmd)} failed:\n{result.stdout}\n{result.stderr}"
    return result


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("setuptools", reason="the test extra installs setuptools to build offline")
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
         "-w", str(out), str(ROOT)], cwd=out)
    wheels = list(out.glob("cardavia-*.whl"))
    assert len(wheels) == 1, wheels
    return wheels[0]


def test_wheel_installs_one_package(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"cardavia"}, tops
    for folder in ("compiler", "runtime"):
        modules = {p.relative_to(ROOT).with_suffix("").as_posix() for p in (ROOT / folder).rglob("*.py")}
        for module in modules:
            assert f"cardavia/{module}.py" in names, f"{module} is missing from the wheel"


def test_wheel_carries_the_data(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = sorted(p.name for p in (ROOT / "variants").glob("*.yaml"))
    assert {"hk.yaml", "mcr.yaml", "sichuan.yaml"} <= set(shipped)
    for name in shipped:
        assert f"cardavia/variants/{name}" in names
    assert any(n.startswith("cardavia/locales/") for n in names)
    locale_files = [p.relative_to(ROOT).as_posix() for p in (ROOT / "locales").rglob("*") if p.is_file()]
    for rel in locale_files:
        assert f"cardavia/{rel}" in names, f"{rel} is missing from the wheel"
    for data in ("compiler/loading/variant.schema.json", "compiler/language/expression.lark", "py.typed"):
        assert f"cardavia/{data}" in names
    web = [p.relative_to(ROOT / "cardavia").as_posix() for folder in ("templates", "static")
           for p in (ROOT / "cardavia" / "web" / folder).iterdir() if p.is_file()]
    for rel in web:
        assert f"cardavia/{rel}" in names, f"{rel} is missing from the wheel (the site needs it)"
    assert any(n.endswith("entry_points.txt") for n in names)


def test_installed_wheel_checks_the_shipped_variants(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp_path)
    bindir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = bindir / "python"
    # The dependencies come from the environment running the tests (a path in a .pth file:
    # its own .pth files, the editable install's among them, are not run).
    purelib = run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd=tmp_path)
    deps = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(purelib.stdout.strip()) / "test-dependencies.pth").write_text("\n".join(sorted(deps)) + "\n")
    run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps", "--no-index",
         str(wheel)], cwd=tmp_path)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["CARDAVIA_CACHE_DIR"] = str(tmp_path / "cache")

    where = run([str(python), "-c", "import cardavia, cardavia.compiler.registry as r, cardavia.render.catalog as c; "
                 "print(cardavia.__file__); print(r.__file__); print(r.variants_dir()); print(c.locales_dir())"],
                cwd=elsewhere, env=env).stdout.split()
    site = venv.resolve()
    for path in where:
        assert Path(path).resolve().is_relative_to(site), f"{path} is not the installed copy"

    result = run([str(bindir / "cardavia"), "check", "hk", "mcr", "sichuan"], cwd=elsewhere, env=env)
    assert "hk: " in result.stdout and "mcr: " in result.stdout and "sichuan: " in result.stdout
    assert "tiles: 144" in result.stdout and "tiles: 108" in result.stdout

    # The site, as installed: a game's page and a table, its script and its tiles.
    site_check = ("import warnings; warnings.simplefilter('ignore'); "
                  "from starlette.testclient import TestClient; from cardavia.web.app import create_app; "
                  "c = TestClient(create_app(':memory:', pace=0)); "
                  "t = c.get('/play/sichuan?lang=de').text; "
                  "print(c.get('/de/hk').status_code, 'data-role=\"hand\"' in t, "
                  "c.get('/static/table.js').status_code, c.get('/static/tiles.svg').status_code)")
    result = run([str(python), "-c", site_check], cwd=elsewhere, env=env)
    assert result.stdout.split() == ["200", "True", "200", "200"]

    # A variant of one's own, by path, next to the installed ones.
    mine = elsewhere / "mine.yaml"
    mine.write_text((ROOT / "variants" / "hk.yaml").read_text(encoding="utf-8").replace("id: hk", "id: mine", 1),
                    encoding="utf-8")
    result = run([str(bindir / "cardavia"), "check", "mine.yaml"], cwd=elsewhere, env=env)
    assert result.stdout.startswith("mine: ")

    # The schema, for editors: the installed file, the one the shipped files' first line names.
    result = run([str(bindir / "cardavia"), "schema", "--path"], cwd=elsewhere, env=env)
    installed = Path(result.stdout.strip())
    assert installed.resolve().is_relative_to(site) and installed.is_file()
    assert installed.read_bytes() == (ROOT / "compiler" / "loading" / "variant.schema.json").read_bytes()
    shipped = Path(where[2]) / "hk.yaml"
    first = shipped.read_text(encoding="utf-8").splitlines()[0]
    assert (shipped.parent / first.split("$schema=", 1)[1]).resolve() == installed.resolve()

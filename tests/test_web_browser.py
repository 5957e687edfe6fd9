"""The site in a real browser (Debian's Chromium through Playwright) against a real server.

Whole deals of Hong Kong and Sichuan played by clicking, as a person would, through the
page hooks only; the language switched to Italiano and the full rules opened; each display
slider moved, its effect measured and kept over a reload; the table at a phone's width
without sideways scrolling; no console error anywhere. Screenshots of the table and of the
end of a deal go to ``$CARDAVIA_SCREENSHOTS`` when it is set.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.slow  # a server and a browser, deals played by clicking (about 30 s)

playwright_api = pytest.importorskip("playwright.sync_api",
                                     reason="playwright is not installed (pip install -e '.[test]')")
uvicorn = pytest.importorskip("uvicorn")

from browsers import PHONE, launched  # noqa: E402

from cardavia.web.app import create_app  # noqa: E402

DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    app = create_app(tmp_path_factory.mktemp("db") / "games.sqlite3", pace=0.5)
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched() as b:
        yield b


def _page(browser: Any, viewport: dict[str, int]) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    page.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    return context, page, errors


@pytest.fixture()
def desktop(browser: Any) -> Iterator[Any]:
    context, page, errors = _page(browser, DESKTOP)
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    context, page, errors = _page(browser, PHONE)
    yield page
    context.close()
    assert not errors, errors


def shot(page: Any, name: str) -> None:
    folder = os.environ.get("CARDAVIA_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def version(page: Any) -> str:
    return str(page.get_attribute(".table-state", "data-version"))


def click_and_wait(page: Any, selector: str) -> None:
    """Click, then wait until the table the server renders has moved on."""
    before = version(page)
    page.click(selector)
    page.wait_for_function("v => { const s = document.querySelector('.table-state'); "
                           "return s && s.dataset.version !== v; }", arg=before, timeout=20000)


def play_by_clicking(page: Any, limit: int = 300) -> int:
    """Answer every question through the hooks until the settlement shows; the moves made."""
    moves = 0
    for _ in range(limit):
        page.wait_for_selector('[data-role="settlement"], [data-action]', timeout=30000)
        if page.query_selector('[data-role="settlement"]'):
            return moves
        if page.query_selector('[data-action="win"]'):
            click_and_wait(page, '[data-action="win"]')
        elif page.query_selector('[data-action="missing-suit"]'):
            click_and_wait(page, '[data-action="missing-suit"].primary')
        elif page.query_selector('[data-action="discard"]'):
            tiles = page.query_selector_all('[data-role="hand"] [data-tile-id]:not([aria-disabled="true"])')
            assert page.is_disabled('[data-action="discard"]')  # nothing selected yet
            tiles[-1].click()
            assert tiles[-1].get_attribute("aria-pressed") == "true"
            click_and_wait(page, '[data-action="discard"]')
        elif page.query_selector('[data-action="pass"]'):
            click_and_wait(page, '[data-action="pass"]')
        else:  # the others are playing (after your win in Sichuan): wait for the next table
            page.wait_for_timeout(300)
            continue
        moves += 1
    raise AssertionError("the deal did not end")


@pytest.mark.parametrize("variant", ["hk", "sichuan"])
def test_a_whole_deal_by_clicking(server: str, desktop: Any, variant: str) -> None:
    desktop.goto(f"{server}/play/{variant}?pace=0")
    assert "/en/table/" in desktop.url
    assert len(desktop.query_selector_all("[data-tile-id]")) == len(desktop.query_selector_all(
        '[data-role="hand"] [data-tile-id]')) > 0
    shot(desktop, f"{variant}-table-desktop")
    moves = play_by_clicking(desktop)
    assert moves > 0
    settlement = desktop.inner_text('[data-role="settlement"]')
    assert settlement.strip()
    shot(desktop, f"{variant}-end-desktop")
    dealer_before = desktop.inner_text(".status")
    click_and_wait(desktop, '[data-action="next-deal"]')
    assert desktop.query_selector('[data-role="settlement"]') is None
    assert desktop.inner_text(".status") != dealer_before  # deal 2, another dealer


def test_the_exchange_by_selecting_tiles(server: str, desktop: Any) -> None:
    desktop.goto(f"{server}/play/sichuan?pace=0&option.exchange=on")
    assert desktop.get_attribute(".table-state", "data-pick") == "3"
    chosen = '[data-action="exchange"][data-selection]'
    suggested = str(desktop.get_attribute('[data-action="exchange"][data-tiles]', "data-tiles")).split(",")
    ids: list[str] = []
    for tile in desktop.query_selector_all('[data-role="hand"] [data-tile-id]'):
        if tile.get_attribute("data-tile") in suggested and len(ids) < 3:
            suggested.remove(str(tile.get_attribute("data-tile")))
            ids.append(str(tile.get_attribute("data-tile-id")))
    for tid in ids:
        assert desktop.is_disabled(chosen)  # not until three are selected
        desktop.click(f'[data-tile-id="{tid}"]')
        assert desktop.get_attribute(f'[data-tile-id="{tid}"]', "aria-pressed") == "true"
    assert not desktop.is_disabled(chosen)
    click_and_wait(desktop, chosen)
    assert all(desktop.query_selector(f'[data-role="hand"] [data-tile-id="{tid}"]') is None for tid in ids)
    assert "You pass " in desktop.inner_text(".log")
    assert play_by_clicking(desktop) > 0


def test_the_table_fits_a_phone(server: str, phone: Any) -> None:
    phone.goto(f"{server}/play/hk?pace=0")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    hand = phone.query_selector_all('[data-role="hand"] [data-tile-id]')
    assert all(t.bounding_box()["x"] + t.bounding_box()["width"] <= PHONE["width"] for t in hand)
    shot(phone, "hk-table-phone")
    play_by_clicking(phone)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(phone, "hk-end-phone")


def test_the_others_play_at_a_readable_pace(server: str, desktop: Any) -> None:
    desktop.goto(f"{server}/play/mcr")  # the default pace
    discards = 0
    while discards < 3:  # a random deal: a claim offered on the way is passed
        desktop.wait_for_selector('[data-action="discard"], [data-action="pass"], [data-role="settlement"]')
        if desktop.query_selector('[data-role="settlement"]'):
            return
        if desktop.query_selector('[data-action="pass"]'):
            click_and_wait(desktop, '[data-action="pass"]')
            continue
        desktop.click('[data-role="hand"] [data-tile-id]:not([aria-disabled="true"])')
        click_and_wait(desktop, '[data-action="discard"]')
        discards += 1
    lines = desktop.query_selector_all(".log li")
    assert lines  # the others' moves arrived one at a time and were told
    assert desktop.inner_text("#announce").strip()


def test_keyboard_selects_and_discards(server: str, desktop: Any) -> None:
    desktop.goto(f"{server}/play/hk?pace=0")
    first = desktop.query_selector('[data-role="hand"] [data-tile-id]:not([aria-disabled="true"])')
    first.focus()
    desktop.keyboard.press("ArrowRight")
    focused = desktop.evaluate("document.activeElement.getAttribute('data-tile-id')")
    assert focused is not None and focused != first.get_attribute("data-tile-id")
    desktop.keyboard.press("Enter")  # select
    assert desktop.get_attribute(f'[data-tile-id="{focused}"]', "aria-pressed") == "true"
    before = version(desktop)
    desktop.keyboard.press("Enter")  # confirm
    desktop.wait_for_function("v => document.querySelector('.table-state').dataset.version !== v", arg=before)
    assert desktop.query_selector(f'[data-role="hand"] [data-tile-id="{focused}"]') is None


def test_italiano_and_the_full_rules(server: str, desktop: Any) -> None:
    desktop.goto(f"{server}/en/hk")
    desktop.click('[data-role="language"] a[hreflang="it"]')
    desktop.wait_for_url("**/it/hk")
    assert desktop.get_attribute("html", "lang") == "it"
    desktop.click("#tab-table")
    assert desktop.is_visible("#panel-table") and not desktop.is_visible("#panel-rules")
    desktop.click("#tab-rules")
    assert desktop.inner_text("#tab-rules") == "Regole complete"
    assert desktop.is_visible("#panel-rules") and desktop.is_visible("#panel-rules section#s5")
    desktop.click("#tab-table")
    desktop.click("form.start button")
    desktop.wait_for_url("**/it/table/*")  # the click waits for the new page to start, not to load
    assert desktop.inner_text("#tab-table") == "Tavolo"


def test_sliders_change_the_page_and_survive_a_reload(server: str, desktop: Any) -> None:
    desktop.goto(f"{server}/play/sichuan?pace=0")
    style = ("() => { const s = getComputedStyle(document.body); "
             "return [s.color, s.backgroundColor, getComputedStyle(document.body, '::after').opacity]; }")
    for name, value in (("contrast", "95"), ("grain", "0"), ("temperature", "5")):
        before = desktop.evaluate(style)
        desktop.fill(f'input[name="{name}"]', value)
        desktop.dispatch_event(f'input[name="{name}"]', "input")
        after = desktop.evaluate(style)
        assert after != before, name
        desktop.reload()
        assert desktop.input_value(f'input[name="{name}"]') == value
        assert desktop.evaluate(style) == after


def test_the_site_pages_fit_a_phone_without_errors(server: str, phone: Any) -> None:
    for path in ("/", "/zh-Hans/", "/it/china", "/de/mcr", "/ms/sichuan?tab=table"):
        phone.goto(server + path)
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], path
    phone.goto(server + "/pt/china")
    phone.click('article[data-variant="sichuan"] form.start button')
    phone.wait_for_url("**/pt/table/*")  # the click waits for the new page to start, not to load
    assert phone.is_visible('[data-action="missing-suit"]')

"""``meeple serve`` in a real browser (issue 15): Debian's headless Chromium driven by Playwright
for Python. Playwright drives the system's Chromium (``executable_path``), so no browser is
downloaded; CI installs ``chromium`` with apt (see .ci/run).

A whole hot-seat game is played through the page, checking at every step that the other seat's
hand is neither in the DOM nor in any JSON the page received; an illegal option is clicked and
refused with its reason; an edited rules file shows its error at the right line; the rulebook's
flow diagram draws with nothing loaded from outside the server.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("flask", reason="meeple serve needs the web extra: pip install .[web]")
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="browser tests need Playwright: pip install -e .[dev,web]"
)

CHROMIUM = os.environ.get("MEEPLE_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not os.path.exists(CHROMIUM):
    pytest.skip(
        "browser tests need Debian's Chromium (apt-get install -y chromium); not found",
        allow_module_level=True,
    )

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The web app on a free local port, in a thread of this process."""
    from werkzeug.serving import make_server

    from meeple.web.app import create_app

    srv = make_server("127.0.0.1", 0, create_app(), threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}"
    srv.shutdown()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


class Page:
    """A browser page that records every JSON answer and every request to another host."""

    def __init__(self, browser: Any, base: str) -> None:
        self.base = base
        self.page = browser.new_page(viewport={"width": 1280, "height": 900})
        self.page.set_default_timeout(20_000)  # a hang guard, not a timing assertion
        self.json: list[Any] = []
        self.outside: list[str] = []
        self.errors: list[str] = []
        self.page.on("response", self._response)
        self.page.on("request", self._request)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _request(self, req: Any) -> None:
        if not req.url.startswith(self.base) and not req.url.startswith("data:"):
            self.outside.append(req.url)

    def _response(self, resp: Any) -> None:
        if "application/json" in (resp.headers.get("content-type") or ""):
            try:
                self.json.append(resp.json())
            except Exception:  # a response the page navigated away from
                pass

    def goto(self, path: str) -> Any:
        self.page.goto(self.base + path)
        return self.page

    def close(self) -> None:
        self.page.close()


@pytest.fixture()
def page(browser: Any, server: str) -> Iterator[Page]:
    p = Page(browser, server)
    yield p
    assert not p.errors, p.errors  # no script error on the page
    assert not p.outside, p.outside  # nothing loaded from the web
    p.close()


def _start(page: Page, game: str, players: int, humans: list[int]) -> Any:
    pg = page.goto("/#new")
    pg.wait_for_selector("#new-game option", state="attached")
    pg.select_option("#new-game", game)
    pg.fill("#new-players", str(players))
    pg.dispatch_event("#new-players", "input")
    for seat in range(players):
        pg.locator(f'.seat-human[data-seat="{seat}"]').set_checked(seat in humans)
    pg.click("#new-start")
    pg.wait_for_selector("#view-table:not([hidden])")
    return pg


def test_smoke_start_a_game_and_see_the_own_hand(page: Page) -> None:
    pg = _start(page, "shadow-of-the-sun", 3, [0])
    pg.wait_for_selector(".option.legal")
    assert pg.inner_text("#viewer") == "you are P1"
    counts = pg.locator('[data-zone="hand[P1]"] .card').evaluate_all(
        "cards => cards.map(c => Number(c.dataset.count))"
    )
    assert sum(counts) == 5  # identical cards are one chip, "Courtesan ×2"
    assert pg.locator('[data-zone="hand[P2]"] .card').count() == 0
    assert "3 cards face down" in pg.inner_text('[data-zone="hand[P2]"]')
    assert "game.yaml:" in pg.inner_text("#decision-rule")


def _other_hands_hidden(pg: Any, views: list[Any]) -> None:
    """Neither the DOM nor any view received shows a hand other than the viewer's."""
    me = pg.inner_text("#viewer").removeprefix("you are ")
    for zone in pg.locator(".zone").all():
        name = zone.get_attribute("data-zone")
        if name.startswith("hand[") and name != f"hand[{me}]":
            assert zone.locator(".card").count() == 0, name
    for v in views:
        if isinstance(v, dict) and v.get("zones"):
            seat = v["viewer"]["seat"] if v.get("viewer") else None  # None: spectator
            for z in v["zones"]:
                if z["visibility"] == "owner" and z["owner"] != seat:
                    assert "cards" not in z, (z, seat)


@pytest.mark.deep
def test_a_whole_hot_seat_game_through_the_page(page: Page) -> None:
    pg = _start(page, "harbour-guilds", 2, [0, 1])
    handovers = 0
    for _ in range(500):  # a hang guard: the game has about 35 decisions
        pg.wait_for_selector("#result h2, #handover:not([hidden]), .option.legal")
        if pg.locator("#result h2").count():
            break
        if pg.locator("#handover:not([hidden])").count():
            assert pg.locator("#board .card").count() == 0  # nothing of the previous seat
            assert pg.locator("#zones .zone").count() == 0 and pg.locator("#log li").count() == 0
            who = pg.inner_text("#handover-take")
            pg.click("#handover-take")
            pg.wait_for_selector("#viewer")
            assert pg.inner_text("#viewer") == "you are " + who.split()[2].rstrip(":")
            handovers += 1
            continue
        _other_hands_hidden(pg, page.json)
        before = pg.inner_text("#hist-pos")
        pg.locator(".option.legal").first.click()
        pg.wait_for_function(
            "b => document.getElementById('hist-pos').textContent !== b"
            " || !document.getElementById('handover').hidden",
            arg=before,
        )
    assert "Winner: P" in pg.inner_text("#winners")
    assert pg.inner_text("#viewer").startswith("spectator view")  # the end: public view only
    assert handovers >= 5
    assert pg.locator("#log li").count() > 0
    _other_hands_hidden(pg, page.json)
    # step back through the history, then forward to the end again
    pg.click("#hist-back")
    pg.wait_for_selector("#hist-resume:not([hidden])")
    pg.click("#hist-last")
    pg.wait_for_selector("#winners")


@pytest.mark.deep
def test_an_illegal_click_is_refused_with_its_reason(page: Page) -> None:
    pg = _start(page, "harbour-guilds", 2, [0])
    for _ in range(20):
        pg.wait_for_selector(".option")
        if pg.locator(".option.illegal").count():
            break
        before = pg.inner_text("#hist-pos")
        pg.locator(".option.legal").first.click()
        pg.wait_for_function(
            "b => document.getElementById('hist-pos').textContent !== b", arg=before
        )
    illegal = pg.locator(".option.illegal").first
    reason = illegal.locator(".why").inner_text().removeprefix("not legal: ")
    label = illegal.get_attribute("data-label")
    before = pg.inner_text("#hist-pos")
    illegal.click()
    pg.wait_for_selector("#message:not([hidden])")
    text = pg.inner_text("#message")
    assert f"'{label}' is not legal now" in text and reason in text
    assert pg.inner_text("#hist-pos") == before  # nothing changed


@pytest.mark.deep
def test_an_edited_rules_file_shows_its_error_at_its_line(page: Page) -> None:
    pg = page.goto("/#edit=harbour-guilds&file=game.yaml")
    pg.wait_for_selector("#check-status.ok")
    text = pg.input_value("#source")
    line = next(i for i, x in enumerate(text.splitlines(), 1) if x.strip().startswith("players:"))
    # type into the line, as a person would: the check runs when typing pauses
    pg.evaluate(
        "n => { const ta = document.getElementById('source');"
        " const start = ta.value.split('\\n').slice(0, n - 1).join('\\n').length + 1;"
        " ta.focus(); ta.setSelectionRange(start + 2, start + 9); }",
        line,
    )
    pg.keyboard.type("playerz")
    pg.wait_for_selector("#check-status.bad")
    bad = pg.locator("#gutter div.bad")
    assert bad.count() == 1 and bad.get_attribute("data-line") == str(line)
    problem = pg.inner_text("#problems li.error")
    assert problem.startswith(f"harbour-guilds/game.yaml:{line}:3: error: unknown key 'playerz'")
    pg.click("#run-scenarios")
    pg.wait_for_selector("#scenario-summary")
    # the scenarios ran on the edited (broken) rules: each fails with the rules' error
    assert pg.inner_text("#scenario-summary").startswith("0 of ")
    assert "unknown key 'playerz'" in pg.inner_text("#scenario-results li.fail")
    # rule text in an error message is shown as text, never as markup
    evil = '"<img src=x onerror=window.pwned=1>": 1\n'
    pg.fill("#source", evil + text)
    pg.wait_for_selector("#problems li.error >> text=<img src=x")
    assert pg.locator("#problems img").count() == 0
    assert pg.evaluate("window.pwned") is None


@pytest.mark.deep
def test_the_rulebook_draws_its_flow_offline_and_links_back(page: Page) -> None:
    pg = _start(page, "shadow-of-the-sun", 3, [0])
    pg.wait_for_selector("#rule-source")
    pg.click("#rule-source")
    pg.wait_for_selector("pre.mermaid svg")  # Mermaid drew the diagram from the local script
    assert pg.url.split("#")[1] == "procedure-bonus"
    pg.click("#back-to-game")
    pg.wait_for_selector(".option.legal")
    assert pg.inner_text("#viewer") == "you are P1"


@pytest.mark.deep
def test_save_then_load_and_a_damaged_save_shows_its_error(page: Page) -> None:
    import json
    import urllib.request

    pg = _start(page, "harbour-guilds", 2, [0])
    for _ in range(2):
        before = pg.inner_text("#hist-pos")
        pg.locator(".option.legal").first.click()
        pg.wait_for_function(
            "b => document.getElementById('hist-pos').textContent !== b", arg=before
        )
    # the position is read from the save, not from the page: the page may still be showing
    # the computer players' moves one by one when the Save link is followed
    href = pg.get_attribute("#save-link", "href")
    with urllib.request.urlopen(page.base + href) as r:  # what the Save link downloads
        save = json.loads(r.read())
    played = len(save["actions"])
    assert played >= 2
    damaged = dict(save, actions=[*save["actions"], 10**9])

    def load(data: object) -> None:
        pg.goto(page.base + "/#new")
        pg.wait_for_selector("#new-game option", state="attached")
        body = json.dumps(data).encode()
        pg.set_input_files(
            "#load-file", files=[{"name": "g.json", "mimeType": "application/json", "buffer": body}]
        )

    load(damaged)
    pg.wait_for_selector("#message:not([hidden])")
    text = pg.inner_text("#message")
    assert "this save is damaged" in text and "Traceback" not in text
    load(save)  # (its random-generator state is a 64-bit integer: sent as text, not re-encoded)
    pg.wait_for_selector("#view-table:not([hidden]) .option.legal")
    assert pg.inner_text("#hist-pos") == f"action {played} of {played}"


@pytest.mark.deep
def test_a_shipped_rulebook_draws_its_flow_from_the_checkout_offline(browser: Any) -> None:
    from meeple.authoring import RULEBOOKS

    page = browser.new_page()
    outside: list[str] = []
    page.on("request", lambda r: None if r.url.startswith("file:") else outside.append(r.url))
    page.goto((RULEBOOKS / "harbour-guilds.html").resolve().as_uri())
    page.wait_for_selector("pre.mermaid svg", timeout=20_000)
    page.close()
    assert not outside, outside

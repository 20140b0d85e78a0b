"""Take the screenshots of ``meeple serve`` shown in README.md and docs/web.md.

    python tools/web_screenshots.py            # writes docs/images/web-*.png

Runs the web app on a free local port and drives Debian's Chromium with Playwright (as the
browser tests do); the PNGs are reduced to a 256-colour palette to stay small.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright
from werkzeug.serving import make_server

from meeple.web.app import create_app

OUT = Path(__file__).resolve().parent.parent / "docs" / "images"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def shot(page, name: str) -> None:
    f = OUT / f"web-{name}.png"
    page.screenshot(path=str(f))
    Image.open(f).convert("RGB").quantize(256).save(f, optimize=True)
    print(f"wrote {f} ({f.stat().st_size // 1024} KB)")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    srv = make_server("127.0.0.1", 0, create_app(), threaded=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{srv.server_port}"
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        page = b.new_page(viewport={"width": 1200, "height": 760})
        # play: Shadow of the Sun, P1 against two computer players, at a decision with
        # options that are not legal (and why)
        page.goto(base + "/#new")
        page.wait_for_selector("#new-game option", state="attached")
        page.select_option("#new-game", "shadow-of-the-sun")
        page.fill("#new-players", "3")
        page.dispatch_event("#new-players", "input")
        page.fill("#new-seed", "0")
        page.click("#new-start")
        page.wait_for_selector(".option.legal")
        page.locator(".option.legal").first.click()
        page.wait_for_selector(".option.illegal")
        shot(page, "play")
        # hot-seat: Harbour Guilds, two people at one screen
        page.goto(base + "/#new")
        page.wait_for_selector("#new-game option", state="attached")
        page.select_option("#new-game", "harbour-guilds")
        page.fill("#new-players", "2")
        page.dispatch_event("#new-players", "input")
        page.locator('.seat-human[data-seat="1"]').set_checked(True)
        page.click("#new-start")
        while not page.locator("#handover:not([hidden])").count():
            page.wait_for_selector(".option.legal")
            page.locator(".option.legal").first.click()
            page.wait_for_timeout(100)
        shot(page, "handover")
        # the rules editor with an error at its line
        page.goto(base + "/#edit=harbour-guilds&file=game.yaml&line=8")
        page.wait_for_selector("#check-status.ok")
        page.keyboard.type("  playerz: {min: 2, max: 4}")  # over the selected line 8
        page.wait_for_selector("#check-status.bad")
        shot(page, "editor")
        # the rulebook's flow diagram, drawn offline
        page.goto(base + "/rulebook/shadow-of-the-sun#section-flow-of-play")
        page.wait_for_selector("pre.mermaid svg")
        page.wait_for_timeout(300)
        page.locator("pre.mermaid").scroll_into_view_if_needed()
        shot(page, "rulebook")
        b.close()
    srv.shutdown()


if __name__ == "__main__":
    main()

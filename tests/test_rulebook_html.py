"""The HTML rulebooks (issue 15): CommonMark keeps the two-space list nesting, the flow diagram's
Mermaid is served from beside the page (no CDN, works offline), and ``meeple doc`` writes into
the user's folder, never over the rulebooks shipped in the checkout."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from meeple.authoring import RULEBOOKS, SHIPPED_MERMAID_SRC, render_rulebook
from meeple.cli import main
from meeple.rulebook import MERMAID_FILE, MERMAID_LICENSE


class _NestedLists(HTMLParser):
    """Counts lists opened inside a list item."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.nested = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag in ("ul", "ol") and "li" in self.stack:
            self.nested += 1
        if tag in ("ul", "ol", "li"):
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("ul", "ol", "li"):
            while self.stack and self.stack.pop() != tag:
                pass


def _nested_in_markdown(text: str) -> int:
    """Lists the Markdown nests: an item indented deeper than the item before it."""
    n, prev, fenced = 0, None, False
    for line in text.splitlines():
        if line.strip().startswith("```"):
            fenced = not fenced
        if fenced:
            continue
        m = re.match(r"( *)(?:[-*]|\d+\.) ", line)
        if m:
            depth = len(m.group(1))
            n += prev is not None and depth > prev
            prev = depth
        elif line.strip() and not line.startswith(" "):
            prev = None  # a paragraph or heading ends the list
    return n


@pytest.mark.parametrize("game, at_least", [("shadow-of-the-sun", 49), ("louis-xiv", 140)])
def test_two_space_nested_lists_stay_nested(game: str, at_least: int) -> None:
    md, html = render_rulebook(game)
    parser = _NestedLists()
    parser.feed(html)
    # Python-Markdown (4-space nesting) kept 58 of Louis XIV's 163 nested lists
    assert parser.nested == _nested_in_markdown(md) >= at_least


@pytest.mark.parametrize("game", ["shadow-of-the-sun", "louis-xiv"])
def test_rulebook_page_loads_nothing_from_the_web(game: str) -> None:
    _, html = render_rulebook(game)
    assert '<pre class="mermaid">' in html
    scripts = re.findall(r"<script[^>]*>", html)
    assert scripts == ['<script src="mermaid.min.js">']
    for url in re.findall(r'(?:src|href)="([^"]*)"', html):
        assert not re.match(r"[a-z]+:|//", url), url  # relative or an anchor only
    shipped = (RULEBOOKS / f"{game}.html").read_text(encoding="utf-8")
    assert f'<script src="{SHIPPED_MERMAID_SRC}"></script>' in shipped
    assert (RULEBOOKS / SHIPPED_MERMAID_SRC).resolve() == MERMAID_FILE.resolve()


def test_vendored_mermaid_is_whole_and_licensed() -> None:
    assert MERMAID_FILE.stat().st_size > 1_000_000  # the bundle, not an LFS pointer
    assert "MIT License" in MERMAID_LICENSE.read_text(encoding="utf-8")


def test_doc_writes_into_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = RULEBOOKS / "harbour-guilds.html"
    before = shipped.stat().st_mtime_ns
    monkeypatch.chdir(tmp_path)
    assert main(["doc", "harbour-guilds"]) == 0
    page = (tmp_path / "harbour-guilds.html").read_text(encoding="utf-8")
    assert (tmp_path / "harbour-guilds.md").is_file()
    assert (tmp_path / "mermaid.min.js").read_bytes() == MERMAID_FILE.read_bytes()
    assert (tmp_path / "mermaid.LICENSE").is_file()
    assert '<script src="mermaid.min.js">' in page
    assert shipped.stat().st_mtime_ns == before  # the checkout's rulebook is untouched

"""The HTML rulebook (``meeple doc``) shows rule text as text (issue 11, section 9): a
``<script>`` or an ``onerror=`` attribute in a game name, a label, a log text, a citation, an
interpretation or a variant's rationale never becomes markup, nor a ``javascript:`` link, and the
Mermaid flow diagram escapes its labels."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from meeple.authoring import render_rulebook
from meeple.rulebook import _label, flow_diagram

FIXTURE = Path(__file__).parent / "fixtures" / "minimal" / "game.yaml"
SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(2)>"
LINK = "[click](javascript:alert(3))"
EVIL = f"{SCRIPT} {IMG} {LINK}"
OWN_SCRIPT = '<script src="mermaid.min.js"></script>'  # the page's one script: Mermaid


def _q(text: str) -> str:
    """A YAML double-quoted scalar."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _hostile_game(tmp_path: Path) -> Path:
    text = FIXTURE.read_text(encoding="utf-8")
    edits = {
        "  name: Minimal": f"  name: {_q('Minimal ' + EVIL)}",
        "      - {name: Coin, count: 10, points: 1}": f"      - {{name: {_q('Coin ' + EVIL)}, "
        "count: 10, points: 1}",
        "    source: Turn\n": f"    source: {_q('Turn ' + EVIL)}\n    interpretation: evil-key\n",
        "      - choose: Draw or discard?": f"      - choose: {_q('Draw? ' + EVIL)}",
        "          - label: draw a card": f"          - label: {_q('draw ' + EVIL)}",
        "        - round += 1": f"        - round += 1\n        - log {_q('Round ' + EVIL)}",
    }
    for old, new in edits.items():
        assert old in text, old
        text = text.replace(old, new, 1)
    root = tmp_path / "project"
    game = root / "rules" / "minimal"
    game.mkdir(parents=True)
    (game / "game.yaml").write_text(text, encoding="utf-8")
    (root / "docs" / "games").mkdir(parents=True)
    (root / "docs" / "games" / "minimal.md").write_text(
        f"# Interpretations\n\n## evil-key\n\n{EVIL}\n\n<div onclick=alert(4)>x</div>\n"
    )
    (game / "variants").mkdir()
    (game / "variants" / "evil-variant.yaml").write_text(
        "variant: evil-variant\n"
        f"name: {_q('Evil ' + EVIL)}\n"
        "extends: minimal\n"
        f"rationale: {_q('Because ' + EVIL)}\n"
        "source: a test\n"
        "changes:\n"
        "  - set: game.players.max\n"
        "    to: 3\n",
        encoding="utf-8",
    )
    return game


def _assert_inert(html: str) -> None:
    assert html.count("<script") == 1 and OWN_SCRIPT in html
    tags = re.findall(r"<[a-zA-Z][^>]*>", html)
    for tag in tags:
        assert not re.search(r"\son[a-z]+\s*=", tag, flags=re.I), tag
        assert "javascript:" not in tag.lower(), tag
    assert "<img" not in html and "<div" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # shown, as text


def test_hostile_rule_text_is_shown_as_text(tmp_path: Path) -> None:
    game = _hostile_game(tmp_path)
    md, html = render_rulebook(str(game / "game.yaml"))
    assert SCRIPT in md  # the Markdown keeps the text; the HTML must not run it
    _assert_inert(html)
    assert "<title>Minimal &lt;script&gt;" in html


def test_a_hostile_variant_rationale_is_shown_as_text(tmp_path: Path) -> None:
    game = _hostile_game(tmp_path)
    md, html = render_rulebook(str(game / "game.yaml"), "evil-variant")
    assert "Because <script>" in md
    _assert_inert(html)


def test_mermaid_labels_escape_markup() -> None:
    assert _label('a "b" <script> & #x') == '"a #quot;b#quot; #lt;script#gt; #amp; #35;x"'


def test_flow_diagram_of_a_hostile_game_has_no_raw_markup(tmp_path: Path) -> None:
    from meeple import api

    game = api.load_checked(str(_hostile_game(tmp_path) / "game.yaml")).game
    text = "\n".join(flow_diagram(game))
    assert "<" not in text and ">" not in text.replace("-->", "").replace("-.->", "")


@pytest.mark.parametrize(
    "url", ["javascript:alert(1)", "JaVaScRiPt:x", "java\tscript:x", "data:text/html,x"]
)
def test_links_to_scripts_are_disabled(url: str) -> None:
    from meeple.rulebook import render_html

    html = render_html(f"# t\n\n[x]({url}) ![i]({url})\n", "t")
    # a link becomes "#"; CommonMark shows a destination with a tab in it as text, no link at all
    assert ('href="#"' in html and 'src="#"' in html) or "\t" in url
    attrs = re.findall(r'(?:href|src)="([^"]*)"', html)
    assert attrs and not any(":" in a for a in attrs[:-1])  # the last: the page's Mermaid
    assert url.lower() not in " ".join(attrs).lower()

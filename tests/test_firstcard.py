"""``first`` of the cards of a zone stops at the first card meeting the condition where testing
the rest could change nothing (codegen/firstcard.py), on tests/fixtures/firstcard.

Every playout of the compiled fixture is the interpreter's playout for the same chooser (the
same decisions, the same end, state for state; the API games too); the generated module uses
the generator where the condition is proven not to raise and the whole list elsewhere; edits
of the rules whose condition reads a token's missing value, or that take a chip from a supply
without one, fail at the same decision with the interpreter's error, span and rules trace.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_playout import FIXTURES, Recorder, replay

import meeple
from meeple.api import load_checked
from meeple.codegen.emitter import generate
from meeple.codegen.firstcard import one_zone
from meeple.dsl.errors import RuleError

RULES = FIXTURES / "firstcard" / "game.yaml"
GUARDED = "c.kind == 'chips' and c.value == v"


def _outcome(game: meeple.Game, seed: int) -> tuple[list[tuple[int, int]], object]:
    """The decisions of a playout of ``game`` by Recorder(seed), and its end: the final state's
    JSON, or the error (message, span, trace) it failed with."""
    rec = Recorder(seed)
    try:
        end: object = game.playout(seed, rec).to_json()
    except RuleError as e:
        end = (str(e), e.span, e.trace)
    return rec.taken, end


def _same_games(rules: Path, players: int, seeds: int = 40) -> list[object]:
    """Playouts of both back ends, seed by seed: the same decisions and the same end (the
    compiled API game too, where it ends). Returns the errors the playouts failed with."""
    compiled = meeple.load(str(rules), players, backend="compiled")
    interpreter = meeple.load(str(rules), players, backend="interpreter")
    errors = []
    for seed in range(seeds):
        taken, end = _outcome(compiled, seed)
        assert (taken, end) == _outcome(interpreter, seed), seed
        if isinstance(end, tuple):
            errors.append(end)
        else:
            api = compiled.new_initial_state(seed, record_log=False)
            replay(api, taken)
            assert api.to_json() == end
    return errors


@pytest.mark.parametrize("players", [2, 3])
def test_every_playout_is_the_interpreters_game(players: int) -> None:
    """40 playouts per player count, each the interpreter's; between them every option is
    taken (a one, a two, a token, a one given back), so chips are found at every depth of the
    shuffled supply, after tokens and before them."""
    assert _same_games(RULES, players) == []
    interpreter = meeple.load(str(RULES), players, backend="interpreter")
    log: list[str] = []
    for seed in range(40):
        state = interpreter.new_initial_state(seed)
        replay(state, _outcome(interpreter, seed)[0])
        log += [text for _, text in state.log]
    for option in ("take a one", "take a two", "take a token", "give back a one"):
        assert any(option in line for line in log), option


def test_the_generated_module_stops_only_where_proven() -> None:
    """A chip found by its kind, then its value: a generator over the supply of 10 cards or
    more (the playouts and the API's code); the token's condition, whose kind test is
    ``!=``, and a zone passed to the function (no zone's text): the whole list, as the
    interpreter's."""
    code = generate(load_checked(str(RULES)))
    guarded = (
        r"\(first\((_c\d+) for \1 in (_zone\d+) if \(\(\1\.kind == 'chips'\).*?\)\) "
        r"if len\(\2 := st\.zones\[Z_supply1\]\) >= 10 else first\(\[\1 for \1 in \2 if "
    )
    # (a supply of fewer than EARLY_FROM cards: the list, cheaper to make than a generator)
    assert len(re.findall(guarded, code)) >= 4
    assert re.search(r"first\(\[(_c\d+) for \1 in st\.zones\[Z_supply1\] if \(\(\1\.kind != ", code)
    assert re.search(r"first\(\[(_c\d+) for \1 in v_z if", code)
    assert not re.search(r"first\((_c\d+) for \1 in v_z ", code)


def _edit(tmp_path: Path, old: str, new: str) -> Path:
    text = RULES.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def test_a_value_read_before_the_kind_fails_on_a_token(tmp_path: Path) -> None:
    """``c.value == v and c.kind == 'chips'`` reads a token's value (it has none): every
    playout fails at its first chip taken from the supply while a token is in it, wherever the
    first chip lies, as the interpreter's list of the whole supply does."""
    path = _edit(tmp_path, GUARDED, "c.value == v and c.kind == 'chips'")
    assert "first([" in generate(load_checked(str(path)))
    errors = _same_games(path, 2, seeds=20)
    assert len(errors) == 20
    assert all("no such property (value)" in str(e) for e in errors)


def test_a_chip_taken_from_a_supply_without_one_fails(tmp_path: Path) -> None:
    """``take a two`` offered always: once the twos are gone, ``first`` of no card fails, with
    the interpreter's error (the generator's IndexError is the list's)."""
    path = _edit(tmp_path, "            when: has_chip(supply, 2)\n", "")
    errors = _same_games(path, 2)
    assert errors, "no playout took a two from a supply without one"
    assert all("has no item there" in str(e) for e in errors)


@pytest.mark.parametrize(
    ("text", "zone"),
    [
        ("st.zones[Z_a1]", True),
        ("st.zones[(Z_a1 + (_S_p1 if _S_p1 is not None else seat(st, _L_p1, S[3])))]", True),
        ("st.zones[(Z_a1 + (env['a]'].ordinal))]", True),
        ("st.zones[Z_a1] + st.zones[Z_b1]", False),
        ("st.zones[Z_a1][1:]", False),
        ("v_z", False),
    ],
)
def test_one_zone_is_one_subscript_of_the_zones(text: str, zone: bool) -> None:
    """Only the text of one zone counts as one (a sum or a slice of zones is a list)."""
    assert one_zone(text) is zone

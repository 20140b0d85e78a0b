"""What a new user's first session found wrong in the API, the command line and the error
messages: each test pins one fix (the exact text or position of the message where there is one)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import meeple
from meeple import api
from meeple.authoring import render_rulebook, rulebook_name
from meeple.cli import main
from meeple.registry import rules_root

HARBOUR = rules_root() / "harbour-guilds"
_STALL_FROM_HAND = "from: hand[p]\n                      to: stall[p]"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------ a variant file outside a variants/ folder
def _loose_variant(tmp_path: Path) -> Path:
    f = tmp_path / "two-guilds.yaml"  # no variants/ folder and no game beside it
    shutil.copyfile(HARBOUR / "variants" / "two-guilds.yaml", f)
    return f


def test_a_variant_file_loads_as_a_variant_wherever_it_stands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = _loose_variant(tmp_path)
    g = meeple.load(str(f), 2)
    assert g.name == "Harbour Guilds (variant: Two guilds (a shorter game))"
    code, out, err = _run(capsys, "check", str(f))
    assert code == 0 and "ok: Harbour Guilds (variant: Two guilds" in out, err
    code, out, err = _run(capsys, "play", str(f), "-p", "2", "-q")
    assert code == 0 and "(winner)" in out, err
    md, _ = render_rulebook(str(f))
    assert "Leaving the Brewers out" in md  # the variant's rationale: it is read as a variant
    assert rulebook_name(str(f)) == "harbour-guilds.two-guilds"


def test_a_loose_variant_with_an_unknown_game_is_reported_at_its_extends(tmp_path: Path) -> None:
    f = _loose_variant(tmp_path)
    f.write_text(f.read_text().replace("extends: harbour-guilds", "extends: harbour-gilds"))
    with pytest.raises(meeple.MeepleError) as info:
        api.load_checked(str(f))
    e = info.value
    assert e.span is not None and (e.span.file, e.span.line) == (str(f), 3)
    assert "'extends: harbour-gilds' names neither" in e.message


# ------------------------------------------------------------- paths as os.PathLike
def test_a_game_path_may_be_a_pathlib_path(tmp_path: Path) -> None:
    variant = HARBOUR / "variants" / "two-guilds.yaml"
    g = meeple.load(HARBOUR, 2, variant=variant)  # Paths, not str
    assert g.name == "Harbour Guilds (variant: Two guilds (a shorter game))"
    assert g.program.origin == (str(HARBOUR.resolve()), str(variant.resolve()), 2, "interpreter")
    assert api.load_checked(HARBOUR / "game.yaml").game.name == "Harbour Guilds"
    assert api.load_variant_checked(HARBOUR, variant)[1].id == "two-guilds"
    assert meeple.load(_loose_variant(tmp_path), 2).num_players() == 2
    assert rulebook_name(HARBOUR, variant) == "harbour-guilds.two-guilds"


# ------------------------------------------------- a saved state loaded into another game
def _error_of(game: meeple.Game, data: dict[str, object]) -> str:
    with pytest.raises(meeple.MeepleError) as info:
        game.state_from_json(data)
    return info.value.message


def test_a_save_of_another_game_says_which_game_it_is_of() -> None:
    data = meeple.load("harbour-guilds", 2).new_initial_state(1).to_json()
    for seats in (3, 4):  # not "2 of 3 seats are still playing": the game differs first
        assert _error_of(meeple.load("shadow-of-the-sun", seats), data) == (
            "this saved state is of harbour-guilds (Harbour Guilds), "
            "not of shadow-of-the-sun (Shadow of the Sun)"
        )
    assert _error_of(meeple.load("harbour-guilds", 3), data) == (
        "this saved state is of Harbour Guilds with 2 players, not 3"
    )
    assert _error_of(meeple.load("harbour-guilds", 2, "two-guilds"), data) == (
        "this saved state is of Harbour Guilds, "
        "not of Harbour Guilds (variant: Two guilds (a shorter game))"
    )
    assert _error_of(meeple.load("harbour-guilds", 2), {**data, "game": ["x"]}) == (
        "this saved state is damaged: it does not say which game it is of"
    )
    odd = "harbour\nguilds"  # a name from a file is shown quoted when it is not one line
    assert _error_of(meeple.load("harbour-guilds", 2), {**data, "game": odd}).startswith(
        "this saved state is of 'harbour\\nguilds' (Harbour Guilds), not of harbour-guilds"
    )


# ------------------------------------------------------------------------ messages
def _error(tmp_path: Path, old: str, new: str) -> meeple.MeepleError:
    """The error of Harbour Guilds' rules with ``old`` replaced by ``new``."""
    text = (HARBOUR / "game.yaml").read_text()
    assert old in text
    f = tmp_path / "game.yaml"
    f.write_text(text.replace(old, new, 1))
    with pytest.raises(meeple.MeepleError) as info:
        api.load_checked(str(f))
    return info.value


def test_a_ties_mapping_is_shown_as_yaml_not_as_a_python_dict(tmp_path: Path) -> None:
    e = _error(tmp_path, "    ties: nobody", "    ties: {ties: nobody}")
    assert e.message == "'majorities.guild_majority.ties' cannot be the mapping {ties: nobody}"
    assert e.expected is not None and e.expected.startswith("nobody (the default), all (")
    assert "per number of players ({2..3: nobody, 4..6: all})" in e.expected
    e = _error(tmp_path, "    ties: nobody", "    ties: {2..4: [nobody, true, {a: null}]}")
    assert e.message == (
        "'majorities.guild_majority.ties.2..4' cannot be the list [nobody, true, {a: null}]"
    )
    e = _error(tmp_path, "    ties: nobody", "    ties: somebody")
    assert e.message == "'majorities.guild_majority.ties' cannot be 'somebody'"
    assert (e.expected, e.suggestion) == ("one of nobody, all", "did you mean 'nobody'?")


def _parse_error(text: str) -> meeple.MeepleError:
    from meeple.dsl.parser import parse_statement  # noqa: PLC0415

    with pytest.raises(meeple.MeepleError) as info:
        parse_statement(text)
    return info.value


def test_a_slash_is_told_to_use_floor_division() -> None:
    e = _parse_error("score[p] += 5 / x")
    assert e.message == "unexpected character '/' in a statement"
    assert e.suggestion == (
        "numbers are whole numbers: divide with '//' (rounding down: 7 // 2 is 3) "
        "and take the remainder with '%'"
    )
    assert _parse_error("score[p] += 5 ** x").suggestion == (
        "there is no power operator: multiply (x * x)"
    )


def test_expected_closers_are_those_of_the_open_bracket() -> None:
    e = _parse_error("score[p] += sum(c.value for c in sold")
    assert (e.message, e.expected) == ("a statement ends too early", "')', 'if', 'or'")
    e = _parse_error("score[p] += sum([c.value for c in sold")
    assert (e.message, e.expected) == ("a statement ends too early", "']', 'if', 'or'")
    e = _parse_error("score[p] += 5 / x")  # no bracket is open: neither ')' nor ']'
    assert e.expected is not None and "')'" not in e.expected and "']'" not in e.expected
    e = _parse_error('score[p] += sum(c.value for c in "("')  # a bracket in quotes is text
    assert e.expected is not None and "')'" in e.expected


def test_a_flat_sum_beyond_the_limit_is_not_called_nesting() -> None:
    from meeple.dsl.parser import parse_expression  # noqa: PLC0415

    parse_expression(" + ".join(["x"] * 64))  # 63 operators: within MAX_EXPR_DEPTH (64)
    for terms in (65, 300):
        with pytest.raises(meeple.MeepleError) as info:
            parse_expression(" + ".join(["x"] * terms))
        assert info.value.message == (
            "the expression has more than 64 levels here: a row of operators (a + b + c ...) "
            "counts one level per operator (MAX_EXPR_DEPTH)"
        )
    with pytest.raises(meeple.MeepleError) as info:
        parse_expression("not " * 70 + "x")  # real nesting keeps its words
    assert info.value.message == "the expression nests deeper than 64 levels here (MAX_EXPR_DEPTH)"


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_one_item_is_singular(tmp_path: Path, backend: str) -> None:
    text = (HARBOUR / "game.yaml").read_text()
    f = tmp_path / "game.yaml"  # the stall takes a card of the market, empty at the start
    f.write_text(
        text.replace(
            "from: hand[p]\n                      to: stall[p]",
            "from: market\n                      to: stall[p]",
            1,
        )
    )
    game = meeple.load(str(f), 2, backend=backend)
    with pytest.raises(meeple.RuleError) as info:
        api.play(game, seed=1, record_log=False)
    assert info.value.message == "a pick needs 1 item but only 0 could be picked"
    with pytest.raises(meeple.RuleError) as info:
        game.playout(1)
    assert info.value.message == "a pick needs 1 item but only 0 could be picked"
    from meeple.dsl.variant import resolve  # noqa: PLC0415
    from meeple.dsl.yamlload import load_yaml_text  # noqa: PLC0415

    with pytest.raises(meeple.MeepleError) as err:
        resolve(load_yaml_text("a: [x]\n"), "a[3]")
    assert err.value.message == "the path does not exist: the list has 1 item (0)"


def test_the_advice_to_choose_another_name_is_given_once(tmp_path: Path) -> None:
    e = _error(
        tmp_path,
        "- score[p] += sum(c.value for c in sold)",
        "- let num_players = 5",
    )
    assert str(e).endswith(
        "error: 'num_players' is already a name of the game (a built-in name); "
        "choose another name, e.g. num_players2"
    )


def test_a_byte_that_is_not_utf8_is_counted_from_one_and_placed(tmp_path: Path) -> None:
    from meeple.dsl.yamlload import load_yaml_file  # noqa: PLC0415

    f = tmp_path / "game.yaml"
    f.write_bytes(b"ab\xff\n")  # the third byte
    with pytest.raises(meeple.MeepleError) as info:
        load_yaml_file(f)
    e = info.value
    assert e.message == f"{f} is not UTF-8 text (byte 3 cannot be read: 0xff)"
    assert e.span is not None and (e.span.line, e.span.col) == (1, 3)
    f.write_bytes("a: é\nbé: \xff".encode() + b"\xfe")  # byte 14: line 2, after "bé: ÿ"
    with pytest.raises(meeple.MeepleError) as info:
        load_yaml_file(f)
    e = info.value
    assert e.message.endswith("(byte 14 cannot be read: 0xfe)")
    assert e.span is not None and (e.span.line, e.span.col) == (2, 6)


def test_diff_names_both_sides_and_changes_the_game_file_it_was_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "variants").mkdir()
    shutil.copyfile(HARBOUR / "variants" / "two-guilds.yaml", tmp_path / "variants" / "x.yaml")
    base = tmp_path / "base.yaml"  # not game.yaml: extends: harbour-guilds names it by its id
    smiths = "{key: smiths, name: Smiths, bonus: 5}"
    base.write_text((HARBOUR / "game.yaml").read_text().replace(smiths, smiths.replace("5", "7")))
    code, out, err = _run(capsys, "diff", str(base), "x")
    assert code == 0, err
    assert out.startswith(
        "--- harbour-guilds: Harbour Guilds\n+++ two-guilds: Two guilds (a shorter game)\n"
    )
    assert "  1 x Smiths (bonus=7)\n" in out  # base.yaml's rules, not the shipped game's
    code, out, err = _run(capsys, "check", str(tmp_path / "variants" / "x.yaml"))
    assert code == 0 and "ok: Harbour Guilds (variant: Two guilds" in out, err


@pytest.mark.parametrize("command", [["bench", "--seconds", "0.05"], ["simulate", "-n", "2"]])
def test_bench_and_simulate_print_no_blank_line_before_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    text = (HARBOUR / "game.yaml").read_text()
    f = tmp_path / "game.yaml"  # a rule error in the first turn: the market is empty
    f.write_text(text.replace(_STALL_FROM_HAND, _STALL_FROM_HAND.replace("hand[p]", "market")))
    code, out, err = _run(capsys, command[0], str(f), *command[1:])
    assert code != 0 and err.startswith(f"{f}:67:23: error: a pick needs 1 item"), repr(err)


def test_a_non_ascii_name_is_shown_as_typed(tmp_path: Path) -> None:
    e = _error(tmp_path, "  market: {visibility", "  märket: {visibility")
    assert e.message == (
        "'märket' is not a valid name: use letters, digits and '_'; 'ä' (U+00E4) is not ASCII "
        "(it names a zone)"
    )
    assert e.suggestion == "call it 'market'"
    e = _error(tmp_path, "  market: {visibility", "  m\u0430rket: {visibility")  # Cyrillic а
    assert e.message.startswith("'m\u0430rket' is not a valid name: use letters, digits and '_'; ")
    assert "'\u0430' (U+0430) is not ASCII" in e.message  # a look-alike is told by its code
    e = _error(tmp_path, "  market: {visibility", "  m\u200barket: {visibility")  # invisible
    assert e.message.startswith("'m\\u200barket' is not a valid name")


def test_a_long_rules_trace_is_cut_in_the_middle(tmp_path: Path) -> None:
    text = (HARBOUR / "game.yaml").read_text()
    chain = "".join(
        f"  c{i}:\n    source: Setup\n    do:\n      - c{i + 1}()\n" for i in range(200)
    )
    chain += '  c200:\n    source: Setup\n    do:\n      - log "deep"\n'
    f = tmp_path / "game.yaml"  # setup calls c0, which calls c1, ... c200: 201 procedures
    text = text.replace("procedures:\n", "procedures:\n" + chain, 1)
    f.write_text(
        text.replace("    - shuffle draw_pile\n", "    - shuffle draw_pile\n    - c0()\n", 1)
    )
    with pytest.raises(meeple.RuleError) as info:
        meeple.load(str(f), 2).new_initial_state(1)
    e = info.value
    assert len(e.trace) == 200  # the data keeps every call; its rendering is cut
    lines = e.render().splitlines()
    at = lines.index("rules trace (outermost first):")
    assert lines[at + 1 :] == [
        *(f"  in procedure c{i} ({f}:{95 + 4 * i}:3)" for i in range(5)),
        "  ... 190 more calls ...",
        *(f"  in procedure c{i} ({f}:{95 + 4 * i}:3)" for i in range(195, 200)),
    ]


def test_a_key_without_colon_is_reported_at_the_key_not_the_next_line() -> None:
    from meeple.dsl.yamlload import load_yaml_text  # noqa: PLC0415

    for text, extra in (
        ("game:\n  id: x\n  name Harbour\n  players: 2\n", ""),
        ("game:\n  id: x\n  name Harbour\n\tplayers: 2\n", "; indent YAML with spaces, not tabs"),
    ):
        with pytest.raises(meeple.MeepleError) as info:
            load_yaml_text(text, "g.yaml")
        e = info.value
        assert e.message == (
            "'name Harbour' stands where a key is expected, but no ':' follows it" + extra
        )
        assert e.span is not None and (e.span.line, e.span.col) == (3, 3)  # not line 4
    for text in ("a: 1\n\tb: 2\n", "a:\n  b: 1\n  \tc: 2\n"):  # a tab: at the tab itself
        with pytest.raises(meeple.MeepleError) as info:
            load_yaml_text(text, "g.yaml")
        tab = text.index("\t")
        e = info.value
        assert e.span is not None
        assert (e.span.line, e.span.col) == (
            text.count("\n", 0, tab) + 1,
            tab - text.rfind("\n", 0, tab),
        )


def test_players_min_above_max_is_reported_at_the_players_value(tmp_path: Path) -> None:
    e = _error(tmp_path, "players: {min: 2, max: 4}", "players: {min: 4, max: 2}")
    assert e.message == "the game is for 4 to 2 players: min is above max"
    assert e.span is not None and (e.span.line, e.span.col) == (8, 12)
    assert e.suggestion == "swap them: players: {min: 2, max: 4}"


def test_players_min_above_max_set_by_a_variant_is_reported_in_the_variant(
    tmp_path: Path,
) -> None:
    v = tmp_path / "bad-players.yaml"
    v.write_text(
        "variant: bad-players\nname: Bad players\nextends: harbour-guilds\n"
        "rationale: a variant that sets the players wrongly, for the position of its error\n"
        "changes:\n  - set: game.players\n    to: {min: 3, max: 2}\n"
    )
    with pytest.raises(meeple.MeepleError) as info:
        api.load_checked(str(v))
    span = info.value.span
    assert span is not None and (Path(span.file).name, span.line, span.col) == (
        "bad-players.yaml",
        7,
        9,
    )


def test_a_decimal_where_a_whole_number_is_expected_is_named(tmp_path: Path) -> None:
    e = _error(tmp_path, "players: {min: 2, max: 4}", "players: {min: 2.5, max: 4}")
    assert e.expected == "a number, not 2.5 (numbers in rules are whole numbers)"

"""Variants: every shipped variant loads, plays and shows its changes; a broken variant gets an
error at the variant file's own line and column."""

from __future__ import annotations

from pathlib import Path

import pytest
from sampling import first_of_each_game

import meeple
from meeple import api
from meeple.diff import rule_changes
from meeple.dsl.errors import MeepleError, ParseError, SchemaError
from meeple.dsl.variant import variant_files
from meeple.registry import game_ids, rules_root

VARIANTS = [(g, f.stem) for g in game_ids() for f in variant_files(rules_root() / g)]


@pytest.mark.parametrize("game", game_ids())
def test_every_game_has_two_variants_with_a_rationale(game: str) -> None:
    files = variant_files(rules_root() / game)
    assert len(files) >= 2, f"rules/{game}/variants/ needs at least two variants"
    for f in files:
        _, v = api.load_variant_checked(game, f.stem)
        assert v.id == f.stem, f"{f}: 'variant:' must be the file name"
        assert len(v.rationale.split()) >= 40, f"{f}: the rationale is one real paragraph"


# the quick loop plays the first variant of each game, the deep run the others
@pytest.mark.parametrize(("game", "variant"), first_of_each_game(VARIANTS))
def test_variant_plays_conserving_components_and_changes_a_rule(game: str, variant: str) -> None:
    checked, v = api.load_variant_checked(game, variant)
    g = checked.game
    n = max(g.players_min, min(4, g.players_max))
    for players in sorted({g.players_min, n}):
        r = api.play(meeple.load(game, players, variant), seed=1, record_log=False, check=True)
        assert r.state.is_terminal() and len(r.scores) == players
    assert rule_changes(api.load_checked(game).game, g), "a variant that changes nothing"
    assert "(variant: " in g.name


GAMES_AND_VARIANTS = [(g, None) for g in game_ids()] + VARIANTS


def _conserving_games(game: str, variant: str | None, seeds: range) -> None:
    g = api.load_checked(game, variant).game
    for players in range(g.players_min, g.players_max + 1):
        loaded = meeple.load(game, players, variant)
        for seed in seeds:
            r = api.play(loaded, seed=seed, record_log=False, check=True)
            assert r.state.is_terminal() and len(r.winners) >= 1


# the quick loop: every game and the first variant of each; the deep run the other variants
@pytest.mark.parametrize(
    ("game", "variant"), [(g, None) for g in game_ids()] + first_of_each_game(VARIANTS)
)
def test_random_games_conserve_components_at_every_player_count(
    game: str, variant: str | None
) -> None:
    _conserving_games(game, variant, range(3))


@pytest.mark.deep
@pytest.mark.parametrize(("game", "variant"), GAMES_AND_VARIANTS)
def test_more_random_games_conserve_components_at_every_player_count(
    game: str, variant: str | None
) -> None:
    _conserving_games(game, variant, range(3, 20))


def test_variant_is_deterministic_and_differs_from_the_game() -> None:
    base = meeple.load("shadow-of-the-sun", 4)
    short = meeple.load("shadow-of-the-sun", 4, "short-game")
    a, b = api.play(short, seed=5), api.play(short, seed=5)
    assert a.scores == b.scores and a.decisions == b.decisions
    assert len(short.program.cards) == len(base.program.cards) - 4
    days = [c for c in short.program.cards if c.kind == "days"]
    assert len(days) == 4 and all(c.props["markers"] == 2 for c in days)


def test_bloodless_ties_sets_a_tied_day_aside() -> None:
    game = meeple.load("shadow-of-the-sun", 4, "bloodless-ties")
    lines = [t for s in range(12) for _, t in api.play(game, seed=s).state.log]
    assert any("nobody wins" in t for t in lines)
    assert not any("tie between" in t and "Struggle" in t for t in lines)


def test_two_players_extends_the_player_count() -> None:
    with pytest.raises(MeepleError, match="3 to 4 players, not 2"):
        meeple.load("shadow-of-the-sun", 2)
    assert meeple.load("shadow-of-the-sun", 2, "two-players").num_players() == 2


def test_diff_shows_rule_language_lines() -> None:
    base = api.load_checked("shadow-of-the-sun").game
    changed = api.load_checked("shadow-of-the-sun", "bloodless-ties").game
    (c,) = rule_changes(base, changed)  # one line of the variant, one rule changed
    assert c.rule == "majority strongest_legion(fighters)" and c.status == "changed"
    assert any(x.startswith("- ") and "supreme chooses among the tied" in x for x in c.lines)
    assert (
        "+ the most legion_strength(p) among fighters, at least 0; a tie gives nobody the "
        "majority." in c.lines
    )


# ---------------------------------------------------------------------------- errors
GAME = (rules_root() / "shadow-of-the-sun" / "game.yaml").resolve()


def _variant(tmp_path: Path, changes: str, head: str = "") -> Path:
    f = tmp_path / "v.yaml"
    f.write_text(
        head
        or (
            "variant: v\nname: V\n"
            "extends: shadow-of-the-sun\n"
            "rationale: a test variant whose rationale is long enough for the schema to accept\n"
        )
        + "changes:\n"
        + changes
    )
    return f


def _error(f: Path) -> MeepleError:
    with pytest.raises(MeepleError) as info:
        api.load("shadow-of-the-sun", variant=str(f))
    return info.value


def test_missing_key_is_reported_at_the_path_segment(tmp_path: Path) -> None:
    f = _variant(tmp_path, "  - set: procedures.tunr.do\n    to: []\n")
    e = _error(f)
    assert isinstance(e, SchemaError)
    assert (e.span.file, e.span.line, e.span.col) == (str(f), 6, 21)
    assert e.suggestion == "did you mean 'turn'?"


def test_missing_list_item_is_reported_at_the_selector(tmp_path: Path) -> None:
    f = _variant(tmp_path, "  - set: components.minions.items[name=Masqed].count\n    to: 2\n")
    e = _error(f)
    assert (e.span.line, e.span.col) == (6, 34)
    assert "no item with name = Masqed" in e.message
    assert e.suggestion == "did you mean 'Masqued'?"


def test_index_beyond_the_list(tmp_path: Path) -> None:
    e = _error(_variant(tmp_path, "  - remove: procedures.turn.do[9]\n"))
    assert "the list has 5 items" in e.message and e.span.col == 31


def test_schema_error_in_a_variant_value_points_into_the_variant(tmp_path: Path) -> None:
    f = _variant(tmp_path, "  - set: game.players.min\n    to: two\n")
    e = _error(f)
    assert isinstance(e, SchemaError) and e.span.file == str(f)
    assert (e.span.line, e.span.col) == (7, 9)


def test_type_error_in_a_variant_value_points_into_the_variant(tmp_path: Path) -> None:
    f = _variant(tmp_path, "  - set: components.days.items[0].markers\n    to: two\n")
    e = _error(f)
    assert (e.span.file, e.span.line, e.span.col) == (str(f), 7, 9)
    assert "property 'markers' is int, but the value is 'two'" in e.message


def test_a_non_ascii_digit_index_is_a_path_error(tmp_path: Path) -> None:
    # '²'.isdigit() is True but int('²') raises: the path parser took it for an index
    f = _variant(tmp_path, "  - set: components.days.items[²].markers\n    to: 2\n")
    e = _error(f)
    assert isinstance(e, SchemaError) and e.span.line == 6


def test_grammar_error_in_a_variant_value_points_into_the_variant(tmp_path: Path) -> None:
    f = _variant(tmp_path, "  - set: functions.game_over.value\n    to: count(day_deck) ==\n")
    e = _error(f)
    assert isinstance(e, ParseError) and e.span.file == str(f) and e.span.line == 7
    assert "file" not in str(e) or str(f) in str(e)


def test_check_error_in_an_added_rule_points_into_the_variant(tmp_path: Path) -> None:
    f = _variant(
        tmp_path,
        "  - add: procedures.extra\n    value:\n      source: Test\n      do:\n"
        "        - move 1 from minion_dek to discard\n",
    )
    e = _error(f)
    assert e.span.file == str(f) and e.span.line == 10
    assert e.suggestion == "did you mean 'minion_deck'?"


def test_variant_file_schema_error_has_a_suggestion(tmp_path: Path) -> None:
    f = tmp_path / "v.yaml"
    f.write_text(
        f"variant: v\nname: V\nextends: shadow-of-the-sun\nrationale: {'x ' * 30}\nchnages: []\n"
    )
    e = _error(f)
    assert (e.span.line, e.span.col) == (5, 1) and e.suggestion == "did you mean 'changes'?"


def test_unknown_extends_and_add_of_an_existing_key(tmp_path: Path) -> None:
    f = tmp_path / "v.yaml"
    f.write_text(
        f"variant: v\nname: V\nextends: shadow-of-the-sn\nrationale: {'x ' * 30}\n"
        "changes: [{remove: tables}]\n"
    )
    e = _error(f)
    assert e.span.line == 3 and "extends" in e.message
    e = _error(_variant(tmp_path, "  - add: procedures.turn\n    value: {source: X, do: []}\n"))
    assert "already exists" in e.message and e.suggestion == "use 'set' to replace it"


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("1 + " * 100 + "1", "takes an id, not a path"),
        ("1 + " * 100 + "1.yaml", "takes an id, not a path"),
        ("a" * 300, "names neither this variant's game nor one of its variants"),
    ],
)
def test_extends_longer_than_a_file_name_is_an_unknown_game(
    tmp_path: Path, name: str, says: str
) -> None:
    # a name the file system refuses (OSError: File name too long) is looked up like any other
    f = tmp_path / "v.yaml"
    f.write_text(
        f"variant: v\nname: V\nextends: '{name}'\nrationale: {'x ' * 30}\n"
        "changes: [{remove: tables}]\n"
    )
    e = _error(f)
    assert isinstance(e, SchemaError) and e.span.line == 3
    assert says in e.message
    with pytest.raises(MeepleError, match="has no variant"):
        meeple.load("shadow-of-the-sun", variant="a" * 300)


def test_unknown_variant_name_suggests_one() -> None:
    with pytest.raises(MeepleError) as info:
        meeple.load("shadow-of-the-sun", variant="short-gme")
    assert info.value.suggestion == "did you mean 'short-game'?"


def test_a_variant_may_extend_a_variant(tmp_path: Path) -> None:
    folder = tmp_path / "g"
    (folder / "variants").mkdir(parents=True)
    (folder / "game.yaml").write_text(GAME.read_text())
    text = "rationale: " + "y " * 30 + "\n"
    (folder / "variants" / "a.yaml").write_text(
        "variant: a\nname: A\nextends: g\n" + text + "changes: [{set: game.players.min, to: 2}]\n"
    )
    (folder / "variants" / "b.yaml").write_text(
        "variant: b\nname: B\nextends: a\n" + text + "changes: [{set: game.players.max, to: 5}]\n"
    )
    checked, v = api.load_variant_checked(str(folder), "b")
    assert (checked.game.players_min, checked.game.players_max) == (2, 5)
    assert [x.id for x in v.chain()] == ["a", "b"]


def test_error_in_the_game_caused_by_a_variant_names_the_variant(tmp_path: Path) -> None:
    e = _error(_variant(tmp_path, "  - remove: zones.spent_days\n"))
    assert e.span.file == str(GAME) and "spent_days" in e.message
    assert f"with the changes of variant 'v', {tmp_path / 'v.yaml'}" in e.message


def test_diff_lists_added_and_removed_rules(tmp_path: Path) -> None:
    f = _variant(
        tmp_path,
        "  - add: procedures.announce\n    value: {source: Test, do: ['log \"hello\"']}\n"
        "  - set: play.phases[2].do\n    to: ['struggle(top(current_day))', announce()]\n"
        "  - remove: scoring.tie_breakers\n",
    )
    base = api.load_checked("shadow-of-the-sun").game
    changes = {c.rule: c for c in rule_changes(base, api.load_checked(str(GAME), str(f)).game)}
    assert changes["procedure announce()"].status == "added"
    assert changes["procedure announce()"].lines == ("+ # source: Test", '+ log "hello"')
    assert changes["tie-breaker 1"].status == "removed"
    added = [x for x in changes["play"].lines if x.startswith("+")]
    assert [x.split() for x in added] == [["+", "announce()"]]


def test_add_a_card_and_change_a_table(tmp_path: Path) -> None:
    f = _variant(
        tmp_path,
        "  - add: components.minions.items\n    value: {name: Phantom, count: 2, wild: true}\n"
        "  - set: tables.legion_hierarchy.patterns[label=4 identical minions].pattern\n"
        "    to: [5]\n",
    )
    game = meeple.load("shadow-of-the-sun", 4, str(f))
    assert sum(c.name == "Phantom" for c in game.program.cards) == 2
    assert game.checked.game.tables["legion_hierarchy"].patterns[-1] == (5,)
    api.play(game, seed=3, record_log=False, check=True)


def test_yml_files_are_found_like_yaml_ones(tmp_path: Path) -> None:
    """Users write .yml as often as .yaml: a game folder with game.yml, its variants and
    scenarios as .yml are found (a .yml scenario used to be ignored, "no scenarios")."""
    import shutil

    from meeple.scenarios import run_scenario, scenario_files

    folder = tmp_path / "harbour"
    shutil.copytree(rules_root() / "harbour-guilds", folder)
    for f in [folder / "game.yaml", *folder.glob("variants/*.yaml"), *folder.glob("scenarios/*")]:
        f.rename(f.with_suffix(".yml"))
    assert [f.name for f in variant_files(folder)] == ["guild-feast.yml", "two-guilds.yml"]
    feast = api.load(str(folder), 2, "guild-feast")
    assert feast.program.game_name == api.load("harbour-guilds", 2, "guild-feast").program.game_name
    assert api.load(str(folder / "variants" / "two-guilds.yml"), 2).num_players() == 2
    files = scenario_files(folder)
    assert [f.suffix for f in files] == [".yml"] and all(run_scenario(f).passed for f in files)

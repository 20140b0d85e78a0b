"""In the Shadow of the Emperor: the rulebook's examples have scenarios that fail when the rule
they show is broken; the player-count rules (cards, closed electorates) hold."""

from __future__ import annotations

import pytest
from conftest import BrokenGame
from sampling import every_third

import meeple
from meeple.registry import rules_root
from meeple.scenarios import run_scenario, scenario_files

GAME_ID = "shadow-of-the-emperor"
FOLDER = rules_root() / GAME_ID


def test_every_rulebook_example_has_a_scenario() -> None:
    sources = " ".join(p.read_text() for p in scenario_files(FOLDER))
    for example in (
        "Example of a change in power",
        "Example for the election of the Emperor",
        "Example of a successful marriage",
        "the round marker is in round 2",
    ):
        assert example in sources


# scenario, text in game.yaml, its broken replacement: the quick loop checks every third,
# the deep run the others (tests/sampling.py)
BROKEN_RULES = [
    ("change-of-power", "- score[w] += 2", "- score[w] += 1"),
    ("change-of-power", "else (2 if couple[x] else 1)", "else 1"),
    (
        "emperor-election",
        "rival if for_rival > for_emperor",
        "rival if for_rival < for_emperor",
    ),
    ("marriage", '"couple[b] = true"', '"couple[b] = false"'),
    ("spiritual-seat-stays-empty", "not (e.spiritual and couple[top(at[s])])", "true"),
    ("income", "(2 if elector_of(card('saxony')) == p else 0)", "0"),
    ("aging", 'if: "age[x] == 45"', 'if: "age[x] == 55"'),
    (
        "church-influence-and-excommunication",
        "+ (1 if holds(q, 'pope') else 0) + church_votes(q)",
        "+ 0",
    ),
    (
        "church-influence-and-excommunication",
        "e != excommunicated and elector_of(e) == q",
        "elector_of(e) == q",
    ),
    (
        "son-pushes-knight",
        "s.type == 'aristocrat' and not closed[s.electorate]\n",
        "not closed[s.electorate]\n",
    ),
    (
        "trier-privilege",
        "k.phase == 4 and k.key != 'knight' and not available(k)",
        "k.phase == 4 and k.key != 'knight'",
    ),
]


@pytest.mark.parametrize(("scenario", "old", "new"), every_third(BROKEN_RULES))
def test_a_broken_rule_fails_its_scenario(
    broken_game: BrokenGame, scenario: str, old: str, new: str
) -> None:
    folder = broken_game("shadow-of-the-emperor", old, new)
    outcome = run_scenario(folder / "scenarios" / f"{scenario}.yaml")
    assert not outcome.passed


@pytest.mark.parametrize(
    ("players", "doctors", "permits", "ordinances"), [(2, 1, 2, 1), (3, 2, 3, 2), (4, 3, 4, 3)]
)
def test_cards_per_player_count(players: int, doctors: int, permits: int, ordinances: int) -> None:
    game = meeple.load(GAME_ID, players=players)
    state = game.new_initial_state(1, record_log=False)
    prog = game.program
    piles = {
        s.key: state.zones[prog.zone_base["pile"] + s.ordinal] for s in prog.kind_cards["stacks"]
    }
    assert (len(piles["doctor"]), len(piles["permit"]), len(piles["ordinance"])) == (
        doctors,
        permits,
        ordinances,
    )
    assert all(len(piles[k]) == 1 for k in ("rival", "pope", "church", "gray", "knight"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_players_close_one_spiritual_and_one_secular_electorate(players: int) -> None:
    game = meeple.load(GAME_ID, players=players)
    for seed in range(8):
        state = game.new_initial_state(seed, record_log=False)
        closed = [
            e for e in game.program.kind_cards["electorates"] if state.vars["closed"][e.ordinal]
        ]
        if players == 2:
            assert sorted(e.spiritual for e in closed) == [False, True]
        else:
            assert closed == []


def test_a_saved_game_resumes_identically() -> None:
    """Per-component variables (ages, sides) and the owner-only vote survive to_json/from_json."""
    import random

    game = meeple.load(GAME_ID, players=4)
    state = game.new_initial_state(11, record_log=False)
    rng = random.Random(11)
    saved = None
    actions: list[int] = []
    while not state.is_terminal():
        if len(actions) == 120:
            saved = state.to_json()
        a = state.legal_actions()
        actions.append(a[rng.randrange(len(a))])
        state.apply_action(actions[-1])
    assert saved is not None
    resumed = game.state_from_json(saved, record_log=False)
    for a in actions[120:]:
        resumed.apply_action(a)
    assert resumed.is_terminal()
    assert resumed.scores() == state.scores()
    assert resumed.vars["age"] == state.vars["age"]
    assert resumed.vars["couple"] == state.vars["couple"]


def test_a_variable_per_kind_refuses_a_component_of_another_kind() -> None:
    from meeple.dsl.checker import check_expression
    from meeple.dsl.parser import parse_expression

    game = meeple.load(GAME_ID, players=3)
    state = game.new_initial_state(1, record_log=False)
    good = parse_expression("age[first(aristocrats)] + 1")
    check_expression(game.checked, good)
    assert game.program.ex.compile(good)(state, {}) == 1
    bad = parse_expression("age[card('mainz')]")
    check_expression(game.checked, bad)  # a card: the kind is known only when it runs
    with pytest.raises(meeple.RuleError, match="not one of the aristocrats"):
        game.program.ex.compile(bad)(state, {})


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_the_elector_of_mainz_log_line_names_a_player(backend: str) -> None:
    """``elector_of`` is a player or none: its log line names the player ("P4 takes ..."),
    not the seat's number ("3 takes ...")."""
    game = meeple.load(GAME_ID, 4, backend=backend)
    lines = [t for _, t in meeple.api.play(game, seed=5).state.log if "Mainz" in t]
    takes = [t for t in lines if "takes 1 victory point" in t]
    assert takes and all(t.startswith("P") for t in takes), takes

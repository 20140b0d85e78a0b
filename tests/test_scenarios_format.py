"""The scenario format (docs/authoring.md, "Scenarios"): each feature passes when the rules do
what the scenario states and fails when they do not, and a malformed scenario is a positioned
error. Most scenarios here run on Harbour Guilds (the tutorial's small game) to stay fast."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from conftest import BrokenGame

from meeple import api
from meeple.explain import verdict
from meeple.registry import rules_root
from meeple.scenarios import Outcome, ScenarioError, run_scenario

HEAD = "scenario: test\nsource: A turn\nplayers: 3\nseed: 1\n"


def _run(game_dir: Path, body: str, backend: str = "interpreter", name: str = "t") -> Outcome:
    path = game_dir / "scenarios" / f"{name}.yaml"
    path.write_text(HEAD + textwrap.dedent(body), encoding="utf-8")
    return run_scenario(path, backend=backend)


@pytest.fixture
def harbour(broken_game: BrokenGame) -> Path:
    """A copy of Harbour Guilds as shipped (nothing replaced), to write scenarios into."""
    return broken_game("harbour-guilds", "x", "x")


# ------------------------------------------------------------------------------ the schema
@pytest.mark.parametrize(
    ("body", "line", "col", "words"),
    [
        ("run: scoring\nexpect: {bogus: 1}\n", 6, 10, "unknown key 'bogus'"),
        ("run: scoring\nexpect:\n  hold: ['1 == 1']\n", 7, 3, "did you mean 'holds'"),
        ("givn: {}\n", 5, 1, "did you mean 'given'"),
        ("run: play\nsteps:\n  - {choose: sell a card, bye: P1}\n", 7, 27, "did you mean 'by'"),
        ("run: play\nsteps:\n  - {choose: a, offered: b}\n", 7, 5, "mixes choose and offered"),
        ("run: play\nsteps:\n  - {choose: a, because: b}\n", 7, 17, "does not go with"),
        ("run: scoring\nexpect: {winners: [P1, first]}\n", 6, 24, "winners"),
        ("run: scoring\nexpect: {changed: {count: {market: 1}}}\n", 6, 20, "'counts'"),
    ],
)
def test_malformed_scenario_is_refused_at_its_line(
    harbour: Path, body: str, line: int, col: int, words: str
) -> None:
    with pytest.raises(ScenarioError) as e:
        _run(harbour, body)
    assert e.value.span is not None
    assert (e.value.span.line, e.value.span.col) == (line, col), str(e.value)
    assert words in str(e.value)


def test_every_shipped_scenario_fits_the_schema() -> None:
    from meeple.registry import game_ids
    from meeple.scenarios import load_scenario, scenario_files

    for g in game_ids():
        for f in scenario_files(rules_root() / g):
            load_scenario(f)  # raises ScenarioError at the first key the schema refuses


# ------------------------------------------------------------------------------ end game, winners
END = """\
given:
  zones:
    stall[P1]: [Iron 1, Iron 2]
    stall[P2]: [Cloth 1]
    stall[P3]: []
  variables: {{score: [{s1}, 3, 0]}}
run: end game
expect:
  scores: {scores}
  winners: {winners}
  decided_by: {by}
"""


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_end_game_runs_the_scoring_and_a_tie_breaker_decides(harbour: Path, backend: str) -> None:
    # the smiths' majority gives P1 5, the weavers' P2 6: 9 each; P1 has more cards in the stall
    body = END.format(s1=4, scores="[9, 9, 0]", winners="[P1]", by="cards in the stall")
    outcome = _run(harbour, body, backend)
    assert outcome.passed, outcome.failures


@pytest.mark.parametrize(
    ("s1", "winners", "by", "failure"),
    [
        (4, "[P2]", "cards in the stall", "the winners are [P1], expected [P2]"),
        (4, "[P1]", "score", "decided by 'cards in the stall', expected 'score'"),
        (5, "[P1]", "cards in the stall", "decided by 'score'"),
    ],
)
def test_wrong_winners_or_decider_fail(
    harbour: Path, s1: int, winners: str, by: str, failure: str
) -> None:
    scores = f"[{s1 + 5}, 9, 0]"
    outcome = _run(harbour, END.format(s1=s1, scores=scores, winners=winners, by=by))
    assert any(failure in f for f in outcome.failures), outcome.failures


def test_a_shared_win_is_decided_by_nobody(harbour: Path) -> None:
    body = """\
    given:
      zones:
        stall[P1]: [Iron 1]
        stall[P2]: [Cloth 1]
        stall[P3]: []
      variables: {score: [6, 5, 0]}
    run: end game
    expect: {scores: [11, 11, 0], winners: [P1, P2], decided_by: shared}
    """
    assert _run(harbour, body).passed


@pytest.mark.parametrize("by", ["bogus", "scor"])
def test_decided_by_names_something_that_decides(harbour: Path, by: str) -> None:
    """A decider no game can report would only ever fail (or, misspelt, hide behind 'shared'):
    it is refused at its line, with the deciders of this game."""
    with pytest.raises(ScenarioError) as e:
        _run(harbour, f"run: scoring\nexpect:\n  decided_by: {by}\n")
    assert e.value.span is not None and (e.value.span.line, e.value.span.col) == (7, 15)
    assert "'score', 'cards in the stall', 'shared'" in str(e.value)


def test_decided_by_on_an_open_game_fails(harbour: Path) -> None:
    outcome = _run(harbour, "run: play\nexpect: {open: true, decided_by: shared}\n")
    assert any("the game is not over" in f for f in outcome.failures), outcome.failures


def test_winners_before_the_end_fail(harbour: Path) -> None:
    body = "run: play\nexpect: {open: true, winners: [P1]}\n"
    outcome = _run(harbour, body)
    assert any("the game is not over" in f for f in outcome.failures), outcome.failures


# ------------------------------------------------------------------------------ several steps
TURNS = """\
given:
  zones:
    hand[P1]: [Cloth 1, Cloth 2]
    hand[P2]: [Iron 3, Ale 1]
    hand[P3]: [Ale 2]
run: play
steps:
  - {choose: put a card in your stall, by: P1, at: Your turn}
  - {choose: Cloth 2, by: P1, at: Card for your stall}
  - expect:
      zones:
        stall[P1]: [Cloth 2]
      changed:
        counts:
          hand[P1]: 0
          stall[P1]: +1
          draw_pile: -1
  - {choose: sell a card, by: P2}
  - {choose: Iron 3, by: P2}
  - expect:
      changed:
        counts: {market: +1, draw_pile: -1}
        variables:
          score[P2]: +3
          score[P1]: 0
      variables: {score: [0, 3, 0]}
expect:
  open: true
"""


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_a_scenario_plays_on_through_turns(harbour: Path, backend: str) -> None:
    outcome = _run(harbour, TURNS, backend)
    assert outcome.passed, outcome.failures


@pytest.mark.parametrize(
    ("old", "new", "failure"),
    [
        (
            "              - move 1 from draw_pile to hand[p]",
            "              - move 2 from draw_pile to hand[p]",
            "draw_pile changed by -2 cards, expected -1",
        ),
        ("score[p] += sum(c.value", "score[p] += 1 + sum(c.value", "score[P2] changed by +4"),
    ],
)
def test_relative_expectations_catch_a_broken_rule(
    broken_game: BrokenGame, old: str, new: str, failure: str
) -> None:
    outcome = _run(broken_game("harbour-guilds", old, new, once=True), TURNS)
    assert any(failure in f for f in outcome.failures), outcome.failures


def test_run_game_applies_given_before_the_setup(harbour: Path) -> None:
    body = """\
    given:
      variables: {score: [7, 0, 0]}
    run: game
    steps:
      - expect:
          counts:
            hand[P1]: 3
            hand[P3]: 3
          changed: {counts: {draw_pile: -9}}
          variables: {score: [7, 0, 0]}
      - options: [put a card in your stall, sell a card]
        by: P1
    expect: {open: true}
    """
    outcome = _run(harbour, body)
    assert outcome.passed, outcome.failures


# ------------------------------------------------------------------------------ decisions
ONE_CARD = """\
given:
  zones:
    hand[P1]: [Cloth 1]
    hand[P2]: [Iron 3, Ale 1]
    hand[P3]: [Ale 2]
run: play
steps:
  - {choose: put a card in your stall, by: P1}
"""


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_a_check_after_a_forced_decision_fails(harbour: Path, backend: str) -> None:
    # the pick of P1's only card is taken at once; a check meant for it must not pass at P2's
    body = ONE_CARD + "  - not_offered: Cloth 2\nexpect: {open: true}\n"
    outcome = _run(harbour, body, backend)
    assert any("one legal option" in f and "Cloth 1" in f for f in outcome.failures)


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_forced_states_the_decision_with_one_option(harbour: Path, backend: str) -> None:
    body = ONE_CARD + (
        "  - {forced: Cloth 1, by: P1, at: Card for your stall}\n"
        "  - options: [sell a card, put a card in your stall]\n"
        "    by: P2\n"
        "expect: {open: true}\n"
    )
    outcome = _run(harbour, body, backend)
    assert outcome.passed, outcome.failures
    wrong = _run(harbour, ONE_CARD + "  - forced: Cloth 2\nexpect: {open: true}\n")
    assert any("took 'Cloth 1', not 'Cloth 2'" in f for f in wrong.failures), wrong.failures
    twice = _run(harbour, ONE_CARD + "  - forced: Cloth 1\n  - forced: Cloth 1\n")
    assert any("no decision with one legal option" in f for f in twice.failures)


@pytest.mark.parametrize(
    ("step", "failure"),
    [
        ("options: [sell a card]", "also offered: ['put a card in your stall']"),
        ("options: [sell a card, put a card, put a card in your stall]", "not offered"),
        ("{offered: sell a card, at: Card to sell}", "is 'Your turn', not 'Card to sell'"),
        ("{offered: sell a card, by: P2}", "is decided by P1, not P2"),
    ],
)
def test_a_check_names_exactly_the_decision_asked(harbour: Path, step: str, failure: str) -> None:
    body = "run: play\nsteps:\n  - " + step + "\nexpect: {open: true}\n"
    outcome = _run(harbour, body)
    assert any(failure in f for f in outcome.failures), outcome.failures


def test_a_check_after_the_end_fails(harbour: Path) -> None:
    outcome = _run(harbour, "run: scoring\nsteps:\n  - not_offered: sell a card\n")
    assert any("no decision is open" in f for f in outcome.failures), outcome.failures


# ------------------------------------------------------------------------------ why not
def test_a_refusal_is_checked_with_its_reason(broken_game: BrokenGame) -> None:
    game_dir = broken_game("shadow-of-the-sun", "x", "x")
    src = (game_dir / "scenarios" / "bolster-needs-three.yaml").read_text(encoding="utf-8")
    step = '  - not_offered: Bolster The Boneyard\n    because: "(here 2 >= 3)"\n'
    assert step in src
    for because, passes in (("(here 2 >= 3)", True), ("it is Tuesday", False)):
        text = src.replace(step, step.replace("(here 2 >= 3)", because))
        path = game_dir / "scenarios" / "because.yaml"
        path.write_text(text, encoding="utf-8")
        outcome = run_scenario(path)
        assert outcome.passed == passes, outcome.failures
        if not passes:
            assert "which does not say 'it is Tuesday'" in outcome.failures[0]


def test_explain_has_a_verdict_for_an_option_no_rule_generates() -> None:
    game = api.load("harbour-guilds", 3)
    st = game.new_initial_state(1)
    v = verdict(st, "sell two cards")
    assert not v.legal and "its options are 'put a card in your stall'; 'sell a card'" in v.reason
    st.apply_action(st.legal_action_labels()[0][0])  # put a card in your stall
    in_hand = {c.name for c in st.zones[st.prog.zone_names.index("hand[P1]")]}
    other = next(c.name for c in st.prog.cards if c.name not in in_hand and c.kind == "goods")
    v = verdict(st, other)
    span = st.decision_span()
    assert span is not None and v.rule.endswith(f"game.yaml:{span.line}")
    assert not v.legal and "it picks from hand[p] (here [" in v.reason
    assert verdict(st, sorted(in_hand)[0]).legal


# ------------------------------------------------------------------------------ piles
def test_on_top_states_a_pile_exactly_in_order(harbour: Path) -> None:
    body = """\
    given:
      on_top: {draw_pile: [Ale 2, Cloth 1, Iron 1, Cloth 1]}   # the last listed is drawn first
    run: move 4 from draw_pile to market
    expect:
      in_order: {market: [Cloth 1, Iron 1, Cloth 1, Ale 2]}
      changed: {counts: {market: +4, draw_pile: -4}}
    """
    outcome = _run(harbour, body)
    assert outcome.passed, outcome.failures
    wrong = _run(harbour, body.replace("Iron 1, Cloth 1, Ale 2]}", "Cloth 1, Iron 1, Ale 2]}"))
    assert any("bottom to top" in f for f in wrong.failures), wrong.failures


def test_on_top_may_name_the_card_already_on_top(harbour: Path) -> None:
    body = """\
    given:
      zones: {market: [Iron 1, Cloth 3]}
      on_top: {market: [Cloth 3]}
    run: log "nothing happens"
    expect:
      in_order: {market: [Iron 1, Cloth 3]}
      holds: ["top(market).name == 'Cloth 3'"]   # given zones list a pile bottom to top
    """
    outcome = _run(harbour, body)
    assert outcome.passed, outcome.failures


def test_on_top_needs_a_copy_per_name(harbour: Path) -> None:
    message = r"no more 'Cloth 3' cards to put on market \(the game has 1\)"
    with pytest.raises(ScenarioError, match=message):
        _run(harbour, "given:\n  on_top: {market: [Cloth 3, Cloth 3]}\nrun: scoring\n")


def test_card_of_an_item_with_several_copies_is_refused(harbour: Path) -> None:
    with pytest.raises(ScenarioError, match="first of 3 copies") as e:
        _run(harbour, "run: scoring\nexpect:\n  holds: [\"card('goods_0') in market\"]\n")
    assert e.value.span is not None and e.value.span.line == 7


# ------------------------------------------------------------------------------ variables
def test_a_seat_variable_can_be_set_to_none(broken_game: BrokenGame) -> None:
    game_dir = broken_game("shadow-of-the-sun", "x", "x")
    body = "given:\n  variables: {supreme: null}\nrun: scoring\n"
    body += "expect:\n  holds: ['supreme == none']\n  variables: {supreme: null}\n"
    path = game_dir / "scenarios" / "none.yaml"
    path.write_text(HEAD.replace("players: 3", "players: 4") + body, encoding="utf-8")
    outcome = run_scenario(path)
    assert outcome.passed, outcome.failures
    assert outcome.state is not None and outcome.state.vars["supreme"] is None


def test_the_documented_example_passes(harbour: Path) -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "authoring.md").read_text()
    example = doc.split("```yaml\nscenario: Two turns", 1)[1].split("```", 1)[0]
    path = harbour / "scenarios" / "doc.yaml"
    path.write_text("scenario: Two turns" + example, encoding="utf-8")
    outcome = run_scenario(path)
    assert outcome.passed, outcome.failures


def test_explain_option_gives_one_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    from meeple.cli import main

    assert main(["explain", "harbour-guilds", "-p", "3", "--option", "sell two cards"]) == 0
    out = capsys.readouterr().out
    assert "not legal sell two cards: no option of 'Your turn' could ever read so" in out
    assert "legal     sell a card" not in out  # only the verdict asked for
    assert main(["explain", "harbour-guilds", "-p", "3", "--option", "sell a card"]) == 0
    assert "legal     sell a card" in capsys.readouterr().out


def test_the_scenario_schema_is_published() -> None:
    from meeple.schema_docs import schema_text

    published = Path(__file__).resolve().parent.parent / "docs" / "schema" / "scenario.schema.json"
    assert published.read_text(encoding="utf-8") == schema_text(scenario=True), (
        "run: meeple doc --all"
    )


def test_a_misspelt_label_or_card_tests_nothing_and_fails(harbour: Path) -> None:
    outcome = _run(
        harbour, "run: play\nsteps:\n  - not_offered: Sell a card\nexpect: {open: true}\n"
    )
    assert any("could ever be 'Sell a card'" in f for f in outcome.failures), outcome.failures
    with pytest.raises(ScenarioError, match="no card is named 'Cloth 9'; did you mean 'Cloth 3'"):
        _run(harbour, "run: scoring\nexpect:\n  zones:\n    market: [Cloth 9]\n")


def test_a_label_no_option_generates_is_refused_with_a_reason(broken_game: BrokenGame) -> None:
    # Louis XIV, figure 5: from Le Grand Conde (6) no marker goes to both 5 and 1; after 6 -> 5
    # the jump to Anne of Austria (1) is never generated, and the reason says where jumps go.
    # A misspelt tile is no label a jump could have: that check would test nothing.
    path = rules_root() / "louis-xiv" / "scenarios" / "placement-no-fork.yaml"
    assert run_scenario(path).passed
    game_dir = broken_game("louis-xiv", "x", "x")
    text = path.read_text(encoding="utf-8").replace(
        "  - not_offered: jump to Anne of Austria\n", "  - not_offered: jump to Anne of Austri\n"
    )
    (game_dir / "scenarios" / "typo.yaml").write_text(text, encoding="utf-8")
    outcome = run_scenario(game_dir / "scenarios" / "typo.yaml")
    assert any("could ever be 'jump to Anne of Austri'" in f for f in outcome.failures)


def test_the_issue_pile_deals_in_the_order_written(broken_game: BrokenGame) -> None:
    # Shadow of the Sun: [Darkened, Ghoul, Darkened] once dealt Darkened, Ghoul, Ghoul
    game_dir = broken_game("shadow-of-the-sun", "x", "x")
    body = """\
    given:
      zones:
        discard: []
      on_top:
        minion_deck: [Darkened, Ghoul, Darkened]
    run: move 3 from minion_deck to discard
    expect:
      in_order:
        discard: [Darkened, Ghoul, Darkened]
    """
    path = game_dir / "scenarios" / "pile.yaml"
    path.write_text(HEAD.replace("players: 3", "players: 4") + textwrap.dedent(body))
    outcome = run_scenario(path)
    assert outcome.passed, outcome.failures


# ------------------------------------------------------------------------------ holds
@pytest.mark.parametrize(("text", "what"), [("5", "an int"), ("'abc'", "a str")])
def test_holds_must_be_a_condition(harbour: Path, text: str, what: str) -> None:
    """A number or a text is not taken as true: the expectation would test nothing."""
    body = f'run: scoring\nexpect:\n  holds: ["1 == 1", "{text}"]\n'
    with pytest.raises(ScenarioError) as e:
        _run(harbour, body)
    assert e.value.span is not None and e.value.span.line == 7
    assert f"is {what}, not a condition" in str(e.value)


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_holds_that_cannot_be_evaluated_fails_at_its_line(harbour: Path, backend: str) -> None:
    """top() of an empty pile is not a Python IndexError but a failure of the scenario that
    names the file, the line and the expression (in a game it is a rule error at the
    statement)."""
    body = (
        "given:\n  zones: {market: []}\nrun: scoring\nexpect:\n"
        "  counts: {market: 0}\n  holds: ['top(market) == top(market)']\n"
    )
    outcome = _run(harbour, body, backend)
    assert len(outcome.failures) == 1, outcome.failures
    failure = outcome.failures[0]
    assert failure.startswith(f"{harbour / 'scenarios' / 't.yaml'}:10:11: ")
    assert "'top(market) == top(market)'" in failure and "is empty" in failure


def test_scenarios_command_exit_status(harbour: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """0: all pass; 1: a scenario's expectations fail; 2: bad input (a malformed scenario),
    as every other command exits on bad input. A .yml scenario is run like a .yaml one."""
    from meeple.cli import main

    for f in (harbour / "scenarios").iterdir():
        f.unlink()
    (harbour / "scenarios" / "a.yml").write_text(HEAD + "run: scoring\nexpect: {}\n")
    assert main(["scenarios", str(harbour)]) == 0
    assert "pass a.yml" in capsys.readouterr().out
    _run(harbour, "run: scoring\nexpect: {holds: ['1 == 2']}\n", name="b")
    assert main(["scenarios", str(harbour)]) == 1
    _run(harbour, "run: scoring\nexpect: {zones: {market: []}}\n", name="c")
    (harbour / "scenarios" / "d.yaml").write_text(HEAD + "run: scoring\nexpect: {bogus: 1}\n")
    assert main(["scenarios", str(harbour)]) == 2
    out, err = capsys.readouterr()
    assert "FAIL b.yaml" in out and "FAIL d.yaml" in out and "unknown key 'bogus'" in err


def test_scenarios_of_a_game_without_any_still_check_its_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A rules file with no scenarios folder: "no scenarios" (exit 0) when its rules are
    sound, the rules' error (exit 2) when they are not; it said "no scenarios" either way."""
    from meeple.cli import main

    text = (rules_root() / "harbour-guilds" / "game.yaml").read_text(encoding="utf-8")
    good = tmp_path / "good.yaml"
    good.write_text(text, encoding="utf-8")
    assert main(["scenarios", str(good)]) == 0
    assert "no scenarios" in capsys.readouterr().out
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("shuffle draw_pile", "shuffle draw_pile +", 1), encoding="utf-8")
    assert main(["scenarios", str(bad)]) == 2
    out, err = capsys.readouterr()
    assert "no scenarios" not in out and "bad.yaml:" in err

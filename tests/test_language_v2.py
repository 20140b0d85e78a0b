"""Language v2, first step (issue 12): elif chains, and more constructs as they land.

Each construct is tested the same way: a small edit of the minimal game
(tests/fixtures/minimal/game.yaml) that uses it, played on both back ends with the same seeds and
choices (the whole saved state equal at every decision, and resumed on the other back end), its
meaning checked on its own, its misuse refused at the right line and column, and its sentence in
``meeple doc`` and its line in the rule language (``meeple diff``) checked.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hostile.cases import BASE, position
from hostile.cases import edit as hostile_edit

import meeple
from meeple.api import log_lines
from meeple.dsl.errors import CheckError, MeepleError, ParseError, SchemaError
from meeple.dsl.loader import load_rules
from meeple.dsl.render import rule_texts
from meeple.rulebook import render_markdown


def edit(text: str, *pairs: str) -> str:
    """``text`` with each ``old`` (which must occur exactly once) replaced by its ``new``."""
    return hostile_edit(*pairs, text=text)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def refused(tmp_path: Path, text: str, error: type[MeepleError], at: str, message: str) -> None:
    """Loading ``text`` raises ``error`` with ``message`` at ``at`` (see position)."""
    with pytest.raises(MeepleError) as info:
        load_rules(write(tmp_path, text))
    e = info.value
    assert type(e) is error, e.render()
    assert message in str(e), e.render()
    assert e.span is not None and (e.span.line, e.span.col) == position(text, at), e.render()


def play_both(path: Path, players: int, seeds: range) -> list[list[str]]:
    """Random games on both back ends: equal saved states, labels and scores at every
    decision, and each state resumed on the other back end plays on identically. Returns the
    interpreter's logs."""
    a_game = meeple.load(str(path), players)
    b_game = meeple.load(str(path), players, backend="compiled")
    logs = []
    for seed in seeds:
        rng = random.Random(seed)
        a = a_game.new_initial_state(seed, record_log=True)
        b = b_game.new_initial_state(seed, record_log=True)
        for n in range(2000):
            assert a.to_json() == b.to_json(), f"seed {seed}, decision {n}"
            assert a.legal_action_labels() == b.legal_action_labels(), f"seed {seed}, {n}"
            if a.is_terminal():
                assert a.scores() == b.scores()
                break
            if n % 3 == 0:  # a compiled state resumes on the interpreter, and back
                b = b_game.state_from_json(a_game.state_from_json(b.to_json()).to_json())
            acts = a.legal_actions()
            x = acts[rng.randrange(len(acts))]
            a.apply_action(x)
            b.apply_action(x)
        assert a.is_terminal(), f"seed {seed} did not end"
        logs.append(log_lines(a))
    return logs


# ------------------------------------------------------------------------------------ elif
ELIF = edit(
    BASE,
    # a flat chain in setup: the first branch that holds runs, and only it
    "    - shuffle deck\n",
    "    - shuffle deck\n"
    "    - if: num_players == 2\n"
    '      then: [log "two players"]\n'
    "      elif:\n"
    "        - if: num_players == 3\n"
    '          then: [log "three players"]\n'
    "        - if: num_players >= 3\n"
    "          source: Setup / More players\n"
    '          then: [log "three or more players"]\n'
    '      else: [log "never"]\n',
    # a chain whose branches stop for decisions (a pick, a choice)
    "      - choose: Draw or discard?\n",
    "      - if: count(hand[p]) == 0\n"
    '        then: ["move 1 from deck to hand[p]"]\n'
    "        elif:\n"
    "          - if: count(hand[p]) > 2\n"
    "            then:\n"
    "              - pick: Discard down to 2\n"
    "                by: p\n"
    "                from: hand[p]\n"
    "                to: discard\n"
    "                count: count(hand[p]) - 2\n"
    "          - if: round == 2\n"
    "            then:\n"
    '              - log "{p} rests in round 2"\n'
    "        else:\n"
    "          - choose: Draw or discard?\n",
    "        by: p\n        options:\n",
    "            by: p\n            options:\n",
    "          - label: draw a card\n            do:\n"
    "              - move 1 from deck to hand[p]\n",
    "              - label: draw a card\n                do:\n"
    "                  - move 1 from deck to hand[p]\n",
    "          - label: discard a card\n            when: count(hand[p]) > 0\n            do:\n",
    "              - label: discard a card\n                when: count(hand[p]) > 0\n"
    "                do:\n",
    "              - pick: Discard a card\n                by: p\n                from: hand[p]\n"
    "                to: discard\n                count: 1\n",
    "                  - pick: Discard a card\n                    by: p\n"
    "                    from: hand[p]\n                    to: discard\n"
    "                    count: 1\n",
)


def test_elif_runs_the_first_branch_that_holds_on_both_back_ends(tmp_path: Path) -> None:
    path = write(tmp_path, ELIF)
    expected = {2: "two players", 3: "three players", 4: "three or more players"}
    for players, line in expected.items():
        logs = play_both(path, players, range(3))
        for log in logs:
            assert line in log
            assert "never" not in log
            assert sum(x.endswith(" players") for x in log) == 1  # one branch, no fall-through
    lines = [x for log in play_both(path, 2, range(3, 9)) for x in log]
    assert any("rests" in x for x in lines)  # the second elif branch ran in some game
    assert any("Discard down to 2 ->" in x for x in lines)  # and the first, with its pick


def test_elif_chain_adds_no_block_depth(tmp_path: Path) -> None:
    """A long chain stays one level deep: 40 branches (more than MAX_BLOCK_DEPTH, and more
    nested blocks than Python allows in the generated module) load and run."""
    branches = "".join(
        f"            - if: round == {k}\n              then: [log 'branch {k}']\n"
        for k in range(40)
    )
    text = edit(
        BASE,
        "        - round += 1\n",
        "        - round += 1\n"
        "        - if: round == 100\n"
        "          then: [log 'never']\n"
        f"          elif:\n{branches}",
    )
    logs = play_both(write(tmp_path, text), 2, range(1))
    assert "branch 2" in logs[0] and "branch 3" in logs[0] and "never" not in logs[0]


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_an_end_in_an_elif_branch_is_explained_by_its_condition(
    tmp_path: Path, backend: str
) -> None:
    from meeple.endings import end_reason

    text = edit(
        BASE,
        "        - round += 1\n",
        "        - round += 1\n"
        "        - if: round == 100\n"
        "          then: [log 'x']\n"
        "          elif:\n"
        "            - if: round == 3\n"
        "              then: [end game]\n",
    )
    game = meeple.load(str(write(tmp_path, text)), 2, backend=backend)
    result = meeple.play(game, seed=1)
    assert end_reason(game, result.state).startswith("round == 3 (here 3 == 3) (Play, ")


def test_elif_condition_must_be_a_condition(tmp_path: Path) -> None:
    text = edit(ELIF, "        - if: num_players == 3\n", "        - if: num_players\n")
    refused(tmp_path, text, CheckError, "- if: |num_players\n", "this has the wrong type")


def test_elif_without_if_is_refused(tmp_path: Path) -> None:
    text = edit(
        BASE,
        "    - shuffle deck\n",
        "    - shuffle deck\n    - for: p in players\n      do: [log 'x']\n"
        "      elif: [{if: true, then: [log 'y']}]\n",
    )
    refused(tmp_path, text, SchemaError, "|elif: [{if", "continues an 'if', but this statement")


def test_elif_branch_takes_no_else(tmp_path: Path) -> None:
    text = edit(
        ELIF,
        '          then: [log "three players"]\n',
        "          then: [log \"three players\"]\n          else: [log 'x']\n",
    )
    refused(tmp_path, text, SchemaError, "|else: [log 'x']", "unknown key 'else'")
    with pytest.raises(SchemaError) as e:
        load_rules(write(tmp_path, text))
    assert e.value.suggestion == "a chain has one 'else', on its first 'if', beside 'elif:'"


def test_elif_in_the_rule_language_and_the_rulebook(tmp_path: Path) -> None:
    checked = load_rules(write(tmp_path, ELIF))
    setup = rule_texts(checked.game)["setup"]
    i = setup.index("if num_players == 2:")
    assert setup[i : i + 7] == [
        "if num_players == 2:",
        '  log "two players"',
        "elif num_players == 3:",
        '  log "three players"',
        "elif num_players >= 3:  # source: Setup / More players",
        '  log "three or more players"',
        "else:",
    ]
    md = render_markdown(checked.game, tmp_path, {})
    assert "- Otherwise, if `num_players == 3`:" in md
    assert "- Otherwise, if `num_players >= 3` (rulebook: *Setup / More players*):" in md


# ------------------------------------------------------------------------------- constants
CONST = edit(
    BASE,
    "variables:\n",
    "constants:\n"
    "  rounds: {value: 3, source: Play}\n"
    "  hand_limit: {value: 4, source: Turn}\n"
    "  pairs_count: {value: true, source: Scoring}\n"
    "\n"
    "tracks:\n"
    "  drawn: {per: players, min: 0, max: hand_limit, at_ends: clamp, source: Turn}\n"
    "\n"
    "variables:\n",
    "      until: round > 3",
    "      until: round > rounds",
    "              - move 1 from deck to hand[p]\n",
    "              - move 1 from deck to hand[p]\n              - drawn[p] += 3\n",
    "        - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], sets)",
    "        - score[p] = hand_points(p) + drawn[p]"
    " + (2 * pattern_rank(hand[p], sets) if pairs_count else 0)",
)


def test_constants_read_as_their_values_on_both_back_ends(tmp_path: Path) -> None:
    from meeple.codegen import generate

    path = write(tmp_path, CONST)
    play_both(path, 2, range(4))
    src = generate(load_rules(path))
    assert "(st.vars['round'] > 3)" in src  # the value, written as a literal
    assert "rounds" not in src and "pairs_count" not in src
    game = meeple.load(str(path), 3)
    state = game.new_initial_state(1)
    assert "rounds" not in state.to_json()["vars"]  # no constant is in a saved state
    result = meeple.play(game, seed=2)
    assert result.state.to_json()["vars"]["round"] == 4  # three rounds were played
    assert all(0 <= d <= 4 for d in result.state.to_json()["vars"]["drawn"])  # max: a constant


def test_a_variant_changes_a_constant_in_one_line(tmp_path: Path) -> None:
    path = write(tmp_path, CONST)
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "long.yaml").write_text(
        "variant: long\nname: Five rounds\nextends: minimal\n"
        "rationale: Five rounds instead of three, for a longer game.\n"
        "source: a test\nchanges:\n  - set: constants.rounds.value\n    to: 5\n",
        encoding="utf-8",
    )
    for backend in ("interpreter", "compiled"):
        game = meeple.load(str(path), 2, variant="long", backend=backend)
        result = meeple.play(game, seed=3)
        assert result.state.to_json()["vars"]["round"] == 6, backend


def test_a_rule_cannot_assign_a_constant(tmp_path: Path) -> None:
    text = edit(CONST, "        - round += 1\n", "        - round += 1\n        - rounds += 1\n")
    refused(tmp_path, text, CheckError, "- |rounds += 1", "'rounds' is a constant")
    with pytest.raises(CheckError) as e:
        load_rules(write(tmp_path, text))
    assert e.value.expected == "a variable"
    assert "set: constants.rounds.value" in (e.value.suggestion or "")


def test_constant_misuse_is_refused_at_its_place(tmp_path: Path) -> None:
    as_max = edit(CONST, "max: hand_limit,", "max: pairs_count,")
    refused(tmp_path, as_max, CheckError, "max: |pairs_count,", "constant, not 'pairs_count'")
    text = edit(CONST, "  rounds: {value: 3,", "  rounds: {value: three,")
    refused(tmp_path, text, SchemaError, "value: |three", "")
    clash = edit(CONST, "  hand_limit: {value: 4", "  deck: {value: 4")
    clash = clash.replace("max: hand_limit", "max: 4")
    refused(tmp_path, clash, CheckError, "  |deck: {value: 4", "constant 'deck' has the name of")
    text = edit(CONST, "      until: round > rounds", "      until: round > rounds + pairs_count")
    refused(tmp_path, text, CheckError, "rounds + |pairs_count", "the right side of '+'")


def test_a_constant_bound_is_checked_where_a_number_would_be(tmp_path: Path) -> None:
    """Static checks see through a constant: options over 0..N need N <= 63."""
    text = edit(
        CONST,
        "  rounds: {value: 3, source: Play}\n",
        "  rounds: {value: 3, source: Play}\n  big: {value: 100, source: Turn}\n",
        "          - label: draw a card\n",
        "          - label: say {k}\n            for: k in 0..big\n"
        "          - label: draw a card\n",
    )
    refused(tmp_path, text, CheckError, "for: k in |0..big", "must stay within 0..63")


def test_constants_in_the_rule_language_and_the_rulebook(tmp_path: Path) -> None:
    checked = load_rules(write(tmp_path, CONST))
    texts = rule_texts(checked.game)
    assert texts["constant rounds"] == ["# source: Play", "int = 3"]
    assert texts["constant pairs_count"] == ["# source: Scoring", "bool = true"]
    md = render_markdown(checked.game, tmp_path, {})
    assert "- `rounds` is always `3`: no rule changes it (rulebook: *Play*)." in md
    assert "- `pairs_count` is always `true`: no rule changes it (rulebook: *Scoring*)." in md


# ------------------------------------------------------------------------------ move where
MOVE = edit(
    BASE,
    "          - label: discard a card\n",
    "          - label: discard your best card\n"
    "            when: any(c.points >= 2 for c in hand[p])\n"
    "            do:\n"
    "              - move 1 where c.points == max(d.points for d in hand[p]) from hand[p]"
    " to discard\n"
    "          - label: take two coins\n"
    "            when: count(x for x in deck if x.points == 1) >= 2\n"
    "            do:\n"
    "              - move 2 where c.name == 'Coin' from deck to bottom of hand[p]\n"
    "          - label: discard a card\n",
    "zones:\n",
    "triggers:\n"
    "  crown_down:\n"
    "    to: discard\n"
    "    as: card\n"
    "    when: card.points == 3\n"
    "    source: Turn\n"
    "    do:\n"
    '      - log "{card} is discarded"\n'
    "\n"
    "zones:\n",
)


def test_move_where_on_both_back_ends(tmp_path: Path) -> None:
    path = write(tmp_path, MOVE)
    lines = [x for n in (2, 3, 4) for log in play_both(path, n, range(4)) for x in log]
    assert any("take two coins" in x for x in lines)
    assert any("Crown is discarded" in x for x in lines)  # the trigger fired on a where-move


SETUP_MOVES = edit(
    BASE,
    "    - shuffle deck\n",
    "    - move 2 where c.points == 2 from deck to discard\n"  # the top-most two gems
    "    - move 1 where c.name == 'Coin' and c != top(deck) from deck to bottom of discard\n"
    "    - shuffle deck\n",
)


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_move_where_takes_the_top_most_fitting_cards(tmp_path: Path, backend: str) -> None:
    game = meeple.load(str(write(tmp_path, SETUP_MOVES)), 2, backend=backend)
    zones = game.new_initial_state(1).to_json()["zones"]
    # layout order: coins 0-9, gems 10-15, crowns 16-19 (the top); dealt like move N from:
    # the gem on top (15) first, so it ends lowest; the coin goes under them
    assert zones[1] == [9, 15, 14]


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_move_where_with_too_few_fitting_cards_is_a_rule_error(
    tmp_path: Path, backend: str
) -> None:
    text = edit(SETUP_MOVES, "move 2 where c.points == 2", "move 7 where c.points == 2")
    game = meeple.load(str(write(tmp_path, text)), 2, backend=backend)
    with pytest.raises(meeple.RuleError) as e:
        game.new_initial_state(1)
    assert "cannot take 7 from deck: only 6 of its cards fit the condition" in str(e.value)
    assert e.value.span is not None and e.value.span.line == position(text, "- |move 7")[0]


def test_move_where_misuse_is_refused_at_its_place(tmp_path: Path) -> None:
    text = edit(SETUP_MOVES, "where c.points == 2 from", "where c.points from")
    refused(tmp_path, text, CheckError, "where |c.points from", "this has the wrong type")
    text = edit(SETUP_MOVES, "move 2 where c.points == 2", "move 'two' where c.points == 2")
    refused(tmp_path, text, CheckError, "move |'two'", "this has the wrong type")
    text = edit(SETUP_MOVES, "where c.points == 2 from deck", "where c.points == 2 from 3")
    refused(tmp_path, text, CheckError, "from |3 to discard", "this is not a zone")
    text = edit(
        MOVE,
        "              - move 2 where c.name == 'Coin'",
        "              - let c = 1\n              - move 2 where c.name == 'Coin'",
    )
    refused(tmp_path, text, CheckError, "where |c.name == 'Coin'", "'c' is already a local")
    text = edit(SETUP_MOVES, "where c.points == 2 from", "where c.points == 2 form")
    refused(tmp_path, text, ParseError, "== 2 |form deck", "unexpected")


def test_move_where_in_the_rule_language_and_the_rulebook(tmp_path: Path) -> None:
    checked = load_rules(write(tmp_path, SETUP_MOVES))
    setup = rule_texts(checked.game)["setup"]
    assert "move 2 where c.points == 2 from deck to discard" in setup
    assert (
        'move 1 where c.name == "Coin" and c != top(deck) from deck to bottom of discard' in setup
    )
    md = render_markdown(checked.game, tmp_path, {})
    assert (
        "- Move `2` from `deck` to `discard`: the top-most cards `c` such that "
        "`c.points == 2`." in md
    )


# --------------------------------------------------------------------- sorted, min_by, max_by
ORDERING = edit(
    BASE,
    "    - shuffle deck\n",
    "    - shuffle deck\n"
    '    - log "sorted {first(sorted(c in cards, -c.points)).points}'
    ' {first(sorted(c in cards, c.name)).name}"\n'
    '    - log "min_by {min_by(c in cards, c.points)} max_by {max_by(c in cards, c.points)}"\n'
    '    - log "ties {max_by(c in cards, 0) == first(cards)} {min_by(q in players, 0)}"\n',
    "          - label: discard a card\n",
    "          - label: discard {c}, the best\n"
    "            for: c in [x for x in hand[p] if x == max_by(y in hand[p], y.points)]\n"
    "            do:\n"
    "              - move c to discard\n"
    "          - label: discard a card\n",
    "        - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], sets)",
    "        - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], sets)"
    " - sum([x.points for x in sorted(c in hand[p], c.points)]) + hand_points(p)",
)


def test_sorted_min_by_max_by_on_both_back_ends(tmp_path: Path) -> None:
    path = write(tmp_path, ORDERING)
    logs = play_both(path, 3, range(3))
    for log in logs:
        assert "sorted 3 Coin" in log
        assert "min_by Coin max_by Crown" in log  # the first of the tied cards
        assert "ties yes P1" in log
    assert any("the best" in x for log in logs for x in log)


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_min_by_of_an_empty_list_is_a_rule_error(tmp_path: Path, backend: str) -> None:
    text = edit(BASE, "    - shuffle deck\n", '    - log "{min_by(c in discard, c.points)}"\n')
    game = meeple.load(str(write(tmp_path, text)), 2, backend=backend)
    with pytest.raises(meeple.RuleError) as e:
        game.new_initial_state(1)
    assert "min_by() of an empty list has no item to give" in str(e.value)


def test_ordering_misuse_is_refused_at_its_place(tmp_path: Path) -> None:
    text = edit(ORDERING, "max_by(c in cards, 0) ==", "max_by(cards, 0) ==")
    refused(tmp_path, text, CheckError, "max_by(|cards, 0)", "takes 'NAME in LIST' first")
    text = edit(ORDERING, "max_by(c in cards, 0) ==", "max_by(c in cards, c) ==")
    refused(tmp_path, text, CheckError, "max_by(c in cards, |c) ==", "must be a number or a text")
    text = edit(ORDERING, "max_by(c in cards, 0) ==", "max_by(c in 3, 0) ==")
    refused(tmp_path, text, CheckError, "max_by(c in |3, 0)", "this is not a zone or a list")
    text = edit(ORDERING, "max_by(c in cards, 0) ==", "max_by(deck in cards, 0) ==")
    refused(tmp_path, text, CheckError, "max_by(|deck in", "'deck' is already a name of the game")
    text = edit(ORDERING, "max_by(c in cards, 0) ==", "max_by(c in cards) ==")
    refused(tmp_path, text, CheckError, "|max_by(c in cards) ==", "'max_by' takes 2 argument(s)")


def test_ordering_in_the_rule_language_and_the_rulebook(tmp_path: Path) -> None:
    checked = load_rules(write(tmp_path, ORDERING))
    setup = rule_texts(checked.game)["setup"]
    assert 'log "ties {max_by(c in cards, 0) == first(cards)} {min_by(q in players, 0)}"' in setup
    md = render_markdown(checked.game, tmp_path, {})
    assert "`[x for x in hand[p] if x == max_by(y in hand[p], y.points)]`" in md


def test_a_scenario_cannot_set_a_constant(tmp_path: Path) -> None:
    from meeple.scenarios import ScenarioError, run_scenario

    path = write(tmp_path, CONST)
    (tmp_path / "scenarios").mkdir()
    scenario = tmp_path / "scenarios" / "s.yaml"
    scenario.write_text(
        "scenario: s\nsource: Play\nplayers: 2\nseed: 1\n"
        "given:\n  variables: {rounds: 5}\nrun: scoring\n",
        encoding="utf-8",
    )
    assert path.parent == scenario.parent.parent
    with pytest.raises(ScenarioError) as e:
        run_scenario(scenario)
    assert "'rounds' is a constant of the rules, not a variable" in str(e.value)
    assert e.value.span is not None and e.value.span.line == 6


def test_a_scenario_expects_no_constant_as_a_variable(tmp_path: Path) -> None:
    from meeple.scenarios import ScenarioError, run_scenario

    write(tmp_path, CONST)
    (tmp_path / "scenarios").mkdir()
    scenario = tmp_path / "scenarios" / "s.yaml"
    scenario.write_text(
        "scenario: s\nsource: Play\nplayers: 2\nseed: 1\n"
        "run: scoring\nexpect:\n  variables: {rounds: 3}\n",
        encoding="utf-8",
    )
    with pytest.raises(ScenarioError) as e:
        run_scenario(scenario)
    assert "'rounds' is a constant of the rules, not a variable: it never changes" in str(e.value)
    assert "holds: ['rounds == ...']" in (e.value.suggestion or "")


def test_lint_suggests_a_constant_and_finds_unused_or_uncited_ones(tmp_path: Path) -> None:
    from meeple.dsl.lint import lint

    text = edit(
        CONST,
        "  pairs_count: {value: true, source: Scoring}\n",
        "  pairs_count: {value: true, source: Scoring}\n"
        "  spare: {value: 7, source: Play}\n"
        "  uncited: {value: 1}\n",
        "  round: {type: int, initial: 1, source: Play}\n",
        "  round: {type: int, initial: 1, source: Play}\n"
        "  bonus: {type: int, initial: 2, source: Scoring}\n",
        "      until: round > rounds",
        "      until: round > rounds + bonus - 2 + uncited - 1",
    )
    warnings = {(w.span.line, w.message) for w in lint(load_rules(write(tmp_path, text)).game)}
    assert warnings == {
        (position(text, "  |spare:")[0], "constant 'spare' is never used"),
        (position(text, "  |uncited:")[0], "constant 'uncited' has no 'source'"),
        (
            position(text, "  |bonus:")[0],
            "no rule assigns variable 'bonus': it keeps its initial value",
        ),
    }

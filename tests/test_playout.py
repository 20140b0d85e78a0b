"""Random playouts (State.playout, Game.playout) give exactly the game the API gives.

A playout takes each decision inline, and a generated module runs its direct code
(codegen/direct.py) instead of stepping frames. For every shipped game, player count and back
end, a playout records the index it chose at each decision; the same indices are then played
through apply_action (the option at that index of the decision's actions, in the rules' order),
and the final saved states (``to_json()``) must be identical, as must the numbers of decisions.
Playouts start from a new game, from states in the middle of a game (a pending choice, a pick
half made) and from saved states.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.api import load_checked
from meeple.codegen.emitter import ModuleEmitter
from meeple.dsl import ir
from meeple.dsl.errors import MeepleError, RuleError
from meeple.interpreter.game import Game
from meeple.registry import game_ids
from meeple.runtime.state import State

BACKENDS = ("interpreter", "compiled")


def _cases(per_count: int) -> list[Any]:
    out = []
    for gid in game_ids():
        g = load_checked(gid).game
        for n in range(g.players_min, g.players_max + 1):
            out.append(pytest.param(gid, n, per_count, id=f"{gid}-{n}"))
    return out


def _runs(per_count: int, shift: int) -> list[Any]:
    """``_cases(per_count)`` on each back end, as (game id, players, games, back end): the quick
    loop plays a game's player counts on the two back ends alternately (so every game on both;
    ``shift`` 0 or 1 says which back end the lowest count is played on), the deep run the other
    back end of each count (tests/sampling.py)."""
    out = []
    for case in _cases(per_count):
        gid, n, games = case.values
        k = n - load_checked(gid).game.players_min  # the count's place among the game's
        for j, backend in enumerate(BACKENDS):
            deep = [] if (k + j + shift) % 2 == 0 else [pytest.mark.deep]
            out.append(pytest.param(gid, n, games, backend, id=f"{case.id}-{backend}", marks=deep))
    return out


_games: dict[tuple[str, int, str], Game] = {}


def cached_game(gid: str, players: int, backend: str) -> Game:
    """``meeple.load(gid, players, backend=backend)``, once per test process."""
    key = (gid, players, backend)
    if key not in _games:
        _games[key] = meeple.load(gid, players, backend=backend)
    return _games[key]


class Recorder:
    """A chooser that draws uniformly and remembers (n, index) of every decision."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.taken: list[tuple[int, int]] = []

    def __call__(self, n: int) -> int:
        i = int(self.rng.random() * n)
        self.taken.append((n, i))
        return i


def replay(state: State, taken: list[tuple[int, int]]) -> None:
    """Play ``taken`` through the API: at each decision the option at the recorded index."""
    for n, i in taken:
        d = state.pending
        assert d is not None, "the API game ended before the playout's did"
        assert len(d.actions) == n, "the playout saw another number of options"
        state.apply_action(d.actions[i])
    assert state.is_terminal(), "the playout ended before the API game did"


def playouts_are_api_games(
    rules: Path, players: int, seeds: range
) -> tuple[list[State], list[str]]:
    """One compiled playout of ``rules`` per seed, each asserted to end in the state of the
    interpreter's API game and of the compiled one for the same choices (to_json); returns the
    playouts' final states and the log lines of the interpreter's games (for checking that
    the games reach every shape a fixture has)."""
    compiled = meeple.load(str(rules), players, backend="compiled")
    interpreter = meeple.load(str(rules), players, backend="interpreter")
    finals: list[State] = []
    log: list[str] = []
    for seed in seeds:
        rec = Recorder(seed)
        final = compiled.playout(seed, rec)
        for game in (interpreter, compiled):
            api = game.new_initial_state(seed, record_log=False)
            replay(api, rec.taken)
            assert final.to_json() == api.to_json()
        logged = interpreter.new_initial_state(seed)
        replay(logged, rec.taken)
        log += [text for _, text in logged.log]
        finals.append(final)
    return finals, log


def random_moves(state: State, rng: random.Random, k: int) -> None:
    """Up to ``k`` uniform random actions through the API (fewer if the game ends)."""
    for _ in range(k):
        if state.is_terminal():
            return
        a = state.legal_actions()
        state.apply_action(a[rng.randrange(len(a))])


def playout_is_the_api_game(game: Game, seed: int) -> tuple[State, Recorder]:
    """``game.playout(seed)`` with a recording chooser, checked equal (``to_json``) to the API
    game of the same choices; returns the final state and the recorder."""
    rec = Recorder(seed)
    final = game.playout(seed, rec)  # the setup run by the playout too
    api = game.new_initial_state(seed, record_log=False)
    replay(api, rec.taken)
    assert final.to_json() == api.to_json()
    return final, rec


def _check_from(game: Game, state: State, seed: int) -> None:
    api = game.state_from_json(state.to_json(), record_log=False)
    rec = Recorder(seed)
    counted = state.playout(rec)
    assert counted == len(rec.taken)
    replay(api, rec.taken)
    assert state.to_json() == api.to_json()
    assert state.returns() == api.returns()
    state.check_invariants()


# the quick loop plays the first game of each case, the deep run the others: the same games
# (from_the_middle's draws go on from game to game: its deep case plays all of them again)
PART = ["first", pytest.param("rest", marks=pytest.mark.deep)]


def _seeds(part: str, games: int) -> range:
    """The seeds of ``part`` ("first": 0; "rest": 1 to games - 1; "all": every one)."""
    return {"first": range(1), "rest": range(1, games), "all": range(games)}[part]


@pytest.mark.parametrize("part", PART)
# the quick loop: each game and count on one back end here, on the other from the middle below
@pytest.mark.parametrize(("game_id", "players", "games", "backend"), _runs(3, 1))
def test_playout_is_the_api_game(
    game_id: str, players: int, games: int, backend: str, part: str
) -> None:
    game = cached_game(game_id, players, backend)
    for seed in _seeds(part, games):
        final, rec = playout_is_the_api_game(game, seed)
        assert final.move_number == len(rec.taken)


@pytest.mark.parametrize("part", ["first", pytest.param("all", marks=pytest.mark.deep)])
@pytest.mark.parametrize(("game_id", "players", "games", "backend"), _runs(2, 0))
def test_playout_from_the_middle_of_a_game(
    game_id: str, players: int, games: int, backend: str, part: str
) -> None:
    """From states after 1 to 200 random decisions: pending choices, picks half made,
    auctions under way; each also as a saved state loaded again."""
    game = cached_game(game_id, players, backend)
    rng = random.Random(players)
    for seed in _seeds(part, games):
        for k in (1, 7, 40, 200):
            state = game.new_initial_state(seed, record_log=False)
            random_moves(state, rng, k)
            _check_from(game, state.clone(), seed + k)
            _check_from(game, game.state_from_json(state.to_json(), record_log=False), seed)


@pytest.mark.deep
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(("game_id", "players", "games"), _cases(60))
def test_playout_is_the_api_game_deep(game_id: str, players: int, games: int, backend: str) -> None:
    game = cached_game(game_id, players, backend)
    rng = random.Random(7)
    for seed in range(games):
        state = game.new_initial_state(seed, record_log=False)
        random_moves(state, rng, rng.randrange(0, 300))
        _check_from(game, state, seed)


def test_a_seed_or_a_random_gives_uniform_choices_and_the_same_game(sun4: Game) -> None:
    a = sun4.playout(5)
    b = sun4.new_initial_state(5, record_log=False)
    b.playout(random.Random(5))
    assert a.to_json() == b.to_json()
    assert sun4.playout(6).to_json() != a.to_json()


def test_with_the_log_on_the_playout_goes_through_the_api(sun4: Game) -> None:
    logged = sun4.new_initial_state(3)
    rec = Recorder(3)
    logged.playout(rec)
    api = sun4.new_initial_state(3)
    replay(api, rec.taken)
    assert logged.log == api.log and logged.log
    assert logged.to_json() == api.to_json()


def test_a_terminal_state_plays_nothing(sun4: Game) -> None:
    state = sun4.playout(1)
    before = state.to_json()
    assert state.playout(2) == 0
    assert state.to_json() == before


@pytest.mark.parametrize("bad", [lambda n: n, lambda n: -1, lambda n: "0", lambda n: None])
def test_a_chooser_out_of_range_is_refused_clearly(sun4: Game, bad: Any) -> None:
    state = sun4.new_initial_state(0, record_log=False)
    with pytest.raises(MeepleError, match="chooser must return an index 0 to"):
        state.playout(bad)


def test_something_else_than_a_chooser_is_refused(sun4: Game) -> None:
    with pytest.raises(MeepleError, match="a playout chooses with"):
        sun4.new_initial_state(0, record_log=False).playout("random")  # type: ignore[arg-type]


def test_the_generated_module_has_direct_code_for_every_block_that_may_stop() -> None:
    """The compiled back end's playouts run direct code (``P.resume``) for every block that
    may stop; a flat block's frame-stepping function runs it whole already."""
    prog = cached_game("shadow-of-the-sun", 4, "compiled").program
    em = ModuleEmitter(load_checked("shadow-of-the-sun"))
    nodes = em.numbering.nodes
    stopping = {u for u, n in enumerate(nodes) if isinstance(n, ir.Block) and not em.flat(n)}
    assert stopping and set(prog.resume) == stopping
    assert not cached_game("shadow-of-the-sun", 4, "interpreter").program.resume


FIXTURES = Path(__file__).parent / "fixtures"


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fixture", ["minimal", "peek", "tiny-deal"])
def test_playouts_of_the_fixture_games_are_the_api_games(fixture: str, backend: str) -> None:
    path = FIXTURES / fixture / "game.yaml"
    lo = load_checked(str(path)).game.players_min
    game = meeple.load(str(path), lo, backend=backend)
    for seed in range(5):
        playout_is_the_api_game(game, seed)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_rule_that_fails_in_a_playout_fails_as_in_the_api(tmp_path: Path, backend: str) -> None:
    """The deck runs out (no refill) in the tenth round: the same RuleError, at the same rule
    line, whether the decisions go through apply_action or are taken inline."""
    text = (FIXTURES / "minimal" / "game.yaml").read_text(encoding="utf-8")
    (tmp_path / "game.yaml").write_text(text.replace("until: round > 3", "until: round > 40"))
    game = meeple.load(str(tmp_path / "game.yaml"), 2, backend=backend)
    errors = []
    for how in ("playout", "api"):
        state = game.new_initial_state(0, record_log=False)
        with pytest.raises(RuleError) as info:
            if how == "playout":
                state.playout(lambda n: 0)  # always draw
            else:
                while not state.is_terminal():
                    state.apply_action(state.pending.actions[0])
        errors.append((str(info.value), info.value.span.line if info.value.span else None))
    assert errors[0] == errors[1]
    assert "ran out" in errors[0][0] and errors[0][1] is not None


class Seven:
    """An integer type that is not int (as numpy's integers are)."""

    def __index__(self) -> int:
        return 0


def test_a_whole_number_type_is_an_index_but_a_bool_is_not(sun4: Game) -> None:
    assert sun4.new_initial_state(0, record_log=False).playout(lambda n: Seven()) > 0
    with pytest.raises(MeepleError, match="not True"):
        sun4.new_initial_state(0, record_log=False).playout(lambda n: True)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("when", [0, 1, 25])
def test_a_chooser_that_raises_raises_its_own_error(backend: str, when: int) -> None:
    """The caller's exception comes out as it is (not as a rules or internal error); raised at
    the first decision of a pending state, it leaves the state as it was."""
    game = cached_game("shadow-of-the-sun", 4, backend)
    state = game.new_initial_state(2, record_log=False)
    before = state.to_json()
    calls = []

    def chooser(n: int) -> int:
        calls.append(n)
        if len(calls) > when:
            raise KeyError("my agent broke")
        return 0

    with pytest.raises(KeyError, match="my agent broke"):
        state.playout(chooser)
    if when == 0:
        assert state.choose is None
        assert state.to_json() == before
    else:  # half run: refused from then on, not played on to a made-up end
        for use in (state.clone, state.to_json, lambda: state.playout(0)):
            with pytest.raises(MeepleError, match="a playout failed in it"):
                use()
        with pytest.raises(MeepleError, match="a playout failed in it"):
            state.apply_action(0)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("use", ["clone", "to_json", "apply_action", "playout"])
def test_the_state_of_a_running_playout_cannot_be_used_from_its_chooser(
    backend: str, use: str
) -> None:
    """A chooser that clones, saves, plays on or plays out the state being played out is
    refused clearly (its frames are not a position): clone before the playout."""
    state = cached_game("shadow-of-the-sun", 4, backend).new_initial_state(1, record_log=False)
    calls = []

    def chooser(n: int) -> int:
        calls.append(n)
        if len(calls) == 3:
            action = {
                "apply_action": lambda: state.apply_action(0),
                "playout": lambda: state.playout(0),
            }
            {"clone": state.clone, "to_json": state.to_json, **action}[use]()
        return 0

    with pytest.raises(MeepleError, match="while a playout is running on it"):
        state.playout(chooser)


def test_seeds_are_checked_as_a_games_seeds(sun4: Game) -> None:
    for bad in (-1, 2**64, True, 1.5):
        with pytest.raises(MeepleError, match="seed is 0 to|chooses with"):
            sun4.new_initial_state(0, record_log=False).playout(bad)  # type: ignore[arg-type]
    a = sun4.new_initial_state(0, record_log=False)
    a.playout(Seven())  # a whole-number type is a seed too
    assert a.to_json() == sun4.playout(0).to_json()


def test_a_game_where_every_seat_is_eliminated_has_no_winner(tmp_path: Path) -> None:
    """Each turn eliminates its player: nobody is left at the end, nobody wins, and the final
    state saves and loads."""
    text = (FIXTURES / "minimal" / "game.yaml").read_text(encoding="utf-8")
    turn = "      - choose: Draw or discard?"
    assert turn in text
    (tmp_path / "game.yaml").write_text(text.replace(turn, "      - eliminate p\n" + turn))
    for backend in BACKENDS:
        game = meeple.load(str(tmp_path / "game.yaml"), 2, backend=backend)
        final = game.playout(3)
        assert final.is_terminal() and final.players == []
        assert final.winners() == [] and final.returns() == [0.0, 0.0]
        again = game.state_from_json(final.to_json())
        assert again.to_json() == final.to_json()


def _plays_out_as_the_api_games(rules: Path, backend: str, shapes: tuple[str, ...]) -> None:
    """40 playouts of the 3-player game ``rules``, each the API's game for the same choices;
    between them the API games' logs show each of ``shapes`` (regular expressions)."""
    game = meeple.load(str(rules), 3, backend=backend)
    log: list[str] = []
    for seed in range(40):
        _, rec = playout_is_the_api_game(game, seed)
        logged = game.new_initial_state(seed)
        replay(logged, rec.taken)
        log += [text for _, text in logged.log]
    for shape in shapes:
        assert any(re.search(shape, line) for line in log), shape


def _fails_as_the_api_game(
    rules: Path, tmp_path: Path, edit: tuple[str, str], message: str, backend: str
) -> None:
    """``rules`` with ``edit`` made fails a playout with ``message``, and the API game of the
    same choices with the same rule error at the same place."""
    text = rules.read_text(encoding="utf-8")
    assert edit[0] in text
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(edit[0], edit[1]), encoding="utf-8")
    game = meeple.load(str(path), 3, backend=backend)
    for seed in range(40):
        rec = Recorder(seed)
        try:
            game.playout(seed, rec)
        except RuleError as e:
            played = e
            break
    else:
        raise AssertionError(f"no playout met the broken rule of {rules.parent.name}")
    assert re.search(message, str(played)), str(played)
    api = game.new_initial_state(seed, record_log=False)
    with pytest.raises(RuleError) as applied:
        for _, i in rec.taken:
            assert api.pending is not None
            api.apply_action(api.pending.actions[i])
    assert str(applied.value) == str(played)
    assert played.span == applied.value.span


PICKS = FIXTURES / "picks" / "game.yaml"

#: What the API games of the picks fixture must show between them (their logs): each shape of
#: pick that the generated module writes its own way, picking two or more cards at least once.
PICK_SHAPES = (
    r"Put two cards on top of your hand -> \w+, \w+",  # to its own zone: picked cards stay there
    r"Show one or two cards of different names -> \w+, \w+",  # to no zone; where reads picked
    r"Lay out up to two cards, from your hand or the discard -> \w+, \w+",  # a list, max 2
    r"Discard any number -> \w+, \w+, \w+",  # min 0, no max, as
    r"Give a card -> \w+",  # a zone to another zone of the same name
    r"Bank a card from the table -> \w+",  # a zone without owner to a player's zone
    r"is out of the game: P\d takes a card of yours -> skipped",  # the picker is out
)


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_shape_of_pick_plays_out_as_the_api_game(backend: str) -> None:
    """tests/fixtures/picks: a generated module writes each pick out in playouts
    (codegen/pick.py), with what it can prove left out (the filter of picked cards, for a zone
    whose picked cards go to a zone of another name); each playout is the API's game, and the
    API games show every shape of pick taken (identical cards are dealt in every hand)."""
    _plays_out_as_the_api_games(PICKS, backend, PICK_SHAPES)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("count: 2\n", "count: 9\n"), r"a pick needs 9 items but only \d could be picked"),
        (("max: 2\n", "max: 2 - round\n"), r"a pick of 1 to -?\d items is impossible"),
    ],
)
def test_a_pick_that_cannot_be_made_fails_a_playout_as_it_fails_the_api_game(
    tmp_path: Path, edit: tuple[str, str], message: str, backend: str
) -> None:
    """The same rule error, at the same place, as the API game raises for the same choices."""
    _fails_as_the_api_game(PICKS, tmp_path, edit, message, backend)


CHOICES = FIXTURES / "choices" / "game.yaml"

#: What the API games of the choices fixture must show between them (their logs): each shape of
#: option that the generated module collects its own way in playouts (codegen/choice.py).
CHOICE_SHAPES = (
    r"Your turn -> take a gem \w+",  # a kind of one copy per item, tested after ids may repeat
    r"Your turn -> take a coin",  # no name, a condition
    r"Your turn -> spend \w+",  # cards of one item line in a zone: one option per item line
    r"Your turn -> pay P\d",  # others(), after options that may repeat
    r"Your turn -> count \d",  # a range of numbers, after options that may repeat
    r"Your turn -> retire P\d",  # clockwise_from(), conditions before the loop
    r"Score -> score \d",  # a list that repeats a number
    r"Score -> pay back P\d",
    r"Call -> call P\d",  # a list that repeats a seat
    r"Call -> hail P\d",
    r"Name -> name \w+",  # a kind with identical items: one option per item line
    r"Name -> rename \w+",
    r"Bonus -> a gem \w+",  # nothing may repeat in this choice: no ids at all
    r"Bonus -> nothing",  # always offered
    r"Bonus -> nudge P\d",  # others() without a condition: the list itself
    r"Bonus -> step \d",  # a range of numbers: each one still checked by its site
    r"Bonus -> cheer P\d",  # players, a condition before the loop and one in it
    r"taxes you -> give \w+",  # a list that names the same card twice
    r"taxes you -> give a gem \w+",
    r"taxes you -> refuse",
    r"taxes you -> thank P\d",
    r"is out of the game: P\d taxes you -> skipped",  # the chooser is out
)


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_shape_of_choice_plays_out_as_the_api_game(backend: str) -> None:
    """tests/fixtures/choices: a generated module collects a choice's options in playouts
    without their action ids (codegen/choice.py), identical ids merged only where items may
    repeat one; each playout is the API's game (the same number of options at each decision),
    and the API games show every shape of option taken."""
    _plays_out_as_the_api_games(CHOICES, backend, CHOICE_SHAPES)


NOTHING_LEFT = """      - choose: Nothing left
        by: p
        options:
          - {label: "one {q}", for: q in others(p), when: round > 4, do: []}
          - {label: two, when: round > 5, do: []}
"""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("round <= 99", "round <= 99 // (3 - round)"), "division by zero"),
        (("n in 1..round", "n in (round - 2)..round"), "must be 0..[0-9]+ .* not -1"),
        (("      - choose: Bonus\n", NOTHING_LEFT + "      - choose: Bonus\n"), "no legal option"),
        (("taxer = q", "taxer = round + 9"), "seat 12 is not a player"),
    ],
)
def test_a_choice_that_fails_fails_a_playout_as_it_fails_the_api_game(
    tmp_path: Path, edit: tuple[str, str], message: str, backend: str
) -> None:
    """An option's condition that raises, a number out of its site's range, a choice with no
    option, a chooser that is not a seat: the same rule error, at the same place, as the API
    game raises for the same choices."""
    _fails_as_the_api_game(CHOICES, tmp_path, edit, message, backend)

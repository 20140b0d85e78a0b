"""The authoring commands as a user runs them: play/simulate with variants, --compare and
--plot, diff, doc, explain, schema."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from sampling import first_of_each_game

from meeple import api
from meeple.cli import main
from meeple.compare import mean_ci, wilson
from meeple.dsl.variant import variant_files
from meeple.registry import game_ids, rules_root

VARIANTS = [(g, f.stem) for g in game_ids() for f in variant_files(rules_root() / g)]


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _players(game: str, variant: str) -> list[str]:
    return ["-p", "2"] if variant == "two-players" else []


# the first variant of each game in the quick loop, the others in the deep run
@pytest.mark.parametrize(("game", "variant"), first_of_each_game(VARIANTS))
def test_play_simulate_compare_and_diff_run_each_variant(
    capsys: pytest.CaptureFixture[str], game: str, variant: str
) -> None:
    code, out, _ = _run(capsys, "play", game, "--variant", variant, "-q")
    assert code == 0 and "Final scores" in out
    code, out, _ = _run(capsys, "diff", game, variant)
    name = api.load_checked(game).game.name
    assert code == 0 and out.startswith(f"--- {game}: {name}\n+++ {variant}: ")
    assert re.search(r"^@@ .+ \((changed|added|removed)\) @@$", out, re.M)
    if variant != "two-players":  # the rules as printed do not seat two
        code, out, _ = _run(capsys, "simulate", game, "--compare", variant, "-n", "2")
        assert code == 0 and "win rate P1" in out and "tie-breaker used" in out


def test_simulate_a_variant_and_compare_two_variants(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "-p", "2", "--variant", "two-players", "-n", "3"]
    code, out, _ = _run(capsys, *args)
    assert code == 0 and "variant: Duel" in out and "P3" not in out
    code, out, _ = _run(
        capsys, "simulate", "--variant", "short-game", "--compare", "bloodless-ties", "-n", "2"
    )
    assert code == 0 and "short-game" in out and "bloodless-ties" in out


def test_compare_plots_png_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(
        capsys, "simulate", "--compare", "short-game", "-n", "4", "--plot", str(tmp_path)
    )
    assert code == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["game_length.png", "score_spread.png", "tie_breaker.png", "win_rate.png"]
    for p in tmp_path.iterdir():
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 5000


def test_plot_works_without_compare(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(capsys, "simulate", "harbour-guilds", "-n", "3", "--plot", str(tmp_path))
    assert code == 0 and "win rate [95%]" in out
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["game_length.png", "score_spread.png", "tie_breaker.png", "win_rate.png"]


def test_intervals() -> None:
    lo, hi = wilson(5, 10)
    assert (round(lo, 4), round(hi, 4)) == (0.2366, 0.7634)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    m, lo, hi = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert m == 2.5 and round(hi - m, 4) == round(1.959963984540054 * 1.2909944 / 2, 4)


def test_doc_writes_markdown_and_html(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(capsys, "doc", "--variant", "short-game", "-o", str(tmp_path))
    assert code == 0
    md = (tmp_path / "shadow-of-the-sun.short-game.md").read_text()
    assert md.startswith("# Shadow of the Sun (variant: Four Days)")
    assert (
        "| 1 | The Spires Day (2 markers) |" in md and "| 1 | The Spires Day (1 marker)" not in md
    )
    assert (tmp_path / "shadow-of-the-sun.short-game.html").read_text().startswith("<!DOCTYPE")


def test_doc_of_the_current_folder_is_named_after_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `meeple doc .` in a game's folder wrote the hidden files ".md" and ".html"
    folder = tmp_path / "my-game"
    folder.mkdir()
    (folder / "game.yaml").write_bytes((rules_root() / "harbour-guilds" / "game.yaml").read_bytes())
    monkeypatch.chdir(folder)
    code, _, _ = _run(capsys, "doc", ".", "-o", "out")
    assert code == 0
    assert sorted(p.name for p in (folder / "out").iterdir() if p.suffix in (".md", ".html")) == [
        "my-game.html",
        "my-game.md",
    ]


def _line_of(game: str, text: str) -> int:
    """The line of the only occurrence of ``text`` in a shipped game's rules (explain cites it)."""
    lines = (rules_root() / game / "game.yaml").read_text(encoding="utf-8").splitlines()
    found = [i for i, line in enumerate(lines, 1) if text in line]
    assert len(found) == 1, f"{text!r} is on lines {found}"
    return found[0]


def test_explain_gives_the_failing_condition_and_its_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(capsys, "explain", "--seed", "0", "--steps", "68")
    assert code == 0
    assert "P" in out and "Action  (shadow-of-the-sun/game.yaml:" in out
    assert "legal     Preen" in out
    line = _line_of("shadow-of-the-sun", "markers_of(p, d) >= 1 and count(house[p]) > 0")
    assert (
        "not legal Bolster The Courtyard: its condition fails: markers_of(p, d) >= 1 "
        f"(here 0 >= 1) is false  (shadow-of-the-sun/game.yaml:{line})" in out
    )


def test_explain_rejects_an_illegal_action_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "explain", "--actions", "99999")
    assert code == 2 and "illegal action" in err


@pytest.mark.parametrize("ids", [",,", "3,,4", "3,", "²", "0x1", "-1", "9" * 5000])
def test_explain_refuses_actions_that_are_not_ids(
    capsys: pytest.CaptureFixture[str], ids: str
) -> None:
    """An empty item is a typo, not "no actions"; only ASCII digits are an id ("²" is a digit
    to str.isdigit, not to int); a huge number is refused before int() reads it."""
    code, out, err = _run(capsys, "explain", "--actions", ids)
    assert code == 2 and "--actions" in err and "Traceback" not in err + out, err
    assert "legal" not in out  # nothing explained as if no action had been given


def test_explain_stops_at_the_false_part_of_an_and(capsys: pytest.CaptureFixture[str]) -> None:
    # "count(at[s]) > 0 and top(at[s]).kind == ..." on an empty space: the rules never evaluate
    # top() there, and explain must not either (it raised IndexError)
    actions = "3087,7,13,56,31,50,49,58,776,756,741,810,743,742"
    code, out, _ = _run(
        capsys, "explain", "shadow-of-the-emperor", "-p", "2", "-s", "2", "--actions", actions
    )
    assert code == 0
    assert "not legal Mainz beside the privilege: its condition fails: count(at[s]) > 0 " in out
    line = _line_of(
        "shadow-of-the-emperor", "when: count(at[s]) > 0 and top(at[s]).kind == 'knights'"
    )
    assert f"(here 0 > 0) is false  (shadow-of-the-emperor/game.yaml:{line})" in out


def test_schema_and_bench_refuse_bad_output_and_durations(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for target in (tmp_path / "missing" / "x.json", tmp_path):
        code, _, err = _run(capsys, "schema", "-o", str(target))
        assert code == 2 and f"cannot write {target}" in err
    for seconds in ("nan", "inf", "1e-9", "0"):
        code, _, err = _run(capsys, "bench", "harbour-guilds", "--seconds", seconds)
        assert code == 2 and "--seconds is 0.01 to 3600" in err


@pytest.mark.parametrize("compare", [[], ["--compare", "short-game"]])
def test_plot_folder_is_checked_before_the_run(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    compare: list[str],
) -> None:
    # a long run used to end in "cannot write figures"; now nothing is played first
    import meeple.compare
    import meeple.simulate

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("games were played before the figures' folder was checked")

    monkeypatch.setattr(meeple.simulate, "gather", played)
    monkeypatch.setattr(meeple.compare, "gather", played)
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    code, _, err = _run(capsys, "simulate", "-n", "5", *compare, "--plot", str(a_file / "figs"))
    assert code == 2 and "cannot write figures to" in err


def test_schema_is_published(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(capsys, "schema")
    assert code == 0 and json.loads(out)["title"]
    f = tmp_path / "v.json"
    assert _run(capsys, "schema", "--variant", "-o", str(f))[0] == 0
    assert json.loads(f.read_text())["$id"].endswith("variant.schema.json")


def test_explain_a_tie_break_names_the_not_self_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "explain", "--seed", "11", "--steps", "359")
    assert code == 0 and "Struggle: break the tie" in out
    assert "legal     P1" in out and "legal     P2" in out
    assert "not legal P4: the player breaking the tie may not choose himself (not_self)" in out
    # P3 fought with a weaker Legion: not one of the majority's holders
    assert "not legal P3: not tied for the lead: not a holder of strongest_legion(fighters)" in out


# the quick loop checks each game's first variant file, the deep run the others
@pytest.mark.parametrize(("game", "variant"), first_of_each_game(VARIANTS))
def test_check_accepts_a_variant_file(
    capsys: pytest.CaptureFixture[str], game: str, variant: str
) -> None:
    path = str(rules_root() / game / "variants" / f"{variant}.yaml")
    code, out, _ = _run(capsys, "check", path)
    assert code == 0 and f"{path}: ok:" in out and "(variant: " in out


def test_explain_names_an_option_whose_text_cannot_be_drawn_here() -> None:
    """The Doctor's options are one per space, their text naming the aristocrat on it: on an
    empty space the text cannot be drawn (top() of an empty pile). explain (and so the play
    screen, which used to stop on the IndexError) names such an option as written, with its
    space, and gives its failing condition."""
    import random

    from meeple import api
    from meeple.explain import explain

    st = api.load("shadow-of-the-emperor").new_initial_state(0)
    rng = random.Random(0)
    for _ in range(24):
        st.apply_action(rng.choice(st.legal_actions()))
    assert st.prompt().endswith("rejuvenate one of your aristocrats or age an opponent's")
    reasons = {v.label: v.reason for v in explain(st) if not v.legal}
    label = "rejuvenate your aristocrat on {s} (age {age[top(at[s])]}) [s = Mainz city 1]"
    assert reasons[label] == "its condition fails: doctor_target(p, s) is false"

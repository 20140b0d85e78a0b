"""A variant's ``extends:`` is an id, never a path (docs/security.md): a variant written by a
stranger must not make meeple read a file of its choosing, nor show what such a file holds. The
id is looked up only as the game beside the variant (or the game it was asked for), a variant of
the same folder, or a shipped game; a game file is never read as a variant, nor a variant as a
game. The web editor's check goes through the same code."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple import api
from meeple.dsl.errors import MeepleError, SchemaError
from meeple.registry import rules_root

HARBOUR = rules_root() / "harbour-guilds"
SECRET = "AKIA-FAKE-SECRET-12345"
KEY = "aws_secret_access_key"
RATIONALE = "rationale: " + "a long enough rationale for the schema " * 2 + "\n"


def _variant(extends: str, vid: str = "v") -> str:
    return (
        f"variant: {vid}\nname: V\nextends: {json.dumps(extends)}\n"
        + RATIONALE
        + "source: x\nchanges:\n  - set: game.players.min\n    to: 3\n"
    )


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """tmp/secret/creds.yaml (a YAML file with a secret), tmp/hideout/ (the variants)."""
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / "creds.yaml").write_text(f"{KEY}: {SECRET}\nregion: eu\n")
    (tmp_path / "secret" / "creds").write_text(f"{KEY}: {SECRET}\n")
    (tmp_path / "hideout").mkdir()
    return tmp_path


def _refused(f: Path) -> MeepleError:
    with pytest.raises(MeepleError) as info:
        api.load(str(f))
    return info.value


def _says_nothing_of_other_files(e: MeepleError) -> None:
    told = " ".join(str(x) for x in (e.message, e.expected, e.suggestion) if x)
    assert SECRET not in told and KEY not in told and "region" not in told, told
    assert "hideout" not in told, told  # no folder name offered as a game id


@pytest.mark.parametrize(
    "extends",
    [
        "../secret/creds.yaml",
        "../secret/creds",
        "{root}/secret/creds.yaml",
        "{root}/secret/creds",
        "..",
        "../secret",
        "..\\secret\\creds.yaml",
        "C:\\secret\\creds.yaml",
        "c:creds",
        "creds.yaml",
        "/etc/passwd",
        "{harbour}/game.yaml",
        "harbour-guilds.yaml",
        "Harbour-Guilds",
    ],
)
def test_a_path_in_extends_is_refused_at_its_position_without_reading_it(
    tree: Path, extends: str
) -> None:
    extends = extends.format(root=tree, harbour=HARBOUR)
    f = tree / "hideout" / "leak.yaml"
    f.write_text(_variant(extends))
    e = _refused(f)
    assert isinstance(e, SchemaError) and e.span is not None
    assert (e.span.file, e.span.line, e.span.col) == (str(f), 3, 10)
    assert e.message == "'extends:' takes an id, not a path or a file name"
    assert e.expected is not None and "harbour-guilds" in e.expected  # the ids it may name
    _says_nothing_of_other_files(e)


def test_a_path_is_refused_through_the_web_editors_check(tree: Path) -> None:
    pytest.importorskip("flask", reason="meeple serve needs the web extra: pip install .[web]")
    from meeple.web.app import create_app  # noqa: PLC0415

    client = create_app().test_client()
    body = {"game": "harbour-guilds", "file": "variants/two-guilds.yaml"}
    for extends in (f"{tree}/secret/creds", f"{tree}/secret/creds.yaml", "../../secret/creds"):
        r = client.post("/api/check", json={**body, "text": _variant(extends, "two-guilds")})
        assert r.status_code == 200 and r.is_json
        (err,) = r.json["errors"]
        assert (err["file"], err["line"], err["col"]) == (
            "harbour-guilds/variants/two-guilds.yaml",
            3,
            10,
        )
        assert "takes an id, not a path" in err["message"]
        assert SECRET not in r.get_data(as_text=True) and KEY not in r.get_data(as_text=True)


def test_another_game_folder_is_not_reached_from_a_games_variants(tmp_path: Path) -> None:
    # a game folder beside the variant's own game is not one of the ids it may name
    for g in ("hg", "other"):
        (tmp_path / g / "variants").mkdir(parents=True)
        shutil.copyfile(HARBOUR / "game.yaml", tmp_path / g / "game.yaml")
    (tmp_path / "other" / "game.yaml").write_text(f"{KEY}: {SECRET}\n")
    f = tmp_path / "hg" / "variants" / "x.yaml"
    for name in ("other", "louis-xiv"):  # nor a shipped game other than its own
        f.write_text(_variant(name, "x"))
        e = _refused(f)
        assert isinstance(e, SchemaError) and e.span is not None
        assert (e.span.file, e.span.line) == (str(f), 3)
        assert "names neither this variant's game nor one of its variants" in e.message
        _says_nothing_of_other_files(e)
        assert e.expected == "one of harbour-guilds"
    f.write_text(_variant("harbour-guilds", "x"))  # its own game, by its id
    assert api.load(str(f)).checked.game.players_min == 3


def test_a_game_file_is_not_read_as_a_variant_nor_a_variant_as_a_game(tmp_path: Path) -> None:
    shutil.copyfile(HARBOUR / "game.yaml", tmp_path / "base.yaml")
    shutil.copyfile(HARBOUR / "variants" / "two-guilds.yaml", tmp_path / "two-guilds.yaml")
    f = tmp_path / "v.yaml"
    f.write_text(_variant("base"))  # a game file beside it: not a variant
    e = _refused(f)
    assert e.span is not None and (e.span.file, e.span.line) == (str(f), 3)
    assert "names neither" in e.message and "'game'" not in e.message
    f.write_text(_variant("two-guilds"))  # a variant beside it, by its id: extended
    g = api.load(str(f))
    assert g.checked.game.players_min == 3 and "Brewers" not in str(g.checked.game.components)
    # a game folder whose game.yaml is a variant: refused at the extends, never read as a game
    (tmp_path / "g" / "variants").mkdir(parents=True)
    (tmp_path / "g" / "game.yaml").write_text(_variant("harbour-guilds", "game"))
    f = tmp_path / "g" / "variants" / "x.yaml"
    f.write_text(_variant("g", "x"))
    e = _refused(f)
    assert e.span is not None and (e.span.file, e.span.line) == (str(f), 3)
    # a game given where a variant is expected
    with pytest.raises(SchemaError, match="this is a game file, not a variant") as info:
        api.load("harbour-guilds", variant=str(tmp_path / "base.yaml"))
    assert info.value.span is not None and info.value.span.file == str(tmp_path / "base.yaml")


def test_diff_with_a_variant_file_as_the_game_names_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from meeple.cli import main  # noqa: PLC0415

    shutil.copyfile(HARBOUR / "variants" / "two-guilds.yaml", tmp_path / "two-guilds.yaml")
    monkeypatch.chdir(tmp_path)
    code = main(["diff", "two-guilds.yaml", "harbour-guilds"])
    err = capsys.readouterr().err
    assert code != 0
    assert err.startswith("error: two-guilds.yaml is a variant file, not a game"), err
    assert "the game in  has" not in err


@pytest.mark.parametrize("value", [42, None, b"harbour-guilds", 2.5, ["harbour-guilds"]])
def test_load_of_something_that_is_no_game_says_what_a_game_is(value: Any) -> None:
    with pytest.raises(MeepleError) as info:
        meeple.load(value)
    e = info.value
    assert e.message.startswith("a game is named by an id or a path, not by ")
    assert e.expected is not None and "shipped game's id" in e.expected
    with pytest.raises(MeepleError, match="a variant is named by an id or a path"):
        meeple.load("harbour-guilds", variant=value if value is not None else 7)

"""``meeple serve``'s JSON API (issue 15), through Flask's test client: each seat sees only its
observation, every decision carries its rule and the reasons of the illegal options, history
replays, saves load (and damaged ones are refused as JSON errors), the editor reports errors at
their line, and names in requests never reach the file system."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

flask = pytest.importorskip("flask", reason="meeple serve needs the web extra: pip install .[web]")

from meeple import api  # noqa: E402
from meeple.dsl.limits import MAX_FILE_BYTES  # noqa: E402
from meeple.registry import rules_root  # noqa: E402
from meeple.web.app import create_app  # noqa: E402
from meeple.web.tables import WEB_SAVE_FORMAT  # noqa: E402


@pytest.fixture()
def client() -> Any:
    return create_app().test_client()


def _new(client: Any, game: str = "harbour-guilds", players: int = 2, **kw: Any) -> dict[str, Any]:
    body = {"game": game, "players": players, "seed": 3, **kw}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.json
    return dict(r.json)


def _act_first(client: Any, v: dict[str, Any]) -> dict[str, Any]:
    legal = [o for o in v["decision"]["options"] if o["legal"]]
    r = client.post(f"/api/tables/{v['table']}/act", json={"action": legal[0]["action"]})
    assert r.status_code == 200, r.json
    return dict(r.json)


def _hidden_from(v: dict[str, Any]) -> list[dict[str, Any]]:
    """The zones of a view that belong to another seat and are hidden from the viewer."""
    me = v["viewer"]["seat"] if v.get("viewer") else None
    return [
        z for z in v["zones"] if z["visibility"] in ("owner", "hidden", "top") and z["owner"] != me
    ]


def test_a_seat_sees_its_own_hand_and_only_counts_of_the_others(client: Any) -> None:
    v = _new(client, "shadow-of-the-sun", 3, computers=[False, True, True])
    assert v["viewer"]["name"] == "P1"
    zones = {z["name"]: z for z in v["zones"]}
    assert zones["hand[P1]"]["cards"] and "cards" not in zones["hand[P2]"]
    assert zones["hand[P2]"]["count"] == 3 and "cards" not in zones["minion_deck"]
    # the game declares its days as rounds of phases: the view names the position
    assert v["position"] == "Round 1, phase Player Turns: P1's turn"
    for z in _hidden_from(v):
        assert "cards" not in z, z
    text = json.dumps(v)
    assert '"actions"' not in text and '"card":' not in text  # no action history, no card ids
    # what the server holds for P2 is not in P1's view
    t = api.load("shadow-of-the-sun", 3).new_initial_state(3)
    p2 = [c.name for c in t.zones[t.prog.zone_names.index("hand[P2]")]]
    assert sorted(p2) != sorted(zones["hand[P1]"]["cards"]) or p2 == []


def test_the_decision_names_its_rule_and_why_other_options_are_not_legal(client: Any) -> None:
    v = _new(client, "shadow-of-the-sun", 3, seed=0, computers=[False, True, True])
    rule = v["decision"]["rule"]
    assert re.fullmatch(r"shadow-of-the-sun/game\.yaml:\d+", rule["where"])
    assert rule["source"] == "Player Turns / Bonus" and rule["anchor"] == "procedure-bonus"
    v = _act_first(client, v)  # the special ability: some options' conditions fail
    bad = [o for o in v["decision"]["options"] if not o["legal"]]
    assert bad and all(o["reason"] and re.search(r"game\.yaml:\d+$", o["rule"]) for o in bad)
    r = client.post(f"/api/tables/{v['table']}/act", json={"label": bad[0]["label"]})
    assert r.status_code == 409
    assert "not legal now" in r.json["error"] and bad[0]["reason"] in r.json["error"]
    after = client.get(f"/api/tables/{v['table']}").json
    assert after["cursor"] == v["cursor"] and after["decision"] == v["decision"]  # unchanged


def test_hot_seat_blanks_the_screen_between_seats(client: Any) -> None:
    v = _new(client, computers=[False, False])
    assert v["viewer"]["seat"] == 0
    while "handover" not in v:
        v = _act_first(client, v)
    assert v["handover"]["name"] == "P2"
    assert not {"zones", "log", "decision", "variables"} & set(v)  # nothing of P1's view
    tid = v["table"]
    assert client.post(f"/api/tables/{tid}/screen", json={"seat": 0}).status_code == 409
    # stepping back while the screen changes hands shows P1's decisions only after P1 takes it
    back = client.post(f"/api/tables/{tid}/goto", json={"cursor": v["cursor"] - 1}).json
    assert back.get("handover", {}).get("name") == "P1" and "zones" not in back
    v = client.post(f"/api/tables/{tid}/goto", json={"cursor": v["cursor"]}).json
    v = client.post(f"/api/tables/{tid}/screen", json={"seat": 1}).json
    assert v["viewer"]["seat"] == 1
    zones = {z["name"]: z for z in v["zones"]}
    assert "cards" in zones["hand[P2]"] and "cards" not in zones["hand[P1]"]


def test_history_steps_back_and_forward_by_replaying(client: Any) -> None:
    v = _new(client, computers=[False, True])
    for _ in range(3):
        v = _act_first(client, v)
    tid, end = v["table"], v
    back = client.post(f"/api/tables/{tid}/goto", json={"cursor": 0}).json
    assert back["cursor"] == 0 and back["length"] == end["length"]
    assert back["zones"] != end["zones"]
    again = client.post(f"/api/tables/{tid}/goto", json={"cursor": end["length"]}).json
    assert again == end  # same seed, same actions: the same position
    r = client.post(f"/api/tables/{tid}/goto", json={"cursor": "x"})
    assert r.status_code == 400 and "whole number" in r.json["error"]


def test_save_and_load(client: Any) -> None:
    v = _new(client, computers=[False, True])
    for _ in range(2):
        v = _act_first(client, v)
    save = client.get(f"/api/tables/{v['table']}/save")
    assert "attachment" in save.headers["Content-Disposition"]
    data = save.json
    assert data["format"] == WEB_SAVE_FORMAT
    loaded = client.post("/api/load", json=data).json
    assert loaded["table"] != v["table"]
    assert {k: loaded[k] for k in ("zones", "log", "cursor")} == {
        k: v[k] for k in ("zones", "log", "cursor")
    }
    bare = api.load("harbour-guilds", 2).new_initial_state(5).to_json()
    assert client.post("/api/load", json=bare).status_code == 200


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d["actions"].append(10**9),
        lambda d: d.update(actions="lots"),
        lambda d: d.update(game="../../etc"),
        lambda d: d.update(variant="nope"),
        lambda d: d["state"]["zones"].reverse(),
        lambda d: d.update(computers=[1, 2]),
        lambda d: d.clear(),
    ],
)
def test_a_damaged_save_is_refused_as_a_json_error(client: Any, damage: Any) -> None:
    v = _new(client, computers=[False, True])
    data = client.get(f"/api/tables/{v['table']}/save").json
    damage(data)
    r = client.post("/api/load", json=data)
    assert r.status_code == 400 and r.is_json
    assert r.json["error"].startswith("error: ") and "Traceback" not in r.get_data(as_text=True)


def test_requests_name_games_and_files_never_paths(client: Any) -> None:
    for body in ({"game": "../../etc/passwd"}, {"game": str(rules_root() / "louis-xiv")}):
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400 and "unknown game" in r.json["error"]
    r = client.get("/api/rules/harbour-guilds/file?name=../../pyproject.toml")
    assert r.status_code == 400 and "not a rules file" in r.json["error"]
    r = client.post("/api/tables", data="{not json", content_type="application/json")
    assert r.status_code == 400 and r.json["line"] is None
    assert client.get("/api/tables/nosuchtable").status_code == 400
    deep = "[" * 100_000 + "]" * 100_000  # json's parser recursed past Python's limit: 500
    for url in ("/api/tables", "/api/load", "/api/check"):
        r = client.post(url, data=deep, content_type="application/json")
        assert r.status_code == 400 and "nested too deeply" in r.json["error"], url


def test_the_editor_reports_errors_at_their_line(client: Any) -> None:
    text = client.get("/api/rules/harbour-guilds/file?name=game.yaml").json["text"]
    body = {"game": "harbour-guilds", "file": "game.yaml", "text": text}
    ok = client.post("/api/check", json=body)
    assert ok.json["ok"] and ok.json["summary"].startswith("ok: Harbour Guilds")
    lines = text.splitlines()
    n = next(i for i, line in enumerate(lines) if line.strip().startswith("players:"))
    lines[n] = lines[n].replace("players:", "playerz:")
    body = {"game": "harbour-guilds", "file": "game.yaml", "text": "\n".join(lines)}
    err = client.post("/api/check", json=body).json["errors"][0]
    assert (err["file"], err["line"], err["col"]) == ("harbour-guilds/game.yaml", n + 1, 3)
    assert "did you mean 'players'" in err["error"]
    big = {"game": "harbour-guilds", "file": "game.yaml", "text": "#" * (MAX_FILE_BYTES + 1)}
    r = client.post("/api/check", json=big)
    assert r.status_code == 400 and "MAX_FILE_BYTES" in r.json["error"]
    huge = client.post(
        "/api/check", data=b"x" * (3 * MAX_FILE_BYTES), content_type="application/json"
    )
    assert huge.status_code == 413 and huge.is_json


def test_a_variant_is_checked_against_its_game(client: Any) -> None:
    body = {"game": "harbour-guilds", "file": "variants/two-guilds.yaml"}
    text = client.get("/api/rules/harbour-guilds/file?name=variants/two-guilds.yaml").json["text"]
    assert client.post("/api/check", json={**body, "text": text}).json["ok"]
    bad = text.replace("extends: harbour-guilds", "extends: harbour-guildz")
    err = client.post("/api/check", json={**body, "text": bad}).json["errors"][0]
    assert err["file"] == "harbour-guilds/variants/two-guilds.yaml" and err["line"] > 1


def test_scenarios_rerun_on_the_edited_rules(client: Any) -> None:
    shipped = client.post("/api/scenarios", json={"game": "harbour-guilds"}).json
    assert shipped["results"] and shipped["passed"] == len(shipped["results"])
    text = (rules_root() / "harbour-guilds" / "game.yaml").read_text(encoding="utf-8")
    edited = text.replace("bonus: 6}", "bonus: 60}")  # the Weavers' bonus, as a scenario checks
    assert edited != text
    body = {"game": "harbour-guilds", "edits": {"game.yaml": edited}}
    res = client.post("/api/scenarios", json=body).json
    assert res["passed"] < len(res["results"])


def test_pages_load_nothing_from_elsewhere(client: Any) -> None:
    page = client.get("/")
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    for path in ("/", "/static/app.js", "/static/style.css", "/rulebook/louis-xiv?table=ab12"):
        text = client.get(path).get_data(as_text=True)
        assert not re.search(r"(src|href)=\"(https?:)?//", text), path
        assert "cdn" not in text.lower(), path
    rulebook = client.get("/rulebook/louis-xiv?table=ab12").get_data(as_text=True)
    assert '<script src="/static/vendor/mermaid.min.js">' in rulebook
    assert 'id="back-to-game" href="/#table=ab12"' in rulebook
    assert client.get("/static/vendor/mermaid.min.js").status_code == 200
    assert client.get("/rulebook/louis-xiv?variant=../x").status_code == 400


def test_other_host_names_are_refused(client: Any) -> None:
    """A page elsewhere cannot reach the server through a name that resolves to 127.0.0.1."""
    assert client.get("/api/games", headers={"Host": "127.0.0.1:8000"}).status_code == 200
    assert client.get("/api/games", headers={"Host": "evil.example"}).status_code == 400


def test_a_saved_game_may_be_larger_than_a_rules_file(client: Any) -> None:
    big = {"format": "x", "padding": "x" * (3 * MAX_FILE_BYTES)}
    r = client.post("/api/load", json=big)
    assert r.status_code == 400 and "not a saved meeple game" in r.json["error"]
    assert client.post("/api/check", json=big).status_code == 413


def test_serve_binds_to_this_machine_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    from meeple import cli
    from meeple.web import app

    calls: list[tuple[str, int]] = []
    monkeypatch.setattr(app, "serve", lambda host, port: calls.append((host, port)))
    assert cli.main(["serve"]) == 0 and calls == [("127.0.0.1", 8000)]
    assert cli.main(["serve", "--port", "0"]) == 2


def _game_variants() -> list[tuple[str, str | None]]:
    from meeple.dsl.variant import variant_files
    from meeple.registry import game_ids

    return [
        (g, v)
        for g in game_ids()
        for v in [None, *(f.stem for f in variant_files(rules_root() / g))]
    ]


@pytest.mark.deep
@pytest.mark.parametrize("game, variant", _game_variants())
def test_every_game_plays_hot_seat_through_the_api_showing_each_seat_only_its_own(
    client: Any, game: str, variant: str | None
) -> None:
    import random

    players = api.load_checked(game, variant).game.players_min
    v = _new(client, game, players, variant=variant, computers=[False] * players)
    rng = random.Random(0)
    for _ in range(5000):  # a hang guard
        if v["over"]:
            break
        if "handover" in v:
            assert "zones" not in v
            seat = v["handover"]["seat"]
            v = client.post(f"/api/tables/{v['table']}/screen", json={"seat": seat}).json
            continue
        for z in _hidden_from(v):
            assert "cards" not in z, z
        legal = [o for o in v["decision"]["options"] if o["legal"]]
        assert legal and all(isinstance(o["action"], int) for o in legal)
        action = rng.choice(legal)["action"]
        r = client.post(f"/api/tables/{v['table']}/act", json={"action": action})
        assert r.status_code == 200, r.json
        v = r.json
    assert v["over"] and v["result"]["winners"]


def test_the_decision_json_shows_no_value_the_seat_may_not_see() -> None:
    """The page is shown to the seat deciding (hot-seat too): the reasons of its illegal options
    never print a value read from the other seat's hand nor name its cards (the designer's
    ``meeple explain`` does)."""
    from pathlib import Path

    from meeple.explain import UNSEEN, explain
    from meeple.web.tables import Tables

    peek = str(Path(__file__).parent / "fixtures" / "peek")
    game = api.load(peek)
    t = Tables().add(game, "peek", None, 2, [False, True])
    view = t.view()
    text = json.dumps(view["decision"])
    st = game.new_initial_state(2)
    theirs = sum(c.points for c in st.zones[st.prog.zone_names.index("hand[P2]")])
    reasons = {o["label"]: o["reason"] for o in view["decision"]["options"]}
    assert UNSEEN in reasons["peek"] and f"here {theirs} > 100" not in text
    assert "take " not in text  # P2's cards
    assert f"here {theirs} > 100" in {v.label: v.reason for v in explain(st)}["peek"]

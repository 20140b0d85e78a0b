"""``meeple serve``: the Flask application (routes only; the game logic is in tables.py, the
rules editor in editor.py).

Every request is untrusted (docs/security.md): bodies are size-limited, game and file names are
checked against the shipped ones (a request never names a path), saved games are checked by
``State.from_json``, and every error is JSON ``{"error", "file", "line", "col", ...}`` with an
HTTP status, never a traceback. Pages are static files; the page builds its DOM from the JSON
with ``textContent``, so no rule text is ever parsed as HTML. A Content-Security-Policy lets
the page load only this server's own files.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException

from meeple import api
from meeple.dsl.errors import IllegalActionError, MeepleError
from meeple.dsl.limits import MAX_FILE_BYTES, MAX_SAVE_BYTES
from meeple.registry import game_ids, rules_root

from . import editor
from .tables import MAX_ACTIONS, WEB_SAVE_FORMAT, Tables, known_game, load_game

STATIC = Path(__file__).parent / "static"

#: Largest request body: an edited rules file (MAX_FILE_BYTES) as JSON, escapes included.
MAX_REQUEST_BYTES = 2 * MAX_FILE_BYTES + 10_000

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'"
)


#: Host names the server answers to. A web page elsewhere cannot reach it through a name of its
#: own that resolves to 127.0.0.1 (DNS rebinding): such a request is refused (400).
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")


def create_app(hosts: tuple[str, ...] = LOCAL_HOSTS) -> Flask:
    """The web application with its own, empty set of tables, answering to ``hosts`` only."""
    app = Flask("meeple.web", static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_REQUEST_BYTES
    app.config["TRUSTED_HOSTS"] = list(hosts)
    tables = Tables()

    @app.after_request
    def _headers(resp: Response) -> Response:
        resp.headers["Content-Security-Policy"] = CSP
        resp.headers["X-Content-Type-Options"] = "nosniff"
        resp.headers["Referrer-Policy"] = "no-referrer"
        resp.headers.setdefault("Cache-Control", "no-store")
        return resp

    @app.errorhandler(MeepleError)
    def _meeple_error(e: MeepleError) -> tuple[Response, int]:
        status = 409 if isinstance(e, IllegalActionError) else 400
        return jsonify(editor.error_json(e)), status

    @app.errorhandler(HTTPException)
    def _http_error(e: HTTPException) -> tuple[Response, int]:
        text = e.description or e.name
        if e.code == 413:
            text = f"the request is larger than the limit ({_limit()} bytes)"
        return jsonify(_plain_error(text)), e.code or 500

    @app.errorhandler(Exception)
    def _internal(e: Exception) -> tuple[Response, int]:  # a bug of meeple's, not the user's
        app.logger.exception("internal error")
        text = f"internal error in meeple ({type(e).__name__}); please report it"
        return jsonify(_plain_error(text)), 500

    # ------------------------------------------------------------------ pages
    @app.get("/")
    def index() -> Response:
        return send_from_directory(STATIC, "index.html")

    @app.get("/favicon.ico")
    def favicon() -> Response:
        return Response(status=204)

    @app.get("/static/<path:name>")
    def static_file(name: str) -> Response:
        return send_from_directory(STATIC, name, max_age=3600)

    @app.get("/rulebook/<game>")
    def rulebook(game: str) -> Response:
        from meeple.authoring import render_rulebook  # noqa: PLC0415

        known_game(game)
        variant = request.args.get("variant") or None
        if variant is not None:
            load_game(game, variant, None)  # checks the variant's name
        table = request.args.get("table", "")
        back = "/" + (f"#table={table}" if re.fullmatch(r"[0-9a-f]{1,32}", table) else "")
        _, page = render_rulebook(game, variant, mermaid_src="/static/vendor/mermaid.min.js")
        nav = (
            '<nav class="meeple-nav" style="position:sticky;top:0;background:#fff;'
            'padding:4px 0;border-bottom:1px solid #ccc">'
            f'<a id="back-to-game" href="{back}">&larr; back to the game</a></nav>'
        )
        page = page.replace("<body>\n", "<body>\n" + nav + "\n", 1)
        return Response(page, mimetype="text/html")

    # ------------------------------------------------------------------ games
    @app.get("/api/games")
    def games() -> Response:
        from meeple.dsl.variant import variant_files  # noqa: PLC0415

        out = []
        for gid in game_ids():
            g = api.load_checked(gid).game
            variants = [f.stem for f in variant_files(rules_root() / gid)]
            out.append(
                {
                    "id": gid,
                    "name": g.name,
                    "min_players": g.players_min,
                    "max_players": g.players_max,
                    "variants": variants,
                }
            )
        return jsonify(out)

    @app.post("/api/tables")
    def new_table() -> Response:
        body = _body()
        game = known_game(body.get("game"))
        variant = body.get("variant") or None
        g = load_game(game, variant, body.get("players"))
        seed = _whole(body.get("seed", 0), "seed")
        computers = body.get("computers")
        n = g.num_players()
        if computers is None:
            computers = [p != 0 for p in range(n)]
        if not (
            isinstance(computers, list)
            and len(computers) == n
            and all(isinstance(c, bool) for c in computers)
        ):
            raise MeepleError(f"computers is one true/false per seat, {n} of them")
        t = tables.add(g, game, variant, seed, list(computers))
        with t.lock:
            t.begin()
            return jsonify(t.view())

    @app.get("/api/tables/<tid>")
    def view(tid: str) -> Response:
        t = tables.get(tid)
        with t.lock:
            return jsonify(t.view())

    @app.post("/api/tables/<tid>/act")
    def act(tid: str) -> Response:
        body = _body()
        t = tables.get(tid)
        with t.lock:
            t.act(body.get("action"), body.get("label"))
            return jsonify(t.view())

    @app.post("/api/tables/<tid>/screen")
    def screen(tid: str) -> Response:
        t = tables.get(tid)
        with t.lock:
            t.take_screen(_body().get("seat"))
            return jsonify(t.view())

    @app.post("/api/tables/<tid>/goto")
    def goto(tid: str) -> Response:
        t = tables.get(tid)
        with t.lock:
            t.goto(_whole(_body().get("cursor"), "cursor"))
            return jsonify(t.view())

    @app.post("/api/tables/<tid>/resume")
    def resume(tid: str) -> Response:
        """Play on from the position shown: later history is cut off, computers play."""
        t = tables.get(tid)
        with t.lock:
            t.run_computers()
            return jsonify(t.view())

    @app.get("/api/tables/<tid>/save")
    def save(tid: str) -> Response:
        t = tables.get(tid)
        with t.lock:
            data = t.save()
        return Response(
            json.dumps(data),
            mimetype="application/json",
            headers={"Content-Disposition": f'attachment; filename="{t.game_id}-{tid}.json"'},
        )

    @app.post("/api/load")
    def load() -> Response:
        data = _body()
        t = _load_save(tables, data)
        with t.lock:
            return jsonify(t.view())

    @app.before_request
    def _save_limit() -> None:
        if request.path == "/api/load":  # a saved game may be larger than a rules file
            request.max_content_length = MAX_SAVE_BYTES

    # ------------------------------------------------------------------ rules editor
    @app.get("/api/rules/<game>")
    def rules_files(game: str) -> Response:
        return jsonify({"game": known_game(game), "files": editor.rules_files(game)})

    @app.get("/api/rules/<game>/file")
    def rules_file(game: str) -> Response:
        known_game(game)
        name = request.args.get("name", "")
        return jsonify({"name": name, "text": editor.read_rules_file(game, name)})

    @app.post("/api/check")
    def check() -> Response:
        body = _body()
        return jsonify(
            editor.check_text(known_game(body.get("game")), body.get("file"), body.get("text"))
        )

    @app.post("/api/scenarios")
    def scenarios() -> Response:
        body = _body()
        game = known_game(body.get("game"))
        edits = body.get("edits") or {}
        results = editor.run_scenarios(game, edits)
        return jsonify({"results": results, "passed": sum(r["passed"] for r in results)})

    return app


def _plain_error(text: str) -> dict[str, Any]:
    """An error that is about no place in a file, in the shape of editor.error_json."""
    return {"error": f"error: {text}", "message": text, "file": None, "line": None, "col": None}


def _limit() -> int:
    return request.max_content_length or MAX_REQUEST_BYTES


def _body() -> dict[str, Any]:
    """The request's JSON object (MeepleError if it is not one)."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:  # json's parser recurses per nesting level: '[' * 100000
        raise MeepleError(
            "the request body is nested too deeply to be a saved game or a request of this page",
            expected="a JSON object a few levels deep",
        ) from None
    if not isinstance(data, dict):
        raise MeepleError(
            "the request body must be a JSON object",
            expected="JSON (a saved game is the .json file the page's Save gives)",
        )
    return data


def _whole(x: Any, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or not -(2**62) < x < 2**62:
        raise MeepleError(f"{what} is a whole number, not {str(x)[:20]!r}")
    return x


def _load_save(tables: Tables, data: dict[str, Any]) -> Any:
    """A table from a saved game: a page's save (settings, actions, final position) or a bare
    ``State.to_json()``. Untrusted: names are checked, the actions replayed, the position
    compared with the replay; a bare state goes through ``State.from_json``'s checks."""
    if data.get("format") == WEB_SAVE_FORMAT:
        game = known_game(data.get("game"))
        g = load_game(game, data.get("variant") or None, data.get("players"))
        computers = data.get("computers")
        n = g.num_players()
        if not (
            isinstance(computers, list)
            and len(computers) == n
            and all(isinstance(c, bool) for c in computers)
        ):
            raise MeepleError(f"this save is damaged: 'computers' is not {n} true/false values")
        actions = data.get("actions")
        if not isinstance(actions, list) or not all(
            isinstance(a, int) and not isinstance(a, bool) for a in actions
        ):
            raise MeepleError("this save is damaged: 'actions' is not a list of action ids")
        if len(actions) > MAX_ACTIONS:
            raise MeepleError(f"this save has more than {MAX_ACTIONS} actions (MAX_ACTIONS)")
        start = data.get("start")
        if start is not None:
            g.state_from_json(start)  # checked before it is kept
        t = tables.add(
            g,
            game,
            data.get("variant") or None,
            _whole(data.get("seed", 0), "seed"),
            computers,
            start=start,
        )
        try:
            _replay(t, actions, data.get("state"), data.get("cursor", len(actions)))
        except MeepleError:
            tables.drop(t.id)  # a save that does not load leaves no table behind
            raise
        return t
    if "zones" in data and "frames" in data:  # a bare saved state (State.to_json)
        game = known_game(data.get("game"))
        g = load_game(game, None, data.get("num_players"))
        g.state_from_json(data)
        t = tables.add(g, game, None, 0, [p != 0 for p in range(g.num_players())], start=data)
        t.goto(0)
        t.run_computers()
        return t
    raise MeepleError(
        "this is not a saved meeple game",
        expected=f"a file saved by the page ({WEB_SAVE_FORMAT}) or by State.to_json()",
    )


def _replay(t: Any, actions: list[int], state: Any, cursor: Any) -> None:
    """Replay a save's actions on its new table; its final position must be the saved one."""
    t.actions = list(actions)
    try:
        t.goto(len(actions))
    except IllegalActionError as e:
        why = f"this save is damaged: its actions do not replay ({e.message})"
        raise MeepleError(why) from None
    if state is not None and t.state().to_json() != state:
        raise MeepleError("this save is damaged: its position does not match its actions")
    t.goto(_whole(cursor, "cursor"))
    if t.cursor == len(actions):
        t.run_computers()


def serve(host: str = "127.0.0.1", port: int = 8000) -> None:  # pragma: no cover - a loop
    """Run the web app until interrupted (Werkzeug's threaded server: one user, one machine)."""
    hosts = LOCAL_HOSTS if host in LOCAL_HOSTS else (*LOCAL_HOSTS, host)
    create_app(hosts).run(host=host, port=port, threaded=True)

"""The games ``meeple serve`` holds: one Table per game being played, its history replayed from
the seed, and what each seat may see of it.

A Table keeps the game's settings (game id, variant, player count, seed, which seats are computer
players) and the actions taken, in order. Any position of the game is the initial state of the
seed with the first ``n`` actions applied (the engine is deterministic), so stepping backwards and
forwards replays; acting at an earlier position starts a new branch there. Seats are 0-based here
and shown as P1..Pn on the page.

What leaves a Table for the page is a *view* for one seat: ``State.observation(seat)`` (hidden
zones as counts, others' hands as counts, owner-only variables hidden, the log lines meant for
everyone or that seat), never the State itself, nor the actions taken (a secret choice's id would
tell what was chosen). With no human seat the view is the table as a spectator sees it.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from meeple import api
from meeple.dsl import ir
from meeple.dsl.errors import IllegalActionError, MeepleError, SourceSpan
from meeple.dsl.render import relative_file
from meeple.endings import end_reason
from meeple.interpreter.agents import RandomAgent
from meeple.interpreter.game import Game
from meeple.registry import game_ids, rules_root
from meeple.rulebook import anchor
from meeple.runtime.position import position_line
from meeple.runtime.state import State
from meeple.runtime.values import card_label, encode, player_name

#: Tables one server keeps (the oldest is dropped past this: a page left open loses its game,
#: the server's memory stays bounded).
MAX_TABLES = 64

#: Longest history a table replays (far above the longest shipped game, ~400 decisions).
MAX_ACTIONS = 20_000

WEB_SAVE_FORMAT = "meeple-web-save/1"


def known_game(game: Any) -> str:
    """``game`` if it is the id of a shipped game; a request never names a path."""
    ids = game_ids()
    if not isinstance(game, str) or game not in ids:
        raise MeepleError(f"unknown game {str(game)[:40]!r}", expected="one of " + ", ".join(ids))
    return game


def load_game(game: str, variant: str | None, players: Any) -> Game:
    """The game for a table, from a request's values (checked: ids, not paths)."""
    known_game(game)
    if variant is not None:
        from meeple.dsl.variant import variant_files  # noqa: PLC0415

        names = [f.stem for f in variant_files(rules_root() / game)]
        if not isinstance(variant, str) or variant not in names:
            raise MeepleError(
                f"unknown variant {str(variant)[:40]!r} of {game}",
                expected="one of " + ", ".join(names) if names else "no variant (it has none)",
            )
    if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
        raise MeepleError(f"players is a whole number, not {str(players)[:20]!r}")
    return api.load(game, players, variant)


def where(span: SourceSpan | None) -> str:
    """``file:line`` of a rule relative to the rules folder: shadow-of-the-sun/game.yaml:40."""
    return f"{relative_file(span.file, rules_root())}:{span.line}" if span else ""


def rule_of(state: State) -> dict[str, Any] | None:
    """The rule that asks the pending decision: its ``file:line``, the rulebook section it cites
    (the nearest ``source`` around it), and the procedure it belongs to (for the rulebook link)."""
    span = state.decision_span()
    if span is None:
        return None
    g = state.prog.game
    roots: list[tuple[str, Any]] = [("setup", g.setup), ("play", g.play), ("scoring", g.scoring)]
    roots += [(p.name, p.body) for p in g.procedures.values()]
    for name, root in roots:
        found = _cited_path(root, span)
        if found is not None:
            sections = {"setup": "Setup", "play": "Flow of play", "scoring": "Scoring"}
            return {
                # the rulebook's id for its procedure (or section), for the page's link
                "anchor": anchor("procedure", name)
                if name in g.procedures
                else anchor("section", sections[name]),
                "where": where(span),
                "file": relative_file(span.file, rules_root()),
                "line": span.line,
                "source": found,
                "procedure": name if name in g.procedures else None,
            }
    return {
        "where": where(span),
        "file": "",
        "line": span.line,
        "source": "",
        "procedure": None,
        "anchor": "",
    }


def _cited_path(root: Any, span: SourceSpan) -> str | None:
    """The innermost rulebook citation (``source``) on the way from ``root`` to the statement at
    ``span``; "" when none cites one; None when the statement is not under ``root``."""
    from meeple.dsl.render import children  # noqa: PLC0415

    def down(node: Any, cite: str) -> str | None:
        cite = getattr(node, "source", None) or cite
        if isinstance(node, ir.Stmt) and node.span == span and not isinstance(node, ir.Block):
            return cite
        for c in children(node):
            got = down(c, cite)
            if got is not None:
                return got
        return None

    return down(root, "")


def verdicts(state: State) -> list[dict[str, Any]]:
    """Every option of the pending decision, legal or not, with why not (meeple.explain), each
    legal one with its action id. Options explain cannot judge are simply the legal ones. The
    reasons are as the seat deciding may see them (the page is shown to that seat, hot-seat
    included): no value read from another seat's hand or a face-down pile."""
    from meeple.explain import explain  # noqa: PLC0415

    ids = {label: a for a, label in state.legal_action_labels()}
    try:
        found = explain(state, viewer=state.current_player())
    except Exception:  # noqa: BLE001  explain failing (e.g. a label of an option whose
        # condition fails cannot be drawn) must not cost the player the legal options
        found = []
    out: list[dict[str, Any]] = [
        {
            "label": v.label,
            "legal": v.legal,
            "reason": v.reason,
            "rule": v.rule,
            "action": ids.get(v.label) if v.legal else None,
        }
        for v in found
    ]
    if not any(v["legal"] for v in out):  # explain gave nothing: the legal options as they are
        rule = where(state.decision_span())
        out = [
            {"label": lab, "legal": True, "reason": "", "rule": rule, "action": a}
            for a, lab in state.legal_action_labels()
        ] + [v for v in out if not v["legal"]]
    return out


@dataclass
class Table:
    """One game being played on the server (see the module docstring)."""

    id: str
    game: Game
    game_id: str
    variant: str | None
    seed: int
    computers: list[bool]  # per seat: True for a computer player
    actions: list[int] = field(default_factory=list)
    cursor: int = 0  # the position shown: the number of actions applied
    viewer: int | None = None  # the human seat whose view is on the screen
    start: dict[str, Any] | None = None  # a loaded position (to_json) the history starts from
    _state: State | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    # ------------------------------------------------------------------ positions
    def initial(self) -> State:
        if self.start is not None:
            return self.game.state_from_json(self.start)
        return self.game.new_initial_state(self.seed)

    def state(self) -> State:
        """The position at the cursor (cached; replayed from the seed when it moves)."""
        if self._state is None or self._state.move_number != self._moves_at(self.cursor):
            s = self.initial()
            for a in self.actions[: self.cursor]:
                s.apply_action(a)
            self._state = s
        return self._state

    def _moves_at(self, n: int) -> int:
        base = self.start.get("move_number", 0) if self.start else 0
        return int(base) + n

    def humans(self) -> list[int]:
        return [p for p, c in enumerate(self.computers) if not c]

    def goto(self, n: int) -> None:
        """Show the position after ``n`` actions (0 to the end of the history)."""
        self.cursor = max(0, min(n, len(self.actions)))
        self._state = None
        self._settle()

    # ------------------------------------------------------------------ play
    def act(self, action: Any, label: Any) -> None:
        """Play an action for the viewer at the cursor (cutting off any later history), then let
        the computer players play until a human must act. Refused with IllegalActionError (the
        reason from explain) when it is not the viewer's turn or the option is not legal."""
        s = self.state()
        if s.is_terminal():
            raise IllegalActionError("the game is over; no action can be applied")
        seat = s.current_player()
        if self.computers[seat] or seat != self.viewer:
            raise IllegalActionError(f"it is not your turn: {player_name(seat)} is to act")
        if action is None:
            action = self._action_of(s, label)
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"an action is a whole number, not {str(action)[:20]!r}")
        try:
            s.apply_action(action)  # IllegalActionError leaves the state as it was
        except MeepleError as e:
            if not isinstance(e, IllegalActionError):
                self._state = None  # a rule failed half-way: replay the position afresh
            raise
        del self.actions[self.cursor :]
        self.actions.append(action)
        self.cursor += 1
        self.run_computers()

    def _action_of(self, s: State, label: Any) -> int:
        for a, lab in s.legal_action_labels():
            if lab == label:
                return a
        for v in verdicts(s):
            if v["label"] == label and not v["legal"]:
                e = IllegalActionError(f"'{label}' is not legal now: {v['reason']}")
                e.expected = "one of the legal options"
                raise e
        raise IllegalActionError(f"'{str(label)[:60]}' is not an option of this decision")

    def run_computers(self) -> None:
        """From the cursor: computer seats play (seeded per seat and position, so a replayed
        branch plays the same) until a human seat must act or the game ends."""
        s = self.state()
        del self.actions[self.cursor :]
        while not s.is_terminal() and self.computers[s.current_player()]:
            if len(self.actions) >= MAX_ACTIONS:
                raise MeepleError(f"the game is longer than {MAX_ACTIONS} actions")
            agent = RandomAgent(self.seed * 1_000_003 + len(self.actions) * 31 + s.current_player())
            a = agent(s)
            s.apply_action(a)
            self.actions.append(a)
            self.cursor += 1
        self._settle()

    def begin(self) -> None:
        """A new game: computers play up to the first human, who has the screen at once (no
        seat has seen anything yet, so there is nothing to hide)."""
        self.run_computers()
        s = self.state()
        if self.viewer is None and not s.is_terminal() and not self.computers[s.current_player()]:
            self.viewer = s.current_player()

    def _settle(self) -> None:
        """Hot-seat: when another person's seat must act, nobody has the screen any more, so
        nothing of the last viewer's (history included) is shown until that seat takes it; the
        end of the game is shown as the table sees it."""
        s = self.state()
        if len(self.humans()) < 2:
            return
        if s.is_terminal():
            self.viewer = None  # the end is shown to everyone at the table: public view only
        elif not self.computers[s.current_player()] and s.current_player() != self.viewer:
            self.viewer = None

    def take_screen(self, seat: Any) -> None:
        """Hot-seat: ``seat`` has the screen now (only the seat that must act may take it)."""
        s = self.state()
        n = len(self.computers)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise MeepleError(f"no seat {str(seat)[:20]!r} in this game")
        if self.computers[seat] or s.current_player() != seat:
            raise IllegalActionError(f"{player_name(seat)} is not the human seat to act now")
        self.viewer = seat

    # ------------------------------------------------------------------ views
    def handover(self) -> int | None:
        """The human seat that must take the screen before anything more is shown, if any."""
        s = self.state()
        seat = s.current_player()
        if s.is_terminal() or self.computers[seat] or seat == self.viewer:
            return None
        return seat  # (with one human, he is always the viewer: this is hot-seat only)

    def view(self) -> dict[str, Any]:
        """What the page may show now (see the module docstring); JSON-compatible."""
        s = self.state()
        n = self.game.num_players()
        head: dict[str, Any] = {
            "table": self.id,
            "game": self.game_id,
            "name": self.game.name,
            "variant": self.variant,
            "players": n,
            "seats": [
                {"seat": p, "name": player_name(p), "computer": c}
                for p, c in enumerate(self.computers)
            ],
            "seed": self.seed,
            "cursor": self.cursor,
            "length": len(self.actions),
            "over": s.is_terminal(),
        }
        hand_to = self.handover()
        if hand_to is not None:
            head["handover"] = {"seat": hand_to, "name": player_name(hand_to)}
            return head  # nothing of the position until that seat has the screen
        seat = self.viewer
        obs = s.observation(seat) if seat is not None else _spectator(s)
        head["viewer"] = None if seat is None else {"seat": seat, "name": player_name(seat)}
        head["zones"] = _zones(s, obs["zones"])
        head["variables"] = _variables(s, obs["variables"])
        # rounds, phases and turns the rules declare: "Round 3, phase Missions: P2's turn"
        head["position"] = position_line(getattr(s.prog, "game", None), s.vars)
        head["log"] = obs["log"]
        head["stands"] = _stands(s, obs["variables"])
        if s.is_terminal():
            head["result"] = {
                "scores": s.scores(),
                "winners": [player_name(p) for p in s.winners()],
                "end_reason": _end_reason(self.game, s),
            }
        elif seat is not None and s.current_player() == seat:
            head["decision"] = {
                "prompt": s.prompt(),
                "rule": rule_of(s),
                "options": verdicts(s),
            }
        else:
            p = s.current_player()
            head["waiting"] = {"seat": p, "name": player_name(p), "computer": self.computers[p]}
        return head

    # ------------------------------------------------------------------ save
    def save(self) -> dict[str, Any]:
        """The game as a file: its settings and actions (to replay), and the position at the end
        of the history as ``State.to_json()`` (checked against the replay on load). A save holds
        the whole game, hidden cards included, like the box of a board game."""
        end = self.initial()
        for a in self.actions:
            end.apply_action(a)
        return {
            "format": WEB_SAVE_FORMAT,
            "game": self.game_id,
            "variant": self.variant,
            "players": self.game.num_players(),
            "seed": self.seed,
            "computers": list(self.computers),
            "start": self.start,
            "actions": list(self.actions),
            "cursor": self.cursor,
            "state": end.to_json(),
        }


def _spectator(s: State) -> dict[str, Any]:
    """The table as nobody's seat sees it: public zones, counts for the rest, public log."""
    prog = s.prog
    zones: dict[str, Any] = {}
    for i, z in enumerate(s.zones):
        vis = prog.zone_vis[i]
        if vis == "public":
            zones[prog.zone_names[i]] = [card_label(c) for c in z]
        elif vis == "top":
            zones[prog.zone_names[i]] = {"count": len(z), "top": card_label(z[-1]) if z else None}
        else:
            zones[prog.zone_names[i]] = {"count": len(z)}
    variables = {
        k: (encode(v) if k not in prog.owner_only_vars else [{"hidden": True} for _ in v])
        for k, v in s.vars.items()
    }
    return {"zones": zones, "variables": variables, "log": [t for w, t in s.log if w == -1]}


def _zones(s: State, seen: dict[str, Any]) -> list[dict[str, Any]]:
    """Zones as the page lays them out: name, owner seat (or None), visibility, the cards shown
    (a list) or only a count (and the top card when that is public)."""
    prog = s.prog
    out = []
    for i, name in enumerate(prog.zone_names):
        v = seen.get(name)
        item: dict[str, Any] = {
            "name": name,
            "owner": prog.zone_owner[i] if prog.zone_vis[i] == "owner" else None,
            "visibility": prog.zone_vis[i],
        }
        if isinstance(v, list):
            item["cards"], item["count"] = [str(c) for c in v], len(v)
        elif isinstance(v, dict):
            item["count"] = v.get("count", 0)
            if v.get("top") is not None:
                item["top"] = str(v["top"])
        out.append(item)
    return out


def _variables(s: State, seen: dict[str, Any]) -> list[dict[str, Any]]:
    """Variables as name, per-seat flag and value(s) as text ("hidden" for others' secrets)."""
    out = []
    specs = {v.name: v for v in s.prog.var_specs}
    for name, v in seen.items():
        spec = specs.get(name)
        per = spec is not None and spec.per == "players" and isinstance(v, list)
        seat = spec is not None and spec.type == "player"
        out.append({"name": name, "per_player": per, "value": _text(v, s, seat)})
    return out


def _text(v: Any, s: State, seat: bool = False) -> Any:
    if isinstance(v, list):
        return [_text(x, s, seat) for x in v]
    if seat and isinstance(v, int) and not isinstance(v, bool):
        return player_name(v)  # seats are P1..Pn on the page
    if isinstance(v, dict):
        if v.get("hidden"):
            return "hidden"
        if isinstance(v.get("card"), int) and 0 <= v["card"] < len(s.prog.cards):
            return card_label(s.prog.cards[v["card"]])  # its name: the page never sees card ids
        return "?"
    return "" if v is None else str(v)


def _stands(s: State, seen: dict[str, Any]) -> dict[str, Any]:
    """Where the game stands: its phase, the move number, and the round/phase/turn/day
    variables the rules keep (whatever of these exist)."""
    out: dict[str, Any] = {"phase": s.phase, "move": s.move_number}
    for k in ("round", "phase", "turn", "day", "step", "age"):
        if k in seen and not isinstance(seen[k], (list, dict)):
            out["rules " + k if k == "phase" else k] = seen[k]
    return out


def _end_reason(game: Game, s: State) -> str | None:
    """Why the game ended, in rule terms (``meeple.endings.end_reason``); None if it cannot
    say."""
    try:
        return end_reason(game, s)
    except MeepleError:
        return None


class Tables:
    """Every table of one server, by id (random, unguessable), at most MAX_TABLES."""

    def __init__(self) -> None:
        self._tables: dict[str, Table] = {}
        self._lock = threading.Lock()

    def add(
        self,
        game: Game,
        game_id: str,
        variant: str | None,
        seed: int,
        computers: list[bool],
        start: dict[str, Any] | None = None,
    ) -> Table:
        t = Table(secrets.token_hex(8), game, game_id, variant, seed, computers, start=start)
        if len(t.humans()) == 1:
            t.viewer = t.humans()[0]  # one human: the screen is always his
        with self._lock:
            while len(self._tables) >= MAX_TABLES:
                self._tables.pop(next(iter(self._tables)))
            self._tables[t.id] = t
        return t

    def drop(self, table_id: str) -> None:
        with self._lock:
            self._tables.pop(table_id, None)

    def get(self, table_id: str) -> Table:
        t = self._tables.get(table_id)
        if t is None:
            raise MeepleError(
                "no such game on this server (it may have been closed when the server restarted)"
            )
        return t

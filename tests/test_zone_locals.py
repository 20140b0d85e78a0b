"""A zone held in a local (a procedure's zone parameter) across a decision stays that zone in a
copy of the state and in a saved state: the copy moves cards in its own piles, a resumed save
moves them in the zone (before, both raised "expected a zone, got a computed list")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile.cases import BASE
from test_language_v2 import edit, write

import meeple
from meeple.dsl.errors import MeepleError

GAME = edit(
    BASE,
    "procedures:\n",
    "procedures:\n"
    "  stock:\n"
    "    source: Turn\n"
    "    params: [z]\n"
    "    do:\n"
    "      - choose: Stock up?\n"
    "        by: first(players)\n"
    "        options:\n"
    '          - {label: "yes", do: [move 1 from deck to z]}\n'
    '          - {label: "no"}\n',
    "    - shuffle deck\n",
    "    - shuffle deck\n    - stock(discard)\n",
)


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_a_zone_parameter_survives_clone_and_save(tmp_path: Path, backend: str) -> None:
    game = meeple.load(str(write(tmp_path, GAME)), 2, backend=backend)
    st = game.new_initial_state(3)
    assert st.prompt() == "Stock up?"
    discard = st.prog.zone_base["discard"]
    copy = st.clone()
    copy.apply_action(copy.legal_actions()[0])  # "yes": into the copy's own discard pile
    assert (len(copy.zones[discard]), len(st.zones[discard])) == (1, 0)
    data = json.loads(json.dumps(st.to_json()))
    resumed = game.state_from_json(data)
    resumed.apply_action(resumed.legal_actions()[0])
    assert resumed.to_json()["zones"] == copy.to_json()["zones"]
    (zone_local,) = [v for e in data["envs"] for v in e.values() if isinstance(v, dict)]
    assert zone_local == {"zone": discard}


def test_a_saved_zone_local_must_name_a_zone(tmp_path: Path) -> None:
    game = meeple.load(str(write(tmp_path, GAME)), 2)
    data = game.new_initial_state(3).to_json()
    for env in data["envs"]:
        for name, v in env.items():
            if isinstance(v, dict) and "zone" in v:
                env[name] = {"zone": 10**6}
    with pytest.raises(MeepleError, match="damaged"):
        game.state_from_json(data)

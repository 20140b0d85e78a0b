"""Which kinds a zone can ever hold (dsl/zonekinds.py): an upper bound, also where a move's
destination is not a zone's name (a local holding a zone, beside a zone's name in an ``if``)."""

from __future__ import annotations

from pathlib import Path

from test_playout import FIXTURES

from meeple.api import load_checked
from meeple.dsl.zonekinds import zone_kinds

ANYLOOP = FIXTURES / "anyloop" / "game.yaml"


def test_a_destination_held_in_a_local_can_be_any_zone(tmp_path: Path) -> None:
    text = ANYLOOP.read_text(encoding="utf-8")
    old = "          - label: pass\n            do: []"
    assert text.count(old) == 1
    move = '["let z = mine", "move 1 from bank to (z if round > 2 else purse[p])"]'
    path = tmp_path / "game.yaml"
    path.write_text(text.replace(old, old.replace("[]", move)), encoding="utf-8")
    kinds = zone_kinds(load_checked(str(path)).game)
    assert "coins" in kinds["mine"]  # through z
    assert kinds["purse"] == {"coins", "gems"}
    assert zone_kinds(load_checked(str(ANYLOOP)).game)["mine"] == {"gems"}

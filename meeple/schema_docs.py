"""The published JSON Schemas of rule files (docs/schema/): the schemas of dsl/schema/ with a
description on every key, so that an editor's YAML extension shows help while completing.

Descriptions are kept here, apart from the validating schema, and added only where a key has
none; a key added to the language later is published without one until it gets an entry.
"""

from __future__ import annotations

import copy
import json
from typing import Any

_EXPR = "an expression (see docs/language.md, Expressions)"

# (context, key) -> description; context is the $defs entry or top-level key holding the key,
# "" for the top level, "*" for any context.
DESCRIPTIONS: dict[tuple[str, str], str] = {
    ("", "zones"): "the places where components lie: decks, hands, rows, supplies",
    ("", "variables"): "global values and per-player counters (score, start player...)",
    ("", "tables"): "static data: data tables (typed columns, a row per key) and pattern tables "
    "that rank sets of cards",
    ("", "setup"): "the block run once, before play",
    ("", "play"): "the block that is the game itself",
    ("", "procedures"): "named rule blocks with parameters, run by calls like turn(p)",
    ("", "scoring"): "the block run after play, and the tie-breakers",
    ("game", "id"): "lowercase letters, digits and '-'; the game's folder name",
    ("game", "name"): "the game's title",
    ("game", "rulebook"): "the rulebook this file encodes (edition, publisher, year)",
    ("game", "players"): "the player counts the game supports: {min: N, max: M}",
    ("players", "min"): "the smallest player count",
    ("players", "max"): "the largest player count (at most 16)",
    ("scoring", "tie_breakers"): "compared in order when top scores are equal; larger wins",
    ("tie_breakers", "key"): "an expression of the seat p; the larger value wins the tie",
    ("kind", "properties"): "property name -> type (int, bool, str, or another kind's name)",
    ("kind", "items"): "the items of this kind, each with a name, properties and a count",
    ("kind", "start"): "the zone its components begin in (for per-player kinds: the owner's)",
    ("kind", "per_player"): "true: one set of the items for each seat, owned by that seat",
    ("items", "name"): "the item's name, as shown to players",
    ("items", "key"): "the item's key, to refer to it from other data (default kind_N)",
    ("items", "count"): "how many identical components of this item (default 1)",
    ("items", "for"): "'n in 1..30': this line stands for one item per number; {n} in its texts "
    "and n in its int properties are the number",
    ("zone", "per"): "one pile per player ('players') or per component of a kind",
    ("zone", "visibility"): "public, owner (only its owner sees it), hidden, or top",
    ("zone", "refill"): "a zone shuffled into this one when it runs empty while drawing",
    ("variable", "type"): "int, bool, player, or another type of docs/language.md",
    ("variable", "per"): "'players' (one value per seat) or a component kind (one value per "
    "component of that kind)",
    ("variable", "visibility"): "owner: a per-player value only its seat sees in observations",
    ("variable", "initial"): "the value at the start: " + _EXPR,
    ("table", "group_by"): "the card property whose equal values form a group",
    ("table", "patterns"): "the patterns, weakest first",
    ("table", "columns"): "a data table's columns: name -> type (int, str, bool, or a kind whose "
    "item keys the cells name), in row order",
    ("table", "key"): "the columns that find a row (default: the first); no two rows share a key",
    ("table", "rows"): "one list of cells per row, in column order; read as TABLE[key].column",
    ("patterns", "label"): "what the pattern is called",
    ("patterns", "pattern"): "the sizes of the groups of identical cards",
    ("procedure", "params"): "the parameter names",
    ("procedure", "do"): "the statements of the procedure",
    ("function", "params"): "the parameter names",
    ("function", "value"): _EXPR,
    ("compound", "if"): "a condition; 'then' runs when it holds, 'else' otherwise",
    ("compound", "then"): "statements run when the 'if' condition holds",
    ("compound", "else"): "statements run when no condition ('if', then each 'elif') holds",
    ("elif", "then"): "statements run when this branch's condition is the first to hold",
    ("compound", "for"): "'NAME in EXPRESSION': run 'do' once for each item",
    ("compound", "simultaneous"): "'NAME in EXPRESSION': like for, but choices stay secret",
    ("compound", "do"): "statements (a loop body, or a block carrying a citation)",
    ("compound", "repeat"): "statements run again and again until 'until' holds",
    ("compound", "until"): "checked after each pass of 'repeat'",
    ("compound", "while"): "checked before each pass of 'do'",
    ("compound", "choose"): "a decision: the prompt shown to the player 'by'",
    ("compound", "by"): "the seat that decides",
    ("compound", "options"): "the options of a choose, each with a label",
    ("compound", "secret"): "true: the choice is hidden from the other players",
    ("compound", "pick"): "a decision: pick cards one at a time; the prompt",
    ("compound", "from"): "the zone or list the picked cards come from",
    ("compound", "to"): "the zone each picked card moves to",
    ("compound", "min"): "the fewest cards to pick (default 1)",
    ("compound", "max"): "the most cards to pick",
    ("compound", "count"): "exactly this many cards (instead of min and max)",
    ("compound", "as"): "the name bound to the result (picked cards, the winner)",
    ("compound", "each"): "the name of a candidate card in 'where' (default c)",
    ("compound", "where"): "a condition a card must meet to be picked",
    ("compound", "winner"): "the holder of a majority ('of'), its tie rule asked; the prompt",
    ("compound", "of"): "NAME(ARGUMENTS): a majority declared under 'majorities:'",
    ("option", "label"): "the option as shown to the player; {expr} inserts a value",
    ("option", "for"): "'NAME in EXPRESSION': one option for each item",
    ("option", "when"): "a condition: the option is legal only when it holds",
    ("option", "do"): "statements run when the option is chosen",
    ("*", "source"): "the rulebook section this rule encodes",
    ("*", "interpretation"): "a key with an entry in docs/games/<game>.md",
}


def _describe(node: Any, context: str) -> None:
    if isinstance(node, list):
        for x in node:
            _describe(x, context)
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key == "properties" and isinstance(value, dict):
            for name, prop in value.items():
                if isinstance(prop, dict) and "description" not in prop:
                    text = DESCRIPTIONS.get((context, name)) or DESCRIPTIONS.get(("*", name))
                    if text:
                        prop["description"] = text
                _describe(prop, name)
        elif key == "$defs" and isinstance(value, dict):
            for name, d in value.items():
                _describe(d, name)
        elif key == "items" and isinstance(value, dict):
            _describe(value, context)
        else:
            _describe(value, context)


def published_schema(variant: bool = False, scenario: bool = False) -> dict[str, Any]:
    """The schema of game files (or of variant files) with descriptions on every known key;
    with ``scenario``, the schema of scenario files (it carries its own descriptions)."""
    from meeple.dsl.validate import game_schema  # noqa: PLC0415
    from meeple.dsl.variant import variant_schema  # noqa: PLC0415
    from meeple.scenarios import scenario_schema  # noqa: PLC0415

    if scenario:
        return copy.deepcopy(scenario_schema())
    schema = copy.deepcopy(variant_schema() if variant else game_schema())
    _describe(schema, "")
    return schema


def schema_text(variant: bool = False, scenario: bool = False) -> str:
    """The published schema as the text of docs/schema/*.json."""
    return json.dumps(published_schema(variant, scenario), indent=2, ensure_ascii=False) + "\n"

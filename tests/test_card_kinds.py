"""Card types that know their kind (issue 12 point 5): ``card[KIND]`` inside the checker.

A card whose kind is known (a kind's cards, a property naming a kind, card('key'), a trigger of
one kind, a data table's kind column, and parameters every call passes such a card) has only
that kind's properties: reading another is a check error at its position, with a suggestion.
Where kinds meet, every kind's properties are allowed, as before. The back ends see plain cards.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile.cases import BASE
from test_language_v2 import edit, refused, write

from meeple.dsl.errors import CheckError
from meeple.dsl.loader import load_rules

GAME = edit(
    BASE,
    "zones:\n",
    "  tokens:\n    source: Components\n    properties: {weight: int, best: cards}\n"
    "    start: pouch\n    items:\n      - {key: pebble, name: Pebble, weight: 2, best: gem}\n\n"
    "zones:\n  pouch: {visibility: public, source: Setup}\n",
    "      - {name: Gem, count: 6, points: 2}\n",
    "      - {key: gem, name: Gem, count: 6, points: 2}\n",
    "    value: sum(c.points for c in hand[p])\n",
    "    value: sum(c.points for c in hand[p])\n"
    "  heft:\n    source: Scoring\n    params: [t]\n    value: t.weight\n"
    "  either:\n    source: Scoring\n    params: [x]\n    value: x.name\n",
    "        - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], sets)\n",
    "        - score[p] = hand_points(p) + 2 * pattern_rank(hand[p], sets)"
    " + heft(first(tokens)) + card('pebble').best.points\n"
    "        - let e = either(first(tokens)) == either(first(cards))\n"
    "        - let w = first(c for c in tokens).weight\n"
    "        - let m = (first(cards) if true else first(tokens)).name\n",
)


def test_the_shipped_pattern_checks(tmp_path: Path) -> None:
    load_rules(write(tmp_path, GAME))  # each kind's own properties, and mixed kinds, pass


BAD = [
    # a kind's cards, read with another kind's property; the suggestion names who has it
    (
        "heft(first(tokens))",
        "heft(first(tokens)) + first(cards).weight",
        "first(cards).weight",
        "a card of 'cards' has no property 'weight'",
    ),
    # a misspelt property of a known kind: did you mean
    (
        "first(c for c in tokens).weight",
        "first(c for c in tokens).weigth",
        "first(c for c in tokens).weigth",
        "did you mean 'weight'",
    ),
    # a parameter that every call passes a card of one kind
    (
        "value: t.weight",
        "value: t.points",
        "value: |t.points",
        "a card of 'tokens' has no property 'points'",
    ),
    # a property naming a kind gives a card of that kind
    (
        "card('pebble').best.points",
        "card('pebble').best.weight",
        "card('pebble').best.weight",
        "a card of 'cards' has no property 'weight'",
    ),
]


@pytest.mark.parametrize("case", range(len(BAD)))
def test_a_property_the_kind_lacks_is_refused_where_it_is(tmp_path: Path, case: int) -> None:
    old, new, at, message = BAD[case]
    refused(tmp_path, edit(GAME, old, new), CheckError, at, message)


def test_the_suggestion_names_the_kinds_that_have_it(tmp_path: Path) -> None:
    text = edit(GAME, "heft(first(tokens))", "heft(first(tokens)) + first(cards).weight")
    with pytest.raises(CheckError) as info:
        load_rules(write(tmp_path, text))
    assert "'weight' is a property of tokens" in info.value.render()


def test_a_trigger_of_one_kind_knows_it(tmp_path: Path) -> None:
    trig = (
        "triggers:\n  arrive:\n    source: Turn\n    to: discard\n    kind: cards\n"
        '    do:\n      - log "{card.weight}"\n\nscoring:\n'
    )
    text = edit(GAME, "scoring:\n", trig)
    refused(tmp_path, text, CheckError, "card.weight}", "a card of 'cards' has no property")


DECLARED = edit(
    GAME,
    "  score: {type: int, per: players, source: Scoring}\n",
    "  score: {type: int, per: players, source: Scoring}\n"
    '  held: {type: "card[tokens]", initial: none, source: Play}\n',
    "    params: [t]\n    value: t.weight\n",
    '    params: [{t: "card[tokens]"}]\n    value: t.weight\n',
    "        - let e = either",
    "        - held = first(tokens)\n        - let e = either",
)


def test_declared_card_kinds_check_and_render(tmp_path: Path) -> None:
    game = load_rules(write(tmp_path, DECLARED)).game
    from meeple.dsl.render import rule_texts

    texts = rule_texts(game)
    assert "function heft(t: card[tokens])" in texts
    assert texts["variable held"] == ["card[tokens] = none"]
    assert game.variables["held"].type == "card"  # the back ends see a card


DECLARED_BAD = [
    ("held = first(tokens)", "held = first(cards)", "first(cards)\n", "wrong kind of card"),
    ("heft(first(tokens))", "heft(first(cards))", "first(cards)) +", "wrong kind of card"),
    (
        'type: "card[tokens]", initial',
        'type: "card[tokns]", initial',
        '"card[tokns]"',
        "is a card of 'tokns', which is not a kind",
    ),
    (
        'params: [{t: "card[tokens]"}]',
        'params: [{t: "card[coins]"}]',
        '"card[coins]"',
        "parameter 't' of 'heft' is a card of 'coins', which is not a kind",
    ),
]


@pytest.mark.parametrize("case", range(len(DECLARED_BAD)))
def test_declared_kinds_are_checked(tmp_path: Path, case: int) -> None:
    old, new, at, message = DECLARED_BAD[case]
    refused(tmp_path, edit(DECLARED, old, new), CheckError, at, message)

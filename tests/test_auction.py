"""Auctions (issue 12, language v2: docs/language.md, 21): the ``auction:`` statement of each
kind played on both back ends, its meaning on scripted bids, its misuse refused at the right
place, bids sized by ``most`` (action ids), and its sentence in ``meeple doc``."""

from __future__ import annotations

from pathlib import Path

import pytest
from hostile.cases import BASE
from test_language_v2 import edit, play_both, refused, write

import meeple
from meeple.api import log_lines
from meeple.dsl.errors import CheckError, RuleError, SchemaError
from meeple.dsl.loader import load_rules
from meeple.dsl.render import rule_texts
from meeple.rulebook import render_markdown

KEYS = {
    "open": "",
    "reenter": "        reenter: true\n",
    "once_around": "",
    "sealed": "",
    "fixed_price": "        price: 2 + round\n",
    "dutch": "        price: 4\n",
}
MOST = "        most: 4 * count(cards)\n"


def game(kind: str, extra: str = "", most: str = MOST) -> str:
    """The minimal game with an auction of the top card after each round: every seat has 6
    gold (its means), the winner pays gold and takes the card."""
    if kind in ("fixed_price", "dutch"):
        most = ""
    return edit(
        BASE,
        "  score: {type: int, per: players, source: Scoring}\n",
        "  score: {type: int, per: players, source: Scoring}\n"
        "  gold: {type: int, per: players, initial: 6, source: Auction}\n",
        "        - round += 1\n",
        "        - sell(first(players))\n        - round += 1\n",
        "procedures:\n",
        "procedures:\n"
        "  sell:\n"
        "    source: Auction\n"
        "    params: [r]\n"
        "    do:\n"
        "      - auction: Auction of the top card\n"
        f"        kind: {'open' if kind == 'reenter' else kind}\n"
        "        bidders: clockwise_from(r)\n"
        "        means: gold[p]\n"
        f"{most}{KEYS[kind]}{extra}"
        "        into: [w, price]\n"
        "        pay: pay(w, price)\n"
        "        won:\n"
        '          - log "{w} buys for {price}"\n'
        "          - move 1 from deck to hand[w]\n"
        "        none:\n"
        '          - log "nobody buys"\n'
        "  pay:\n"
        "    source: Auction\n"
        "    params: [w, price]\n"
        "    do:\n"
        "      - gold[w] -= price\n",
    )


def script(tmp_path: Path, kind: str, players: int, moves: list[str]) -> meeple.State:
    """A game of ``kind`` played by choosing the draw option each turn and ``moves`` (labels,
    in order) in the first auction."""
    g = meeple.load(str(write(tmp_path, game(kind))), players)
    st = g.new_initial_state(0, record_log=True)
    for p in range(players):
        assert st.current_player() == p
        choose(st, "draw a card")
    for m in moves:
        choose(st, m)
    return st


def choose(st: meeple.State, label: str) -> None:
    """Apply the legal action labelled ``label``."""
    labels = dict((text, a) for a, text in st.legal_action_labels())
    assert label in labels, (label, labels)
    st.apply_action(labels[label])


def offered(st: meeple.State) -> list[str]:
    return [text for _, text in st.legal_action_labels()]


def gold(st: meeple.State) -> list[int]:
    return list(st.to_json()["vars"]["gold"])


@pytest.mark.parametrize("kind", list(KEYS))
def test_every_kind_plays_the_same_on_both_back_ends(tmp_path: Path, kind: str) -> None:
    for players in (2, 4):
        logs = play_both(write(tmp_path, game(kind)), players, range(4))
        assert any("buys for" in line for log in logs for line in log), kind


def test_open_auction_a_pass_is_final_and_the_last_bidder_wins(tmp_path: Path) -> None:
    st = script(tmp_path, "open", 3, ["bid 1", "bid 3", "pass", "bid 4"])
    # P3 passed: P1 and P2 go on; P1 holds 4, so P2 is asked next, not P3
    assert st.current_player() == 1
    assert "pass" in offered(st) and "bid 5" in offered(st)
    assert "bid 4" not in offered(st)  # a bid must beat the high bid
    choose(st, "pass")
    assert "P1 buys for 4" in log_lines(st)
    assert ["P1 bids 1", "P2 bids 3", "P3 passes", "P1 bids 4", "P2 passes"] == [
        line for line in log_lines(st) if " bids " in line or "passes" in line
    ]  # every bid and pass is heard by all
    assert gold(st) == [2, 6, 6]
    # P2 passed once: the bidding goes round P1 and P3 only
    st = script(tmp_path, "open", 3, ["bid 1", "pass", "bid 2", "bid 3"])
    assert st.current_player() == 2


def test_open_auction_bids_end_at_the_means(tmp_path: Path) -> None:
    st = script(tmp_path, "open", 2, [])
    assert "bid 6" in offered(st) and "bid 7" not in offered(st)  # 6 gold: no other ceiling


def test_reenter_lets_a_player_who_passed_bid_again(tmp_path: Path) -> None:
    st = script(tmp_path, "reenter", 3, ["bid 1", "pass", "bid 2", "bid 3"])
    assert st.current_player() == 1  # P2 passed once, and may bid again
    assert "bid 4" in offered(st)
    # a bid starts the count of passes again: P2's old pass and P1's do not end it
    st = script(tmp_path, "reenter", 3, ["bid 1", "pass", "bid 2", "pass"])
    assert st.current_player() == 1 and "bid 3" in offered(st)
    assert not any("buys" in line for line in log_lines(st))
    st = script(tmp_path, "reenter", 3, ["bid 1", "pass", "pass"])
    assert "P1 buys for 1" in log_lines(st)  # both others passed in turn after the bid


def test_once_around_each_speaks_once(tmp_path: Path) -> None:
    st = script(tmp_path, "once_around", 3, ["bid 2", "pass", "bid 5"])
    assert "P3 buys for 5" in log_lines(st)
    assert gold(st) == [6, 6, 1]


def test_sealed_bids_are_secret_and_the_highest_wins_ties_to_the_earliest(
    tmp_path: Path,
) -> None:
    st = script(tmp_path, "sealed", 3, ["bid 2"])
    # the others do not see the first bid (an owner-only hidden variable), its bidder does
    assert st.observation(0)["variables"]["_auction1_sealed"][0] == 2
    assert st.observation(1)["variables"]["_auction1_sealed"][0] == {"hidden": True}
    # nothing said to all yet (the bidder's own log line is his only)
    assert not [x for x in log_lines(st) if " bid" in x and not x.startswith("(P1 only)")]
    choose(st, "bid 4")
    choose(st, "bid 4")
    assert "P2 buys for 4" in log_lines(st)  # P2 and P3 bid 4: P2 bid earlier in order
    assert {"P1 bid 2", "P2 bid 4", "P3 bid 4"} <= set(log_lines(st))  # revealed together


def test_fixed_price_goes_to_the_first_who_accepts(tmp_path: Path) -> None:
    st = script(tmp_path, "fixed_price", 3, ["pass", "accept"])
    assert "P2 buys for 3" in log_lines(st)  # price 2 + round
    assert "P1 declines 3" in log_lines(st)


def test_dutch_price_falls_until_someone_accepts(tmp_path: Path) -> None:
    st = script(tmp_path, "dutch", 2, ["pass", "pass", "pass", "accept"])
    assert "P2 buys for 3" in log_lines(st)
    st = script(tmp_path, "dutch", 2, ["pass"] * 8)
    assert "nobody buys" in log_lines(st)


def test_all_pass_runs_none(tmp_path: Path) -> None:
    st = script(tmp_path, "open", 2, ["pass", "pass"])
    assert "nobody buys" in log_lines(st) and gold(st) == [6, 6]


def test_most_sizes_the_bid_action_ids(tmp_path: Path) -> None:
    small = meeple.load(str(write(tmp_path, game("open"))), 2).num_distinct_actions()
    bigger = game("open", most="        most: 4 * count(cards) + 100\n")
    big = meeple.load(str(write(tmp_path, bigger)), 2).num_distinct_actions()
    assert big - small == 100  # one id per possible bid, not a fixed 64


@pytest.mark.parametrize("backend", ["interpreter", "compiled"])
def test_a_bid_beyond_most_is_a_rule_error(tmp_path: Path, backend: str) -> None:
    text = game("open", most="        most: 3\n")
    g = meeple.load(str(write(tmp_path, text)), 2, backend=backend)
    st = g.new_initial_state(0)
    with pytest.raises(RuleError, match="beyond the auction's 'most'"):
        for _ in range(4):
            st.apply_action(st.legal_actions()[0])


MISUSE = [
    ("        kind: open\n", "        kind: opne\n", SchemaError, "opne", "cannot be 'opne'"),
    ("        means: gold[p]\n", "", CheckError, "kind: open", "needs 'means'"),
    (MOST, "", CheckError, "kind: open", "needs 'most'"),
    (MOST, "        most: round\n", CheckError, "round\n", "cannot read the variable 'round'"),
    ("        kind: open\n", "        kind: open\n        price: 3\n", CheckError, "price: 3",
     "'price' has no meaning in an open auction"),
    ("        kind: open\n", "        kind: once_around\n        reenter: true\n", CheckError,
     "reenter", "'reenter' has no meaning"),
    ("        into: [w, price]\n", "        into: [w, w]\n", CheckError, "into:",
     "two different names"),
    ("        pay: pay(w, price)\n", "        pay: gold[w] -= price\n", CheckError,
     "gold[w] -= price\n        won", "a procedure call"),
    ("        means: gold[p]\n", "        means: hand[p]\n", CheckError, "hand[p]\n        most",
     "expected a number"),
    ("        into: [w, price]\n", "        into: [w, price]\n        bid: 3\n", SchemaError,
     "bid: 3", "unknown key 'bid' in an auction statement"),
]  # fmt: skip


@pytest.mark.parametrize(("old", "new", "error", "at", "message"), MISUSE)
def test_misuse_is_refused_where_it_is_written(
    tmp_path: Path, old: str, new: str, error: type, at: str, message: str
) -> None:
    refused(tmp_path, edit(game("open"), old, new), error, at, message)


def test_the_winner_and_price_names_stay_bound_and_cannot_be_rebound(tmp_path: Path) -> None:
    text = edit(game("open"), '          - log "nobody buys"\n',
                '          - log "nobody buys"\n          - let price = 3\n')  # fmt: skip
    refused(tmp_path, text, CheckError, "let price", "would hide 'price'")


def test_doc_renders_one_sentence_and_hides_the_hidden_state(tmp_path: Path) -> None:
    md = render_markdown(load_rules(write(tmp_path, game("open"))).game, tmp_path, {})
    assert "Open auction (“Auction of the top card”) among `clockwise_from(r)`" in md
    assert "a pass is final; the last bidder left wins" in md
    assert "the winner pays as [pay](#procedure-pay) says" in md
    assert "_auction1" not in md
    md = render_markdown(load_rules(write(tmp_path, game("sealed"))).game, tmp_path, {})
    assert "all bid at once in secret" in md


def test_rule_text_is_the_declaration_without_the_hidden_variables(tmp_path: Path) -> None:
    texts = rule_texts(load_rules(write(tmp_path, game("reenter"))).game)
    assert not [k for k in texts if "_auction" in k]
    lines = texts["procedure sell(r)"]
    assert lines[1].startswith('auction "Auction of the top card" kind open bidders')
    assert "  reenter true" in lines and "  pay pay(w, price)" in lines
    assert "  into w, price" in lines

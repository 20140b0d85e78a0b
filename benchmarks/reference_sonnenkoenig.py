"""A hand-written, plain-Python playout of *Im Schatten des Sonnenkönigs*: a speed reference.

It plays exactly the rules of ``rules/sonnenkoenig/game.yaml``, with the interpretations logged
in ``docs/games/sonnenkoenig.md``, and with the same decision structure, so that the interpreter's
throughput can be compared with what direct Python code achieves. Only the standard library is
used; nothing is imported from meeple.

It is exactly checkable against meeple (``tests/test_reference_sonnenkoenig.py``):

* chance is meeple's: the SplitMix64 PRNG of ``interpreter/prng.py`` is copied below, the
  starting piles are laid out in meeple's card order, and every shuffle of the rules file is done
  at the same moment on a pile in the same order, so a seed deals the same game;
* every decision the rules file asks is one decision here, with the same legal options IN THE
  RULES FILE'S ORDER (the order of meeple's ``legal_action_labels()``): ``choose(n)`` gets the
  number of options and returns the index of the one taken. With the default ``choose=None`` a
  uniform random index is drawn from ``random.Random(seed)``;
* a decision with one legal option is taken automatically and not counted (as meeple does);
* a ``pick`` is made card by card: identical cards are one option, offered as the top-most one
  of their kind in the rules' source order (meeple orders the kinds by the position of that
  top-most card, and moves that very card), plus "done" once the minimum is picked;
* an option ranging over cards (``for c in ...``) lists identical cards once, at the first.

Representation (chosen for speed: small ints and lists indexed by seat):

* a card is a small int: property cards ``0..9`` are ``2 * colour + seal`` with the colours
  green 0, red 1, yellow 2, blue 3, violet 4 (grey 5 is the colour of two auction cards); auction
  cards ``10..16`` (Einfluss .. Pension, two Pensions); Mazarin 17, Spielschulden 18, Ludwig 19.
  Cards of one int are identical for every rule, so a pile of ints shuffles like meeple's cards;
* piles (draw pile, discard pile, a power area ``area[p]``, ``auction[p]``, the revealed cards
  on display) are lists of ints, the top being the end; a colour row is the cards of that colour
  in ``area[p]`` in arrival order, so its top card is the last of that colour. ``rows[p][col]``
  counts the cards of each colour (the majorities);
* a player's chips are a list ``chips[p]`` of GOLD, P1, P2 in arrival order (the order decides
  the order of a payment's options); the supplies are three counts;
* the colour markers of Phase 1 are the list ``unused`` in meeple's zone order (options follow
  it) and ``used``;
* elimination removes the seat from ``players`` (ascending seats in play); the end of the game
  (Ludwig XIV. again, or one player left) raises ``_GameOver``.

Run ``python benchmarks/reference_sonnenkoenig.py [PLAYERS]`` for the throughput (about 5 s of
games) and a sanity check (mean score per seat and mean decisions per game over 1,000 games).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

# ---------------------------------------------------------------- components (Components; Setup)
GREEN, RED, YELLOW, BLUE, VIOLET, GREY = range(6)
EINFLUSS, ORDEN, VERSCHWOERUNG, DIPLOMATIE, AUTORITAET, HERRSCHAFT, PENSION = range(10, 17)
MAZARIN, SPIELSCHULDEN, LUDWIG = 17, 18, 19
GOLD, P1, P2 = 0, 1, 2  # chips
CHIP_VALUE = (1, 1, 2)
# colour of every card 0..16 (auction-card-colours: Orden and Diplomatie are grey)
COLOUR = [t >> 1 for t in range(10)] + [BLUE, GREY, VIOLET, GREY, RED, GREEN, YELLOW]
# property-card-split: (plain, with a seal) per colour
PROPERTY_COUNTS = ((9, 5), (9, 5), (8, 5), (8, 5), (8, 5))
# the deck in meeple's card order (kind by kind, item by item), without Ludwig XIV.
DECK = (
    [
        2 * col + seal
        for col in range(5)
        for seal in (0, 1)
        for _ in range(PROPERTY_COUNTS[col][seal])
    ]
    + [EINFLUSS, ORDEN, VERSCHWOERUNG, DIPLOMATIE, AUTORITAET, HERRSCHAFT, PENSION, PENSION]
    + [MAZARIN] * 4
    + [SPIELSCHULDEN] * 4
)
GOLD_CHIPS, POWER_ONES, POWER_TWOS = 20, 20, 20  # power-chip-split
# meeple's names of the cards, chips and colour markers (what a test compares piles by)
CARD_NAMES = [
    f"{colour}{' (seal)' if seal else ''}"
    for colour in ("Green", "Red", "Yellow", "Blue", "Violet")
    for seal in (0, 1)
] + [
    "Einfluss",
    "Orden",
    "Verschwörung",
    "Diplomatie",
    "Autorität",
    "Herrschaft",
    "Pension",
    "Kardinal Mazarin",
    "Spielschulden",
    "Ludwig XIV.",
]
CHIP_NAMES = ("Gold", "Power 1", "Power 2")
MARKER_NAMES = (
    "Combat strength (green)",
    "Power (red)",
    "Wealth (yellow)",
    "Etiquette (blue)",
    "Intrigue (violet)",
    "grey",
)
HAND_SIZES = {  # deal-table: cards dealt to each seat
    2: (2, 3),
    3: (2, 3, 3),
    4: (2, 2, 3, 3),
    5: (2, 2, 3, 3, 4),
    6: (2, 2, 3, 3, 4, 4),
}


class _GameOver(Exception):
    """The game ends at once: Ludwig XIV. revealed again, or one player left."""


# ------------------------------------------------------------ meeple's PRNG (interpreter/prng.py)
_MASK = (1 << 64) - 1


def _next_u64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: (new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def _seed_state(seed: int) -> int:
    """The PRNG state for a seed."""
    return _next_u64(seed & _MASK)[1]


def _shuffle(state: int, items: list[int]) -> int:
    """Fisher-Yates in place, as meeple's; returns the new state."""
    for i in range(len(items) - 1, 0, -1):
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        j = (z ^ (z >> 31)) % (i + 1)
        items[i], items[j] = items[j], items[i]
    return state


# ---------------------------------------------------------------- small pile helpers
def _tops(a: list[int]) -> list[int]:
    """Indices of the top cards of a power area (the last card of each colour), in area order
    (``top_cards``)."""
    seen = 0
    out = []
    for i in range(len(a) - 1, -1, -1):
        b = 1 << (a[i] >> 1)
        if not seen & b:
            seen |= b
            out.append(i)
    out.reverse()
    return out


def _by_last(pile: list[int]) -> list[int]:
    """The distinct cards of a pile, each at the place of its top-most copy, in pile order (the
    options of a pick). Cards are ints below 64 (a bit each in a mask of those seen)."""
    seen = 0
    out = []
    for i in range(len(pile) - 1, -1, -1):
        b = 1 << pile[i]
        if not seen & b:
            seen |= b
            out.append(pile[i])
    out.reverse()
    return out


def _chip_kinds(chips: list[int]) -> list[int]:
    """``_by_last`` for a player's chips (three kinds: the scan stops once all are seen)."""
    seen = 0
    out = []
    for i in range(len(chips) - 1, -1, -1):
        b = 1 << chips[i]
        if not seen & b:
            seen |= b
            out.append(chips[i])
            if seen == 7:
                break
    out.reverse()
    return out


def _last_index(pile: list[int], t: int) -> int:
    """Index of the top-most copy of ``t`` in ``pile``."""
    i = len(pile) - 1
    while pile[i] != t:
        i -= 1
    return i


# ---------------------------------------------------------------- one game
def play_game(
    seed: int,
    players: int = 4,
    choose: Callable[[int], int] | None = None,
    piles: dict[str, Any] | None = None,
) -> tuple[list[int], int]:
    """Play one game of ``players`` (2-6) seats dealt from ``seed`` (a meeple seed).

    ``choose(n)`` is asked for the index (0..n-1) of the option taken at each decision with
    ``n >= 2`` legal options, listed in the rules file's order; None draws uniform random indices
    from ``random.Random(seed)``. Returns (final scores by seat, decisions counted). Raises
    ValueError for a player count the game does not allow.

    ``piles``, if given, receives the final piles by meeple's zone names, bottom first:
    ``draw_pile``, ``discard``, ``on_display`` (card ints, see CARD_NAMES), ``area`` and
    ``auction_area`` (a list per seat), ``chips`` (per seat, see CHIP_NAMES), ``unused_properties``
    and ``used_properties`` (colour markers, see MARKER_NAMES), and ``supply`` (gold, power 1,
    power 2 chips left)."""
    if players not in HAND_SIZES:
        raise ValueError(f"Im Schatten des Sonnenkönigs is for 2 to 6 players, not {players}")
    decisions = 0
    if choose is None:
        rand = random.Random(seed).random

        def ask(n: int) -> int:
            """A decision among n options: counted and drawn unless forced (n == 1)."""
            nonlocal decisions
            if n == 1:
                return 0
            decisions += 1
            return int(rand() * n)

    else:
        chooser = choose

        def ask(n: int) -> int:
            """A decision among n options: counted and asked unless forced (n == 1)."""
            nonlocal decisions
            if n == 1:
                return 0
            decisions += 1
            return chooser(n)

    rng = _seed_state(seed)
    seats = range(players)
    live = list(seats)  # `players`: seats in play, ascending
    area: list[list[int]] = [[] for _ in seats]
    rows = [[0] * 6 for _ in seats]  # rows[p][colour]: cards of that colour in area[p]
    auction: list[list[int]] = [[] for _ in seats]  # auction_area
    chips: list[list[int]] = [[] for _ in seats]
    supply = [GOLD_CHIPS, POWER_ONES, POWER_TWOS]  # gold, power 1, power 2 in the supplies
    discard: list[int] = []
    display: list[int] = []  # on_display: the property cards revealed in Phase 2
    unused = [GREEN, RED, YELLOW, BLUE, VIOLET, GREY]  # the colour markers, in zone order
    used: list[int] = []
    ludwig_reveals = 0
    conspiracy_used = False

    def shuffle(pile: list[int]) -> None:
        nonlocal rng
        rng = _shuffle(rng, pile)

    def others(p: int) -> list[int]:
        i = live.index(p)
        return live[i + 1 :] + live[:i]

    def clockwise_from(p: int) -> list[int]:
        i = live.index(p)
        return live[i:] + live[:i]

    def add_card(p: int, t: int) -> None:
        area[p].append(t)
        rows[p][t >> 1] += 1

    def take_card(p: int, i: int) -> int:
        t = area[p].pop(i)
        rows[p][t >> 1] -= 1
        return t

    def holds(p: int, col: int) -> bool:
        """``p in colour_majority(col)`` (Majorities): at least one card and no opponent with
        more; a tie gives it to nobody with 2-3 players in the game, to all with 4-6."""
        mine = rows[p][col]
        if mine < 1:
            return False
        tied = False
        for q in live:
            if q != p:
                k = rows[q][col]
                if k > mine:
                    return False
                if k == mine:
                    tied = True
        return not tied or len(live) >= 4

    def owns(p: int, key: int) -> int:
        return auction[p].count(key)

    def power(p: int) -> int:
        ch = chips[p]
        return ch.count(P1) + 2 * ch.count(P2)

    def split_with_ludwig(draw: list[int]) -> None:
        """Setup / ludwig-half: the top half (rounded down) becomes the lower pile, Ludwig XIV.
        joins it, it is shuffled and put under the rest."""
        lower = [draw.pop() for _ in range(len(draw) // 2)]
        lower.append(LUDWIG)
        shuffle(lower)
        lower.reverse()
        draw[:0] = lower

    # ---------------------------------------------------------------- chips (Gold and Power Chips)
    def gain_gold(p: int, n: int) -> None:
        """empty-supply: what the supply has."""
        n = min(n, supply[GOLD])
        supply[GOLD] -= n
        chips[p].extend([GOLD] * n)

    def pay_gold(p: int, n: int) -> None:
        ch = chips[p]
        for _ in range(n):
            del ch[_last_index(ch, GOLD)]
        supply[GOLD] += n

    def gain_power(p: int, n: int) -> None:
        """empty-supply: 2s while owed 2 or more, else a 1, else change a 1 for a 2."""
        ch = chips[p]
        due = n
        while due > 0:
            if due >= 2 and supply[P2]:
                supply[P2] -= 1
                ch.append(P2)
                due -= 2
            elif supply[P1]:
                supply[P1] -= 1
                ch.append(P1)
                due -= 1
            elif supply[P2] and P1 in ch:
                ch.remove(P1)
                supply[P1] += 1
                supply[P2] -= 1
                ch.append(P2)
                due -= 1
            else:
                due = 0

    def give_power(q: int, n: int) -> None:
        """chip-change: 1s first; owing one with only 2s, change a 2 for a supply 1."""
        ch = chips[q]
        owed = n
        while owed > 0:
            if P1 in ch:
                ch.remove(P1)
                supply[P1] += 1
                owed -= 1
            elif owed == 1 and supply[P1]:
                supply[P1] -= 1
                ch.append(P1)
                ch.remove(P2)
                supply[P2] += 1
                owed = 0
            else:
                ch.remove(P2)
                supply[P2] += 1
                owed = max(0, owed - 2)

    def hand_over(q: int, n: int) -> None:
        """Combat strength "Warning" / elimination: owing more power than he owns, q is out."""
        if power(q) < n:
            eliminate(q)
        else:
            give_power(q, n)

    def eliminate(q: int) -> None:
        discard.extend(area[q])
        discard.extend(auction[q])
        area[q].clear()
        auction[q].clear()
        rows[q][:] = [0] * 6
        for c in chips[q]:
            supply[c] += 1
        chips[q].clear()
        live.remove(q)
        if len(live) <= 1:
            raise _GameOver

    def return_chip(c: int) -> None:
        supply[c] += 1

    # ---------------------------------------------------------------- Phase 1 (The Five Properties)
    def combat(p: int) -> None:
        """Combat strength: take 2 power chips (3 with Herrschaft) from opponents, one at a time;
        Diplomatie cuts each opponent's demand by one, not against Herrschaft."""
        dominion = owns(p, HERRSCHAFT) > 0
        opp = others(p)
        demand = [0] * players
        for _ in range(3 if dominion else 2):
            demand[opp[ask(len(opp))]] += 1
        for q in opp:  # only q itself can be eliminated in its own pass
            n = demand[q]
            if n > 0:
                hand_over(q, n - 1 if not dominion and owns(q, DIPLOMATIE) else n)

    def etiquette(p: int) -> None:
        """Etiquette: exchange a top card blind (etiquette-blind-exchange), or discard one of his
        top cards and an opponent's, or nothing."""
        tops = _tops(area[p])
        t = len(tops)
        opp = any(area[q] for q in others(p))
        i = ask(2 * t + 1 if opp else t + 1)
        if i < t:
            props = []
            for d in discard:
                if d < 10 and d not in props:
                    props.append(d)
            if props:
                d = props[ask(len(props))]
                discard.remove(d)
                add_card(p, d)
                discard.append(take_card(p, tops[i]))
        elif opp and i < 2 * t:
            discard.append(take_card(p, tops[i - t]))
            discard_opponent_card(p)

    def discard_opponent_card(p: int) -> None:
        cands = [q for q in others(p) if area[q]]
        q = cands[ask(len(cands))]
        tops = _tops(area[q])
        discard.append(take_card(q, tops[ask(len(tops))]))

    def phase1(p: int) -> None:
        """Phase 1 (properties-must-be-used): every property held is used, in the order chosen."""
        conspiracy(p)
        while True:
            opts = [col for col in unused if col < VIOLET and holds(p, col)]
            if not opts:
                return
            col = opts[ask(len(opts))]
            unused.remove(col)
            used.append(col)
            if col == GREEN:
                combat(p)
            elif col == RED:
                gain_power(p, 2 if owns(p, AUTORITAET) else 1)
            elif col == YELLOW:
                gain_gold(p, 1 + owns(p, PENSION))
            else:
                etiquette(p)

    # ---------------------------------------------------------------- Phase 2 (Reveal Cards)
    def reveal(p: int, into_area: bool) -> None:
        """Reveal until a property card comes; the effect of every other card runs as it comes
        (Auction Cards; Special Cards), nesting reveals of its own."""
        while True:
            c = draw.pop()
            if c < 10:
                if into_area:
                    add_card(p, c)
                else:
                    display.append(c)
                return
            if c < MAZARIN:
                run_auction(p, c)
            elif c == MAZARIN:
                mazarin(p)
                discard.append(c)
            elif c == SPIELSCHULDEN:
                game_debts(p)
                discard.append(c)
            else:
                ludwig()

    def keep_cards(p: int) -> None:
        """Keep one revealed card (einfluss-keep: or two of one colour with Einfluss)."""
        if not display:
            return
        cands = _by_last(display)
        t = cands[ask(len(cands))]
        del display[_last_index(display, t)]
        add_card(p, t)
        if owns(p, EINFLUSS):
            col = t >> 1
            more = [x for x in _by_last(display) if x >> 1 == col]
            if more:
                i = ask(len(more) + 1)
                if i < len(more):
                    x = more[i]
                    del display[_last_index(display, x)]
                    add_card(p, x)
        discard.extend(display)
        display.clear()

    def phase2(p: int) -> None:
        conspiracy(p)
        if owns(p, ORDEN):  # orden-reveal: card by card, up to 4 property cards
            while True:
                reveal(p, False)
                if len(display) >= 4 or ask(2) == 1:
                    break
        else:
            n = ask(3) + 1  # announce 1, 2 or 3
            while len(display) < n:
                reveal(p, False)
        keep_cards(p)

    # ---------------------------------------------------------------- Phase 3 (Gold Action)
    def can_swap(p: int) -> bool:
        return bool(area[p]) and any(area[q] for q in others(p))

    def swap_cards(p: int) -> None:
        """Exchange a top card with an opponent's: whom, which of his, which of theirs."""
        cands = [q for q in others(p) if area[q]]
        q = cands[ask(len(cands))]
        mine = _tops(area[p])
        ci = mine[ask(len(mine))]
        theirs = _tops(area[q])
        x = take_card(q, theirs[ask(len(theirs))])
        add_card(p, x)
        add_card(q, take_card(p, ci))

    def phase3(p: int) -> None:
        conspiracy(p)
        gold = chips[p].count(GOLD)
        opp = others(p) if gold else []
        n = 1 + len(opp)
        swap = gold >= 1 and can_swap(p)
        hit = gold >= 2 and any(area[q] for q in opp)
        n += swap + hit + (gold >= 2)
        i = ask(n)
        if i == 0:
            return
        if i <= len(opp):
            pay_gold(p, 1)
            hand_over(opp[i - 1], 1)
            return
        i -= len(opp) + 1
        if swap:
            if i == 0:
                pay_gold(p, 1)
                swap_cards(p)
                return
            i -= 1
        if hit:
            if i == 0:
                pay_gold(p, 2)
                discard_opponent_card(p)
                return
        pay_gold(p, 2)
        reveal(p, True)

    def conspiracy(p: int) -> None:
        """Verschwörung: once per own turn, at the start of a phase, a free exchange."""
        nonlocal conspiracy_used
        if not conspiracy_used and VERSCHWOERUNG in auction[p] and can_swap(p) and ask(2) == 0:
            conspiracy_used = True
            swap_cards(p)

    # ---------------------------------------------------------------- Auction Cards
    def run_auction(r: int, lot: int) -> None:
        """Open auction from the revealer clockwise; a pass is final; bids up to what the bidder
        can pay (bid-limit); the winner pays item by item (auction-payment)."""
        col = COLOUR[lot]
        if col == GREY:
            col = -1  # no card is worth 3 for a grey card
        order = clockwise_from(r)
        inn = [True] * players
        limit = [-1] * players  # what each bidder can pay (it does not change while bidding)
        active = len(order)
        high, lead = 0, -1
        while active > (1 if lead >= 0 else 0):
            for q in order:
                if not inn[q] or q == lead or active <= (1 if lead >= 0 else 0):
                    continue
                means = limit[q]
                if means < 0:
                    ch = chips[q]
                    means = 2 * (len(area[q]) + len(auction[q])) + len(ch) + ch.count(P2)
                    if col >= 0:  # a card of the lot's colour counts 3
                        means += rows[q][col] + [COLOUR[c] for c in auction[q]].count(col)
                    limit[q] = means
                low = high + 1 if lead >= 0 else 1
                bids = means - low + 1 if means >= low else 0
                i = ask(bids + 1)
                if i < bids:
                    high, lead = low + i, q
                else:
                    inn[q] = False
                    active -= 1
        if lead < 0:
            discard.append(lot)
            return
        pay_bid(lead, high, col)
        auction[lead].append(lot)

    def pay_bid(w: int, price: int, col: int) -> None:
        ch, a, au = chips[w], area[w], auction[w]
        paid = 0
        while paid < price:
            kinds = _chip_kinds(ch)
            tops = _tops(a)
            cards = _by_last(au) if au else au
            i = ask(len(kinds) + len(tops) + len(cards))
            if i < len(kinds):
                c = kinds[i]
                del ch[_last_index(ch, c)]
                supply[c] += 1
                paid += CHIP_VALUE[c]
                continue
            i -= len(kinds)
            if i < len(tops):
                c = take_card(w, tops[i])
                paid += 3 if c >> 1 == col else 2
            else:
                c = cards[i - len(tops)]
                del au[_last_index(au, c)]
                paid += 3 if COLOUR[c] == col else 2
            discard.append(c)

    # ---------------------------------------------------------------- Special Cards
    def mazarin(r: int) -> None:
        """Kardinal Mazarin: each Intrigue holder from the revealer clockwise reveals into his
        area or takes 2 chips of his choice (chips-of-choice)."""
        holders = [q for q in clockwise_from(r) if holds(q, VIOLET)]
        for q in holders:
            if ask(2) == 0:
                reveal(q, True)
                continue
            for _ in range(2):
                g = supply[GOLD] > 0
                pw = supply[P1] + supply[P2] > 0
                i = ask(g + pw) if g or pw else 0
                if g and i == 0:
                    gain_gold(q, 1)
                elif pw:
                    gain_power(q, 1)

    def game_debts(r: int) -> None:
        """Spielschulden: everyone with fewer visible seals than the most pays a card or two
        chips, from the revealer clockwise (unpayable-debt: all his chips)."""
        seals = [0] * players
        for q in live:
            a = area[q]
            seals[q] = sum(a[i] & 1 for i in _tops(a)) + len(auction[q])
        most = max(seals[q] for q in live)
        if most == 0:
            return
        for q in [q for q in clockwise_from(r) if seals[q] < most]:
            tops = _tops(area[q])
            au = []
            for c in auction[q]:
                if c not in au:
                    au.append(c)
            ch = chips[q]
            n_cards = len(tops) + len(au)
            two = len(ch) >= 2
            i = ask(n_cards + two + (n_cards == 0 and not two))
            if i < len(tops):
                discard.append(take_card(q, tops[i]))
            elif i < n_cards:
                c = au[i - len(tops)]
                auction[q].remove(c)
                discard.append(c)
            elif two:
                kinds = _chip_kinds(ch)
                first = _last_index(ch, kinds[ask(len(kinds))])
                rest = ch[:first] + ch[first + 1 :]
                kinds = _chip_kinds(rest)
                second = _last_index(rest, kinds[ask(len(kinds))])
                return_chip(ch[first])
                return_chip(rest[second])
                del rest[second]
                ch[:] = rest
            else:
                for c in ch:
                    return_chip(c)
                ch.clear()

    def ludwig() -> None:
        """Ludwig XIV.: the second reveal (or the first with 2 players left) ends the game; the
        first gives everyone a gold chip and re-splits discard + draw pile with Ludwig below."""
        nonlocal ludwig_reveals
        ludwig_reveals += 1
        if ludwig_reveals >= 2 or len(live) <= 2:
            raise _GameOver
        for q in live:
            gain_gold(q, 1)
        draw.extend(discard)
        discard.clear()
        shuffle(draw)
        split_with_ludwig(draw)

    # ---------------------------------------------------------------- Setup
    deck = DECK[:]
    shuffle(deck)
    returned: list[int] = []
    for p, n in enumerate(HAND_SIZES[players]):  # returned-in-deal
        while len(area[p]) < n:
            c = deck.pop()
            if c < 10:
                add_card(p, c)
            else:
                returned.append(c)
    deck.extend(returned)
    shuffle(deck)
    for p in seats:  # starting-chips
        chips[p] = [P1, P1, P1, P2, P2, P2, GOLD]
    supply[P1] -= 3 * players
    supply[P2] -= 3 * players
    supply[GOLD] -= players
    draw = deck
    split_with_ludwig(draw)

    # ---------------------------------------------------------------- Turn Sequence
    try:
        while len(live) > 1:
            for p in live[:]:
                if p not in live:
                    continue  # eliminated this round
                conspiracy_used = False
                unused.extend(used)
                used.clear()
                phase1(p)
                phase2(p)
                phase3(p)
    except _GameOver:
        pass

    if piles is not None:
        piles.update(
            draw_pile=draw,
            discard=discard,
            on_display=display,
            area=area,
            auction_area=auction,
            chips=chips,
            unused_properties=unused,
            used_properties=used,
            supply=supply,
        )
    # End of the Game: gold + power + 2 per blue card (Einfluss included), players in the game
    scores = [0] * players
    for p in live:
        scores[p] = chips[p].count(GOLD) + power(p) + 2 * (rows[p][BLUE] + owns(p, EINFLUSS))
    return scores, decisions


if __name__ == "__main__":
    from reference_run import main  # beside this file (run as a script: its folder is on the path)

    main(play_game, batch=20, sanity_games=1000)

"""A hand-written, plain-Python random playout of *Shadow of the Sun*: the speed reference.

It plays exactly the rules of ``rules/shadow-of-the-sun/game.yaml`` (with the interpretations
documented there and in the research notes), with the same decision structure, so that the
interpreter's throughput in games/s and decisions/s can be compared with what direct Python
code achieves. Only the standard library is used; nothing is imported from meeple.

Decision structure (identical to the rules file):

* every decision is a uniform random choice among the legal options at that point, drawn
  from one ``random.Random(seed)`` (which also shuffles the decks);
* a decision with exactly one legal option is taken automatically and is not counted;
* a ``pick`` (discarding, paying, building a Legion) is made card by card; identical cards
  are one option, so each step chooses among the distinct minion types still allowed, plus
  "done" once the minimum is reached (Preen, Legions of 3 or 4 cards).

Representation:

* a minion card is its type, a small int: Darkened 0, Ghoul 1, Courtesan 2, Alchemist 3,
  Masqued 4 (the wild card);
* districts are numbered so that district ``d`` is the home of minion type ``d``:
  Alley Maze 0 (Darkened), Boneyard 1 (Ghoul), Courtyard 2 (Courtesan), Spires 3
  (Alchemist); the order of options differs from the rules file, which changes nothing
  for uniform random play;
* zones (deck, discard pile, hands, Legions) are lists of card ints, the top of a pile being
  the end of its list;
* House markers are identical, so they are counts: ``on[p][d]`` markers of player ``p`` in
  district ``d`` and ``house[p]`` markers left in his supply;
* a Day card is a pair (district, markers).

Run ``python benchmarks/reference_sun.py`` for the throughput (about 5 seconds of 4-player
games) and a sanity check of the rules (mean score per seat and mean decisions per game
over 2,000 games, to compare with ``meeple simulate -n 300 --players 4``).
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

DARKENED, GHOUL, COURTESAN, ALCHEMIST, MASQUED = range(5)
ALLEY_MAZE, BONEYARD, COURTYARD, SPIRES = range(4)  # district d is home to minion type d
DISTRICTS = range(4)

MINION_DECK = [DARKENED] * 10 + [GHOUL] * 10 + [COURTESAN] * 10 + [ALCHEMIST] * 10 + [MASQUED] * 4
DAY_DECK = [(d, n) for d in DISTRICTS for n in (1, 2)]  # each district with 1 and with 2 markers
MARKERS = 12  # House markers per player
HAND = 3  # cards dealt at set-up, and hand size at the end of each Day

# Option codes of the Special Ability decision: none, Ghouls, then one per district for
# Darkened (remove a marker there), Alchemists (move his marker away from there) and
# Courtesans (add his marker there).
NO_ABILITY, GHOULS, DARKENED_AT, ALCHEMISTS_FROM, COURTESANS_AT = 0, 1, 2, 6, 10

# Option codes of the Action decision: Bolster district d is d (0..3), Usurp opponent q is
# USURP + q, Preen is PREEN.
USURP, PREEN = 4, 16


def _legion_ranks() -> dict[tuple[int, ...], int]:
    """Legion Hierarchy: every sorted Legion of 2-4 cards -> its strength, 1 (2 different
    minions) to 10 (4 identical minions). Masqued is its own, fifth type in Legions."""
    # sizes of the groups of identical minions, largest first; weakest pattern first
    order = [(1, 1), (1, 1, 1), (2,), (2, 1), (1, 1, 1, 1), (2, 1, 1), (2, 2), (3,), (3, 1), (4,)]
    rank = {pat: i + 1 for i, pat in enumerate(order)}
    table: dict[tuple[int, ...], int] = {}
    for size in (2, 3, 4):
        for legion in combinations_with_replacement(range(5), size):
            groups = tuple(sorted((legion.count(t) for t in set(legion)), reverse=True))
            table[legion] = rank[groups]
    return table


LEGION_RANK = _legion_ranks()


def play_game(seed: int, players: int = 4) -> tuple[list[int], int]:
    """Play one game with uniformly random decisions. Returns (scores, decisions counted)."""
    rng = random.Random(seed)
    rand, shuffle = rng.random, rng.shuffle
    seats = range(players)

    deck = MINION_DECK[:]
    discard: list[int] = []
    days = DAY_DECK[:]
    shuffle(days)
    shuffle(deck)
    hands = [[deck.pop() for _ in range(HAND)] for _ in seats]
    on = [[0, 0, 0, 0] for _ in seats]  # on[p][d]: p's markers in district d
    house = [MARKERS] * players  # markers left in each player's supply
    won = [0] * players  # Day cards won (the scoring tie-breaker)
    supreme = 0  # the Supreme Player (seat 0 is the oldest player)
    decisions = 0

    def choose(n: int) -> int:
        """A uniform random option index in range(n); counted unless forced (n == 1)."""
        nonlocal decisions
        if n == 1:
            return 0
        decisions += 1
        return int(rand() * n)

    def draw(h: list[int], n: int) -> None:
        """Move n cards from the top of the deck to hand h. An empty deck is refilled from
        the shuffled discard pile; with both empty the remaining draws are skipped."""
        for _ in range(n):
            if not deck:
                if not discard:
                    return
                deck.extend(discard)
                discard.clear()
                shuffle(deck)
            h.append(deck.pop())

    def discard_any(h: list[int]) -> None:
        """Pick one card of h (any distinct type) and discard it."""
        types = list(set(h))
        t = types[choose(len(types))]
        h.remove(t)
        discard.append(t)

    def pay(h: list[int], minion: int, n: int, masqued_max: int) -> None:
        """Discard n cards of type ``minion`` from h, card by card; at most masqued_max of
        them may be Masqued (1 for a Special Ability, any number for Bolster). The caller
        has checked that the payment is possible."""
        masqued = 0
        for _ in range(n):
            if minion in h:
                if masqued < masqued_max and MASQUED in h and choose(2):
                    t = MASQUED
                else:
                    t = minion
            else:
                t = MASQUED
            masqued += t == MASQUED
            h.remove(t)
            discard.append(t)

    def build_legion(h: list[int]) -> list[int]:
        """Pick a Legion of 2 to 4 cards from h (which holds at least 2), card by card; after
        the second card, 'done' is an option too."""
        legion: list[int] = []
        while len(legion) < 4 and h:
            types = list(set(h))
            n = len(types)
            if len(legion) >= 2:
                i = choose(n + 1)
                if i == n:
                    break  # done
            else:
                i = choose(n)
            t = types[i]
            h.remove(t)
            legion.append(t)
        return legion

    def winner(cands: list[int], strengths: list[int]) -> int:
        """The strongest candidate; a tie is decided by the Supreme Player, who may not pick
        himself (if he is tied, the other tied players only remain)."""
        best = max(strengths)
        leaders = [x for x, s in zip(cands, strengths, strict=True) if s == best]
        if len(leaders) > 1:
            leaders = [x for x in leaders if x != supreme]
            return leaders[choose(len(leaders))]
        return leaders[0]

    def usurp(p: int, q: int, d: int) -> None:
        """Action / Usurp: p attacks q's marker in district d."""
        hq = hands[q]
        draw(hq, 1)
        legion_q = build_legion(hq) if len(hq) >= 2 else []  # too few cards: no Legion
        if choose(2) == 0:  # abandon the Usurp: the defender takes his Legion back
            hq.extend(legion_q)
            return
        legion_p = build_legion(hands[p])
        strength_p = LEGION_RANK[tuple(sorted(legion_p))]
        strength_q = LEGION_RANK[tuple(sorted(legion_q))] if legion_q else 0  # no Legion: 0
        w = winner([p, q], [strength_p, strength_q])
        loser = q if w == p else p
        on[loser][d] -= 1  # the loser's marker returns to his supply...
        house[loser] += 1
        if house[w]:  # ...and the winner places one of his, if he has any left
            on[w][d] += 1
            house[w] -= 1
        discard.extend(legion_p)
        discard.extend(legion_q)

    def turn(p: int) -> None:
        """Player Turns: Draw 2, Bonus, Special Ability, Action, Draw 1."""
        h = hands[p]
        mine = on[p]
        draw(h, 2)

        # Bonus: draw 2 cards, or add a marker to a district without one of his markers.
        if house[p]:
            empty = [d for d in DISTRICTS if not mine[d]]
            i = choose(len(empty) + 1)
            if i:
                d = empty[i - 1]
                mine[d] += 1
                house[p] -= 1
            else:
                draw(h, 2)
        else:
            draw(h, 2)  # the only option

        # Special Ability: pay 2 cards of a type (a single Masqued may stand in for one).
        options = [NO_ABILITY]
        wild = MASQUED in h
        if h.count(GHOUL) + wild >= 2:
            options.append(GHOULS)
        if h.count(DARKENED) + wild >= 2:
            options += [DARKENED_AT + d for d in DISTRICTS if any(on[x][d] for x in seats)]
        if h.count(ALCHEMIST) + wild >= 2:
            options += [ALCHEMISTS_FROM + d for d in DISTRICTS if mine[d]]
        if house[p] and h.count(COURTESAN) + wild >= 2:
            options += [COURTESANS_AT, COURTESANS_AT + 1, COURTESANS_AT + 2, COURTESANS_AT + 3]
        ability = options[choose(len(options))]
        if ability == GHOULS:
            pay(h, GHOUL, 2, 1)
            for i in range(1, players):  # every other player, clockwise, discards a card
                hq = hands[(p + i) % players]
                if hq:
                    discard_any(hq)
            draw(h, 1)
        elif ability >= COURTESANS_AT:
            pay(h, COURTESAN, 2, 1)
            mine[ability - COURTESANS_AT] += 1
            house[p] -= 1
        elif ability >= ALCHEMISTS_FROM:
            a = ability - ALCHEMISTS_FROM
            pay(h, ALCHEMIST, 2, 1)
            others = [b for b in DISTRICTS if b != a]
            mine[a] -= 1
            mine[others[choose(3)]] += 1
        elif ability >= DARKENED_AT:
            d = ability - DARKENED_AT
            pay(h, DARKENED, 2, 1)
            owners = [x for x in seats if on[x][d]]
            q = owners[choose(len(owners))]  # whose marker to remove
            on[q][d] -= 1
            house[q] += 1

        # Action: Bolster a district, Usurp an opponent, or Preen.
        options = []
        if house[p]:
            masqued = h.count(MASQUED)  # any number of Masqued may stand in
            options = [d for d in DISTRICTS if mine[d] and h.count(d) + masqued > mine[d]]
        if len(h) >= 2:  # he must be able to build a Legion
            present = [d for d in DISTRICTS if mine[d]]
            for i in range(1, players):  # an opponent sharing a district with him
                q = (p + i) % players
                theirs = on[q]
                if any(theirs[d] for d in present):
                    options.append(USURP + q)
        options.append(PREEN)
        action = options[choose(len(options))]
        if action == PREEN:
            # discard any number of cards, one at a time ('done' at any point); draw that + 1
            gone = 0
            while h:
                types = list(set(h))
                n = len(types)
                i = choose(n + 1)
                if i == n:
                    break  # done
                h.remove(types[i])
                discard.append(types[i])
                gone += 1
            draw(h, gone + 1)
        elif action >= USURP:
            q = action - USURP
            theirs = on[q]
            shared = [d for d in DISTRICTS if mine[d] and theirs[d]]
            usurp(p, q, shared[choose(len(shared))])
        else:  # Bolster district `action`: discard (his markers there + 1) cards of its minion
            cost = mine[action] + 1
            pay(h, action, cost, cost)  # Masqued may stand in for any number of them
            mine[action] += 1
            house[p] -= 1

        draw(h, 1)

    def struggle(day: tuple[int, int]) -> None:
        """The Struggle over the Day card's district: each player with at least 2 cards, from
        the left of the Supreme Player clockwise, takes part (builds a Legion) or passes."""
        fighters, strengths, legions = [], [], []
        for i in range(1, players + 1):
            q = (supreme + i) % players
            h = hands[q]
            if len(h) >= 2 and choose(2) == 0:  # take part
                legion = build_legion(h)
                fighters.append(q)
                strengths.append(LEGION_RANK[tuple(sorted(legion))])
                legions.append(legion)
        if not fighters:
            return  # nobody takes part: the Day card is set aside, no markers are placed
        w = winner(fighters, strengths)
        won[w] += 1
        d, n = day
        n = min(n, house[w])
        on[w][d] += n
        house[w] -= n
        for legion in legions:
            discard.extend(legion)

    def end_of_day() -> None:
        """Ending the Day: from the Supreme Player clockwise, each player discards down to 3
        cards (one at a time) or draws up to 3; the discard pile is shuffled into the deck."""
        for i in range(players):
            h = hands[(supreme + i) % players]
            if len(h) > HAND:
                for _ in range(len(h) - HAND):
                    discard_any(h)
            else:
                draw(h, HAND - len(h))
        deck.extend(discard)
        discard.clear()
        shuffle(deck)

    # Playing Shadow of the Sun: Days until, at the end of one, the Day deck is empty or a
    # player has no markers left to place.
    while True:
        day = days.pop()
        for i in range(players):  # turns from the Supreme Player clockwise
            turn((supreme + i) % players)
        struggle(day)
        if not days or 0 in house:
            break
        end_of_day()
        supreme = (supreme + 1) % players  # Supremacy passes to the left

    # Scoring: per district, n markers score n * min(n, 4), +1 for presence, +2 if alone.
    # (The tie-breaker, Day cards won, decides the winner but not the scores.)
    scores = [0] * players
    for d in DISTRICTS:
        total = sum(on[x][d] for x in seats)
        for p in seats:
            n = on[p][d]
            if n:
                scores[p] += n * min(n, 4) + 1 + (2 if n == total else 0)
    return scores, decisions


if __name__ == "__main__":
    from reference_run import main  # beside this file (run as a script: its folder is on the path)

    main(play_game, batch=50, sanity_games=2000)

"""The limits meeple puts on what it reads: every rules file, variant and saved state is untrusted.

One place for every bound, so the front end, both back ends and ``docs/security.md`` agree. A rule
file that goes past one gets a positioned error naming the limit, never a hang, a crash or a
silent cut. Each limit is far above what the shipped games need (a test checks the margin).
"""

from __future__ import annotations

import re

#: Largest rules, variant or scenario file read, in bytes. The largest shipped game is 50 KB. A
#: generated file of this size checks in about 4 s when it is all short statements (each one is
#: a Lark parse), and in under a second when it is all component items (measured: 2 MB of items
#: took close to 3 s, 800 KB of statements 8 s; hence 500 KB).
MAX_FILE_BYTES = 500_000

#: Largest saved state accepted by ``from_json``, in bytes of JSON text (where text is given).
MAX_SAVE_BYTES = 20_000_000

#: Deepest nesting of YAML mappings and lists.
MAX_YAML_DEPTH = 64

#: Most YAML nodes (scalars, mappings, lists) in one file.
MAX_YAML_NODES = 500_000

#: Largest integer magnitude written in a rules file or an expression (12 decimal digits).
MAX_INT = 10**12 - 1

#: Largest integer magnitude a variable or track may hold while a game runs (18 digits). A rule
#: that keeps multiplying a variable (``score = score * score``) would otherwise grow it until
#: each step takes minutes and its number can no longer be printed or saved.
MAX_NUMBER = 10**18

#: Deepest nesting of one expression (each operator, call, index or parenthesis is a level).
MAX_EXPR_DEPTH = 64

#: Deepest nesting of statement blocks (if, for, while, choose... inside one another).
MAX_BLOCK_DEPTH = 24

#: Deepest chain of calls (functions and procedures) while a game runs.
MAX_CALL_DEPTH = 200

#: Most numbers in one ``a..b`` range, refused at run time past it (runtime/helpers.py
#: ``span_list``, on both back ends): the work bound of the front end counts a range whose ends
#: are not constants as this many numbers.
MAX_RANGE = 10_000

#: Largest bound of the work one expression or statement can do in one run, in units (about one
#: evaluated node of the rules each; dsl/work.py): a comprehension, ``for`` or keyed built-in
#: over a source costs the source's size times its body, a call its callee's body. ``meeple
#: check`` refuses a rule past it, where nested loops over long ranges (``sum(sum(sum(1 for c
#: in 0..9999) for b in 0..9999) for a in 0..9999)``) would run for hours. The interpreter does
#: about 15 million units a second where a bound is reached (a bound is an upper bound: the
#: shipped games' largest, 1.8e8 for a round of Shadow of the Emperor, is mostly options not
#: taken); a test checks the margin.
MAX_STATIC_WORK = 10**9

#: Most work, in the same units, charged at run time since the last decision: each pass of a
#: ``while``/``repeat`` without a decision and each call of a function or procedure that can
#: call itself charges its static bound, at least MAX_STEP_WORK // MAX_STEP_CHARGES (dsl/work.py).
#: Past it a RuleError at the loop or the call stops the game, at the same point on both back
#: ends: a loop or a recursion that does not end, found deterministically, with no clock.
MAX_STEP_WORK = 10**9

#: Most loop passes and recursive calls charged since the last decision (each charges at least
#: MAX_STEP_WORK // MAX_STEP_CHARGES units): ``f(n - 1) + f(n - 1)`` stops after this many calls.
MAX_STEP_CHARGES = 100_000

#: Most cards (components) a game lays out, counting each item's ``count`` and a per-player
#: kind once per seat at the game's most players, refused at check (dsl/component_count.py) at
#: the item that goes past it. Every card is an object of each state, shuffled and walked by
#: the rules: 8 million cards from a 490 KB file exhausted memory when a game started. The
#: largest shipped game lays out 260 (Louis XIV at 5 players); a test checks the margin.
MAX_COMPONENTS = 20_000

#: Most action ids a game numbers for one player count (``num_distinct_actions``; the AI
#: adapters allocate a mask of this many entries): an auction's bids take ``most + 1`` ids, an
#: option over cards one per item line, over players one per seat. A constant ``most`` past it
#: is a check error at ``most:``, a computed one or a total past it an error when the game is
#: made (dsl/action_limit.py). The largest shipped game has 3,668 (Shadow of the Emperor at
#: 5 players); a test checks the margin.
MAX_ACTIONS = 1_000_000
#: Most items of a list or zone a value written into a log line, prompt or label shows
#: (``{draw_pile}``): the rest is counted, "[a, b, ... and 950 more]" (runtime/values.py).
MAX_LOG_ITEMS = 50

#: Longest line of the game log, in characters: a longer one is cut with "... (K more
#: characters)". Logging in a loop (``log "{[c for c in 0..9999]}"`` 99,999 times) made
#: gigabytes; both back ends cut the same way, whether or not the log is recorded.
MAX_LOG_LINE = 2_000

#: Longest name (kind, item key, zone, variable, function, procedure, parameter, table...).
MAX_NAME_LENGTH = 64

#: What a name may be: ASCII letters, digits and '_', not starting with a digit. ASCII keeps
#: look-alike names (zero-width and bidirectional characters, homoglyphs) out of the rules.
NAME_PATTERN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

#: Card attributes the engine owns: a component property may not take one of these names.
RESERVED_PROPERTIES = frozenset(
    {"id", "type_id", "kind", "key", "name", "owner", "ordinal", "props"}
)

#: Words of the expression grammar that can never be names (docs/language.md, "Names"). The
#: statement words (let, move, log...) are keywords only where a statement expects them.
RESERVED_WORDS = frozenset({"if", "else", "for", "in", "not", "and", "or", "true", "false", "none"})


def is_name(text: str) -> bool:
    """True when ``text`` is a valid meeple name (see NAME_PATTERN and MAX_NAME_LENGTH)."""
    return len(text) <= MAX_NAME_LENGTH and NAME_PATTERN.fullmatch(text) is not None

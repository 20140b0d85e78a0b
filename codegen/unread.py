"""Where direct code may leave out a loop's ``env[name] = x``: the loop variable no one reads.

A ``for`` loop of the rules is a Python loop whose variable is a fresh local ``x``; the body reads
``x`` (codegen/facts ``binding``) and ``env[name]`` is written for whatever reads ``env``. In
direct code (``c_N``, codegen/direct.py: playouts only) nothing else can read it when the body's
code names ``env`` only to read or write another name of it (``env['other']``):

- the checker binds names lexically and never binds a visible name again (dsl/checker.py
  ``_bind``), so no statement after the loop reads the loop's name, here or in a frame below
  that shares the dict;
- whatever reads ``env`` is handed it by name in the body's code: a frame started there
  (``Frame(oN, env)``, ``run_to``), an op's ``exec(st, env)``, a collect or candidates function,
  ``run_pick(st, env, ...)``; procedures and triggers run with dicts of their own (``_args``);
- a playout is never saved or cloned while it runs (State refuses it), ends with no frames, and
  a failed one is refused by every use: the dict's contents cannot be seen after it.

The frame-stepping code always writes it: a state saved after the loop keeps the dict as the
interpreter's ForOp leaves it. The test is on the text (``env`` as a word, in a string of the
rules too): it may keep a write that is not read, never drop one that is.
"""

from __future__ import annotations

import re

_ENV = re.compile(r"\benv\b(?:\['([A-Za-z_][A-Za-z0-9_]*)'\])?")


def binds_env(playout_only: bool, name: str, body: list[str]) -> bool:
    """Must a loop of the variable ``name`` whose body's code is ``body`` (lines) write it into
    ``env``? ``playout_only``: the code is direct code (see the module docstring)."""
    if not playout_only:
        return True
    return any(m[1] in (None, name) for line in body for m in _ENV.finditer(line))

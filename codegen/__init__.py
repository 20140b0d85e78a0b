"""The code generator: checked IR -> a plain Python module per game (issue 6; not built yet).

It will keep the interpreter's State layout (interpreter/state.py), so both back ends can be
compared state by state.
"""

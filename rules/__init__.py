"""The games that ship with meeple: one folder per game, holding game.yaml and scenarios/."""

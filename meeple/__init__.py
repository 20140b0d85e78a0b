"""meeple: a declarative rules language for modern tabletop games."""

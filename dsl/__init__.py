"""The front end: YAML rule files -> checked IR (load, validate, parse, build, check)."""

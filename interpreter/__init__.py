"""The reference back end: a checked game compiled to closures and ops (Program,
ExprCompiler); what it runs them on, the State and frames, is meeple.runtime (runtime/)."""

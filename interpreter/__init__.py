"""The reference back end: runs a checked game (program layout, closures, frame-stack ops)."""

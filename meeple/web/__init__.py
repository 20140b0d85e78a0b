"""``meeple serve``: a local web page to play, review and teach the rules (see docs/web.md).

``app.create_app()`` is the Flask application; ``tables`` holds the games being played and the
per-seat views the page receives; ``editor`` checks edited rules and re-runs scenarios. Needs the
``web`` extra (``pip install -e ".[web]"``); the rest of meeple never imports this package.
"""

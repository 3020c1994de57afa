"""The Flask REST API of the Keltis service."""

from __future__ import annotations

import os

from flask import Flask

MAX_BODY_BYTES = 64 * 1024
MAX_EVENTS_WAIT_S = 30.0


def create_app(test_config: dict | None = None) -> Flask:
    """The application: config from the environment, overridden by `test_config`."""
    app = Flask(__name__)
    app.config.from_mapping(
        REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        RQ_REDIS_URL=os.environ.get("RQ_REDIS_URL") or None,
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        MAX_EVENTS_WAIT_S=float(os.environ.get("KELTIS_MAX_EVENTS_WAIT_S", MAX_EVENTS_WAIT_S)),
        ENQUEUE_BOTS=True,
        JSON_SORT_KEYS=False,
    )
    if test_config:
        app.config.update(test_config)
    from api.json_provider import OrjsonProvider

    app.json = OrjsonProvider(app)

    from api import errors, extensions, games, headers, meta, observe, quotas, ratelimit

    extensions.init_app(app)
    errors.init_app(app)
    observe.init_app(app)  # first of the request hooks: it times what the others refuse
    headers.init_app(app)
    ratelimit.init_app(app)
    quotas.init_app(app)
    app.register_blueprint(meta.blueprint)
    app.register_blueprint(games.blueprint)
    from api import accounts, arenas, ratings, replays, streams, tournaments, webclient

    app.register_blueprint(replays.blueprint)
    app.register_blueprint(tournaments.blueprint)
    app.register_blueprint(arenas.blueprint)
    app.register_blueprint(ratings.blueprint)
    app.register_blueprint(webclient.blueprint)
    webclient.compression.init_app(app)
    accounts.init_app(app)
    streams.init_app(app)
    from api import budget

    budget.init_app(app)
    from api import people  # issue 24: an account's public games and rating history

    app.register_blueprint(people.blueprint)
    from api import challenges

    challenges.init_app(app)
    from api import seeks

    seeks.init_app(app)
    from api import analysis  # issue 25: analysis of a finished game

    analysis.init_app(app)
    from api import metrics_endpoint  # issue 27: GET /metrics, for the operator only

    metrics_endpoint.init_app(app)
    from api import fast_moves  # issue 27: a move's requests without Flask's machinery

    fast_moves.init_app(app)  # last: it reads what the others put in app.extensions
    return app

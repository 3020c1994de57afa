"""The Flask REST API of the Keltis service."""

from __future__ import annotations

from flask import Flask

import settings

MAX_BODY_BYTES = 64 * 1024
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def create_app(test_config: dict | None = None) -> Flask:
    """The application: config from the environment, overridden by `test_config`."""
    app = Flask(__name__)
    configured = settings.current()
    app.config.from_mapping(
        REDIS_URL=configured.redis_url or DEFAULT_REDIS_URL,
        RQ_REDIS_URL=configured.rq_redis_url,
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        MAX_EVENTS_WAIT_S=configured.max_events_wait_s,
        ENQUEUE_BOTS=True,
        JSON_SORT_KEYS=False,
    )
    if test_config:
        app.config.update(test_config)
    from api.core.json_provider import OrjsonProvider

    app.json = OrjsonProvider(app)

    from api.core import errors, extensions, observe, quotas, ratelimit
    from api.games import endpoints as games
    from api.games import headers
    from api.operations import meta

    extensions.init_app(app)
    errors.init_app(app)
    observe.init_app(app)  # first of the request hooks: it times what the others refuse
    headers.init_app(app)
    ratelimit.init_app(app)
    quotas.init_app(app)
    app.register_blueprint(meta.blueprint)
    app.register_blueprint(games.blueprint)
    from api import webclient
    from api.accounts import endpoints as accounts
    from api.arenas import endpoints as arenas
    from api.games import replays
    from api.ladder import endpoints as ratings
    from api.live import endpoints as streams
    from api.tournaments import endpoints as tournaments

    app.register_blueprint(replays.blueprint)
    app.register_blueprint(tournaments.blueprint)
    app.register_blueprint(arenas.blueprint)
    app.register_blueprint(ratings.blueprint)
    app.register_blueprint(webclient.blueprint)
    webclient.compression.init_app(app)
    accounts.init_app(app)
    streams.init_app(app)
    from api.games import budget

    budget.init_app(app)
    from api.accounts import people  # an account's public games and rating history

    app.register_blueprint(people.blueprint)
    from api.challenges import endpoints as challenges

    challenges.init_app(app)
    from api.seeks import endpoints as seeks

    seeks.init_app(app)
    from api.bots import endpoints as analysis  # analysis of a finished game

    analysis.init_app(app)
    from api.core import metrics_endpoint

    metrics_endpoint.init_app(app)
    from api.games import fast_moves  # a move's requests without Flask's machinery

    fast_moves.init_app(app)  # last: it reads what the others put in app.extensions
    return app

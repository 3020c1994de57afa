"""Service endpoints: health, bots and the OpenAPI contract (its pages: api.webclient)."""

from __future__ import annotations

import threading
import time
from functools import lru_cache
from pathlib import Path

import redis
from flask import Blueprint, Response, current_app, jsonify

from api.core import schemas
from api.core.extensions import service
from api.ladder import level_schemas
from application.ladder.levels import levels_of

blueprint = Blueprint("meta", __name__)

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
HEALTH_EXTENSION = "keltis_health"


class SharedPing:
    """Health checks of one process share PINGs: at most one is in flight, and a check
    takes the answer of the first PING sent after it arrived (so it is never stale).

    A burst of N simultaneous checks costs two PINGs and one pooled connection, not N.
    """

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._lock = threading.Lock()  # gevent-cooperative once gunicorn's worker patched it
        self._sent_at = float("-inf")
        self._error: redis.RedisError | None = None

    def check(self, client) -> None:
        """Return once the store answered a PING sent after this call began; else raise
        that PING's redis.RedisError."""
        arrived = self._clock()
        with self._lock:
            if self._sent_at <= arrived:
                self._sent_at = self._clock()
                try:
                    client.ping()
                    self._error = None
                except redis.RedisError as error:
                    self._error = error
            error = self._error
        if error is not None:
            raise error


def shared_ping() -> SharedPing:
    """The current app's SharedPing (made on first use)."""
    return current_app.extensions.setdefault(HEALTH_EXTENSION, SharedPing())


@lru_cache(maxsize=1)
def spec_text() -> str:
    """The OpenAPI document served at /openapi.yaml."""
    return SPEC_PATH.read_text()


@blueprint.get("/healthz")
def healthz():
    shared_ping().check(service().client)
    return jsonify(schemas.use(schemas.HealthSchema).dump({"status": "ok"}))


@blueprint.get("/v1/bots")
def bots():
    games = [
        {"game": game, "bots": names, "levels": levels_of(game)}
        for game, names in service().available_bots().items()
    ]
    return jsonify(schemas.use(level_schemas.BotsLevelsSchema).dump({"games": games}))


@blueprint.get("/openapi.yaml")
def openapi_yaml():
    return Response(spec_text(), mimetype="application/yaml")

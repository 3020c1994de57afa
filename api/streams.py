"""The live streams: GET /v1/me/events and GET /v1/games/{id}/stream (NDJSON, held open).

Everything that can refuse a stream (the key, the seat, the bound on open streams) is decided
before the response starts; the lines then come from application.streams, each redacted for
the caller (api.presenters, R2). A `None` from the stream is a blank keep-alive line.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

import orjson
from flask import Blueprint, Flask, current_app

from api import schemas
from api.auth import bearer_token, seat_header
from api.bodies import query
from api.extensions import service
from api.presenters import events as visible_events
from application import auth, streams

blueprint = Blueprint("streams", __name__, url_prefix="/v1")
NDJSON = "application/x-ndjson"


def init_app(app: Flask) -> None:
    """Stream settings from KELTIS_STREAM_KEEPALIVE_S, KELTIS_STREAM_MAX_S and
    KELTIS_STREAMS_PER_ACCOUNT (the app's STREAM_* config wins)."""
    env = os.environ.get
    app.config.setdefault(
        "STREAM_KEEPALIVE_S", float(env("KELTIS_STREAM_KEEPALIVE_S", streams.KEEPALIVE_S))
    )
    app.config.setdefault("STREAM_MAX_S", float(env("KELTIS_STREAM_MAX_S", streams.MAX_S)))
    app.config.setdefault(
        "STREAMS_PER_ACCOUNT", int(env("KELTIS_STREAMS_PER_ACCOUNT", streams.MAX_PER_ACCOUNT))
    )
    app.register_blueprint(blueprint)


def stream_settings() -> streams.StreamSettings:
    config = current_app.config
    return streams.StreamSettings(
        keepalive_s=config["STREAM_KEEPALIVE_S"],
        max_s=config["STREAM_MAX_S"],
        max_per_account=config["STREAMS_PER_ACCOUNT"],
    )


def ndjson(lines: Iterable[dict | None]):
    def body() -> Iterator[bytes]:
        for line in lines:
            yield b"\n" if line is None else orjson.dumps(line) + b"\n"

    response = current_app.response_class(body(), mimetype=NDJSON)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy in front must not buffer lines
    return response


@blueprint.get("/me/events")
def my_events():
    games = service()
    account = auth.account_of(games.accounts, bearer_token())
    settings = stream_settings()
    _, release = streams.open_account_stream(games, account, settings)

    def lines() -> Iterator[dict | None]:
        try:
            yield from streams.account_events(games, account, settings)
        finally:
            release()

    try:
        response = ndjson(lines())
    except BaseException:
        release()
        raise
    response.call_on_close(release)  # also when the stream never started (ZREM twice: fine)
    return response


@blueprint.get("/games/<game_id>/stream")
def game_stream(game_id: str):
    args = query(schemas.use(schemas.StreamQuerySchema))
    games = service()
    _, seat = games.read(game_id, bearer_token(), seat_header())
    settings = stream_settings()

    def lines() -> Iterator[dict | None]:
        for page in streams.game_events(games, game_id, args["after"], settings):
            if page is None:
                yield None
                continue
            entries, record = page
            yield from visible_events(entries, seat, record.finished)

    return ndjson(lines())

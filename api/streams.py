"""The live streams: GET /v1/me/events and GET /v1/games/{id}/stream (NDJSON, held open).

Everything that can refuse a stream (the key, the seat, the bounds on held requests, api.holds)
is decided before the response starts; the lines then come from application.streams, each
redacted for the caller (api.presenters, R2). A `None` from the stream is a blank keep-alive
line. A stream opened with an account key ends once that key is replaced
(application.credentials).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator

import orjson
from flask import Blueprint, Flask, current_app, request

from api import holds, schemas
from api.auth import account_of, bearer_token, seat_header
from api.bodies import query
from api.extensions import service
from api.presenters import events as visible_events
from application import credentials, metrics, streams
from application.holds import Hold

blueprint = Blueprint("streams", __name__, url_prefix="/v1")
NDJSON = "application/x-ndjson"


def init_app(app: Flask) -> None:
    """Stream settings from KELTIS_STREAM_KEEPALIVE_S and KELTIS_STREAM_MAX_S (the app's
    STREAM_* config wins), and the bounds on held requests (api.holds)."""
    env = os.environ.get
    app.config.setdefault(
        "STREAM_KEEPALIVE_S", float(env("KELTIS_STREAM_KEEPALIVE_S", streams.KEEPALIVE_S))
    )
    app.config.setdefault("STREAM_MAX_S", float(env("KELTIS_STREAM_MAX_S", streams.MAX_S)))
    holds.init_app(app)
    app.register_blueprint(blueprint)


def stream_settings() -> streams.StreamSettings:
    config = current_app.config
    return streams.StreamSettings(
        keepalive_s=config["STREAM_KEEPALIVE_S"], max_s=config["STREAM_MAX_S"]
    )


def ndjson(lines: Iterable[dict | None], hold: Hold | None = None):
    """The streamed response; `hold` (a held stream's slots, api.holds) is renewed as lines
    go out and released when the stream ends, however it ends (also when it never
    started)."""

    kind = request.endpoint or "stream"

    def body() -> Iterator[bytes]:
        gauge = metrics.stream_opened(kind)
        try:
            for line in lines:
                if hold is not None:
                    hold.renew()
                yield b"\n" if line is None else orjson.dumps(line) + b"\n"
        finally:
            gauge.dec()
            if hold is not None:
                hold.release()

    try:
        response = current_app.response_class(body(), mimetype=NDJSON)
    except BaseException:
        if hold is not None:
            hold.release()
        raise
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy in front must not buffer lines
    if hold is not None:
        response.call_on_close(hold.release)
    return response


@blueprint.get("/me/events")
def my_events():
    games = service()
    token = bearer_token()
    account = account_of(games.accounts, token)
    credential = credentials.Credential(account.key_hash, account.folded)
    hold = holds.take(account.folded)
    lines = streams.account_events(games, account, stream_settings(), credential=credential)
    return ndjson(lines, hold)


@blueprint.get("/games/<game_id>/stream")
def game_stream(game_id: str):
    args = query(schemas.use(schemas.StreamQuerySchema))
    games = service()
    token = bearer_token()
    credential = credentials.credential_of(games.accounts, token)
    hold = holds.take(credential.account)  # before the game is read: a refusal is cheap
    try:
        _, seat = games.read(game_id, token, seat_header())
    except BaseException:
        hold.release()
        raise
    settings = stream_settings()

    def lines() -> Iterator[dict | None]:
        pages = streams.game_events(games, game_id, args["after"], settings, credential=credential)
        for page in pages:
            if page is None:
                yield None
                continue
            entries, record = page
            yield from visible_events(entries, seat, record.finished)

    return ndjson(lines(), hold)

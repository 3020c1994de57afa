"""The live streams: GET /v1/me/events and GET /v1/games/{id}/stream (NDJSON, held open).

Everything that can refuse a stream (the key, the seat, the bounds on held requests, api.core.holds)
is decided before the response starts; the lines then come from application.live.streams, each
redacted for the caller (api.games.presenters, R2); a game's lines shared by its streams in
this process are redacted and encoded once per viewer. A `None` from the stream is a blank
keep-alive line. A stream opened with an account key ends once that key is replaced
(application.accounts.credentials). A web process that shuts down ends its streams at once
(`end_all`, from api.operations.gunicorn_hooks), each as at the end of its lifetime: the last chunk
sent, its hold released while Redis still answers. A stream whose client hung up ends at
once the same way (api.core.hangup), so its slots go with it.
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, Flask

import settings
from api.core import holds, schemas
from api.core.auth import account_of, bearer_token, seat_header
from api.core.bodies import query
from api.core.extensions import service
from api.core.ndjson import encode, ndjson, stream_settings
from api.games.presenters import events as visible_events
from application.accounts import credentials
from application.live import streams
from application.live.feeds import Page

blueprint = Blueprint("streams", __name__, url_prefix="/v1")


def init_app(app: Flask) -> None:
    """Stream settings from KELTIS_STREAM_KEEPALIVE_S and KELTIS_STREAM_MAX_S (the app's
    STREAM_* config wins), and the bounds on held requests (api.core.holds)."""
    configured = settings.current()
    app.config.setdefault("STREAM_KEEPALIVE_S", configured.stream_keepalive_s)
    app.config.setdefault("STREAM_MAX_S", configured.stream_max_s)
    holds.init_app(app)
    app.register_blueprint(blueprint)


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

    def lines() -> Iterator[bytes | None]:
        pages = streams.game_events(games, game_id, args["after"], settings, credential=credential)
        for page in pages:
            if page is None:
                yield None
                continue
            yield _encoded(page, seat)
            page = None  # a held stream keeps nothing of a page while it waits for the next

    return ndjson(lines(), hold)


def _encoded(page: Page, seat: int | None) -> bytes:
    """The page's lines as `seat` may see them, encoded once per viewer: a page the game's
    feed shares with the process's other streams of the game keeps them (R2: a seat's
    own, the spectators' one)."""
    encoded = page.encoded.get(seat)
    if encoded is None:
        shown = visible_events(page.entries, seat, page.record.finished)
        encoded = page.encoded[seat] = encode(shown)
    return encoded

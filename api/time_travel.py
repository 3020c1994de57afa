"""`GET /v1/games/{id}?at=N`: the game as it stood at version N, as the caller may see it.

Folding a long log takes tens of milliseconds, so it runs on a build thread
(application.offload), never on the web process's event loop. A game that is over shows
everything to everyone (only `seat` differs between viewers), so its answer at each version
is built once and kept (application.built_once, named by the game's final version), with a
strong ETag and If-None-Match -> 304. A live game's answer depends on the viewer and on the
game not being over yet: it is built per request and never kept (R2).
"""

from __future__ import annotations

import orjson
from flask import Response, jsonify, request

from api import presenters, schemas
from api.json_provider import OPTIONS
from application import built_once, codings, history, offload
from gamelog.record import GameRecord
from store.derived import DerivedStore


def at_response(games, record: GameRecord, seat: int | None, at: int) -> Response:
    """The answer of a GET of `record`'s game at version `at` for `seat` (None: a spectator);
    VersionNotFound past its newest version."""
    history.check_at(record, at)
    if record.finished:
        body = _finished_body(games, record, seat, at)
        etag = codings.etag_of(body)
        if request.if_none_match.contains(etag):
            response = Response(status=304)
        else:
            response = Response(body, mimetype="application/json")
        response.headers["ETag"] = f'"{etag}"'
    else:
        then = record
        if at != record.version:
            entries = games.entries_after(record.game_id, 0, record.version)
            then = offload.run(history.fold_at, record.game_id, entries, at)
        response = jsonify(schemas.use(schemas.GameSchema).dump(presenters.game(then, seat)))
        response.headers["ETag"] = f'"{then.version}"'
    response.headers["Vary"] = "Authorization"
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def _finished_body(games, record: GameRecord, seat: int | None, at: int) -> bytes:
    """The finished game at `at` as `seat` sees it: the kept answer, its `seat` set."""

    def build() -> dict[str, bytes]:
        whole = at != record.version  # the newest version needs no fold
        entries = games.entries_after(record.game_id, 0, record.version) if whole else []
        return {"body": offload.run(revealed_at, record, entries, at)}

    name = f"at/{record.version}/{at}"
    found = built_once.fetch(DerivedStore(games.client), record.game_id, name, ("body",), build)
    shown = orjson.loads(found["body"])
    shown["seat"] = seat
    return orjson.dumps(shown, option=OPTIONS | orjson.OPT_APPEND_NEWLINE)


def revealed_at(record: GameRecord, entries, at: int) -> bytes:
    """A finished game at version `at` with everything shown, as a spectator gets it (pure:
    run on a build thread)."""
    then = record if at == record.version else history.fold_at(record.game_id, entries, at)
    shown = schemas.use(schemas.GameSchema).dump(presenters.game(then, None, revealed=True))
    return orjson.dumps(shown, option=OPTIONS)

"""`GET /v1/games/{id}?at=N`: the game as it stood at version N, as the caller may see it.

Folding a long log takes tens of milliseconds, so it runs on a build thread
(application.common.offload), never on the web process's event loop. A game that is over shows
everything to everyone (only `seat` differs between viewers), so its answers at all its
versions are built at once, in one pass over its log, and kept (application.games.built_once,
named by the game's final version), with a strong ETag and If-None-Match -> 304. A live
game's answer depends on the viewer and on the game not being over yet: it is built per
request and never kept (R2).
"""

from __future__ import annotations

import zlib

import orjson
from flask import Response, jsonify, request

from api.core import schemas
from api.core.json_provider import OPTIONS
from api.games import presenters
from application.common import codings, offload
from application.games import built_once, history
from gamelog.record import GameRecord
from store.games.derived import DerivedStore

LEVEL = 6  # zlib's: a 4-player game's answer at one version, 3.6 KB, keeps about 1 KB


def at_response(games, record: GameRecord, seat: int | None, at: int) -> Response:
    """The answer of a GET of `record`'s game at version `at` for `seat` (None: a spectator);
    VersionNotFound past its newest version."""
    history.check_at(record, at)
    if record.finished:
        body = _finished_body(games, record, seat, at)
        etag = codings.etag_of(body)
        if request.if_none_match.contains_weak(etag):  # as If-None-Match compares
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
        entries = games.entries_after(record.game_id, 0, record.version)
        return offload.run(revealed_versions, record.game_id, entries)

    name = f"at/{record.version}"
    found = built_once.fetch(DerivedStore(games.client), record.game_id, name, (str(at),), build)
    shown = orjson.loads(zlib.decompress(found[str(at)]))
    shown["seat"] = seat
    return orjson.dumps(shown, option=OPTIONS | orjson.OPT_APPEND_NEWLINE)


def revealed_versions(game_id: str, entries) -> dict[str, bytes]:
    """A finished game at each of its versions with everything shown, as a spectator gets
    it, each packed apart (pure: run on a build thread): str(N) -> its answer at N."""
    schema = schemas.use(schemas.GameSchema)
    return {
        str(at): zlib.compress(orjson.dumps(schema.dump(game), option=OPTIONS), LEVEL)
        for at, then in history.every_version(game_id, entries)
        for game in [presenters.game(then, None, revealed=True)]
    }

"""The /v1/arenas endpoints: the operator opens and closes an arena (Authorization: Bearer
<KELTIS_OPERATOR_TOKEN>; without that setting no one may: 403 operator_only); bot accounts
join and leave with their account key; anyone reads an arena, its leaderboard and its
NDJSON stream (application.arenas.service, application.arenas.stream; the stream is a held request,
bounded per address like the other streams, api.core.holds)."""

from __future__ import annotations

from flask import Blueprint, jsonify, url_for

from api.arenas.schemas import OpenArenaSchema
from api.core import holds, schemas
from api.core.auth import account_of, bearer_token
from api.core.bodies import json_body, query
from api.core.extensions import service
from api.core.ndjson import ndjson, stream_settings
from application.arenas import service as arenas
from application.arenas import stream as arena_stream
from store.arenas.records import ArenaStore

blueprint = Blueprint("arenas", __name__, url_prefix="/v1/arenas")


def _store() -> ArenaStore:
    return ArenaStore(service().client)


@blueprint.post("")
def open_arena():
    arenas.check_operator(bearer_token())
    body = json_body(schemas.use(OpenArenaSchema))
    found = arenas.open_arena(_store(), body)
    return jsonify(found), 201, {"Location": url_for("arenas.get_arena", arena_id=found["id"])}


@blueprint.get("")
def list_arenas():
    args = query(schemas.use(schemas.TournamentListQuerySchema))
    found, next_cursor = arenas.list_arenas(_store(), args["cursor"], args["limit"])
    return jsonify({"arenas": found, "next_cursor": next_cursor})


@blueprint.get("/<arena_id>")
def get_arena(arena_id: str):
    return jsonify(arenas.describe(_store(), arena_id))


@blueprint.post("/<arena_id>/close")
def close_arena(arena_id: str):
    arenas.check_operator(bearer_token())
    return jsonify(arenas.close(_store(), arena_id))


@blueprint.post("/<arena_id>/join")
def join_arena(arena_id: str):
    account = account_of(service().accounts, bearer_token())
    return jsonify(arenas.join(_store(), arena_id, account))


@blueprint.post("/<arena_id>/leave")
def leave_arena(arena_id: str):
    account = account_of(service().accounts, bearer_token())
    return jsonify(arenas.leave(_store(), arena_id, account))


@blueprint.get("/<arena_id>/stream")
def arena_events(arena_id: str):
    args = query(schemas.use(schemas.StreamQuerySchema))
    games = service()
    arenas.load(_store(), arena_id)  # 404 before the stream starts
    settings = stream_settings()
    lines = arena_stream.arena_events(
        games, arena_id, args["after"], settings.keepalive_s, settings.max_s
    )
    return ndjson(lines, holds.take(None))  # a held stream: bounded per address (api.core.holds)

"""The /v1/games endpoints."""

from __future__ import annotations

import re

from flask import Blueprint, current_app, jsonify, request

from api import budget, holds, prefer, presenters, quotas, schemas, time_travel
from api.auth import bearer_token, seat_header
from api.bodies import json_body, query
from api.errors import ApiError
from api.extensions import service
from api.json_provider import json_response
from api.move_body import move_command
from application import clocks, credentials, long_polls, moves_at, seating, stalls
from application.auth import is_account_key
from application.errors import Unauthenticated

blueprint = Blueprint("games", __name__, url_prefix="/v1/games")

IDEMPOTENCY_KEY = re.compile(r"^[\x21-\x7e]{1,200}$")
VERSION = re.compile(r"^[0-9]{1,15}$")  # a version below 2**53 (a safe JSON integer)
PLAIN_VERSION_QUERY = re.compile(r"version=([0-9]{1,15})", re.ASCII)
ETAG = re.compile(r'^(?:W/)?"?(\d{1,18})"?$')  # a version; 18 digits fit any int


@blueprint.post("")
def create_game():
    body = json_body(schemas.use(schemas.CreateGameSchema))
    seating.check_rated_consent(body["players"], body["rated"])
    quotas.game_requested(body["players"])
    with budget.game_charge(body["game"], body["players"], _account_key()) as charged:
        game_id, creator_token = charged
        record, tokens, invites = service().create(
            body["game"],
            body["players"],
            body["options"],
            game_id=game_id,
            token=_account_key(),
            clock=body.get("clock"),
            rated=body["rated"],
            allow_same_account=body["allow_same_account"],
        )
    quotas.game_created(record)
    seats = [
        {"seat": seat, "name": record.players[seat]["name"], "token": token}
        for seat, token in sorted(tokens.items())
    ]
    payload = schemas.use(schemas.CreatedGameSchema).dump(
        {
            "id": record.game_id,
            "game": record.game,
            "version": record.version,
            "status": record.status,
            "to_move": record.to_move,
            "players": presenters.players(record),
            "seats": seats,
            "invites": [{"seat": seat, "code": code} for seat, code in sorted(invites.items())],
            "rated": record.rated,
            "creator_token": creator_token,
        }
    )
    response = jsonify(payload)
    response.status_code = 201
    response.headers["Location"] = f"/v1/games/{record.game_id}"
    return response


@blueprint.get("")
def list_games():
    args = query(schemas.use(schemas.ListQuerySchema))
    games, next_cursor = service().list_games(
        args.get("status"), args.get("game"), args["cursor"], args["limit"]
    )
    return jsonify(
        schemas.use(schemas.GameListSchema).dump({"games": games, "next_cursor": next_cursor})
    )


@blueprint.post("/<game_id>/seats/<int:seat>/join")
def join_seat(game_id: str, seat: int):
    body = json_body(schemas.use(schemas.JoinSchema))
    record, token = service().join(
        game_id, seat, body.get("name"), body.get("invite"), account_key=_account_key()
    )
    payload = {
        "id": game_id,
        "seat": seat,
        "token": token,
        "version": record.version,
        "status": record.status,
    }
    return jsonify(schemas.use(schemas.JoinedSchema).dump(payload))


@blueprint.get("/<game_id>")
def get_game(game_id: str):
    args = query(schemas.use(schemas.GameQuerySchema))
    record, seat = service().read(game_id, bearer_token(), seat_header())
    if "at" in args:  # time travel: as it stood then, revealed if the game is over now
        return time_travel.at_response(service(), record, seat, args["at"])
    etag = f'"{record.version}"'
    if _etag_matches(request.headers.get("If-None-Match"), record.version):
        response = current_app.response_class(status=304)
    else:
        payload = presenters.game(record, seat)
        stall = stalls.stall_of(service(), record)
        if stall is not None:
            payload["stalled"] = stall
        response = jsonify(schemas.use(schemas.GameSchema).dump(payload))
    response.headers["ETag"] = etag
    response.headers["Vary"] = "Authorization"
    response.headers["Cache-Control"] = "private, no-cache"
    return response


@blueprint.get("/<game_id>/moves")
def get_moves(game_id: str):
    version = _version_query()
    record, seat = moves_at.seat_at(service(), game_id, bearer_token(), seat_header(), version)
    return json_response(moves_answer(record, seat), 200, [])


def moves_answer(record, seat: int) -> dict:
    """LegalMoves of openapi.yaml as it is (no schema's dump: its values are of their types)."""
    return {"version": record.version, "seat": seat, "moves": presenters.legal_moves(record, seat)}


@blueprint.post("/<game_id>/moves")
def post_move(game_id: str):
    token = bearer_token()
    command = move_command()
    expected = command.pop("expected_version", None)
    if expected is None:
        expected = _if_match_version()
    key = request.environ.get("HTTP_IDEMPOTENCY_KEY")  # request.headers.get, cheaper
    if key is not None and not IDEMPOTENCY_KEY.match(key):
        raise ApiError(422, "invalid_idempotency_key", "Idempotency-Key: 1-200 visible ASCII")
    minimal = prefer.wants_minimal()
    answer = play_move(service(), game_id, token, command, expected, key, minimal, seat_header())
    return json_response(answer.body, answer.status, move_headers(answer, minimal))


def play_move(games, game_id, token, command, expected, key, minimal: bool, seat=None):
    """The service's answer to a move: rendered whole, or minimal (Prefer: return=minimal)."""
    render = presenters.minimal_move_result if minimal else presenters.move_result
    return games.play(
        game_id, token, command, render, expected_version=expected, idempotency_key=key, seat=seat
    )


def move_headers(answer, minimal: bool) -> list[tuple[str, str]]:
    """The headers of a move's answer: its version, and whether it was a repeat or minimal."""
    headers = [("ETag", f'"{answer.body["version"]}"')]
    if answer.repeated:
        headers.append(("Idempotent-Replayed", "true"))
    elif minimal:
        headers.append((prefer.APPLIED_HEADER, prefer.MINIMAL))
    return headers


@blueprint.post("/<game_id>/resign")
def resign(game_id: str):
    record, seat = clocks.resign(service(), game_id, bearer_token(), seat_header())
    return jsonify(schemas.use(schemas.GameSchema).dump(presenters.game(record, seat)))


@blueprint.get("/<game_id>/events")
def get_events(game_id: str):
    args = query(schemas.use(schemas.EventsQuerySchema))
    games = service()
    token = bearer_token()
    record, seat = games.read(game_id, token, seat_header())
    wait = min(args["wait"], current_app.config["MAX_EVENTS_WAIT_S"])
    if wait > 0 and record.version <= args["after"]:
        credential = credentials.credential_of(games.accounts, token)
        hold = holds.take(credential.account, lease_s=wait + holds.LEASE_MARGIN_S)
        try:
            long_polls.wait_for_version(games, game_id, args["after"], wait, credential)
        finally:
            hold.release()
    limit = args["limit"]
    if "before" in args:  # a bounded range: the entries after `after` and before `before`
        limit = min(limit, args["before"] - args["after"] - 1)
    entries = games.entries_after(game_id, args["after"], limit) if limit > 0 else []
    if entries and entries[-1].n > record.version:
        record, _, _ = games.load(game_id)
    payload = {
        "version": record.version,
        "status": record.status,
        "events": presenters.events(entries, seat, record.finished),
    }
    return jsonify(schemas.use(schemas.EventsSchema).dump(payload))


def _account_key() -> str | None:
    """The bearer token when it is an account key (create and join ignore any other)."""
    try:
        token = bearer_token()
    except Unauthenticated:
        return None
    return token if is_account_key(token) else None


def _version_query() -> int | None:
    """The `version` query parameter of GET /moves (None without one; 400 if not one
    version, as for any query parameter: api.bodies.query)."""
    query = request.environ.get("QUERY_STRING", "")
    plain = PLAIN_VERSION_QUERY.fullmatch(query)  # the usual `version=N` alone: no parsing
    values = [plain.group(1)] if plain else request.args.getlist("version")
    if not values:
        return None
    value = values[0]
    if len(values) > 1 or not VERSION.match(value):
        raise ApiError(400, "invalid_version", "version must be one game version, e.g. 12")
    return int(value)


def _if_match_version() -> int | None:
    header = request.environ.get("HTTP_IF_MATCH")
    if header is None:
        return None
    match = ETAG.match(header.strip())
    if match is None:
        raise ApiError(422, "invalid_if_match", 'If-Match must be a version, e.g. "12"')
    return int(match.group(1))


def _etag_matches(header: str | None, version: int) -> bool:
    if not header:
        return False
    for candidate in header.split(","):
        match = ETAG.match(candidate.strip())
        if match and int(match.group(1)) == version:
            return True
    return False

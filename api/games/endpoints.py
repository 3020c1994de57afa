"""The /v1/games endpoints."""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, request

from api.core import holds, prefer, quotas, schemas
from api.core.auth import bearer_token, seat_header
from api.core.bodies import json_body, query
from api.core.extensions import service
from api.core.json_provider import json_response
from api.games import budget, move_steps, presenters, time_travel
from api.games.move_body import move_command
from application.accounts import credentials
from application.games import clocks, moves_at, seating, stalls
from application.live import long_polls

blueprint = Blueprint("games", __name__, url_prefix="/v1/games")


@blueprint.post("")
def create_game():
    body = json_body(schemas.use(schemas.CreateGameSchema))
    seating.check_rated_consent(body["players"], body["rated"])
    quotas.game_requested(body["players"])
    with budget.game_charge(body["game"], body["players"], budget.account_key()) as charged:
        game_id, creator_token = charged
        record, tokens, invites = service().create(
            body["game"],
            body["players"],
            body["options"],
            game_id=game_id,
            token=budget.account_key(),
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
    return jsonify(payload), 201, {"Location": f"/v1/games/{record.game_id}"}


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
        game_id, seat, body.get("name"), body.get("invite"), account_key=budget.account_key()
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
    return json_response(move_steps.moves_answer(record, seat), 200, [])


@blueprint.post("/<game_id>/moves")
def post_move(game_id: str):
    environ = request.environ
    token = bearer_token()
    command = move_command()
    expected = move_steps.expected_version(command, environ)
    key = move_steps.idempotency_key(environ)
    minimal = prefer.minimal_in(environ)
    seat = seat_header()
    answer = move_steps.play_move(service(), game_id, token, command, expected, key, minimal, seat)
    return json_response(answer.body, answer.status, move_steps.move_headers(answer, minimal))


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


def _version_query() -> int | None:
    """The `version` query parameter of GET /moves (move_steps.version_of)."""
    plain = move_steps.plain_version(request.environ.get("QUERY_STRING", ""))
    if plain is not None:  # the usual `version=N` alone: no parsing
        return plain
    return move_steps.version_of(request.args.getlist("version"))


def _etag_matches(header: str | None, version: int) -> bool:
    if not header:
        return False
    for candidate in header.split(","):
        match = move_steps.ETAG.match(candidate.strip())
        if match and int(match.group(1)) == version:
            return True
    return False

"""The /v1/tournaments endpoints: start a tournament (built-in bots and bot accounts), follow
it (summary, NDJSON stream of finished games), cancel it (its organiser), export it."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, url_for

from api.core import holds, quotas, schemas
from api.core.auth import account_of, bearer_token
from api.core.bodies import json_body, query
from api.core.extensions import queue, service
from api.core.ndjson import ndjson, stream_settings
from api.core.schemas import CreateTournamentSchema
from api.games import budget
from application.accounts.auth import is_account_key
from application.live import streams
from application.operations import jobs
from application.tournaments import open_tournaments
from application.tournaments import service as use_cases
from store.tournaments.records import TournamentStore
from tournaments.export import standings_csv, standings_json

blueprint = Blueprint("tournaments", __name__, url_prefix="/v1/tournaments")


_create_schema = CreateTournamentSchema()


def _store() -> TournamentStore:
    return TournamentStore(service().client)


@blueprint.post("")
def create_tournament():
    body = json_body(_create_schema)
    quotas.tournament_requested()
    entrant = _own_account()
    with budget.tournament_charge(body) as charged:
        started = jobs.start_tournament(service(), _store(), queue(), body, entrant)
        charged(started.tid)
    location = url_for("tournaments.get_tournament", tournament_id=started.tid)
    answer = {
        "id": started.tid,
        "status": "running",
        "progress": {"done": 0, "total": started.spec.games},
        "location": location,
        "token": started.token,
    }
    return jsonify(answer), 202, {"Location": location}


def _own_account() -> str | None:
    """The caller's account when the request carries an account key (it enters itself)."""
    token = bearer_token()
    if token is None or not is_account_key(token):
        return None
    return account_of(service().accounts, token).name


@blueprint.post("/<tournament_id>/entries")
def enter_tournament(tournament_id: str):
    account = account_of(service().accounts, bearer_token())
    return jsonify(jobs.enter_tournament(service(), _store(), tournament_id, account.name))


@blueprint.get("")
def list_tournaments():
    args = query(schemas.use(schemas.TournamentListQuerySchema))
    found, next_cursor = use_cases.list_tournaments(_store(), args["cursor"], args["limit"])
    return jsonify({"tournaments": found, "next_cursor": next_cursor})


@blueprint.post("/<tournament_id>/cancel")
def cancel_tournament(tournament_id: str):
    found = open_tournaments.cancel(service(), _store(), tournament_id, bearer_token())
    budget.tournament_cancelled(tournament_id)
    return jsonify(found)


@blueprint.get("/<tournament_id>/stream")
def tournament_stream(tournament_id: str):
    args = query(schemas.use(schemas.StreamQuerySchema))
    _store().load(tournament_id)  # 404 before the stream starts
    lines = streams.tournament_events(service(), tournament_id, args["after"], stream_settings())
    return ndjson(lines, holds.take(None))  # a held stream: bounded per address (api.core.holds)


@blueprint.get("/<tournament_id>")
def get_tournament(tournament_id: str):
    return jsonify(use_cases.describe(_store(), tournament_id))


@blueprint.get("/<tournament_id>/standings.json")
def standings_document(tournament_id: str):
    document = use_cases.describe(_store(), tournament_id, with_outcomes=True)
    return _attachment(standings_json(document), "application/json", f"{tournament_id}.json")


@blueprint.get("/<tournament_id>/standings.csv")
def standings_table(tournament_id: str):
    rows = use_cases.describe(_store(), tournament_id)["standings"]
    return _attachment(standings_csv(rows), "text/csv", f"{tournament_id}.csv")


@blueprint.post("/<tournament_id>/archive")
def request_archive(tournament_id: str):
    state = jobs.request_archive(_store(), queue(), tournament_id)
    location = url_for("tournaments.get_archive", tournament_id=tournament_id)
    answer = {"id": tournament_id, "archive": state, "location": location}
    return jsonify(answer), 202, {"Location": location}


@blueprint.get("/<tournament_id>/archive")
def get_archive(tournament_id: str):
    data = use_cases.archive(_store(), tournament_id)
    return _attachment(data, "application/zip", f"{tournament_id}-replays.zip")


def _attachment(data, mimetype: str, filename: str) -> Response:
    response = Response(data, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

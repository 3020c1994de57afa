"""The /v1/tournaments endpoints: start a bot-vs-bot tournament, follow it, export it."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, url_for

from api import quotas
from api.bodies import json_body
from api.extensions import queue, service
from api.schemas import CreateTournamentSchema
from application import jobs
from application import tournaments as use_cases
from store.tournaments import TournamentStore
from tournaments.export import standings_csv, standings_json

blueprint = Blueprint("tournaments", __name__, url_prefix="/v1/tournaments")


_create_schema = CreateTournamentSchema()


def _store() -> TournamentStore:
    return TournamentStore(service().client)


@blueprint.post("")
def create_tournament():
    body = json_body(_create_schema)
    quotas.tournament_requested()
    tid, spec = jobs.start_tournament(_store(), queue(), body)
    location = url_for("tournaments.get_tournament", tournament_id=tid)
    response = jsonify(
        {
            "id": tid,
            "status": "running",
            "progress": {"done": 0, "total": spec.games},
            "location": location,
        }
    )
    response.status_code = 202
    response.headers["Location"] = location
    return response


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
    response = jsonify({"id": tournament_id, "archive": state, "location": location})
    response.status_code = 202
    response.headers["Location"] = location
    return response


@blueprint.get("/<tournament_id>/archive")
def get_archive(tournament_id: str):
    data = use_cases.archive(_store(), tournament_id)
    return _attachment(data, "application/zip", f"{tournament_id}-replays.zip")


def _attachment(data, mimetype: str, filename: str) -> Response:
    response = Response(data, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

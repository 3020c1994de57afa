"""The /v1/tournaments endpoints: start a bot-vs-bot tournament, follow it, export it."""

from __future__ import annotations

from dataclasses import replace

from flask import Blueprint, Response, jsonify, url_for

from api.bodies import json_body
from api.errors import error_response
from api.extensions import service
from api.schemas import CreateTournamentSchema
from store.tournaments import ARCHIVE_QUEUED, ARCHIVE_READY, TournamentStore
from tournaments import errors, seeds
from tournaments.export import standings_csv, standings_json
from tournaments.spec import make_spec, new_salt
from tournaments.summary import compute_rows, export_document, summary

blueprint = Blueprint("tournaments", __name__, url_prefix="/v1/tournaments")

ERROR_STATUS = {
    errors.InvalidTournament: 422,
    errors.TournamentNotFound: 404,
    errors.TournamentRunning: 409,
    errors.ArchiveNotReady: 409,
}


_create_schema = CreateTournamentSchema()


@blueprint.app_errorhandler(errors.InvalidTournament)
@blueprint.app_errorhandler(errors.TournamentNotFound)
@blueprint.app_errorhandler(errors.TournamentRunning)
@blueprint.app_errorhandler(errors.ArchiveNotReady)
def _tournament_error(error):
    return error_response(ERROR_STATUS[type(error)], error.code, error.message)


def _store() -> TournamentStore:
    return TournamentStore(service().client)


def _summary(tid: str, with_outcomes: bool = False) -> dict:
    """A tournament's summary; standings are cached per number of finished games."""
    store = _store()
    spec, created_at = store.load(tid)
    outcomes = store.outcomes(tid) if with_outcomes else None
    done = len(outcomes) if outcomes is not None else store.done(tid)
    rows = store.cached_standings(tid, done)
    if rows is None:
        outcomes = outcomes if outcomes is not None else store.outcomes(tid)
        done = len(outcomes)
        rows = compute_rows(spec, outcomes)
        store.cache_standings(tid, done, rows)
    meta = store.meta(tid)
    finished_at = int(meta["finished_at"]) if "finished_at" in meta else None
    found = summary(tid, spec, created_at, done, rows, finished_at, store.archive_state(tid))
    return export_document(found, spec, outcomes) if with_outcomes else found


@blueprint.post("")
def create_tournament():
    from workers.tournaments import enqueue_games, job_firsts

    body = json_body(_create_schema)
    spec = make_spec(
        body["game"],
        body["bots"],
        body.get("players_per_game"),
        body["games"],
        body.get("seed"),
        options=body["options"],
    )
    spec = replace(spec, salt=new_salt())  # the server's share of the randomness (R1)
    tid = seeds.new_tournament_id()
    TournamentStore(service().client).create(tid, spec)
    enqueue_games(service().queue_client, tid, job_firsts(spec))
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
    return jsonify(_summary(tournament_id))


@blueprint.get("/<tournament_id>/standings.json")
def standings_document(tournament_id: str):
    document = _summary(tournament_id, with_outcomes=True)
    return _attachment(standings_json(document), "application/json", f"{tournament_id}.json")


@blueprint.get("/<tournament_id>/standings.csv")
def standings_table(tournament_id: str):
    rows = _summary(tournament_id)["standings"]
    return _attachment(standings_csv(rows), "text/csv", f"{tournament_id}.csv")


@blueprint.post("/<tournament_id>/archive")
def request_archive(tournament_id: str):
    from workers.tournaments import enqueue_archive

    store = _store()
    _require_finished(store, tournament_id)
    state = store.archive_state(tournament_id)
    if state != ARCHIVE_READY:
        store.mark_archive_queued(tournament_id)
        enqueue_archive(service().queue_client, tournament_id)
        state = store.archive_state(tournament_id)
    location = url_for("tournaments.get_archive", tournament_id=tournament_id)
    response = jsonify({"id": tournament_id, "archive": state, "location": location})
    response.status_code = 202
    response.headers["Location"] = location
    return response


@blueprint.get("/<tournament_id>/archive")
def get_archive(tournament_id: str):
    store = _store()
    _require_finished(store, tournament_id)
    data = store.archive(tournament_id)
    if data is None:
        queued = store.archive_state(tournament_id) == ARCHIVE_QUEUED
        hint = "it is being built; try again shortly" if queued else "POST here to build it"
        raise errors.ArchiveNotReady(f"the replay archive is not ready: {hint}")
    return _attachment(data, "application/zip", f"{tournament_id}-replays.zip")


def _require_finished(store: TournamentStore, tournament_id: str) -> None:
    """TournamentRunning while any game of the tournament is unfinished."""
    spec, _ = store.load(tournament_id)
    if store.done(tournament_id) < spec.games:
        raise errors.TournamentRunning("the tournament still has unfinished games")


def _attachment(data, mimetype: str, filename: str) -> Response:
    response = Response(data, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response

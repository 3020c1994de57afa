"""Game analysis over HTTP (application.bots.analysis).

`POST /v1/games/{id}/analysis`: analyse a finished game on a worker (202 with the record;
a second request gets the same record, 200 once done, and is not charged again). The first
request is charged the analysis's estimated CPU against the requester's bot-work budget
(429 cpu_budget_exceeded when it does not fit); a live game is 409 game_not_finished.
`GET /v1/games/{id}/analysis`: the record (status, and the result when done); before any
request, status `none` (200: the game exists and simply has no analysis yet; a 404 would
say the game itself is gone).
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from api.core.extensions import queue, service
from api.games import budget
from application.bots import analysis
from application.operations import jobs

blueprint = Blueprint("analysis", __name__, url_prefix="/v1/games")


def _answer(record: dict):
    return jsonify(record), 200 if record["status"] == analysis.DONE else 202


@blueprint.post("/<game_id>/analysis")
def request_analysis(game_id: str):
    games = service()
    replay = games.replay(game_id)  # 404 unknown, 409 a live game (R2), sealed deals too
    client = games.client
    found = analysis.load(client, game_id)
    if found is not None and found["status"] in (analysis.QUEUED, analysis.RUNNING):
        analysis.give_up_lost(client, game_id, jobs.job_gone(queue(), found["job_id"]))
    if analysis.claim(client, game_id):
        try:
            with budget.analysis_charge(analysis.estimate_s(replay)):
                jobs.enqueue_analysis(queue(), game_id)
        except BaseException:
            analysis.unclaim(client, game_id)
            raise
    return _answer(analysis.load(client, game_id))


@blueprint.get("/<game_id>/analysis")
def get_analysis(game_id: str):
    found = analysis.load(service().client, game_id)
    if found is None:
        service().load(game_id)  # 404 game_not_found for an unknown game
        return jsonify(analysis.not_requested(game_id)), 200
    return _answer(found)


def init_app(app) -> None:
    app.register_blueprint(blueprint)

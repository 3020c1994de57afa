"""Replays over HTTP: a finished game's replay (JSON download) and its viewer page.

A live game has no replay (R2): 409 `game_not_finished`, and nothing of the game's hidden
information is built or sent.
"""

from __future__ import annotations

from flask import Blueprint, Response

from api.extensions import service
from replays.files import dump_replay
from replays.html import render_html

blueprint = Blueprint("replays", __name__, url_prefix="/v1/games")


@blueprint.get("/<game_id>/replay")
def get_replay(game_id: str):
    response = Response(dump_replay(service().replay(game_id)), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{game_id}.replay.json"'
    return response


@blueprint.get("/<game_id>/replay.html")
def get_replay_page(game_id: str):
    return Response(render_html(service().replay(game_id)), mimetype="text/html")

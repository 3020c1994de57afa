"""Replays over HTTP: a finished game's replay (JSON download) and its viewer page.

A live game has no replay (R2): 409 `game_not_finished`, and nothing of the game's hidden
information is built or sent.
"""

from __future__ import annotations

from flask import Blueprint, Response

from api.errors import error_response
from api.extensions import service
from replays.errors import GameNotFinished
from store.errors import GameNotFound

blueprint = Blueprint("replays", __name__, url_prefix="/v1/games")


@blueprint.app_errorhandler(GameNotFinished)
def _not_finished(error: GameNotFinished):
    return error_response(409, "game_not_finished", "only a finished game has a replay (R2)")


def finished_replay(game_id: str) -> dict:
    """The replay of a finished game; GameNotFound, or GameNotFinished for a live game."""
    from replays.build import build_replay

    entries = service().store.load(game_id).entries
    if not entries:
        raise GameNotFound("no game with this id")
    return build_replay(game_id, entries)


@blueprint.get("/<game_id>/replay")
def get_replay(game_id: str):
    from replays.files import dump_replay

    replay = finished_replay(game_id)
    response = Response(dump_replay(replay), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{game_id}.replay.json"'
    return response


@blueprint.get("/<game_id>/replay.html")
def get_replay_page(game_id: str):
    from replays.html import render_html

    return Response(render_html(finished_replay(game_id)), mimetype="text/html")

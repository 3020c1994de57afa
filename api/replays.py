"""Replays over HTTP: a finished game's replay (JSON download), its viewer page, and the
bulk export of finished games' replays (NDJSON, application.export).

A live game has no replay (R2): 409 `game_not_finished`, and nothing of the game's hidden
information is built or sent.
"""

from __future__ import annotations

from flask import Blueprint, Response

from api import schemas
from api.arena_schemas import ArenaExportQuerySchema
from api.bodies import query
from api.extensions import service
from api.streams import ndjson, stream_settings
from application import arenas
from application.analysis import with_analysis
from application.export import ExportFilter, export_lines
from replays.files import dump_replay
from replays.html import render_html
from store.arenas import ArenaStore
from store.tournaments import TournamentStore

blueprint = Blueprint("replays", __name__, url_prefix="/v1/games")


@blueprint.get("/export")
def export_games():
    args = query(schemas.use(ArenaExportQuerySchema))
    chosen = ExportFilter(
        game=args.get("game"),
        since=args.get("since"),
        until=args.get("until"),
        tournament=args.get("tournament"),
        account=args.get("account"),
        arena=args.get("arena"),
    )
    games = service()
    if chosen.tournament is not None:
        TournamentStore(games.client).load(chosen.tournament)  # 404 before the stream starts
    if chosen.arena is not None:
        arenas.load(ArenaStore(games.client), chosen.arena)  # 404 before the stream starts
    max_s = stream_settings().max_s
    lines = export_lines(games, chosen, args["cursor"], args.get("limit"), max_s)
    response = ndjson(lines)
    response.headers["Content-Disposition"] = 'attachment; filename="games.ndjson"'
    return response


@blueprint.get("/<game_id>/replay")
def get_replay(game_id: str):
    games = service()
    replay = with_analysis(games.client, game_id, games.replay(game_id))
    response = Response(dump_replay(replay), mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{game_id}.replay.json"'
    return response


@blueprint.get("/<game_id>/replay.html")
def get_replay_page(game_id: str):
    games = service()
    replay = with_analysis(games.client, game_id, games.replay(game_id))
    return Response(render_html(replay), mimetype="text/html")

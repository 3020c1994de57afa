"""Replays over HTTP: a finished game's replay (JSON download), its viewer page, and the
bulk export of finished games' replays (NDJSON, application.export).

A live game has no replay (R2): 409 `game_not_finished`, and nothing of the game's hidden
information is built or sent. A finished game's replay and page are built once and kept
compressed (application.replay_reads, api.built_files).
"""

from __future__ import annotations

from flask import Blueprint

from api import schemas
from api.arena_schemas import ArenaExportQuerySchema
from api.bodies import query
from api.built_files import accepted_coding, file_response
from api.extensions import service
from api.streams import ndjson, stream_settings
from application import arenas
from application.export import ExportFilter, export_lines
from application.replay_reads import REPLAY_HTML, REPLAY_JSON, replay_file
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
    coding = accepted_coding()
    found = replay_file(service(), game_id, REPLAY_JSON, coding)
    response = file_response(found, coding, "application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{game_id}.replay.json"'
    return response


@blueprint.get("/<game_id>/replay.html")
def get_replay_page(game_id: str):
    coding = accepted_coding()
    return file_response(replay_file(service(), game_id, REPLAY_HTML, coding), coding, "text/html")

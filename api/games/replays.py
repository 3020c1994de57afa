"""Replays over HTTP: a finished game's replay (JSON download), its viewer page, and the
bulk export of finished games' replays (NDJSON, application.operations.export).

A live game has no replay (R2): 409 `game_not_finished`, and nothing of the game's hidden
information is built or sent. A finished game's replay and page are built once and kept
compressed (application.games.replay_reads, api.games.built_files).
"""

from __future__ import annotations

from flask import Blueprint
from marshmallow import validate

from api.core import schemas
from api.core.bodies import query
from api.core.extensions import service
from api.core.ndjson import ndjson, stream_settings
from api.games.built_files import accepted_coding, file_response
from application.arenas import service as arenas
from application.games.replay_reads import REPLAY_HTML, REPLAY_JSON, replay_file
from application.operations.export import ExportFilter, export_lines
from store.arenas.records import ArenaStore
from store.tournaments.records import TournamentStore


class ArenaExportQuerySchema(schemas.ExportQuerySchema):
    """The export's query with `arena`: only that arena's games."""

    arena = schemas.Text(validate=validate.Regexp(r"^[A-Za-z0-9_-]{8,40}\Z"))


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

"""An account's public games and rating history (application.accounts.people): what the web
client's account page shows."""

from __future__ import annotations

from flask import Blueprint, jsonify

from api.accounts import people_schemas as ps
from api.core.bodies import query
from api.core.extensions import service
from api.core.schemas import ACCOUNT_NAME_RE, use
from application.accounts.errors import AccountNotFound
from application.accounts.people import games_page, rating_history

blueprint = Blueprint("people", __name__, url_prefix="/v1/accounts")


def _known_form(name: str) -> None:
    if not ACCOUNT_NAME_RE.fullmatch(name):
        raise AccountNotFound("no account of this name")


@blueprint.get("/<name>/games")
def account_games(name: str):
    _known_form(name)
    args = query(use(ps.AccountGamesQuerySchema))
    payload, next_cursor = games_page(
        service().client, name, args.get("status"), args["cursor"], args["limit"]
    )
    return jsonify(use(ps.AccountGamesSchema).dump({**payload, "next_cursor": next_cursor}))


@blueprint.get("/<name>/ratings/history")
def account_rating_history(name: str):
    _known_form(name)
    args = query(use(ps.RatingHistoryQuerySchema))
    before = None if args["cursor"] is None else int(args["cursor"])
    payload, next_cursor = rating_history(
        service().client, name, args["game"], before, args["limit"]
    )
    return jsonify(use(ps.RatingHistorySchema).dump({**payload, "next_cursor": next_cursor}))

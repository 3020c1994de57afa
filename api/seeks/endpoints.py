"""The rated pool's seeks: POST /v1/seeks, GET /v1/seeks, DELETE /v1/seeks/{id} (an
account key each; application.seeks.service). Pairing runs in the workers (workers.pairing)."""

from __future__ import annotations

from flask import Blueprint, Flask, current_app, jsonify

from api.accounts.endpoints import EXTENSION as ACCOUNTS
from api.core.auth import account_of, bearer_token, client_address
from api.core.bodies import json_body
from api.core.extensions import service
from api.core.schemas import use
from api.seeks.schemas import OpenSeekSchema
from application.seeks import service as seeks

blueprint = Blueprint("seeks", __name__, url_prefix="/v1/seeks")


def init_app(app: Flask) -> None:
    """The bounds (KELTIS_SEEKS_PER_ACCOUNT, KELTIS_SEEKS_PER_ADDRESS; the app's
    SEEK_BOUNDS config wins) and the endpoints."""
    app.config.setdefault("SEEK_BOUNDS", seeks.SeekBounds.from_env())
    app.register_blueprint(blueprint)


def _account():
    games = service()
    return games, account_of(games.accounts, bearer_token())


@blueprint.post("")
def open_seek():
    games, account = _account()
    body = json_body(use(OpenSeekSchema))
    address = client_address()
    bounds = current_app.config["SEEK_BOUNDS"]
    policy = current_app.extensions[ACCOUNTS].policy
    shown = seeks.open_seek(games, account, body, address, bounds, policy)
    return jsonify(shown), 201, {"Location": f"/v1/seeks/{shown['id']}"}


@blueprint.get("")
def my_seeks():
    games, account = _account()
    return jsonify({"seeks": seeks.account_seeks(games, account)})


@blueprint.delete("/<seek_id>")
def cancel_seek(seek_id: str):
    games, account = _account()
    return jsonify(seeks.cancel_seek(games, account, seek_id))

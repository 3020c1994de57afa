"""The /v1/challenges endpoints (application.challenges.service) and GET /v1/matches/{id}
(application.tournaments.matches). Every challenge endpoint takes an account key."""

from __future__ import annotations

from flask import Blueprint, Flask, current_app, jsonify, request

from api.challenges.schemas import (
    ChallengeListQuerySchema,
    CreateChallengeSchema,
    DeclineSchema,
)
from api.core import schemas
from api.core.auth import account_of, bearer_token
from api.core.bodies import json_body, query
from api.core.errors import ApiError
from api.core.extensions import service
from api.games import budget as api_budget
from application.challenges.budget import BudgetCharger
from application.challenges.service import Challenges, Limits
from application.tournaments import matches

blueprint = Blueprint("challenges", __name__, url_prefix="/v1")
LIMITS = "CHALLENGE_LIMITS"


def _challenges() -> Challenges:
    charger = BudgetCharger(api_budget._store(), api_budget._budgets())
    return Challenges(service(), current_app.config[LIMITS], charger)


def _account():
    return account_of(service().accounts, bearer_token())


@blueprint.post("/challenges")
def create_challenge():
    account = _account()
    body = json_body(schemas.use(CreateChallengeSchema))
    challenge = _challenges().open(account, body)
    return jsonify(challenge), 201, {"Location": f"/v1/challenges/{challenge['id']}"}


@blueprint.get("/challenges")
def list_challenges():
    account = _account()
    args = query(schemas.use(ChallengeListQuerySchema))
    return jsonify({"challenges": _challenges().listing(account, args["direction"])})


@blueprint.get("/challenges/<challenge_id>")
def get_challenge(challenge_id: str):
    return jsonify(_challenges().get(_account(), challenge_id))


@blueprint.post("/challenges/<challenge_id>/accept")
def accept_challenge(challenge_id: str):
    return jsonify(_challenges().accept(_account(), challenge_id))


@blueprint.post("/challenges/<challenge_id>/decline")
def decline_challenge(challenge_id: str):
    account = _account()
    body = json_body(schemas.use(DeclineSchema)) if request.get_data() else {"reason": "generic"}
    return jsonify(_challenges().decline(account, challenge_id, body["reason"]))


@blueprint.post("/challenges/<challenge_id>/cancel")
def cancel_challenge(challenge_id: str):
    return jsonify(_challenges().cancel(_account(), challenge_id))


@blueprint.get("/matches/<match_id>")
def get_match(match_id: str):
    found = matches.load(service().client, match_id)
    if found is None:
        raise ApiError(404, "match_not_found", "no match with this id")
    return jsonify(matches.present(service(), found))


def init_app(app: Flask) -> None:
    """Limits from KELTIS_CHALLENGES_OPEN_PER_ACCOUNT and
    KELTIS_CHALLENGES_INCOMING_PER_ACCOUNT (app.config CHALLENGE_LIMITS wins)."""
    app.config.setdefault(LIMITS, Limits.from_env())
    app.register_blueprint(blueprint)

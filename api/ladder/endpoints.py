"""The /v1/ratings endpoint: the rating ladder of one game type (application.ladder.ratings)."""

from __future__ import annotations

from flask import Blueprint, jsonify

from api.core import schemas
from api.core.bodies import query
from api.core.extensions import service
from application.ladder.ratings import ratings_page

blueprint = Blueprint("ratings", __name__, url_prefix="/v1/ratings")


@blueprint.get("")
def list_ratings():
    args = query(schemas.use(schemas.RatingsQuerySchema))
    found, next_cursor = ratings_page(service().client, args["game"], args["cursor"], args["limit"])
    payload = {"game": args["game"], "ratings": found, "next_cursor": next_cursor}
    return jsonify(schemas.use(schemas.RatingListSchema).dump(payload))

"""Service endpoints: health, bots, the OpenAPI contract and its docs page."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, jsonify

from api import schemas
from api.docs import render_docs
from api.extensions import service

blueprint = Blueprint("meta", __name__)

SPEC_PATH = Path(__file__).resolve().parent.parent / "openapi.yaml"


@lru_cache(maxsize=1)
def spec_text() -> str:
    """The OpenAPI document served at /openapi.yaml."""
    return SPEC_PATH.read_text()


@blueprint.get("/healthz")
def healthz():
    service().client.ping()
    return jsonify(schemas.use(schemas.HealthSchema).dump({"status": "ok"}))


@blueprint.get("/v1/bots")
def bots():
    games = [{"game": game, "bots": names} for game, names in service().available_bots().items()]
    return jsonify(schemas.use(schemas.BotsSchema).dump({"games": games}))


@blueprint.get("/openapi.yaml")
def openapi_yaml():
    return Response(spec_text(), mimetype="application/yaml")


@blueprint.get("/docs")
def docs():
    return Response(render_docs(spec_text()), mimetype="text/html")

"""The web client: a lobby at `/`, a table at `/play/<id>`, the leaderboards at
`/leaderboard` and an account's page at `/accounts/<name>`, plain HTML, CSS and
JavaScript modules served from this package. The pages speak only the public API."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from flask import Blueprint, Response, abort

from api.docs import render_docs
from api.meta import spec_text
from api.webclient import swagger

blueprint = Blueprint("webclient", __name__)

# The files a page may load, and their media types; anything else is 404.
ASSETS = {
    "app.css": "text/css",
    "api.js": "text/javascript",
    "arena.js": "text/javascript",
    "cards.js": "text/javascript",
    "challenges.js": "text/javascript",
    "dice.js": "text/javascript",
    "docs.js": "text/javascript",
    "dom.js": "text/javascript",
    "lobby.js": "text/javascript",
    "play.js": "text/javascript",
    "seek.js": "text/javascript",
    "words.js": "text/javascript",
    # issue 24, people: the leaderboards and account pages
    "account.js": "text/javascript",
    "chart.js": "text/javascript",
    "leaderboard.js": "text/javascript",
    "people.css": "text/css",
}
# Same-origin only: the pages fetch nothing from anywhere else.
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


# Files shared with the replay viewer live in the replays package.
SHARED = {"words.js": "replays"}


@lru_cache(maxsize=16)
def _read(name: str) -> str:
    package = SHARED.get(name, __package__)
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


# Swagger UI sets style attributes and uses data: images in its style sheet.
DOCS_POLICY = POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")


def _answer(name: str, mimetype: str, body=None, policy: str = POLICY) -> Response:
    response = Response(_read(name) if body is None else body, mimetype=mimetype)
    response.headers["Content-Security-Policy"] = policy
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "no-cache"
    return response


@blueprint.get("/")
def lobby():
    return _answer("lobby.html", "text/html")


@blueprint.get("/play/<game_id>")
def table(game_id: str):
    return _answer("play.html", "text/html")


@blueprint.get("/leaderboard")
def leaderboard():
    return _answer("leaderboard.html", "text/html")


@blueprint.get("/accounts/<name>")
def account_page(name: str):
    return _answer("account.html", "text/html")


@blueprint.get("/arenas")
@blueprint.get("/arenas/<arena_id>")
def arena_page(arena_id: str | None = None):
    """The arenas (application.arenas), and one arena's live leaderboard."""
    return _answer("arena.html", "text/html")


@blueprint.get("/web/<name>")
def asset(name: str):
    if name not in ASSETS:
        abort(404)
    return _answer(name, ASSETS[name])


@blueprint.get("/docs")
def docs():
    return _answer("docs.html", "text/html", policy=DOCS_POLICY)


@blueprint.get("/docs/static/<name>")
def docs_static(name: str):
    if name not in swagger.FILES:
        abort(404)
    response = _answer(name, swagger.FILES[name], body=swagger.read(name), policy=DOCS_POLICY)
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response


@blueprint.get("/docs/plain")
def docs_plain():
    """The contract as one readable page without any script."""
    return Response(render_docs(spec_text()), mimetype="text/html")

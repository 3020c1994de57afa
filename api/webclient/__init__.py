"""The web client: a lobby at `/`, a table at `/play/<id>`, the leaderboards at
`/leaderboard` and an account's page at `/accounts/<name>`, plain HTML, CSS and
JavaScript modules served from this package. The pages speak only the public API."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from flask import Blueprint, Response, abort, request

from api.operations.docs import render_docs
from api.operations.meta import spec_text
from api.webclient import swagger
from api.webclient.assets import PAGE, Versioned
from api.webclient.compression import compress, matches
from api.webclient.rules import rules_page

blueprint = Blueprint("webclient", __name__)

# The files a page may load, and their media types; anything else is 404.
ASSETS = {
    "app.css": "text/css",
    "api.js": "text/javascript",
    "arena.js": "text/javascript",
    "challenges.js": "text/javascript",
    "docs.js": "text/javascript",
    "dom.js": "text/javascript",
    # the words of every page in each language (i18n.js, language.js, one catalog each)
    "i18n.js": "text/javascript",
    "language.js": "text/javascript",
    "lang-en.js": "text/javascript",
    "lang-hu.js": "text/javascript",
    "lang-de.js": "text/javascript",
    "page.js": "text/javascript",
    "tableWords.js": "text/javascript",
    "lobby.js": "text/javascript",
    "play.js": "text/javascript",
    "seek.js": "text/javascript",
    "words.js": "text/javascript",
    # people: the leaderboards and account pages
    "account.js": "text/javascript",
    "chart.js": "text/javascript",
    "leaderboard.js": "text/javascript",
    "people.css": "text/css",
    # the lobby's rules summary, the icon
    "bots.js": "text/javascript",
    "rules.css": "text/css",
    "gamelines.js": "text/javascript",
    "favicon.svg": "image/svg+xml",
    # the table: reusable table components (the replay viewer draws with them too)
    "cardRules.js": "text/javascript",
    "cardTable.js": "text/javascript",
    "diceTable.js": "text/javascript",
    "opponentSteps.js": "text/javascript",
    "scoreBreakdown.js": "text/javascript",
    "scoreTable.js": "text/javascript",
    "tableSpots.js": "text/javascript",
}
# Same-origin only: the pages fetch nothing from anywhere else.
POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


RULES = "rules.html"  # made from docs/RULES.md (api.webclient.rules)
# Files shared with the replay viewer live in the replays package.
SHARED = {"words.js": "replays"}
WEB = "/web/"
DOCS_STATIC = "/docs/static/"


@lru_cache(maxsize=64)
def _read(name: str) -> str:
    package = SHARED.get(name, __package__)
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def _raw(prefix: str, name: str) -> bytes:
    if prefix == DOCS_STATIC:
        return swagger.read(name)
    return (rules_page() if name == RULES else _read(name)).encode("utf-8")


FILES = Versioned(_raw, {WEB: set(ASSETS), DOCS_STATIC: set(swagger.FILES)})
# A versioned URL (`?v=` its content hash) never changes: browsers keep it for a year.
FOREVER = "public, max-age=31536000, immutable"

# Swagger UI sets style attributes and uses data: images in its style sheet.
DOCS_POLICY = POLICY.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")


def _answer(name: str, mimetype: str, policy: str = POLICY, prefix: str = PAGE) -> Response:
    """A static file with its ETag (304 when the browser has it), compressed by the view's
    `compress.compressed()`; cached for good under its versioned URL, else revalidated."""
    etag = FILES.version(prefix, name)
    if matches(etag):
        response = Response(status=304)
    else:
        response = Response(FILES.body(prefix, name), mimetype=mimetype)
    response.set_etag(etag)
    response.headers["Content-Security-Policy"] = policy
    response.headers["X-Content-Type-Options"] = "nosniff"
    versioned = prefix != PAGE and request.args.get("v") == etag
    response.headers["Cache-Control"] = FOREVER if versioned else "no-cache"
    response.vary.add("Accept-Encoding")
    return response


# The pages, plain HTML files: endpoint -> (file, path, ...).
PAGES = {
    "lobby": ("lobby.html", "/"),
    "table": ("play.html", "/play/<game_id>"),
    "leaderboard": ("leaderboard.html", "/leaderboard"),
    "account_page": ("account.html", "/accounts/<name>"),
    # the arenas (application.arenas.service), and one arena's live leaderboard
    "arena_page": ("arena.html", "/arenas", "/arenas/<arena_id>"),
    # the rules (docs/RULES.md) with an anchor per rule id: /rules#P3
    "rules": (RULES, "/rules"),
}


@compress.compressed()
def _page(**_) -> Response:
    return _answer(PAGES[request.endpoint.rpartition(".")[2]][0], "text/html")


for endpoint, (_file, *paths) in PAGES.items():
    for path in paths:
        blueprint.add_url_rule(path, endpoint, _page)


@blueprint.get("/web/<name>")
@compress.compressed()
def asset(name: str):
    if name not in ASSETS:
        abort(404)
    return _answer(name, ASSETS[name], prefix=WEB)


@blueprint.get("/favicon.ico")
def favicon():
    """For clients that ask without reading the pages' icon link."""
    return _answer("favicon.svg", "image/svg+xml", prefix=WEB)


@blueprint.get("/docs")
@compress.compressed()
def docs():
    return _answer("docs.html", "text/html", policy=DOCS_POLICY)


@blueprint.get("/docs/static/<name>")
@compress.compressed()
def docs_static(name: str):
    if name not in swagger.FILES:
        abort(404)
    return _answer(name, swagger.FILES[name], policy=DOCS_POLICY, prefix=DOCS_STATIC)


@blueprint.get("/docs/plain")
def docs_plain():
    """The contract as one readable page without any script."""
    return Response(render_docs(spec_text()), mimetype="text/html")

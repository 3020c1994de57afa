"""`GET /metrics`: the Prometheus text exposition (application.operations.metrics_scrape), for the
operator only.

Not public by default: without an operator setting no credential opens it (401, as the
contract's metricsToken security says; the path itself is no secret, openapi.yaml lists
it). Two settings, either or both:
- KELTIS_METRICS_TOKEN (config METRICS_TOKEN): the scraper sends `Authorization: Bearer
  <token>`; a missing or wrong token gets 401 (compared in constant time).
- KELTIS_METRICS_BIND (config METRICS_BIND), "host:port": an address of its own that
  `keltis serve` adds to gunicorn's binds; /metrics answers only on connections that
  arrived there (the connection's own local address, which no header can fake), and that
  address serves nothing else (404). Put it on a private interface.
"""

from __future__ import annotations

import hmac

from flask import Blueprint, Flask, Response, current_app, request
from werkzeug.exceptions import NotFound

import settings
from api.core import extensions
from application.accounts.errors import Unauthenticated
from application.common.bind_address import parse_bind, same_listener
from application.operations.metrics_scrape import CONTENT_TYPE, scrape

TOKEN_ENV = "KELTIS_METRICS_TOKEN"
BIND_ENV = "KELTIS_METRICS_BIND"
MAX_TOKEN_CHARS = 200
SERVER_SOCKET = "gunicorn.socket"  # the WSGI environ's connection socket (gunicorn)
PATH = "/metrics"

blueprint = Blueprint("metrics", __name__)


def _check_token(expected: str) -> None:
    header = request.headers.get("Authorization", "")
    scheme, _, given = header.partition(" ")
    given = given.strip()
    if scheme.lower() != "bearer" or not given or len(given) > MAX_TOKEN_CHARS:
        raise Unauthenticated("use Authorization: Bearer <the metrics token>")
    if not hmac.compare_digest(given.encode(), expected.encode()):
        raise Unauthenticated("use Authorization: Bearer <the metrics token>")


def on_metrics_listener(bind: tuple[str, int]) -> bool:
    """Whether the current request came in on the metrics address (False when the server
    does not say which socket it came on)."""
    return came_on(request.environ, bind)


def came_on(environ: dict, bind: tuple[str, int]) -> bool:
    """`on_metrics_listener` of a WSGI environ."""
    connection = environ.get(SERVER_SOCKET)
    if connection is None:
        return False
    try:
        return same_listener(bind, connection.getsockname())
    except OSError:
        return False


@blueprint.get(PATH)
def get_metrics():
    config = current_app.config
    token, bind = config.get("METRICS_TOKEN"), config.get("METRICS_BIND")
    if not token and not bind:
        raise Unauthenticated("no metrics token is set on this server (KELTIS_METRICS_TOKEN)")
    if bind and not on_metrics_listener(bind):
        raise NotFound()
    if token:
        _check_token(token)
    body = scrape(extensions.service().client, extensions.queue())
    response = Response(body, content_type=CONTENT_TYPE)
    response.headers["Cache-Control"] = "no-store"
    return response


def metrics_bind(setting: str) -> tuple[str, int]:
    """The (host, port) of KELTIS_METRICS_BIND; ValueError unless it is host:port with a
    port of its own (not 0)."""
    host, port = parse_bind(setting)
    if port == 0:
        raise ValueError(f"{BIND_ENV} needs a port of its own, got {setting!r}")
    return host, port


def _only_metrics_there(bind: tuple[str, int]):
    """A before-request hook: the metrics address serves /metrics alone."""

    def check() -> None:
        if request.path != PATH and on_metrics_listener(bind):
            raise NotFound()

    return check


def init_app(app: Flask) -> None:
    """Serve /metrics as the operator's settings say (settings in app.config win);
    ValueError for a METRICS_BIND that is not host:port."""
    configured = settings.current()
    app.config.setdefault("METRICS_TOKEN", configured.metrics_token)
    app.config.setdefault("METRICS_BIND", configured.metrics_bind)
    if isinstance(app.config["METRICS_BIND"], str):
        app.config["METRICS_BIND"] = metrics_bind(app.config["METRICS_BIND"])
    if app.config["METRICS_BIND"]:
        app.before_request(_only_metrics_there(app.config["METRICS_BIND"]))
    app.register_blueprint(blueprint)

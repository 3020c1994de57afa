"""What the contract (openapi.yaml) says of an error code: the HTTP status written right
before it in a description ("... 404 arena_not_found ...", "403 `operator_only`"), and the
status the service answers for an error (its kind through api.core.errors.STATUS_OF_KIND)."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from api.core.errors import STATUS_OF_KIND
from domain.errors import KeltisError

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


@cache
def _spec_text() -> str:
    return " ".join(SPEC.read_text(encoding="utf-8").split())


def documented_statuses(code: str) -> set[int]:
    """Every status the contract writes before `code` (empty when it names none)."""
    pattern = rf"\b([1-5]\d\d) `?{re.escape(code)}\b"
    return {int(found) for found in re.findall(pattern, _spec_text())}


def answered_status(error: KeltisError) -> int:
    """The status the HTTP layer answers for `error`."""
    return STATUS_OF_KIND[error.kind]


def served(error: KeltisError):
    """The response the service's error handlers (api.core.errors) make of `error` raised by
    an endpoint: status, headers and the JSON error shape."""
    from flask import Flask

    from api.core import errors

    app = Flask(__name__)
    errors.init_app(app)

    @app.get("/raise")
    def _raise():
        raise error

    return app.test_client().get("/raise")

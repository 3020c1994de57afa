"""Hold every HTTP response the tests receive against openapi.yaml."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

import requests
from flask.testing import FlaskClient
from openapi_core import OpenAPI
from openapi_core.contrib.requests import RequestsOpenAPIRequest, RequestsOpenAPIResponse
from openapi_core.contrib.werkzeug import WerkzeugOpenAPIRequest, WerkzeugOpenAPIResponse
from openapi_core.templating.paths.exceptions import OperationNotFound, PathNotFound

from api import create_app

SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"


@lru_cache(maxsize=1)
def openapi() -> OpenAPI:
    return OpenAPI.from_file_path(str(SPEC))


def _validate(request, response, status: int) -> None:
    """Hold a response against the spec; an unknown path may only be a 404, an unknown
    method only a 405."""
    try:
        openapi().validate_response(request, response)
    except PathNotFound:
        if status != 404:
            raise
    except OperationNotFound:
        if status != 405:
            raise


class _RequestOfResponse(WerkzeugOpenAPIRequest):
    """The request behind a response; its body was consumed and is not needed."""

    @property
    def body(self):
        return None


class ContractClient(FlaskClient):
    """A Flask test client that validates every response against the contract."""

    checked = 0

    def open(self, *args, **kwargs):
        response = super().open(*args, **kwargs)
        request = _RequestOfResponse(response.request)
        _validate(request, WerkzeugOpenAPIResponse(response), response.status_code)
        ContractClient.checked += 1
        return response


def contract_app(redis_url: str, **config):
    """A testing app on `redis_url` that enqueues no bot turn (`config` adds to or overrides
    that), whose test client checks every answer against openapi.yaml."""
    app = create_app({"REDIS_URL": redis_url, "TESTING": True, "ENQUEUE_BOTS": False, **config})
    app.test_client_class = ContractClient
    return app


def check_requests_response(response) -> None:
    """Validate one `requests` response (live-server tests)."""
    _validate(
        RequestsOpenAPIRequest(response.request),
        RequestsOpenAPIResponse(response),
        response.status_code,
    )


def install_requests_hook(session) -> None:
    """Validate every response a requests.Session receives."""
    session.hooks["response"].append(lambda response, *a, **k: check_requests_response(response))


@contextmanager
def contract_session(headers: dict[str, str] | None = None) -> Iterator[requests.Session]:
    """A requests session (with `headers`) whose answers are checked against the contract;
    closed after the block."""
    session = requests.Session()
    session.headers.update(headers or {})
    install_requests_hook(session)
    try:
        yield session
    finally:
        session.close()

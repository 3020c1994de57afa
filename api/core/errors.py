"""One JSON error shape for every failure: {"error": {"code", "message", "rule"}}."""

from __future__ import annotations

import logging

import redis
from flask import Flask, jsonify, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, RequestEntityTooLarge

from api.core.api_error import ApiError
from api.core.schemas import ErrorSchema, use
from application.metrics import counters as metrics
from domain.errors import KeltisError, Kind
from store.archive.tier import ArchiveUnavailable

log = logging.getLogger(__name__)

DRAIN_LIMIT_BYTES = 1024 * 1024
MAX_FIELD_ECHO = 60  # characters of a field name repeated in an error message

# The one mapping of error kinds to HTTP statuses.
STATUS_OF_KIND = {
    Kind.NOT_FOUND: 404,
    Kind.CONFLICT: 409,
    Kind.INVALID: 422,
    Kind.UNAUTHENTICATED: 401,
    Kind.FORBIDDEN: 403,
    Kind.RATE_LIMITED: 429,
    Kind.UNAVAILABLE: 503,
    Kind.CORRUPT: 500,  # only data written around the service can do this
}


def error_response(status: int, code: str, message: str, rule: str | None = None, **extra):
    """The error shape as a Flask response."""
    body = use(ErrorSchema).dump(
        {"error": {"code": code, "message": message, "rule": rule, **extra}}
    )
    response = jsonify(body)
    response.status_code = status
    if status == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
    return response


def init_app(app: Flask) -> None:
    """Register the handlers that turn every exception into the error shape."""

    @app.errorhandler(ApiError)
    def _api(error: ApiError):
        return error_response(error.status, error.code, error.message)

    @app.errorhandler(KeltisError)
    def _kind(error: KeltisError):
        if error.kind is Kind.RATE_LIMITED:
            metrics.refused(error.code)
        extra = {}
        if hasattr(error, "current_version"):
            extra["current_version"] = error.current_version
        extra.update(getattr(error, "details", None) or {})
        response = error_response(
            STATUS_OF_KIND[error.kind], error.code, error.message, error.rule, **extra
        )
        if hasattr(error, "retry_after_s"):
            response.headers["Retry-After"] = str(error.retry_after_s)
        return response

    @app.errorhandler(ValidationError)
    def _invalid(error: ValidationError):
        return error_response(422, "invalid_request", describe(error.messages))

    @app.errorhandler(redis.RedisError)
    @app.errorhandler(ArchiveUnavailable)  # the archive tier's PostgreSQL (store.archive.tier)
    def _storage(error: Exception):
        log.warning("storage unavailable: %s", error)
        return error_response(503, "storage_unavailable", "the game store is unavailable")

    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(error: RequestEntityTooLarge):
        _drain_body()
        return error_response(413, "request_entity_too_large", "the body exceeds 64 KiB")

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException):
        code = (error.name or "http_error").lower().replace(" ", "_")
        response = error_response(error.code or 500, code, error.description or error.name)
        if isinstance(error, MethodNotAllowed) and error.valid_methods:
            response.headers["Allow"] = ", ".join(error.valid_methods)  # RFC 9110 15.5.6
        return response

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        log.exception("unexpected error")
        return error_response(500, "internal_error", "an unexpected error occurred")


def _drain_body() -> None:
    """Read (and drop) a moderately oversized body so the client can read our 413.

    Closing a connection with unread data makes TCP reset it before the client sees the
    answer. Bodies beyond DRAIN_LIMIT_BYTES are not read: the connection is dropped.
    """
    stream = request.environ.get("wsgi.input")
    length = request.content_length or 0
    if stream is None or length > DRAIN_LIMIT_BYTES:
        return
    remaining = length
    while remaining > 0:
        chunk = stream.read(min(65536, remaining))
        if not chunk:
            return
        remaining -= len(chunk)


def describe_name(name: str) -> str:
    """A field name as it may be repeated: bounded, and escaped where not plain UTF-8 text."""
    if len(name) > MAX_FIELD_ECHO:
        name = name[:MAX_FIELD_ECHO] + "..."
    return name.encode("utf-8", "backslashreplace").decode("utf-8")


def describe(messages) -> str:
    """A short text naming the fields at fault (never echoing their values)."""
    if isinstance(messages, dict):
        parts = []
        for field, problem in messages.items():
            detail = describe(problem)
            parts.append(f"{describe_name(str(field))}: {detail}")
        return "; ".join(parts)
    if isinstance(messages, list):
        return " ".join(str(m) if not isinstance(m, dict | list) else describe(m) for m in messages)
    return str(messages)

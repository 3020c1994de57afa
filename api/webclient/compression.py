"""Compression of the web client's static files (flask-compress, pinned): brotli or gzip,
as the browser accepts, for the pages, modules, style sheets and Swagger UI's bundle only.
API answers are not compressed (their length could tell about hidden data)."""

from __future__ import annotations

from flask import Flask, request
from flask_compress import Compress


class _Compressed:
    """The compressed bodies, one per file and coding: the files are fixed while the app
    runs, and the key is the endpoint and file name (never the URL), so it stays small."""

    def __init__(self) -> None:
        self._bodies: dict[str, bytes] = {}

    def get(self, key: str) -> bytes | None:
        return self._bodies.get(key)

    def set(self, key: str, value: bytes) -> None:
        self._bodies[key] = value


def _file_key(req) -> str:
    return f"{req.endpoint}:{(req.view_args or {}).get('name', '')}"


compress = Compress()


def init_app(app: Flask) -> None:
    """Compression only where a view asks for it (`@compress.compressed()`)."""
    app.config.setdefault("COMPRESS_REGISTER", False)
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_CACHE_BACKEND", _Compressed)
    app.config.setdefault("COMPRESS_CACHE_KEY", _file_key)
    compress.init_app(app)


def matches(etag: str) -> bool:
    """Whether the request's If-None-Match names this body (with or without the coding
    flask-compress appends to a compressed body's ETag)."""
    return any(tag.split(":", 1)[0] == etag for tag in request.if_none_match.as_set())

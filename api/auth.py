"""The caller's bearer token (the seat is resolved by the service against the game)."""

from __future__ import annotations

from flask import request

from application.errors import Unauthenticated

MAX_TOKEN_CHARS = 200


def bearer_token() -> str | None:
    """The token of `Authorization: Bearer <token>`, None without the header."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN_CHARS:
        raise Unauthenticated("use Authorization: Bearer <token>")
    return token

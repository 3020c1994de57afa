"""Who a request says it is, read from its WSGI environ without Flask (the Flask views and
the fast path of moves read it alike): its bearer token and the seat it asks for."""

from __future__ import annotations

import re

from api.core.api_error import ApiError
from application.accounts.errors import Unauthenticated

MAX_TOKEN_CHARS = 200  # longer is no token of ours; refused before any lookup
SEAT_HEADER = "X-Keltis-Seat"
SEAT_ENVIRON = "HTTP_X_KELTIS_SEAT"
SEAT_VALUE = re.compile(r"[0-9]{1,2}", re.ASCII)


def bearer_token(environ: dict) -> str | None:
    """The token of `Authorization: Bearer <token>`, None without the header;
    Unauthenticated for any other Authorization."""
    header = environ.get("HTTP_AUTHORIZATION")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN_CHARS:
        raise Unauthenticated("use Authorization: Bearer <token>")
    return token


def seat_header(environ: dict) -> int | None:
    """The seat asked for with `X-Keltis-Seat` (an account holding several seats of one
    game picks one with it), None without the header; 422 when it is not a seat number."""
    value = environ.get(SEAT_ENVIRON)
    if value is None:
        return None
    if not SEAT_VALUE.fullmatch(value.strip()):
        raise ApiError(422, "invalid_seat_header", f"{SEAT_HEADER} must be a seat number")
    return int(value.strip())

"""The caller's bearer token (the seat is resolved by the service against the game)."""

from __future__ import annotations

import re

from flask import request

from api import observe
from api.errors import ApiError
from application import auth
from application.errors import Unauthenticated

MAX_TOKEN_CHARS = 200


def bearer_token() -> str | None:
    """The token of `Authorization: Bearer <token>`, None without the header."""
    header = request.environ.get("HTTP_AUTHORIZATION")  # request.headers.get, without its
    if header is None:  # KeyError raised and caught when the header is missing
        return None
    scheme, _, token = header.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > MAX_TOKEN_CHARS:
        raise Unauthenticated("use Authorization: Bearer <token>")
    return token


def account_of(store, key: str | None):
    """The account of an account key (application.auth.account_of), named in the
    request's log line (api.observe)."""
    account = auth.account_of(store, key)
    observe.note_account(account.name)
    return account


SEAT_HEADER = "X-Keltis-Seat"
SEAT_ENVIRON = "HTTP_X_KELTIS_SEAT"
SEAT_VALUE = re.compile(r"[0-9]{1,2}", re.ASCII)


def seat_header() -> int | None:
    """The seat asked for with `X-Keltis-Seat` (an account holding several seats of one
    game picks one with it), None without the header; 422 when it is not a seat number."""
    value = request.environ.get(SEAT_ENVIRON)  # as request.headers.get(SEAT_HEADER), cheaper
    if value is None:
        return None
    if not SEAT_VALUE.fullmatch(value.strip()):
        raise ApiError(422, "invalid_seat_header", f"{SEAT_HEADER} must be a seat number")
    return int(value.strip())

"""The caller's bearer token (the seat is resolved by the service against the game) and
address."""

from __future__ import annotations

from flask import request

from api.core import environ_credentials, observe
from api.core.ratecount import LOCAL_ADDRESS
from application.accounts import auth


def bearer_token() -> str | None:
    """The token of `Authorization: Bearer <token>`, None without the header."""
    return environ_credentials.bearer_token(request.environ)


def account_of(store, key: str | None):
    """The account of an account key (application.accounts.auth.account_of), named in the
    request's log line (api.core.observe)."""
    account = auth.account_of(store, key)
    observe.note_account(account.name)
    return account


def seat_header() -> int | None:
    """The seat asked for with `X-Keltis-Seat` (environ_credentials.seat_header)."""
    return environ_credentials.seat_header(request.environ)


def client_address() -> str:
    """The address the connection comes from (never a header the client sets), as the rate
    limit, the quotas and the stream holds know it."""
    return request.remote_addr or LOCAL_ADDRESS

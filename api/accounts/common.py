"""What the accounts' endpoints share: the AccountService of the app, the caller's account
and address."""

from __future__ import annotations

from flask import current_app, request

from api.core import observe
from api.core.auth import bearer_token
from api.core.ratecount import LOCAL_ADDRESS
from application.accounts.service import AccountService

EXTENSION = "keltis_accounts"


def accounts() -> AccountService:
    return current_app.extensions[EXTENSION]


def client_address() -> str:
    """The client's address, as the rate limit and the quotas know it."""
    return request.remote_addr or LOCAL_ADDRESS


def authenticated(service_: AccountService):
    """The account of the request's key, named in its log line (api.core.observe)."""
    record = service_.authenticate(bearer_token())
    observe.note_account(record.name)
    return record

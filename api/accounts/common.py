"""What the accounts' endpoints share: the AccountService of the app and the caller's
account."""

from __future__ import annotations

from flask import current_app

from api.core import observe
from api.core.auth import bearer_token
from application.accounts.service import AccountService

EXTENSION = "keltis_accounts"


def accounts() -> AccountService:
    return current_app.extensions[EXTENSION]


def authenticated(service_: AccountService):
    """The account of the request's key, named in its log line (api.core.observe)."""
    record = service_.authenticate(bearer_token())
    observe.note_account(record.name)
    return record

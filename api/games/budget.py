"""Bot CPU budgets in the API (application.budget.service), and the creator's cancel of a game.

Configuration ("<seconds> per <period>[;...]", the `limits` syntax, or "off"):
KELTIS_BOT_CPU_BUDGET_ANON (per client address, requests without an account key; default
DEFAULT_ANON) and KELTIS_BOT_CPU_BUDGET_ACCOUNT (per account, requests with its key; default
DEFAULT_ACCOUNT). BUDGET_* keys in test_config override them; apps made with TESTING=True
have no budgets unless BUDGET_ENABLED is given. A refused request gets 429
`cpu_budget_exceeded` with `budget_seconds`, `remaining_seconds`, `requested_seconds` and
Retry-After. Creator records (who may cancel a game) are written with or without budgets.
"""

from __future__ import annotations

import contextlib

from flask import Blueprint, Flask, current_app, jsonify

import settings
from api.core import extensions, schemas
from api.core.auth import account_of, bearer_token, client_address
from api.games import presenters
from application.accounts import auth
from application.accounts.errors import Unauthenticated
from application.budget import service as budget
from application.budget.service import Budgets, Payer, parse_limits
from application.games import cancel
from application.games.service import new_game_id
from store import keys
from store.budget.records import BudgetStore

EXTENSION = "keltis_budget"
STORE_EXTENSION = "keltis_budget_store"

blueprint = Blueprint("game_cancel", __name__, url_prefix="/v1/games")


def _store() -> BudgetStore:
    return current_app.extensions[STORE_EXTENSION]


def _budgets() -> Budgets | None:
    return current_app.extensions.get(EXTENSION)


def account_key() -> str | None:
    """The bearer token when it is an account key (the budget, create and join ignore any
    other)."""
    try:
        token = bearer_token()
    except Unauthenticated:
        return None
    return token if auth.is_account_key(token) else None


def _payer(account_key: str | None) -> Payer:
    """The payer of this request: the key's account (Unauthenticated when the key is not
    valid), else the client address."""
    account = None
    if account_key is not None:
        account = account_of(extensions.service().accounts, account_key).folded
    return Payer.of(client_address(), account)


@contextlib.contextmanager
def _charged(cost_s: float, account_key: str | None):
    """Charge `cost_s` to the request's payer (CpuBudgetExceeded when it does not fit);
    given back when the block raises. Yields (payer, ticket or None)."""
    payer = _payer(account_key)
    budgets = _budgets()
    ticket = budgets.admit(payer, cost_s) if budgets is not None else None
    try:
        yield payer, ticket
    except BaseException:
        if ticket is not None:
            budgets.refund(ticket)
        raise


@contextlib.contextmanager
def game_charge(game: str, players: list[dict], account_key: str | None):
    """Around a game's creation: charge its bot work up front and write the creator record
    of the new game's id before the game exists (its first bot turn is queued in its
    payer's turn, application.operations.jobs); yields (game id, creator token). The record is
    removed again when the block raises."""
    with _charged(budget.game_seconds(game, players), account_key) as (payer, ticket):
        game_id = new_game_id()
        token = cancel.new_creator_token()
        cancel.record_creator(_store(), game_id, token, payer.account, ticket, payer.id)
        try:
            yield game_id, token
        except BaseException:
            _store().client.delete(keys.game_creator(game_id))
            raise


@contextlib.contextmanager
def tournament_charge(body: dict):
    """Around a tournament's start: charge its bot work up front; yields `started(tid)`,
    which writes the tournament's charge record."""
    with _charged(budget.tournament_seconds(body), account_key()) as (payer, ticket):

        def started(tid: str) -> None:
            budget.record_tournament(_store(), tid, payer, ticket)

        yield started


@contextlib.contextmanager
def analysis_charge(cost_s: float):
    """Around an analysis request: charge its CPU up front to the request's payer (its
    account's budget with an account key); given back when the block raises."""
    with _charged(cost_s, account_key()) as charged:
        yield charged


def account_standing(folded: str) -> dict | None:
    """An account's bot CPU budget for its owner (application.budget.service.standing); None when
    budgets are off."""
    budgets = _budgets()
    if budgets is None or not budgets.account:
        return None
    return budget.standing(_store(), Payer.of("", folded).id, budgets.account)


def tournament_cancelled(tid: str) -> None:
    """After a tournament's cancellation: give back the unused part of its charge."""
    budget.settle(_store(), keys.tournament_cpu(tid))


@blueprint.post("/<game_id>/cancel")
def cancel_game(game_id: str):
    record = cancel.cancel(extensions.service(), _store(), game_id, bearer_token())
    return jsonify(schemas.use(schemas.GameSchema).dump(presenters.game(record, None)))


def init_app(app: Flask) -> None:
    """Budgets and creator records in `app` (settings already in app.config win), and the
    cancel endpoint."""
    app.config.setdefault("BUDGET_ENABLED", not app.testing)
    configured = settings.current()
    app.config.setdefault("BUDGET_ANON", configured.bot_cpu_budget_anon)
    app.config.setdefault("BUDGET_ACCOUNT", configured.bot_cpu_budget_account)
    store = BudgetStore(app.extensions[extensions.EXTENSION].client)
    app.extensions[STORE_EXTENSION] = store
    if app.config["BUDGET_ENABLED"]:
        app.extensions[EXTENSION] = Budgets(
            store,
            parse_limits(app.config["BUDGET_ANON"]),
            parse_limits(app.config["BUDGET_ACCOUNT"]),
        )
    app.register_blueprint(blueprint)

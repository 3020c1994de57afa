"""The /v1/accounts and /v1/me endpoints (application.accounts.service)."""

from __future__ import annotations

from flask import Blueprint, Flask, jsonify, request

from api.accounts.common import EXTENSION, accounts, authenticated
from api.accounts.session_schemas import ConfirmSchema
from api.core import extensions, quotas, schemas
from api.core.auth import client_address
from api.core.bodies import json_body, query
from api.games import budget
from application.accounts.errors import AccountNotFound
from application.accounts.service import AccountService, NewAccount
from application.webhooks.policy import WebhookPolicy, allow_from_env, parse_allow, service_ports
from store.bots.webhook_calls import last_error

blueprint = Blueprint("accounts", __name__, url_prefix="/v1")


def init_app(app: Flask) -> None:
    """An AccountService over the app's store; WEBHOOK_ALLOW (CIDRs) overrides
    KELTIS_WEBHOOK_ALLOW (application.webhooks.policy)."""
    client = app.extensions[extensions.EXTENSION].client
    setting = app.config.get("WEBHOOK_ALLOW")
    allow = parse_allow(setting) if setting is not None else allow_from_env()
    closed = service_ports(client)  # its Redis server's port and KELTIS_SERVICE_PORT
    policy = app.config.get("WEBHOOK_POLICY") or WebhookPolicy(allow, closed_ports=closed)
    app.extensions[EXTENSION] = AccountService(client, policy)
    app.register_blueprint(blueprint)
    from api.accounts import sessions  # sign-in, passwords, sessions: they use this module

    app.register_blueprint(sessions.blueprint)


def _with_secrets(new: NewAccount, webhook: str | None) -> dict:
    return schemas.use(schemas.NewAccountSchema).dump(
        {
            "name": new.record.name,
            "bot": new.record.bot,
            "webhook": webhook,
            "key": new.key,
            "webhook_secret": new.webhook_secret,
        }
    )


@blueprint.post("/accounts")
def create_account():
    body = json_body(schemas.use(schemas.CreateAccountSchema))
    quotas.account_requested()
    new = accounts().sign_up(body["name"], body["bot"], body["webhook"], body["password"])
    location = {"Location": f"/v1/accounts/{new.record.name}"}
    return jsonify(_with_secrets(new, new.record.webhook)), 201, location


@blueprint.get("/accounts/<name>")
def get_account(name: str):
    if not schemas.ACCOUNT_NAME_RE.fullmatch(name):
        raise AccountNotFound("no account of this name")
    return jsonify(schemas.use(schemas.AccountSchema).dump(accounts().profile(name)))


@blueprint.get("/me")
def get_me():
    service_ = accounts()
    record = authenticated(service_)
    return jsonify(_own(service_, record))


def _own(service_: AccountService, record) -> dict:
    """The owner's view, with the account's last failed webhook call (only the owner sees
    why a call failed: the public log shows a timeout at the deadline) and its bot CPU
    budget (`bot_cpu`: null when budgets are off)."""
    own = schemas.use(schemas.OwnAccountSchema).dump(service_.own(record))
    return {
        **own,
        "last_webhook_error": last_error(service_.client, record.folded),
        "bot_cpu": budget.account_standing(record.folded),
    }


@blueprint.patch("/me")
def patch_me():
    service_ = accounts()
    record = authenticated(service_)
    body = json_body(schemas.use(schemas.PatchMeSchema))
    if "webhook" in body:  # a session changes where the account's turns go only so
        service_.sessions.confirm(record, body.pop("password", None), client_address())
    body.pop("password", None)
    record = service_.update(record, body)
    return jsonify(_own(service_, record))


@blueprint.post("/me/key")
def rotate_key():
    service_ = accounts()
    record = authenticated(service_)
    body = json_body(schemas.use(ConfirmSchema)) if request.content_length else {}
    if record.session is not None:  # a session replaces the key with the password only
        service_.sessions.confirm(record, body.get("password"), client_address())
        record = service_.store.get(record.name) or record
    new = service_.rotate_key(record)
    return jsonify(_with_secrets(new, record.webhook))


@blueprint.get("/me/games")
def my_games():
    service_ = accounts()
    record = authenticated(service_)
    args = query(schemas.use(schemas.MyGamesQuerySchema))
    games, next_cursor = service_.games(record, args.get("status"), args["cursor"], args["limit"])
    payload = {"games": games, "next_cursor": next_cursor}
    return jsonify(schemas.use(schemas.MyGamesSchema).dump(payload))

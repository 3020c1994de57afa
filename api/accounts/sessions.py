"""Sign-in with a name and a password, passwords, and the account's sessions
(application.accounts.sessions): POST /v1/sessions, PUT /v1/me/password, GET and DELETE
/v1/me/sessions, DELETE /v1/me/sessions/{id}."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from api.accounts import session_schemas as s
from api.accounts.common import accounts, authenticated
from api.core import observe, schemas
from api.core.auth import client_address
from api.core.bodies import json_body
from application.accounts.sessions import NewSession

blueprint = Blueprint("sessions", __name__, url_prefix="/v1")


def user_agent() -> str:
    return request.headers.get("User-Agent", "")


def _new_session(new: NewSession) -> dict:
    shown = {
        "name": new.name,
        "token": new.token,
        "session": {**_session_fields(new), "current": True},
    }
    return schemas.use(s.NewSessionSchema).dump(shown)


def _session_fields(new: NewSession) -> dict:
    one = new.session
    return {
        "id": one.id,
        "created_at": one.created_at,
        "last_used_at": one.last_used_at,
        "user_agent": one.user_agent,
        "address": one.address,
    }


@blueprint.post("/sessions")
def sign_in():
    body = json_body(schemas.use(s.SignInSchema))
    sessions = accounts().sessions
    new = sessions.sign_in(body["name"], body["password"], user_agent(), client_address())
    observe.note_account(new.name)
    return jsonify(_new_session(new)), 201


@blueprint.put("/me/password")
def set_password():
    service_ = accounts()
    record = authenticated(service_)
    body = json_body(schemas.use(s.SetPasswordSchema))
    ended, fresh = service_.sessions.set_password(
        record, body["password"], body.get("current_password"), user_agent(), client_address()
    )
    shown = {
        "name": record.name,
        "sessions_ended": ended,
        "session": _new_session(fresh) if fresh else None,
    }
    return jsonify(schemas.use(s.PasswordSetSchema).dump(shown))


@blueprint.get("/me/sessions")
def list_sessions():
    service_ = accounts()
    record = authenticated(service_)
    shown = {"sessions": service_.sessions.listed(record)}
    return jsonify(schemas.use(s.SessionsSchema).dump(shown))


@blueprint.delete("/me/sessions/<session_id>")
def end_session(session_id: str):
    service_ = accounts()
    record = authenticated(service_)
    service_.sessions.end(record, session_id)
    return Response(status=204)


@blueprint.delete("/me/sessions")
def end_all_sessions():
    service_ = accounts()
    record = authenticated(service_)
    ended = service_.sessions.end_all(record)
    return jsonify(schemas.use(s.SessionsEndedSchema).dump({"ended": ended}))

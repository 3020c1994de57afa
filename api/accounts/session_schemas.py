"""Bodies and answers of sign-in, passwords and sessions (api.accounts.sessions)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.core.schemas import MAX_PASSWORD_CHARS, Strict, Text


class SignInSchema(Strict):
    name = Text(required=True, validate=validate.Length(min=1, max=100))
    password = Text(required=True, validate=validate.Length(min=1, max=MAX_PASSWORD_CHARS))


class SetPasswordSchema(Strict):
    password = Text(required=True, validate=validate.Length(max=MAX_PASSWORD_CHARS))
    current_password = Text(validate=validate.Length(max=MAX_PASSWORD_CHARS))


class ConfirmSchema(Strict):
    """The password again, for what a session may do only with it."""

    password = Text(validate=validate.Length(max=MAX_PASSWORD_CHARS))


class SessionSchema(Schema):
    id = fields.String()
    created_at = fields.Integer()
    last_used_at = fields.Integer()
    user_agent = fields.String()
    address = fields.String()
    current = fields.Boolean()


class NewSessionSchema(Schema):
    name = fields.String()
    token = fields.String()
    session = fields.Nested(SessionSchema)


class SessionsSchema(Schema):
    sessions = fields.List(fields.Nested(SessionSchema))


class SessionsEndedSchema(Schema):
    ended = fields.Integer()


class PasswordSetSchema(Schema):
    name = fields.String()
    sessions_ended = fields.Integer()
    session = fields.Nested(NewSessionSchema, allow_none=True)

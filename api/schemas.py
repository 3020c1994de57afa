"""Marshmallow schemas of every request and response body (the contract is openapi.yaml)."""

from __future__ import annotations

import unicodedata
from functools import cache

from marshmallow import INCLUDE, RAISE, Schema, ValidationError, fields, validate, validates_schema

from gamelog.record import STATUSES

NOT_SHOWN = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})  # control, format, surrogate, unassigned
MAX_INDEX = 2**53 - 1  # positions in a log or a listing (a safe JSON integer)


def _shown_text(value: str) -> None:
    """Names are shown to other players: no control, bidi/format or lone surrogate chars."""
    if any(unicodedata.category(char) in NOT_SHOWN for char in value):
        raise ValidationError("must not contain control, format or unassigned characters")


NAME = [validate.Length(min=1, max=40), _shown_text]


@cache
def use(schema_class: type[Schema]) -> Schema:
    """One shared instance per schema class (schemas hold no per-call state)."""
    return schema_class()


class Strict(Schema):
    """Unknown fields are rejected."""

    class Meta:
        unknown = RAISE


# ----- requests ------------------------------------------------------------------------


class PlayerSpecSchema(Strict):
    name = fields.String(validate=NAME)
    open = fields.Boolean()
    bot = fields.String(validate=validate.Length(min=1, max=40))

    @validates_schema
    def _one_kind(self, data, **kwargs):
        if data.get("open") and ("name" in data or "bot" in data):
            raise ValidationError("an open seat has neither name nor bot")
        if not data.get("open") and "name" not in data and "bot" not in data:
            raise ValidationError("a seat needs a name, a bot, or open: true")


class CreateGameSchema(Strict):
    game = fields.String(required=True, validate=validate.Length(min=1, max=40))
    players = fields.List(
        fields.Nested(PlayerSpecSchema), required=True, validate=validate.Length(min=1, max=8)
    )
    options = fields.Dict(keys=fields.String(), load_default=dict)


class JoinSchema(Strict):
    name = fields.String(required=True, validate=NAME)


class MoveSchema(Schema):
    """A game command: `action` plus the game's own fields, and an optional expected version."""

    class Meta:
        unknown = INCLUDE

    action = fields.String(required=True, validate=validate.Length(min=1, max=40))
    expected_version = fields.Integer(strict=True, validate=validate.Range(min=0))


class EventsQuerySchema(Strict):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_INDEX))
    wait = fields.Float(load_default=0.0, validate=validate.Range(min=0, max=3600))
    limit = fields.Integer(load_default=1000, validate=validate.Range(min=1, max=1000))


class ListQuerySchema(Strict):
    status = fields.String(validate=validate.OneOf(STATUSES))
    game = fields.String(validate=validate.Length(min=1, max=40))
    cursor = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_INDEX))
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


# ----- responses -----------------------------------------------------------------------
# Game views, results, events, commands and legal moves come from the rules (already plain
# JSON data, checked against openapi.yaml by the contract tests): fields.Raw passes them
# through as they are instead of copying every nested dict.


class PlayerSchema(Schema):
    seat = fields.Integer()
    name = fields.String(allow_none=True)
    bot = fields.String(allow_none=True)
    open = fields.Boolean()


class SeatTokenSchema(Schema):
    seat = fields.Integer()
    name = fields.String()
    token = fields.String()


class CreatedGameSchema(Schema):
    id = fields.String()
    game = fields.String()
    version = fields.Integer()
    status = fields.String()
    to_move = fields.Integer(allow_none=True)
    players = fields.List(fields.Nested(PlayerSchema))
    seats = fields.List(fields.Nested(SeatTokenSchema))


class JoinedSchema(Schema):
    id = fields.String()
    seat = fields.Integer()
    token = fields.String()
    version = fields.Integer()
    status = fields.String()


class GameSchema(Schema):
    id = fields.String()
    game = fields.String()
    options = fields.Dict()
    status = fields.String()
    version = fields.Integer()
    to_move = fields.Integer(allow_none=True)
    players = fields.List(fields.Nested(PlayerSchema))
    seat = fields.Integer(allow_none=True)
    view = fields.Raw(allow_none=True)
    result = fields.Raw(allow_none=True)
    created_at = fields.Integer()
    updated_at = fields.Integer()


class LegalMovesSchema(Schema):
    version = fields.Integer()
    seat = fields.Integer()
    moves = fields.Raw()


class EventSchema(Schema):
    version = fields.Integer()
    at = fields.Integer()
    by = fields.Integer(allow_none=True)
    cmd = fields.Raw()
    event = fields.Raw()


class MoveResultSchema(Schema):
    version = fields.Integer()
    status = fields.String()
    to_move = fields.Integer(allow_none=True)
    events = fields.List(fields.Nested(EventSchema))
    view = fields.Raw(allow_none=True)
    legal_moves = fields.Raw()
    result = fields.Raw(allow_none=True)


class EventsSchema(Schema):
    version = fields.Integer()
    status = fields.String()
    events = fields.List(fields.Nested(EventSchema))


class GameSummarySchema(Schema):
    id = fields.String()
    game = fields.String()
    status = fields.String()
    version = fields.Integer()
    to_move = fields.Integer(allow_none=True)
    players = fields.List(fields.Nested(PlayerSchema))
    created_at = fields.Integer()
    updated_at = fields.Integer()


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema))
    next_cursor = fields.Integer(allow_none=True)


class GameBotsSchema(Schema):
    game = fields.String()
    bots = fields.List(fields.String())


class BotsSchema(Schema):
    games = fields.List(fields.Nested(GameBotsSchema))


class HealthSchema(Schema):
    status = fields.String()


class ErrorBodySchema(Schema):
    code = fields.String()
    message = fields.String()
    rule = fields.String(allow_none=True)
    current_version = fields.Integer()


class ErrorSchema(Schema):
    error = fields.Nested(ErrorBodySchema)

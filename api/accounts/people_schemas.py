"""Schemas of an account's public games and rating history (api.accounts.people)."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from api.core.schemas import MAX_INDEX, Cursor, GameSummarySchema, Strict, Text

HISTORY_CURSOR = r"^[1-9][0-9]{0,15}\Z"  # a ladder sequence number (openapi.yaml)


class AccountGamesQuerySchema(Strict):
    status = Text(validate=validate.OneOf(["active", "finished"]))
    cursor = Cursor(load_default=None)
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class RatingHistoryQuerySchema(Strict):
    game = Text(required=True, validate=validate.Length(min=1, max=40))
    cursor = Text(
        load_default=None,
        validate=validate.Regexp(HISTORY_CURSOR, error="not of the form of a next_cursor"),
    )
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class AccountGamesSchema(Schema):
    name = fields.String()
    games = fields.List(fields.Nested(GameSummarySchema))
    next_cursor = fields.String(allow_none=True)


class HistoryPointSchema(Schema):
    seq = fields.Integer(validate=validate.Range(min=1, max=MAX_INDEX))
    game_id = fields.String()
    at = fields.Integer()
    rank = fields.Integer()
    mu = fields.Float()
    sigma = fields.Float()
    ordinal = fields.Float()
    games = fields.Integer()
    rating = fields.Integer()
    provisional = fields.Boolean()


class RatingHistorySchema(Schema):
    name = fields.String()
    game = fields.String()
    points = fields.List(fields.Nested(HistoryPointSchema))
    next_cursor = fields.String(allow_none=True)

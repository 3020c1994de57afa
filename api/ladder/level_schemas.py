"""The levels in `GET /v1/bots` (domain.levels, application.ladder.levels): each game's bots and
levels."""

from __future__ import annotations

from marshmallow import Schema, fields

from api.core.schemas import GameBotsSchema


class LevelSchema(Schema):
    name = fields.String()
    level = fields.Integer()
    recipe = fields.String()
    strength = fields.String()
    rating = fields.Integer(allow_none=True)
    mu = fields.Float(allow_none=True)
    sigma = fields.Float(allow_none=True)
    games = fields.Integer()


class GameBotsLevelsSchema(GameBotsSchema):
    levels = fields.List(fields.Nested(LevelSchema))


class BotsLevelsSchema(Schema):
    games = fields.List(fields.Nested(GameBotsLevelsSchema))

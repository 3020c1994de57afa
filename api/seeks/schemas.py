"""Marshmallow schemas of the seek endpoints (application.seeks.service; openapi.yaml Seek*)."""

from __future__ import annotations

from marshmallow import fields, validate

from api.core.schemas import ClockSchema, Strict, StrictBoolean, Text, WholeNumber
from application.seeks.service import MAX_GAMES


class OpenSeekSchema(Strict):
    game = Text(required=True, validate=validate.Length(min=1, max=40))
    options = fields.Dict(keys=Text(), load_default=dict)
    players = WholeNumber(load_default=2, validate=validate.Range(2, 4))
    clock = fields.Nested(ClockSchema, load_default=None, allow_none=True)
    rated = StrictBoolean(load_default=True)
    max_games = WholeNumber(load_default=1, validate=validate.Range(1, MAX_GAMES))

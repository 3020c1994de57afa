"""Request schemas of the /v1/arenas endpoints (api.arenas.endpoints)."""

from __future__ import annotations

from marshmallow import fields, validate

from api.core.schemas import NAME, ClockSchema, Strict, Text, WholeNumber

MAX_MS = 2**53 - 1


class OpenArenaSchema(Strict):
    name = Text(required=True, validate=NAME)
    game = Text(required=True, validate=validate.Length(min=1, max=40))
    options = fields.Dict(keys=Text(), load_default=dict)
    players = WholeNumber(load_default=2, validate=validate.Range(2, 4))
    clock = fields.Nested(ClockSchema)
    starts_at = WholeNumber(validate=validate.Range(0, MAX_MS))
    ends_at = WholeNumber(required=True, validate=validate.Range(0, MAX_MS))
    bots = fields.List(  # built-in bots as entries (the game's heuristics)
        Text(validate=validate.Length(min=1, max=40)), validate=validate.Length(max=8)
    )

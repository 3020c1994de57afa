"""Request schemas of the /v1/arenas endpoints (api.arenas)."""

from __future__ import annotations

from marshmallow import fields, validate

from api.schemas import NAME, ClockSchema, ExportQuerySchema, Strict, Text, WholeNumber

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


class ArenaExportQuerySchema(ExportQuerySchema):
    """The export's query with `arena`: only that arena's games."""

    arena = Text(validate=validate.Regexp(r"^[A-Za-z0-9_-]{8,40}\Z"))

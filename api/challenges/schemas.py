"""Request schemas of challenges and matches (api.challenges.endpoints)."""

from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from api.core.schemas import ACCOUNT_NAME, ClockSchema, Strict, StrictBoolean, Text, WholeNumber
from application.challenges.service import (
    DECLINE_REASONS,
    DEFAULT_EXPIRES_S,
    MATCHES,
    MAX_EXPIRES_S,
    MIN_EXPIRES_S,
    SEAT_ORDERS,
)


class OpponentSchema(Strict):
    account = Text(validate=ACCOUNT_NAME)
    bot = Text(validate=validate.Length(min=1, max=40))

    @validates_schema
    def _one(self, data, **kwargs):
        if len(data) != 1:
            raise ValidationError('an opponent is {"account": name} or {"bot": name}')


class CreateChallengeSchema(Strict):
    opponents = fields.List(
        fields.Nested(OpponentSchema), required=True, validate=validate.Length(min=1, max=3)
    )
    game = Text(required=True, validate=validate.Length(min=1, max=40))
    options = fields.Dict(keys=Text(), load_default=dict)
    # Left out, a challenge has no clock; an explicit null is not a Clock (openapi.yaml).
    clock = fields.Nested(ClockSchema, load_default=None, allow_none=False)
    rated = StrictBoolean(load_default=False)
    seat_order = Text(load_default="random", validate=validate.OneOf(SEAT_ORDERS))
    match = Text(load_default="single", validate=validate.OneOf(MATCHES))
    expires_in_s = WholeNumber(
        load_default=DEFAULT_EXPIRES_S, validate=validate.Range(MIN_EXPIRES_S, MAX_EXPIRES_S)
    )


class ChallengeListQuerySchema(Strict):
    direction = Text(load_default="incoming", validate=validate.OneOf(("incoming", "outgoing")))


class DeclineSchema(Strict):
    reason = Text(load_default="generic", validate=validate.OneOf(DECLINE_REASONS))

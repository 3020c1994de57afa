"""Marshmallow schemas of every request and response body (the contract is openapi.yaml)."""

from __future__ import annotations

import re
from functools import cache

from marshmallow import (
    INCLUDE,
    RAISE,
    Schema,
    ValidationError,
    fields,
    pre_load,
    validate,
    validates_schema,
)

from gamelog.names import name_problem
from gamelog.record import STATUSES
from store.core.cursor import BadCursor, Position
from tournaments.schedule import FORMATS, ROTATION
from tournaments.spec import (
    ACCOUNT_PREFIX,
    DEFAULT_CONCURRENCY,
    MAX_CONCURRENCY,
    MAX_ENTRIES,
    MAX_GAMES,
)

MAX_INDEX = 2**53 - 1  # positions in a log or a listing (a safe JSON integer)
MAX_WAIT_S = 3600
MAX_CLOCK_S = 86400  # a turn clock's move time and bank: at most a day
MAX_TIMEOUTS = 100


def _shown_name(value: str) -> None:
    """Names are shown to other players (gamelog.names, the rule replays verify too)."""
    problem = name_problem(value)
    if problem is not None:
        raise ValidationError(f"a name {problem}")


NAME = [_shown_name]
# An account name: also the `pattern` of AccountName in openapi.yaml (\Z: no final newline).
ACCOUNT_NAME_PATTERN = r"^[A-Za-z0-9_-]{2,30}\Z"
ACCOUNT_NAME_RE = re.compile(ACCOUNT_NAME_PATTERN)
ACCOUNT_NAME = validate.Regexp(ACCOUNT_NAME_PATTERN, error="a name of 2 to 30 of A-Z a-z 0-9 _ -")
MAX_WEBHOOK_CHARS = 500
MAX_PASSWORD_CHARS = 1000  # the rules' own bound is lower (application.accounts.passwords)


def has_lone_surrogate(text: str) -> bool:
    """True when `text` holds a lone surrogate (JSON allows "\\ud800"; UTF-8 does not)."""
    if text.isascii():
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _lone_surrogate_in(data: object, depth: int = 0) -> bool:
    """Whether any string or object key in a parsed JSON document holds a lone surrogate."""
    if isinstance(data, str):
        return has_lone_surrogate(data)
    if isinstance(data, dict):
        return any(
            has_lone_surrogate(key) or _lone_surrogate_in(value, depth + 1)
            for key, value in data.items()
        )
    if isinstance(data, list):
        return any(_lone_surrogate_in(item, depth + 1) for item in data)
    return False


class Text(fields.String):
    """A string that can be stored and echoed as UTF-8: no lone surrogate."""

    default_error_messages = {"surrogate": "must not contain a lone surrogate (\\ud800-\\udfff)"}

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        if has_lone_surrogate(text):
            raise self.make_error("surrogate")
        return text


class Cursor(fields.String):
    """An opaque paging cursor (store.core.cursor), loaded as the Position it names."""

    default_error_messages = {"cursor": "not of the form of a next_cursor"}

    def _deserialize(self, value, attr, data, **kwargs):
        text = super()._deserialize(value, attr, data, **kwargs)
        try:
            return Position.decode(text)
        except BadCursor as error:
            raise self.make_error("cursor") from error


class StrictBoolean(fields.Boolean):
    """true or false only (JSON Schema's boolean): not 0, 1 or "yes"."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


class WholeNumber(fields.Integer):
    """A JSON integer only: 7, never 7.0, 1e2 (numbers the JSON parser reads as floats) or
    true. A version or a count is an integer, not a float that happens to be one, and a
    float could hold more than a version's range exactly."""

    def __init__(self, **kwargs):
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return super()._deserialize(value, attr, data, **kwargs)


@cache
def use(schema_class: type[Schema]) -> Schema:
    """One shared instance per schema class (schemas hold no per-call state)."""
    return schema_class()


class Request(Schema):
    """A request body or query: no lone surrogate in any string or key, even unknown ones."""

    @pre_load
    def _utf8_only(self, data, **kwargs):
        if _lone_surrogate_in(data):
            raise ValidationError("strings and keys must not contain a lone surrogate")
        return data


class Strict(Request):
    """Unknown fields are rejected."""

    class Meta:
        unknown = RAISE


# ----- requests ------------------------------------------------------------------------


class PlayerSpecSchema(Strict):
    name = Text(validate=NAME)
    open = StrictBoolean()
    invite = StrictBoolean()
    bot = Text(validate=validate.Length(min=1, max=40))
    account = Text(validate=ACCOUNT_NAME)

    @validates_schema
    def _one_kind(self, data, **kwargs):
        if "account" in data:
            if len(data) > 1:
                raise ValidationError("an account seat has no other field")
            return
        if data.get("open") and ("name" in data or "bot" in data):
            raise ValidationError("an open seat has neither name nor bot")
        if data.get("invite") and not data.get("open"):
            raise ValidationError("only an open seat takes an invite")
        if not data.get("open") and "name" not in data and "bot" not in data:
            raise ValidationError("a seat needs a name, a bot, or open: true")


class ClockSchema(Strict):
    """A turn clock (application.games.clocks); the fallback is checked against the game's bots."""

    move_seconds = WholeNumber(required=True, validate=validate.Range(1, MAX_CLOCK_S))
    bank_seconds = WholeNumber(load_default=0, validate=validate.Range(0, MAX_CLOCK_S))
    fallback = Text(load_default="random", validate=validate.Length(min=1, max=40))
    max_timeouts = WholeNumber(load_default=3, validate=validate.Range(1, MAX_TIMEOUTS))


class CreateGameSchema(Strict):
    game = Text(required=True, validate=validate.Length(min=1, max=40))
    players = fields.List(
        fields.Nested(PlayerSpecSchema), required=True, validate=validate.Length(min=1, max=8)
    )
    options = fields.Dict(keys=Text(), load_default=dict)
    clock = fields.Nested(ClockSchema)
    rated = StrictBoolean(load_default=False)
    allow_same_account = StrictBoolean(load_default=False)  # application.games.seating


class JoinSchema(Strict):
    name = Text(validate=NAME)  # required unless an account key joins
    invite = Text(validate=validate.Length(min=1, max=100))


class MoveSchema(Request):
    """A game command: `action` plus the game's own fields, and an optional expected version."""

    class Meta:
        unknown = INCLUDE

    action = Text(required=True, validate=validate.Length(min=1, max=40))
    expected_version = WholeNumber(validate=validate.Range(min=0, max=MAX_INDEX))


class GameQuerySchema(Strict):
    at = fields.Integer(validate=validate.Range(min=1, max=MAX_INDEX))


class EventsQuerySchema(Strict):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_INDEX))
    before = fields.Integer(validate=validate.Range(min=1, max=MAX_INDEX))
    wait = fields.Float(load_default=0.0, validate=validate.Range(min=0, max=MAX_WAIT_S))
    limit = fields.Integer(load_default=1000, validate=validate.Range(min=1, max=1000))


class StreamQuerySchema(Strict):
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_INDEX))


class ListQuerySchema(Strict):
    status = Text(validate=validate.OneOf(STATUSES))
    game = Text(validate=validate.Length(min=1, max=40))
    cursor = Cursor(load_default=None)
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class RatingsQuerySchema(Strict):
    game = Text(required=True, validate=validate.Length(min=1, max=40))
    cursor = Cursor(load_default=None)
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=100))


class TournamentListQuerySchema(Strict):
    cursor = Cursor(load_default=None)
    limit = fields.Integer(load_default=20, validate=validate.Range(min=1, max=100))


class ExportQuerySchema(Strict):
    game = Text(validate=validate.Length(min=1, max=40))
    status = Text(
        load_default="finished",
        validate=validate.OneOf(["finished"], error="only finished games have replays"),
    )
    since = fields.Integer(validate=validate.Range(min=0, max=MAX_INDEX))
    until = fields.Integer(validate=validate.Range(min=0, max=MAX_INDEX))
    tournament = Text(validate=validate.Regexp(r"^[A-Za-z0-9_-]{8,40}\Z"))
    account = Text(validate=ACCOUNT_NAME)
    cursor = Cursor(load_default=None)
    limit = fields.Integer(validate=validate.Range(min=1, max=MAX_INDEX))


class Entrant(fields.Field):
    """A tournament entry: a built-in bot's name, or `{"account": name}` (kept as `@name`,
    tournaments.spec)."""

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str) and 1 <= len(value) <= 40 and not has_lone_surrogate(value):
            return value
        if isinstance(value, dict) and set(value) == {"account"}:
            name = value["account"]
            if isinstance(name, str) and ACCOUNT_NAME_RE.match(name):
                return ACCOUNT_PREFIX + name
        raise ValidationError('an entry is a bot name or {"account": <account name>}')


class CreateTournamentSchema(Strict):
    game = Text(required=True, validate=validate.Length(min=1, max=40))
    bots = fields.List(Entrant(), required=True, validate=validate.Length(min=2, max=MAX_ENTRIES))
    players_per_game = WholeNumber(validate=validate.Range(min=2, max=8))
    games = WholeNumber(validate=validate.Range(1, MAX_GAMES))
    seed = Text(validate=validate.Length(min=1, max=200))
    options = fields.Dict(keys=Text(validate=validate.Length(max=40)), load_default=dict)
    format = Text(load_default=ROTATION, validate=validate.OneOf(FORMATS))
    games_per_table = WholeNumber(validate=validate.Range(1, MAX_GAMES))
    clock = fields.Nested(ClockSchema)
    concurrency = WholeNumber(
        load_default=DEFAULT_CONCURRENCY, validate=validate.Range(1, MAX_CONCURRENCY)
    )
    parallel_per_account = StrictBoolean(load_default=False)
    match = Text(load_default="single", validate=validate.OneOf(("single", "two_boards")))
    rated = StrictBoolean()  # default: whether an account is entered

    @validates_schema
    def _games_for_rotation(self, data, **kwargs):
        """`games` is a rotation's alone: the other formats' follows from their tables."""
        rotation = data.get("format", ROTATION) == ROTATION
        if rotation and "games" not in data:
            raise ValidationError("a rotation needs `games`", "games")
        if not rotation and "games" in data:
            raise ValidationError("leave it out: tables x games_per_table games", "games")


class CreateAccountSchema(Strict):
    name = Text(required=True, validate=ACCOUNT_NAME)
    bot = StrictBoolean(load_default=False)
    webhook = Text(
        allow_none=True, load_default=None, validate=validate.Length(max=MAX_WEBHOOK_CHARS)
    )
    # checked by application.accounts.passwords (422 weak_password names the rule broken)
    # not null: load_default=None alone would let a JSON null through
    password = Text(
        load_default=None, allow_none=False, validate=validate.Length(max=MAX_PASSWORD_CHARS)
    )


CHALLENGES_FROM = ("everyone", "rated", "nobody")


class PatchMeSchema(Strict):
    webhook = Text(allow_none=True, validate=validate.Length(max=MAX_WEBHOOK_CHARS))
    accepts_challenges = Text(validate=validate.OneOf(CHALLENGES_FROM))
    password = Text(validate=validate.Length(max=MAX_PASSWORD_CHARS))  # a session's webhook

    @validates_schema
    def _something(self, data, **_):
        if not data.keys() - {"password"}:
            raise ValidationError("name at least one of webhook, accepts_challenges")


class MyGamesQuerySchema(Strict):
    status = Text(validate=validate.OneOf(STATUSES))
    cursor = Cursor(load_default=None)
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
    invite = fields.Boolean()
    account = fields.String()  # only on a seat an account holds
    timeouts = fields.Integer()
    forfeited = fields.Boolean()


class InviteSchema(Schema):
    seat = fields.Integer()
    code = fields.String()


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
    invites = fields.List(fields.Nested(InviteSchema))
    rated = fields.Boolean()
    creator_token = fields.String()  # cancels the game (api.games.budget)


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
    clock = fields.Raw(allow_none=True)
    deadline = fields.Integer(allow_none=True)
    seat = fields.Integer(allow_none=True)
    view = fields.Raw(allow_none=True)
    result = fields.Raw(allow_none=True)
    rated = fields.Boolean()
    created_at = fields.Integer()
    updated_at = fields.Integer()
    stalled = fields.Dict()


class EventSchema(Schema):
    version = fields.Integer()
    at = fields.Integer()
    by = fields.Integer(allow_none=True)
    cmd = fields.Raw()
    event = fields.Raw()


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
    rated = fields.Boolean(dump_default=False)  # summaries indexed before ratings had none
    created_at = fields.Integer()
    updated_at = fields.Integer()


class GameListSchema(Schema):
    games = fields.List(fields.Nested(GameSummarySchema))
    next_cursor = fields.String(allow_none=True)


class GameBotsSchema(Schema):
    game = fields.String()
    bots = fields.List(fields.String())


class HealthSchema(Schema):
    status = fields.String()


class LadderRatingSchema(Schema):
    mu = fields.Float()
    sigma = fields.Float()
    ordinal = fields.Float()
    games = fields.Integer()
    rating = fields.Integer()
    provisional = fields.Boolean()


class RatingSchema(LadderRatingSchema):
    name = fields.String()
    account = fields.Boolean()
    bot = fields.Boolean()


class RatingListSchema(Schema):
    game = fields.String()
    ratings = fields.List(fields.Nested(RatingSchema))
    next_cursor = fields.String(allow_none=True)


class AccountSchema(Schema):
    name = fields.String()
    bot = fields.Boolean()
    created_at = fields.Integer()
    games_played = fields.Dict(keys=fields.String(), values=fields.Integer())
    ratings = fields.Dict(keys=fields.String(), values=fields.Nested(LadderRatingSchema))
    accepts_challenges = fields.String()


class OwnAccountSchema(AccountSchema):
    webhook = fields.String(allow_none=True)
    has_password = fields.Boolean()


class NewAccountSchema(Schema):
    name = fields.String()
    bot = fields.Boolean()
    webhook = fields.String(allow_none=True)
    key = fields.String()
    webhook_secret = fields.String()


class MyGameSchema(Schema):
    id = fields.String()
    game = fields.String()
    status = fields.String()
    version = fields.Integer()
    seats = fields.List(fields.Integer())
    to_move = fields.Integer(allow_none=True)
    my_turn = fields.Boolean()
    deadline = fields.Integer(allow_none=True)
    updated_at = fields.Integer()


class MyGamesSchema(Schema):
    games = fields.List(fields.Nested(MyGameSchema))
    next_cursor = fields.String(allow_none=True)


class ErrorBodySchema(Schema):
    code = fields.String()
    message = fields.String()
    rule = fields.String(allow_none=True)
    current_version = fields.Integer()
    budget_seconds = fields.Float()  # cpu_budget_exceeded (application.budget.service)
    remaining_seconds = fields.Float()
    requested_seconds = fields.Float()


class ErrorSchema(Schema):
    error = fields.Nested(ErrorBodySchema)

"""api.games.move_body: a move's body read on the hot path answers what the general path
(`json_body(MoveSchema)`) answers, command or error, for usual and unusual bodies alike."""

from __future__ import annotations

import io
import json

import pytest
from werkzeug.exceptions import HTTPException

from api.core import schemas
from api.core.bodies import json_body
from api.core.errors import ApiError
from api.games import move_body

JSON = "application/json"
BODIES = [
    b'{"action": "draw", "source": "deck"}',
    b'{"action": "play", "card": {"color": "red", "value": 3}, "expected_version": 7}',
    b'{"expected_version": 0, "action": "x"}',
    b'{"action": "' + b"a" * 40 + b'"}',
    b'{"action": "' + b"a" * 41 + b'"}',
    b'{"action": ""}',
    b'{"action": 3}',
    b'{"action": null}',
    b'{"card": 1}',
    b'{"action": "play", "expected_version": -1}',
    b'{"action": "play", "expected_version": 9007199254740992}',
    b'{"action": "play", "expected_version": 9007199254740991}',
    b'{"action": "play", "expected_version": 7.0}',
    b'{"action": "play", "expected_version": 7.5}',
    b'{"action": "play", "expected_version": true}',
    b'{"action": "play", "expected_version": "7"}',
    b'{"action": "play", "expected_version": null}',
    b'{"action": "d\\u00e9fausser", "note": "caf\\u00e9"}',
    b'{"action": "\\ud800"}',
    b'{"action": "play", "card": {"\\udfff": 1}}',
    b'{"action": "play", "cards": ["a", "\\ud800"]}',
    b'{"action": "play", "action": "draw"}',
    b'{"action": "play", "x": NaN}',
    b'{"action": "play", "x": 1e999}',
    b'[{"action": "play"}]',
    b'"play"',
    b"",
    b"{",
    b'{"action": "play"}   ',
    b"\xff\xfe",
]


def outcome(call):
    """What a reading of the body gives: ('ok', command) or ('error', status, code/text)."""
    try:
        return ("ok", call())
    except ApiError as error:
        return ("error", error.status, error.code, str(error))
    except HTTPException as error:
        return ("http", error.code)
    except Exception as error:  # marshmallow's ValidationError: compared by its messages
        return ("raised", type(error).__name__, str(getattr(error, "messages", error)))


def both(app, body: bytes, **environ):
    """The hot path's and the general path's outcomes for one request body."""
    results = []
    for call in (move_body.move_command, lambda: json_body(schemas.use(schemas.MoveSchema))):
        options = {"method": "POST", "data": body, "content_type": JSON, **environ}
        with app.test_request_context("/v1/games/g/moves", **options):
            results.append(outcome(call))
    return results


@pytest.mark.parametrize("body", BODIES)
def test_hot_path_answers_as_the_general_path(app, body):
    fast, general = both(app, body)
    assert fast == general


@pytest.mark.parametrize(
    "content_type", ["application/json; charset=utf-8", "text/plain", "APPLICATION/JSON"]
)
def test_other_content_types_take_the_general_path(app, content_type):
    fast, general = both(app, BODIES[0], content_type=content_type)
    assert fast == general


def test_a_usual_command_is_the_object_as_sent(app):
    body = {"action": "play", "card": {"color": "red", "value": 3}, "expected_version": 7}
    with app.test_request_context("/v1/games/g/moves", method="POST", json=body):
        assert move_body.move_command() == body


def test_an_oversized_body_is_refused_as_before(app):
    body = json.dumps({"action": "play", "pad": "x" * (70 * 1024)}).encode()
    fast, general = both(app, body)
    assert fast == general == ("http", 413)


def test_a_short_body_is_a_client_gone_unless_the_server_terminates_input(app):
    body = b'{"action": "draw", "source": "deck"}'
    with app.test_request_context(
        "/v1/games/g/moves",
        method="POST",
        content_type=JSON,
        environ_overrides={"wsgi.input": io.BytesIO(body[:10]), "CONTENT_LENGTH": str(len(body))},
    ):
        assert outcome(move_body.move_command) == ("http", 400)

"""The errors several capabilities share (application.common.errors): each one's code and
kind, and the status the HTTP layer answers, as the contract (openapi.yaml) documents it."""

from __future__ import annotations

from application.common.errors import UnknownGame
from domain.errors import KeltisError, Kind
from tests.application.documented import answered_status, documented_statuses, served


def test_unknown_game_is_a_keltis_error_of_the_invalid_kind():
    error = UnknownGame("unknown game 'chess'")
    assert isinstance(error, KeltisError)
    assert (error.code, error.kind, error.message, error.rule) == (
        "unknown_game",
        Kind.INVALID,
        "unknown game 'chess'",
        None,
    )


def test_unknown_game_is_answered_422_as_the_contract_documents():
    error = UnknownGame("unknown game 'chess'")
    assert documented_statuses("unknown_game") == {422}
    assert answered_status(error) == 422
    response = served(error)
    assert response.status_code == 422
    assert response.get_json()["error"]["code"] == "unknown_game"
    assert response.get_json()["error"]["message"] == "unknown game 'chess'"

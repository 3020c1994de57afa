"""The errors of challenges (application.challenges.errors): each one's code and kind, the
status the HTTP layer answers (with Retry-After for the two limits), as the contract
(openapi.yaml) documents it; `challenge_not_found` it does not name (its docstring: 404)."""

from __future__ import annotations

import pytest

from application.challenges import errors
from domain.errors import KeltisError, Kind
from tests.application.documented import answered_status, documented_statuses, served

EXPECTED = [
    (errors.ChallengeNotFound("gone"), "challenge_not_found", Kind.NOT_FOUND, 404),
    (errors.ChallengeClosed("accepted"), "challenge_closed", Kind.CONFLICT, 409),
    (errors.NotYourChallenge("not yours"), "not_your_challenge", Kind.FORBIDDEN, 403),
    (errors.InvalidChallenge("yourself"), "invalid_challenge", Kind.INVALID, 422),
    (errors.TooManyChallenges("ten open"), "too_many_challenges", Kind.RATE_LIMITED, 429),
    (errors.ChallengeCooldown("declined", 42), "challenge_cooldown", Kind.RATE_LIMITED, 429),
    (errors.ChallengesRefused("nobody"), "challenges_refused", Kind.FORBIDDEN, 403),
]
IDS = [code for _, code, _, _ in EXPECTED]


def test_every_challenge_error_is_listed_here():
    defined = {
        value
        for value in vars(errors).values()
        if isinstance(value, type) and issubclass(value, KeltisError) and value is not KeltisError
    }
    assert defined == {type(error) for error, *_ in EXPECTED}


@pytest.mark.parametrize(("error", "code", "kind", "status"), EXPECTED, ids=IDS)
def test_a_challenge_error_has_its_code_kind_and_status(error, code, kind, status):
    assert (error.code, error.kind) == (code, kind)
    assert answered_status(error) == status
    response = served(error)
    assert response.status_code == status
    assert response.get_json()["error"]["code"] == code


@pytest.mark.parametrize(("error", "code", "kind", "status"), EXPECTED, ids=IDS)
def test_the_contract_documents_each_challenge_code_with_the_status_answered(
    error, code, kind, status
):
    expected = set() if code == "challenge_not_found" else {status}
    assert documented_statuses(code) == expected


def test_a_closed_challenge_says_how_it_closed():
    assert errors.ChallengeClosed("declined").message == "the challenge is declined already"


def test_too_many_challenges_asks_to_retry_after_a_minute():
    response = served(errors.TooManyChallenges("ten open"))
    assert response.headers["Retry-After"] == "60"


def test_a_cooldown_asks_to_retry_after_the_time_it_names():
    error = errors.ChallengeCooldown("declined lately", 37)
    assert error.retry_after_s == 37
    assert served(error).headers["Retry-After"] == "37"


def test_errors_without_a_limit_carry_no_retry_after():
    assert "Retry-After" not in served(errors.ChallengesRefused("nobody")).headers

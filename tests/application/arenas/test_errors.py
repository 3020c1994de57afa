"""The errors of arenas (application.arenas.errors): each one's code and kind, and the status
the HTTP layer answers for it, which the contract (openapi.yaml) documents for every code it
names (`arena_full` it names nowhere: a conflict like `arena_over`)."""

from __future__ import annotations

import pytest

from application.arenas import errors
from domain.errors import KeltisError, Kind
from tests.application.documented import answered_status, documented_statuses, served

EXPECTED = [
    (errors.ArenaNotFound, "arena_not_found", Kind.NOT_FOUND, 404),
    (errors.OperatorOnly, "operator_only", Kind.FORBIDDEN, 403),
    (errors.BotAccountOnly, "bot_account_only", Kind.FORBIDDEN, 403),
    (errors.ArenaOver, "arena_over", Kind.CONFLICT, 409),
    (errors.ArenaFull, "arena_full", Kind.CONFLICT, 409),
    (errors.InvalidArena, "invalid_arena", Kind.INVALID, 422),
]


def test_every_arena_error_is_listed_here():
    defined = {
        value
        for value in vars(errors).values()
        if isinstance(value, type) and issubclass(value, KeltisError) and value is not KeltisError
    }
    assert defined == {cls for cls, *_ in EXPECTED}


@pytest.mark.parametrize(("cls", "code", "kind", "status"), EXPECTED)
def test_an_arena_error_has_its_code_kind_and_status(cls, code, kind, status):
    error = cls("why")
    assert (error.code, error.kind, error.rule) == (code, kind, None)
    assert answered_status(error) == status
    response = served(error)
    assert response.status_code == status
    assert response.get_json()["error"] == {"code": code, "message": "why", "rule": None}


@pytest.mark.parametrize(("cls", "code", "kind", "status"), EXPECTED)
def test_the_contract_documents_each_arena_code_with_the_status_answered(cls, code, kind, status):
    documented = documented_statuses(code)
    if code == "arena_full":
        assert documented == set()  # the contract does not name it (see the report)
    else:
        assert documented == {status}

"""`Prefer: return=minimal` on POST /moves: the answer leaves out the
rendered view (`view: null`) and says `Preference-Applied`; everything else is the answer a
full request gets. Every response is checked against openapi.yaml by the `client` fixture."""

from __future__ import annotations

import pytest

from tests.api.helpers import bearer, start_humans

CARD = "keltis-card"


def first_move(client, gid: str, token: str) -> tuple[dict, int]:
    """Seat 0's first legal move and the version it was listed at."""
    listed = client.get(f"/v1/games/{gid}/moves", headers=bearer(token)).json
    return listed["moves"][0], listed["version"]


def post(client, gid: str, token: str, move: dict, prefer: str | None = None):
    headers = bearer(token)
    if prefer is not None:
        headers["Prefer"] = prefer
    return client.post(f"/v1/games/{gid}/moves", json=move, headers=headers)


@pytest.mark.parametrize(
    "prefer",
    [
        "return=minimal",
        "Return=Minimal",
        "respond-async, return=minimal; extra",
        "wait=5,return=minimal",
    ],
)
def test_minimal_answer_has_no_view_and_says_so(client, prefer):
    gid, tokens = start_humans(client, CARD, ["ann", "bea"])
    move, version = first_move(client, gid, tokens[0])
    answer = post(client, gid, tokens[0], move, prefer)
    assert answer.status_code == 200, answer.json
    assert answer.headers["Preference-Applied"] == "return=minimal"
    body = answer.json
    assert body["view"] is None
    assert body["version"] == version + 1 and body["events"]
    # the legal moves it lists are seat 0's, as GET /moves lists them now
    now = client.get(f"/v1/games/{gid}/moves", headers=bearer(tokens[0])).json
    assert body["legal_moves"] == now["moves"]


def test_minimal_answer_is_the_full_answer_without_its_view(client):
    """The same move in two games dealt alike (an Idempotency-Key replay shows the first
    answer, so the two answers come from two games): compared field by field."""
    gid, tokens = start_humans(client, CARD, ["ann", "bea"])
    move, _ = first_move(client, gid, tokens[0])
    full = post(client, gid, tokens[0], move)
    assert full.status_code == 200
    assert "Preference-Applied" not in full.headers
    assert isinstance(full.json["view"], dict)
    state = client.get(f"/v1/games/{gid}", headers=bearer(tokens[0])).json
    assert full.json["view"] == state["view"]
    draw = full.json["legal_moves"][0]
    minimal = post(client, gid, tokens[0], draw, "return=minimal")
    assert minimal.status_code == 200
    after = client.get(f"/v1/games/{gid}", headers=bearer(tokens[0])).json
    assert minimal.json["view"] is None
    assert minimal.json["version"] == after["version"]
    assert minimal.json["to_move"] == after["to_move"]
    assert minimal.json["status"] == after["status"]


@pytest.mark.parametrize("prefer", ["return=representation", "respond-async", "", "x" * 1001])
def test_other_preferences_get_the_full_answer(client, prefer):
    gid, tokens = start_humans(client, CARD, ["ann", "bea"])
    move, _ = first_move(client, gid, tokens[0])
    answer = post(client, gid, tokens[0], move, prefer)
    assert answer.status_code == 200, answer.json
    assert "Preference-Applied" not in answer.headers
    assert isinstance(answer.json["view"], dict)


def test_a_replayed_idempotent_move_returns_the_first_answer_whatever_it_prefers(client):
    gid, tokens = start_humans(client, CARD, ["ann", "bea"])
    move, _ = first_move(client, gid, tokens[0])
    headers = {**bearer(tokens[0]), "Idempotency-Key": "k-1", "Prefer": "return=minimal"}
    first = client.post(f"/v1/games/{gid}/moves", json=move, headers=headers)
    assert first.status_code == 200 and first.json["view"] is None
    again = client.post(
        f"/v1/games/{gid}/moves", json=move, headers={**bearer(tokens[0]), "Idempotency-Key": "k-1"}
    )
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.json == first.json

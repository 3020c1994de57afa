"""GET /v1/tournaments: tournaments in brief, newest first, paged by an opaque cursor."""

from __future__ import annotations

from store.core.clock import now_ms
from store.tournaments.records import TournamentStore
from tournaments.seeds import new_tournament_id
from tournaments.spec import make_spec

FUTURE_MS = 10**12  # created "later" than any other test's tournament: listed first


def test_tournament_list_pages_newest_first_by_cursor(client, redis_client):
    store = TournamentStore(redis_client)
    made = []
    base = now_ms() + FUTURE_MS
    for n in range(5):
        tid = new_tournament_id()
        spec = make_spec("keltis-card", ["greedy", "random"], None, 2 + n, None)
        store.create(tid, spec, created_at=base + n // 2)  # two pairs of ties
        made.append((base + n // 2, tid, spec))
    expected = [tid for _, tid, _ in sorted(made, reverse=True)]
    listed, query = [], {"limit": 2}
    while query is not None and len(listed) < len(made):
        page = client.get("/v1/tournaments", query_string=query).json
        assert len(page["tournaments"]) == 2 or page["next_cursor"] is None
        listed += page["tournaments"]
        query = page["next_cursor"] and {"limit": 2, "cursor": page["next_cursor"]}
    assert [t["id"] for t in listed[:5]] == expected
    first = next(t for t in listed if t["id"] == made[0][1])
    assert first == {
        "id": made[0][1],
        "game": "keltis-card",
        "format": "rotation",
        "games": 2,
        "status": "running",
        "progress": {
            "done": 0,
            "total": 2,
            "finished": 0,
            "running": 0,
            "waiting": 2,
            "cancelled": 0,
        },
        "created_at": base,
        "finished_at": None,
        "cancelled_at": None,
    }
    for tid in expected:
        store.cancel(tid)


def test_tournament_list_refuses_a_forged_cursor(client):
    response = client.get("/v1/tournaments", query_string={"cursor": "not-a-cursor"})
    assert response.status_code == 400
    assert response.json["error"]["code"]

"""Challenges spread over a cluster's slots (store.keys.challenges): opening and closing take
several steps, so what a process dying between them leaves must neither hold a limit nor
lose an accepted game; and the one-shot move of the old `{ch}` keys."""

from __future__ import annotations

import orjson
import pytest

from application.challenges.service import REPAIR_AFTER_MS, Challenges, Limits
from application.games.service import GameService
from store import keys
from store.challenges.migrate import move_legacy_challenges, new_name
from store.challenges.records import ChallengeStore
from tests.api.helpers import bearer
from tests.api.test_accounts import sign_up
from tests.api.test_challenges import challenge

pytestmark = pytest.mark.redis


def incoming(client, key: str) -> list[str]:
    return [c["id"] for c in client.get("/v1/challenges", headers=bearer(key)).json["challenges"]]


class Clock:
    def __init__(self, ms: int):
        self.ms = ms

    def __call__(self) -> int:
        return self.ms


@pytest.mark.cluster_too
def test_entries_left_by_dead_steps_hold_no_limit(app, client, redis_client):
    app.config["CHALLENGE_LIMITS"] = Limits(outgoing=1, incoming=1)
    ann, bea, cid = sign_up(client), sign_up(client), sign_up(client)
    far = 2**40
    # Died after the challenger's side, before its record was written for good (gone).
    redis_client.zadd(keys.challenges_out(ann["name"].lower()), {"ghost-out": far})
    made = challenge(client, ann["key"], [{"account": bea["name"]}], expires_in_s=60)
    # Died between a closing script and taking the challenge out of the inbox.
    redis_client.hset(keys.challenge(made["id"]), "status", "cancelled")
    assert incoming(client, bea["key"]) == []
    again = challenge(client, cid["key"], [{"account": bea["name"]}], expires_in_s=3600)
    assert incoming(client, bea["key"]) == [again["id"]]
    assert redis_client.zscore(keys.challenges_in(bea["name"].lower()), made["id"]) is None
    # Its entry in the expiring set is dropped by the workers' pass once due, not kept.
    clock = Clock(made["expires_at"] + 1)
    assert Challenges(GameService(redis_client, clock=clock)).expire_due() == 0
    assert redis_client.zscore(keys.challenges_expiring(), made["id"]) is None
    assert redis_client.zscore(keys.challenges_expiring(), again["id"]) is not None


@pytest.mark.cluster_too
def test_an_accept_cut_short_is_made_by_the_repair_and_a_partial_one_waits(client, redis_client):
    ann, bea, cid = sign_up(client), sign_up(client), sign_up(client)
    made = challenge(client, ann["key"], [{"account": bea["name"]}, {"account": cid["name"]}])
    clock = Clock(GameService(redis_client).clock())
    challenges = Challenges(GameService(redis_client, clock=clock))
    store = ChallengeStore(redis_client)
    # bea accepts (filed among the accepted first); the challenge stays open.
    assert store.change(store.get(made["id"]), "accept", bea["name"].lower(), clock()).ok
    clock.ms += REPAIR_AFTER_MS + 1
    challenges.repair_accepted()
    assert store.get(made["id"]).status == "open"
    assert store.accepted_ids(clock.ms - 1) == []  # looked at again later, not dropped
    assert store.accepted_ids(clock.ms + REPAIR_AFTER_MS) == [made["id"]]
    # cid's accept: the script ran, then its process died before the game.
    change = store.change(store.get(made["id"]), "accept", cid["name"].lower(), clock(), "gAmE2")
    assert change.status == "accepted" and store.get(made["id"]).game_pending
    clock.ms += REPAIR_AFTER_MS + 1
    challenges.repair_accepted()
    assert client.get("/v1/games/gAmE2").status_code == 200
    assert not store.get(made["id"]).game_pending
    assert store.accepted_ids(clock.ms + 10 * REPAIR_AFTER_MS) == []


def _legacy(suffix: str) -> str:
    return keys.legacy_challenge_prefix() + suffix


@pytest.mark.cluster_too
def test_the_old_keys_move_once_and_their_challenges_go_on(client, redis_client):
    ann, bea = sign_up(client), sign_up(client)
    a, b = ann["name"].lower(), bea["name"].lower()
    now = GameService(redis_client).clock()
    spec = {"challenger": ann["name"], "opponents": [{"account": bea["name"]}],
            "game": "keltis-card", "options": {}, "clock": None, "rated": False,
            "seat_order": "given", "match": "single", "created_at": now}  # fmt: skip
    expires = now + 600_000
    record = {"spec": orjson.dumps(spec), "status": "open", "challenger": a, "invitees": b,
              "accepted_by": "", "expires_at": expires}  # fmt: skip
    redis_client.hset(_legacy("challenge:old1"), mapping=record)
    for suffix in ("challenges:expiring", f"challenges:out:{a}", f"challenges:in:{b}"):
        redis_client.zadd(_legacy(suffix), {"old1": expires})
    for name in (a, b):
        redis_client.zadd(_legacy(f"challenges:of:{name}"), {"old1": now})
    redis_client.set(_legacy(f"challenge-pair:{a}:{b}"), "old1", px=600_000)
    redis_client.set(_legacy(f"challenge-cooldown:{b}:{a}"), 1, px=300_000)
    # An accepted challenge whose game was not made yet.
    accepted = {**record, "status": "accepted", "accepted_by": b, "game_id": "gAmE3"}
    redis_client.hset(_legacy("challenge:old2"), mapping=accepted)
    redis_client.zadd(_legacy("challenges:accepted"), {"old2": now})
    assert new_name(_legacy(f"challenge-pair:{a}:{b}")) == keys.challenge_pair(a, b)

    assert move_legacy_challenges(redis_client) == 10
    assert move_legacy_challenges(redis_client) == 0
    assert 0 < redis_client.pttl(keys.challenge_cooldown(b, a)) <= 300_000
    assert incoming(client, bea["key"]) == ["old1"]
    assert client.post("/v1/challenges/old1/accept", headers=bearer(bea["key"])).status_code == 200
    store = ChallengeStore(redis_client)
    assert store.get("old2").game_pending and store.accepted_ids(now) == ["old2"]
    Challenges(GameService(redis_client)).start_game(store.get("old2"))
    assert client.get("/v1/games/gAmE3").status_code == 200

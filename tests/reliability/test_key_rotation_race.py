"""Key rotation is one-shot over real Redis and a real gunicorn (2 processes x 8 threads):
eight POST /v1/me/key fired at once with one key rotate it once. One answers 200 with the
key that works from then on; the others answer 401, their key replaced under them, and hand
out no key at all (a key nobody can use would be a lie, one somebody can a leak)."""

from __future__ import annotations

import hashlib
import threading
import time

import pytest
import requests

from store.accounts.records import AccountRecord, AccountStore

RACERS = 8
ROUNDS = 4


def fire_at_once(url: str, key: str) -> list[requests.Response]:
    """RACERS requests rotating `key`, released together by a barrier."""
    barrier = threading.Barrier(RACERS)
    answers: list[requests.Response | None] = [None] * RACERS

    def rotate(slot: int) -> None:
        session = requests.Session()
        session.get(f"{url}/v1/bots", timeout=10)  # connected before the barrier
        barrier.wait()
        answers[slot] = session.post(
            f"{url}/v1/me/key", headers={"Authorization": f"Bearer {key}"}, timeout=30
        )

    threads = [threading.Thread(target=rotate, args=(slot,)) for slot in range(RACERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [answer for answer in answers if answer is not None]


def test_racing_rotations_of_one_key_rotate_it_once(web):
    for round_ in range(ROUNDS):
        name = f"rot{round_}_{time.time_ns() % 10**9}"
        made = requests.post(f"{web.url}/v1/accounts", json={"name": name, "bot": True})
        assert made.status_code == 201, made.text
        old = made.json()["key"]
        answers = fire_at_once(web.url, old)
        assert len(answers) == RACERS
        won = [answer for answer in answers if answer.status_code == 200]
        lost = [answer for answer in answers if answer.status_code != 200]
        assert len(won) == 1, [answer.status_code for answer in answers]
        assert {answer.status_code for answer in lost} == {401}
        assert {answer.json()["error"]["code"] for answer in lost} == {"unauthenticated"}
        new = won[0].json()["key"]
        me = requests.get(f"{web.url}/v1/me", headers={"Authorization": f"Bearer {new}"})
        assert me.status_code == 200 and me.json()["name"] == name
        stale = requests.get(f"{web.url}/v1/me", headers={"Authorization": f"Bearer {old}"})
        assert stale.status_code == 401


@pytest.mark.parametrize("where", ["standalone", "cluster"])
def test_a_rotation_from_a_replaced_key_changes_nothing(where, redis_client, request):
    """The store's check-and-set, on both shapes of Redis (the cluster moves the key index
    after the script): a second rotation from the same old key is refused."""
    client = redis_client if where == "standalone" else request.getfixturevalue("redis_cluster")
    client = client if where == "standalone" else client.client()
    store = AccountStore(client)
    name = f"rotcas{time.time_ns() % 10**9}"
    old, new, late = (hashlib.sha256(f"{name}:{n}".encode()).hexdigest() for n in range(3))
    record = AccountRecord(name, True, None, old, "secret", 1)
    assert store.create(record, f"skeleton-{name}")
    assert store.rotate(record, new, "second")
    assert not store.rotate(record, late, "third")
    assert store.get(name).key_hash == new and store.get(name).webhook_secret == "second"
    assert store.name_of_key(new) == name
    assert store.name_of_key(old) is None and store.name_of_key(late) is None

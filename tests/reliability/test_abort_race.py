"""An abort racing the last first move, over real Redis, gunicorn (2 processes x 8 threads)
and a worker (its settle thread files results in the ladder): the abort is appended at the
version it was checked at, so of the two sent at once exactly one lands, and the log, the
answers and the ladder agree on which. A cancelled game never saw the seat's move and is in
no one's rating; a game whose seat moved refused the abort (409 too_late_to_abort) and,
resigned, is rated."""

from __future__ import annotations

import secrets
import threading

import pytest
import requests

from application.games.service import GameService
from store.ladder.records import LadderStore
from tests.api.helpers import bearer
from tests.workers.processes import served, wait_for

pytestmark = pytest.mark.redis

ROUNDS = 8


@pytest.fixture(scope="module")
def stack(redis_url):
    with served(redis_url, web_workers=2, connections=16) as stack:
        yield stack


def sign_up(base: str) -> dict:
    made = requests.post(
        f"{base}/v1/accounts", json={"name": f"ab{secrets.token_hex(5)}", "bot": True}, timeout=10
    )
    assert made.status_code == 201, made.text
    return made.json()


def race(base: str, ann: dict, bea: dict) -> tuple[str, requests.Response, requests.Response]:
    """A rated game of ann (seat 0, moved) and bea (seat 1, not yet): bea's first move and
    ann's abort, each on its own connection opened before, released together."""
    players = [{"account": ann["name"]}, {"open": True}]
    body = {"game": "keltis-card", "players": players, "rated": True}
    game_id = requests.post(f"{base}/v1/games", json=body, headers=bearer(ann["key"])).json()["id"]
    url = f"{base}/v1/games/{game_id}"
    assert requests.post(f"{url}/seats/1/join", json={}, headers=bearer(bea["key"])).ok
    while requests.get(url, timeout=10).json()["to_move"] == 0:  # ann's turn, whole
        first = requests.get(f"{url}/moves", headers=bearer(ann["key"])).json()["moves"][0]
        assert requests.post(f"{url}/moves", json=first, headers=bearer(ann["key"])).ok
    move = requests.get(f"{url}/moves", headers=bearer(bea["key"])).json()["moves"][0]
    sessions = [requests.Session(), requests.Session()]
    for session in sessions:
        session.get(f"{base}/v1/bots", timeout=10)  # connected before the barrier
    barrier, answers = threading.Barrier(2), [None, None]

    def send(slot: int) -> None:
        barrier.wait()
        if slot == 0:
            answers[0] = sessions[0].post(
                f"{url}/moves", json=move, headers=bearer(bea["key"]), timeout=30
            )
        else:
            answers[1] = sessions[1].post(f"{url}/cancel", headers=bearer(ann["key"]), timeout=30)

    threads = [threading.Thread(target=send, args=(slot,)) for slot in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return game_id, answers[0], answers[1]


def test_abort_before_every_seat_moved_racing_the_last_first_move_lands_exactly_one(
    stack, redis_client
):
    base, service = stack.base_url, GameService(redis_client)
    cancelled, played = [], []
    for _ in range(ROUNDS):
        ann, bea = sign_up(base), sign_up(base)
        game_id, move, cancel = race(base, ann, bea)
        record = service.load(game_id)[0]
        if cancel.status_code == 200:
            assert move.status_code == 409, move.text  # the game is over: the move is not
            assert record.cancelled and 1 not in record.moved
            cancelled.append(game_id)
        else:
            assert cancel.status_code == 409, cancel.text
            assert cancel.json()["error"]["code"] == "too_late_to_abort"
            assert move.status_code == 200, move.text
            assert record.all_moved and not record.cancelled
            resigned = requests.post(
                f"{base}/v1/games/{game_id}/resign", headers=bearer(ann["key"])
            )
            assert resigned.status_code == 200, resigned.text
            played.append(game_id)
    ladder = LadderStore(redis_client)
    wait_for(lambda: None not in ladder.sequence_of(played), 30, "the played games rated")
    assert ladder.sequence_of(cancelled) == [None] * len(cancelled)

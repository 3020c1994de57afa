"""The runner's parts that code against the agreed shapes (challenges, seeks), and its
edge cases, against a fake service (tests/clients/fake_service.py): challenges answered by
the author's policy, a seek kept open and re-created, repeated and stale turns."""

from __future__ import annotations

import threading
import time

import pytest
from keltis_client import ApiError, BotRunner, Client, SeekSpec

from tests.clients.fake_service import END, FakeService


@pytest.fixture
def fake():
    service = FakeService()
    yield service
    service.close()


def wait_for(condition, seconds: float = 10, what: str = "the condition"):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def start(runner: BotRunner) -> threading.Thread:
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    return thread


def stop(runner: BotRunner, thread: threading.Thread, fake: FakeService) -> None:
    runner.stop()
    fake.push(END)
    thread.join(10)
    assert not thread.is_alive()


def connect(fake: FakeService, tmp_path) -> Client:
    return Client.connect(fake.url, "fakebot", key="kk_fake", credentials_path=tmp_path / "c.json")


def challenge(challenge_id: str, game: str = "keltis-card", challenger: str = "rival") -> dict:
    record = {"id": challenge_id, "status": "open", "challenger": challenger, "game": game}
    return {"type": "challenge", "challenge": record}


def test_challenges_are_answered_by_the_authors_policy(fake, tmp_path):
    seen = []

    def accept(offer):
        seen.append(offer["id"])
        return True if offer["game"] == "keltis-card" else "game"

    runner = BotRunner(connect(fake, tmp_path), lambda v, m: m[0], accept=accept)
    thread = start(runner)
    for line in (
        challenge("c1"),
        challenge("c2", game="keltis-dice"),
        challenge("c1"),  # told again (a reconnect's opening lines): answered once
        challenge("c3", challenger="fakebot"),  # our own
        {"type": "challenge_declined", "challenge": {"id": "c9", "decline_reason": "later"}},
    ):
        fake.push(line)
    wait_for(lambda: fake.called("POST", r"/v1/challenges/c2/decline"), what="the decline")
    wait_for(lambda: fake.called("POST", r"/v1/challenges/c1/accept"), what="the accept")
    stop(runner, thread, fake)
    assert fake.called("POST", r"/v1/challenges/c2/decline") == [{"reason": "game"}]
    assert len(fake.called("POST", r"/v1/challenges/c1/accept")) == 1
    assert sorted(seen) == ["c1", "c2"]
    assert not fake.called("POST", r"/v1/challenges/c3/.*")


def test_without_a_policy_challenges_are_left_open(fake, tmp_path):
    runner = BotRunner(connect(fake, tmp_path), lambda v, m: m[0])
    thread = start(runner)
    fake.push(challenge("c1"))
    fake.push({"type": "game_finished", "game": "g0"})
    wait_for(lambda: runner.finished == ["g0"])
    stop(runner, thread, fake)
    assert not fake.called("POST", r"/v1/challenges/.*")


def test_the_seek_is_kept_open_re_created_when_it_ended_and_deleted_on_exit(fake, tmp_path):
    spec = SeekSpec("keltis-dice", players=3, clock={"move_seconds": 5}, max_games=2)
    runner = BotRunner(connect(fake, tmp_path), lambda v, m: m[0], seek=spec)
    thread = start(runner)
    wait_for(lambda: fake.seeks, what="the seek")
    first = fake.called("POST", r"/v1/seeks")
    assert first == [
        {
            "game": "keltis-dice",
            "players": 3,
            "rated": True,
            "max_games": 2,
            "clock": {"move_seconds": 5},
        }
    ]
    fake.seeks[0]["status"] = "ended"  # its games started: gone from the open ones
    fake.push({"type": "game_started", "game": "g1"})
    wait_for(lambda: len(fake.called("POST", r"/v1/seeks")) == 2, what="a new seek")
    again = fake.seeks[-1]["id"]
    stop(runner, thread, fake)
    assert fake.called("DELETE", rf"/v1/seeks/{again}") == [None]


def test_a_seek_left_open_by_a_previous_run_is_taken_over(fake, tmp_path):
    fake.seeks.append({"id": "old", "status": "open", "game": "keltis-card", "players": 2})
    runner = BotRunner(connect(fake, tmp_path), lambda v, m: m[0], seek=SeekSpec())
    thread = start(runner)
    wait_for(lambda: fake.called("GET", r"/v1/seeks"), what="the seek check")
    stop(runner, thread, fake)
    assert not fake.called("POST", r"/v1/seeks")
    assert fake.called("DELETE", r"/v1/seeks/old") == [None]


def test_a_server_without_seeks_is_not_fatal(tmp_path):
    fake = FakeService(seeks_served=False)
    try:
        runner = BotRunner(connect(fake, tmp_path), lambda v, m: m[0], seek=SeekSpec())
        thread = start(runner)
        fake.push({"type": "game_finished", "game": "g0"})
        wait_for(lambda: runner.finished == ["g0"])
        stop(runner, thread, fake)
        assert len(fake.called("GET", r"/v1/seeks")) == 1  # asked once, then not again
    finally:
        fake.close()


def test_a_repeated_turn_is_ignored_and_a_stale_version_is_not_fatal(fake, tmp_path):
    fake.games["g"] = {"version": 5, "status": "active", "moves": [{"action": "keep"}]}
    fake.move_answers = [409]  # the first post finds the game moved on
    chosen = []
    runner = BotRunner(connect(fake, tmp_path), lambda v, m: chosen.append(v) or m[0])
    thread = start(runner)
    fake.push({"type": "your_turn", "game": "g", "version": 5, "deadline": None})
    wait_for(lambda: fake.called("POST", r"/v1/games/g/moves"), what="the first post")
    fake.push({"type": "your_turn", "game": "g", "version": 5, "deadline": None})  # again
    fake.push(END)  # and a dropped stream: its opening repeats the turn
    wait_for(lambda: fake.streams_opened == 2, what="the reconnect")
    fake.push({"type": "your_turn", "game": "g", "version": 5, "deadline": None})
    fake.games["g"]["version"] = 6
    fake.push({"type": "your_turn", "game": "g", "version": 6, "deadline": None})
    wait_for(lambda: len(fake.called("POST", r"/v1/games/g/moves")) == 2, what="the second post")
    stop(runner, thread, fake)
    posts = fake.called("POST", r"/v1/games/g/moves")
    assert [p["expected_version"] for p in posts] == [5, 6]
    assert len(chosen) == 2 and runner.moves_played == 1
    assert runner.reconnects == 1


def test_a_refused_key_ends_the_runner_with_the_error(fake, tmp_path):
    client = connect(fake, tmp_path)
    fake.stream_status = 401
    with pytest.raises(ApiError) as refused:
        BotRunner(client, lambda v, m: m[0]).run()
    assert refused.value.status == 401

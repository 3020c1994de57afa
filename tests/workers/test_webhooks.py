"""Webhook bots with a real `keltis worker` process and webhook servers on 127.0.0.1: a
webhook bot plays a game to the end, signed turns that show only its own seat's view, and
every failed call is told to the account's owner only, while the public timeout comes at the
deadline with one reason."""

from __future__ import annotations

import json
import secrets
import subprocess
import time

import pytest
from rq import Worker

from application.accounts.service import AccountService
from application.games.service import GameService
from application.webhooks.policy import LOOPBACK_ALLOW, WebhookPolicy, parse_allow
from gamelog.record import fold_entries
from replays.verify import verify
from store.bots.webhook_calls import last_error
from tests.support.consent import consent
from tests.support.webhook_server import WebhookServer, first_legal
from tests.workers import processes
from tests.workers.processes import stop

CARD = "keltis-card"
TURN_FIELDS = {
    "type",
    "turn",
    "attempt",
    "game",
    "game_type",
    "seat",
    "version",
    "deadline",
    "view",
    "legal_moves",
}


def start_worker(redis_url: str, **env) -> subprocess.Popen:
    return processes.start_worker(redis_url, "--deadline-every", "0.1", **env)


def wait_for(predicate, seconds: float = 60.0):
    return processes.wait_for(predicate, seconds)


def sign_up(redis_client, server: WebhookServer) -> str:
    """A bot account whose webhook is `server` (which learns the account's secret)."""
    accounts = AccountService(redis_client, WebhookPolicy(parse_allow(LOOPBACK_ALLOW)))
    created = accounts.sign_up(f"hook{secrets.token_hex(5)}", True, server.url)
    server.secret = created.webhook_secret
    return created.record.name


def finished(service: GameService, game_id: str):
    record, _, _ = service.load(game_id)
    return record if record.finished else None


def test_a_webhook_bot_plays_a_game_to_the_end_against_a_built_in_bot(
    redis_client, redis_url, webhook
):
    server = webhook()
    name = sign_up(redis_client, server)
    service = GameService(redis_client)
    record, _, _ = service.create(
        CARD, [{"account": name}, {"bot": "greedy"}], {}, consenting=consent(name)
    )
    assert record.clock["move_seconds"] == 10  # a webhook seat and no clock: 10 s
    worker = start_worker(redis_url)
    try:
        final = wait_for(lambda: finished(service, record.game_id))
    finally:
        stop(worker)
    entries = service.entries_after(record.game_id, 0, 10_000)
    assert not [e for e in entries if e.event["type"] == "turn_timed_out"]
    assert server.bad_signatures == 0
    moves = [e.cmd for e in entries if e.cmd is not None and e.by == 0]
    assert moves and len(server.turns) == len(moves)
    assert final.status == "finished" and not final.forfeited
    assert moves == [turn["legal_moves"][0] for turn in server.turns]  # what it answered


def test_a_webhook_turn_shows_only_its_own_seat(redis_client, redis_url, webhook):
    """R2: the body holds the view the seat may see (its own hand), never another's."""
    server = webhook()
    name = sign_up(redis_client, server)
    service = GameService(redis_client)
    record, _, _ = service.create(
        CARD, [{"bot": "greedy"}, {"account": name}], {}, consenting=consent(name)
    )
    worker = start_worker(redis_url)
    try:
        wait_for(lambda: len(server.turns) >= 5)
    finally:
        stop(worker)
    entries = service.entries_after(record.game_id, 0, 10_000)
    rules = record.rules
    for turn in server.turns[:5]:
        assert set(turn) == TURN_FIELDS and turn["game"] == record.game_id
        assert turn["seat"] == 1 and turn["game_type"] == CARD
        at = fold_entries(None, record.game_id, entries[: turn["version"]])
        assert turn["view"] == json.loads(json.dumps(rules.view(at.state, 1)))
        assert turn["view"] != json.loads(json.dumps(rules.full_view(at.state)))
        assert '"hand":' not in json.dumps(turn["view"]["seats"])
        assert turn["deadline"] == at.deadline
        assert turn["turn"] == f"{record.game_id}.{turn['version']}"


def slow(turn):
    time.sleep(1.6)
    return first_legal(turn)


BEHAVIOURS = {
    "deadline": slow,
    "http_status": lambda turn: (500, {}, b"oops"),
    "redirect": lambda turn: (302, {"Location": "http://127.0.0.1:9/elsewhere"}, b""),
    "illegal_move": lambda turn: (200, {}, b'{"move": {"action": "fly"}}'),
    "invalid_json": lambda turn: (200, {}, b"{not json"),
    "too_large": lambda turn: (200, {}, b'{"move": "' + b"x" * 70_000 + b'"}'),
}


@pytest.mark.parametrize("reason", sorted(BEHAVIOURS))
def test_r2_a_failed_webhook_call_times_out_at_the_deadline_with_one_public_reason(
    redis_client, redis_url, webhook, reason
):
    """Whatever the failure (a closed port answers at once, a tarpit never),
    the public log shows `turn_timed_out` with reason `deadline`, appended no earlier than
    the deadline; only the owner learns why (its last_webhook_error)."""
    server = webhook(BEHAVIOURS[reason])
    name = sign_up(redis_client, server)
    service = GameService(redis_client)
    clock = {"move_seconds": 1, "bank_seconds": 0, "fallback": "random", "max_timeouts": 2}
    players = [{"account": name}, {"bot": "greedy"}]
    worker = start_worker(redis_url)
    registered = {w.name for w in Worker.all(connection=redis_client)}
    wait_for(lambda: worker.poll() is None and _worker_up(redis_client, registered), 30)
    record, _, _ = service.create(CARD, players, {}, clock=clock, consenting=consent(name))
    try:
        final = wait_for(lambda: finished(service, record.game_id), 30)
    finally:
        stop(worker)
    entries = service.entries_after(record.game_id, 0, 10_000)
    timeouts = [e for e in entries if e.event["type"] == "turn_timed_out"]
    assert [t.event["reason"] for t in timeouts] == ["deadline", "deadline"]
    for timeout in timeouts:  # never earlier than the deadline of the version it ended
        before = fold_entries(None, record.game_id, entries[: timeout.n - 1])
        assert timeout.at >= before.deadline
    assert final.forfeited == {0} and final.ended_early
    assert server.turns and server.bad_signatures == 0
    assert last_error(redis_client, name.lower())["reason"] == reason


def _worker_up(client, before: set[str]) -> bool:
    """A worker registered that was not there `before` (its threads start just before)."""
    return bool({w.name for w in Worker.all(connection=client)} - before)


def test_a_webhook_outside_the_allow_list_at_call_time_times_out(redis_client, redis_url, webhook):
    server = webhook()
    name = sign_up(redis_client, server)  # allowed when registered (loopback)
    service = GameService(redis_client)
    # The deadline leaves a loaded machine's worker time to start and try the call first.
    clock = {"move_seconds": 20, "bank_seconds": 0, "fallback": "random", "max_timeouts": 1}
    record, _, _ = service.create(
        CARD, [{"account": name}, {"bot": "greedy"}], {}, clock=clock, consenting=consent(name)
    )
    worker = start_worker(redis_url, KELTIS_WEBHOOK_ALLOW="10.0.0.0/8")
    try:
        wait_for(lambda: last_error(redis_client, name.lower()), 60)
        final = wait_for(lambda: finished(service, record.game_id), 60)
    finally:
        stop(worker)
    entries = service.entries_after(record.game_id, 0, 10_000)
    timeouts = [e.event for e in entries if e.event["type"] == "turn_timed_out"]
    assert [t["reason"] for t in timeouts] == ["deadline"]
    assert final.forfeited == {0} and not server.turns
    assert last_error(redis_client, name.lower())["reason"] == "not_allowed"


@pytest.mark.slow
def test_a_webhook_account_joining_a_game_without_a_clock_gives_it_one_and_it_verifies(
    redis_client, redis_url, webhook
):
    """A join by a webhook account sets the 10 s clock; its timeout (and the fallback's
    move) verify in the replay like any clock's."""
    answered = []

    def illegal_once(turn):  # every call of its first turn (retries too), then legal moves
        answered.append(turn["turn"])
        if turn["turn"] == answered[0]:
            return BEHAVIOURS["illegal_move"](turn)
        return first_legal(turn)

    server = webhook(illegal_once)
    accounts = AccountService(redis_client, WebhookPolicy(parse_allow(LOOPBACK_ALLOW)))
    created = accounts.sign_up(f"hook{secrets.token_hex(5)}", True, server.url)
    server.secret = created.webhook_secret
    service = GameService(redis_client)
    record, _, _ = service.create(CARD, [{"bot": "greedy"}, {"open": True}], {})
    assert record.clock is None
    joined, _ = service.join(record.game_id, 1, None, account_key=created.key)
    assert joined.clock["move_seconds"] == 10
    worker = start_worker(redis_url)
    try:
        final = wait_for(lambda: finished(service, record.game_id), 60)
    finally:
        stop(worker)
    assert not final.forfeited
    entries = service.entries_after(record.game_id, 0, 10_000)
    reasons = [e.event["reason"] for e in entries if e.event["type"] == "turn_timed_out"]
    assert reasons == ["deadline"]
    report = verify(service.replay(record.game_id))
    assert report.ok, report


def test_a_webhook_turn_rings_the_doorbell_of_an_idle_webhook_thread(
    redis_client, redis_url, webhook
):
    """The commit of an account's turn wakes the webhook threads at once (the doorbell
    channel), so a thread that would look again only in 30 s calls the webhook in well under
    a second."""
    from workers.webhooks import WebhookThread

    server = webhook()
    name = sign_up(redis_client, server)
    thread = WebhookThread(redis_url, every_s=30.0)
    thread.start()
    try:
        wait_for(lambda: thread.doorbell is not None, 10)
        time.sleep(0.3)  # the thread is idle in its 30 s wait
        service = GameService(redis_client)
        started = time.monotonic()
        record, _, _ = service.create(
            CARD, [{"account": name}, {"bot": "greedy"}], {}, consenting=consent(name)
        )
        wait_for(lambda: server.turns, 15)
        assert time.monotonic() - started < 10.0  # woken, not at its 30 s look
        assert server.turns[0]["game"] == record.game_id
    finally:
        thread.stop()
        thread.join(timeout=5)

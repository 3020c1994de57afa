"""Webhook turns held against a faulty or hostile participant: each turn is called once
at a time whoever makes it due again, a repeated call cannot
move twice, calls carry a signed timestamp, odd host spellings are refused at call time too,
and a tarpit account cannot starve the other webhook bots of call threads."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time

import pytest
from keltis_client.webhook import Verifier

from application.accounts.service import AccountService
from application.bots.webhook_turns import (
    BUSY,
    FAILED,
    MOVED,
    STALE,
    WebhookCaller,
    turn_id,
    verify,
)
from application.games.service import GameService
from application.webhooks.policy import LOOPBACK_ALLOW, WebhookPolicy, parse_allow
from store import keys
from store.accounts.records import AccountStore
from store.bots.account_turns import AccountTurns
from store.bots.webhook_calls import last_error
from store.core.clock import now_ms
from tests.support.consent import consent
from tests.support.webhook_server import Tarpit, WebhookServer, first_legal
from tests.workers.processes import wait_for
from workers.webhooks import WebhookThread

CARD = "keltis-card"
DAY = {"move_seconds": 86400, "bank_seconds": 0, "fallback": "random", "max_timeouts": 3}
LOOPBACK = WebhookPolicy(parse_allow(LOOPBACK_ALLOW))


@pytest.fixture
def tarpit():
    server = Tarpit().start()
    yield server
    server.close()


@pytest.fixture(autouse=True)
def _forget_account_turns(redis_client):
    """After each test: its games leave the account-turns index (later tests' webhook
    threads must not call this test's closed servers)."""
    before = set(redis_client.zrange(keys.account_turns(), 0, -1))
    yield
    made = set(redis_client.zrange(keys.account_turns(), 0, -1)) - before
    if made:
        redis_client.zrem(keys.account_turns(), *made)


def sign_up(redis_client, url: str, server: WebhookServer | None = None) -> str:
    """A bot account whose webhook is `url` (a server learns the account's secret)."""
    accounts = AccountService(redis_client, LOOPBACK)
    created = accounts.sign_up(f"hook{secrets.token_hex(5)}", True, url)
    if server is not None:
        server.secret = created.webhook_secret
    return created.record.name


def webhook_moves(service: GameService, game_id: str) -> list:
    return [e for e in service.entries_after(game_id, 0, 10_000) if e.cmd is not None]


def test_a_turn_is_called_once_though_an_index_refresh_makes_it_due_again(redis_client, webhook):
    """The claim in the index is rewritten by any refresh of the game's
    index entries (a deadline sweep or a bot job that found nothing to do), which made the
    turn due again while its call ran and a second caller called it too. The call of a
    turn is now keyed by game and version: the second caller leaves it alone."""
    release = threading.Event()

    def held(turn):
        release.wait(20)
        return first_legal(turn)

    server = webhook(held)
    name = sign_up(redis_client, server.url, server)
    service = GameService(redis_client)
    record, _, _ = service.create(
        CARD, [{"account": name}, {"bot": "greedy"}], {}, clock=DAY, consenting=consent(name)
    )
    turns = AccountTurns(redis_client)
    caller = WebhookCaller(service, LOOPBACK, timeout_s=30)
    assert record.game_id in turns.claim(now_ms(), 15_000, 10_000)
    outcomes = []
    first = threading.Thread(target=lambda: outcomes.append(caller.call(record.game_id)))
    first.start()
    try:
        wait_for(lambda: server.turns, 10)
        service.refresh_index(service.load(record.game_id)[0])  # what a sweep may do
        assert record.game_id in turns.claim(now_ms(), 15_000, 10_000)  # due again
        second = caller.call(record.game_id)
        assert second.kind == BUSY and second.retry_ms > now_ms()
    finally:
        release.set()
        first.join(20)
    assert [o.kind for o in outcomes] == [MOVED]
    assert [t["turn"] for t in server.turns] == [turn_id(record.game_id, record.version)]
    assert len(webhook_moves(service, record.game_id)) == 1


def test_a_repeated_call_of_a_turn_cannot_move_twice(redis_client, webhook):
    """Should a turn be called again (its call record lost, a retry
    after a slow answer), the repeat carries the same turn id, and its answer, appended with
    the turn's expected version, finds the game moved on: nothing is appended twice."""
    server = webhook()
    name = sign_up(redis_client, server.url, server)
    service = GameService(redis_client)
    record, _, _ = service.create(
        CARD, [{"account": name}, {"bot": "greedy"}], {}, clock=DAY, consenting=consent(name)
    )
    caller = WebhookCaller(service, LOOPBACK, timeout_s=30)
    turn = caller.prepare(record.game_id)
    assert caller.deliver(turn).kind == MOVED
    redis_client.delete(keys.webhook_call(record.game_id))  # as if its record had expired
    assert caller.deliver(turn).kind == STALE  # delivered again, the same stale turn
    repeated = [t["turn"] for t in server.turns]
    assert repeated == [turn_id(record.game_id, record.version)] * 2
    moves = webhook_moves(service, record.game_id)
    assert len(moves) == 1 and moves[0].n == record.version + 1
    assert service.load(record.game_id)[0].to_move == 0  # its draw step, not a second play


def test_the_server_signs_a_timestamp_with_the_body_and_a_replay_is_refused(redis_client, webhook):
    """`X-Keltis-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "<t>." and
    the raw body>`; a receiver refuses it once stale (5 minutes) or when replayed."""
    server = webhook()
    name = sign_up(redis_client, server.url, server)
    service = GameService(redis_client)
    record, _, _ = service.create(
        CARD, [{"account": name}, {"bot": "greedy"}], {}, clock=DAY, consenting=consent(name)
    )
    assert WebhookCaller(service, LOOPBACK, timeout_s=30).call(record.game_id).kind == MOVED
    ((raw, header),) = server.calls
    fields = dict(part.split("=", 1) for part in header.split(","))
    assert set(fields) == {"t", "v1"} and abs(time.time() - int(fields["t"])) < 60
    signed = fields["t"].encode() + b"." + raw
    assert fields["v1"] == hmac.new(server.secret.encode(), signed, hashlib.sha256).hexdigest()
    assert verify(server.secret, raw, header, time.time())
    assert not verify(server.secret, raw, header, int(fields["t"]) + 301)  # stale
    example = Verifier(server.secret)
    assert example.check(raw, header) is None
    assert example.check(raw, header) == "replayed"
    assert Verifier(server.secret, lambda: int(fields["t"]) + 301).check(raw, header) == (
        "stale timestamp"
    )


@pytest.mark.parametrize(
    ("spelling", "outcome"),
    [
        ("127.1", FAILED),
        ("2130706433", FAILED),
        ("0x7f000001", FAILED),
        ("[::ffff:127.0.0.1]", MOVED),
    ],
)
def test_odd_spellings_are_refused_or_normalised_at_call_time_too(
    redis_client, webhook, spelling, outcome
):
    """A URL stored before the policy changed is checked again at each
    call: a numeric spelling other than a dotted quad is refused (nothing is sent); an
    IPv4-mapped address is its IPv4 address (allowed here: loopback is allowed)."""
    server = webhook()
    name = sign_up(redis_client, server.url, server)
    port = server.url.rsplit(":", 1)[1]
    AccountStore(redis_client).set_webhook(name, f"http://{spelling}:{port}")
    service = GameService(redis_client)
    record, _, _ = service.create(
        CARD, [{"account": name}, {"bot": "greedy"}], {}, clock=DAY, consenting=consent(name)
    )
    result = WebhookCaller(service, LOOPBACK, timeout_s=30).call(record.game_id)
    assert result.kind == outcome
    if outcome == FAILED:
        assert result.reason == "not_allowed" and not server.calls
        assert last_error(redis_client, name.lower())["reason"] == "not_allowed"
    else:
        assert len(server.turns) == 1


def start_thread(redis_url: str, **options) -> WebhookThread:
    thread = WebhookThread(redis_url, every_s=0.05, **options)
    thread.start()
    wait_for(lambda: thread.doorbell is not None, 10)
    return thread


def stop_thread(thread: WebhookThread) -> None:
    thread.stop()
    thread.join(timeout=10)


def tarpit_games(redis_client, tarpit: Tarpit, games: int) -> tuple[str, list[str]]:
    """A tarpit account seated to move in `games` games with a day-long clock."""
    name = sign_up(redis_client, tarpit.url)
    service = GameService(redis_client)
    created = [
        service.create(
            CARD, [{"account": name}, {"bot": "greedy"}], {}, clock=DAY, consenting=consent(name)
        )[0]
        for _ in range(games)
    ]
    return name, [record.game_id for record in created]


def well_behaved_game(redis_client, webhook) -> list[WebhookServer]:
    """A game of two well-behaved webhook bots (every turn is a webhook's)."""
    servers = [webhook(), webhook()]
    names = [sign_up(redis_client, server.url, server) for server in servers]
    players = [{"account": name} for name in names]
    GameService(redis_client).create(CARD, players, {}, clock=DAY, consenting=consent(*names))
    return servers


def test_a_well_behaved_bot_keeps_its_turns_while_a_tarpit_holds_more_games_than_slots(
    redis_client, redis_url, webhook, tarpit
):
    """4 call threads, a tarpit account seated in 6 games (each call would
    wait a day): the account holds at most its share (2) of the threads, so the two
    well-behaved bots play on."""
    tarpit_games(redis_client, tarpit, 6)
    thread = start_thread(redis_url, max_calls=4, per_account=2, call_timeout_s=60)
    try:
        wait_for(lambda: tarpit.connections >= 2, 10)
        servers = well_behaved_game(redis_client, webhook)
        wait_for(lambda: sum(len(s.turns) for s in servers) >= 20, 30)
        assert tarpit.connections == 2  # its share, held (a 60 s bound), never more
    finally:
        stop_thread(thread)


def test_a_call_is_bounded_by_the_service_limit_and_the_tarpit_is_asked_again(
    redis_client, redis_url, webhook, tarpit
):
    """Each call ends after KELTIS_WEBHOOK_CALL_TIMEOUT_S whatever the
    game's clock, freeing its thread (here the tarpit may take every thread at once); the
    tarpit's turn is asked again later and does not time out (its clock has a day)."""
    name, game_ids = tarpit_games(redis_client, tarpit, 2)
    thread = start_thread(redis_url, max_calls=2, per_account=2, call_timeout_s=0.5)
    try:
        servers = well_behaved_game(redis_client, webhook)
        wait_for(lambda: sum(len(s.turns) for s in servers) >= 10, 30)
        wait_for(lambda: tarpit.connections >= 4, 10)  # each game's turn asked again
    finally:
        stop_thread(thread)
    service = GameService(redis_client)
    for game_id in game_ids:
        events = [e.event["type"] for e in service.entries_after(game_id, 0, 100)]
        assert "turn_timed_out" not in events
    assert last_error(redis_client, name.lower())["reason"] == "timeout"  # for its owner

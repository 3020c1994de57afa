"""The counters of work done outside the HTTP layer, counted where the work
happens: a webhook call by outcome, a timeout's lateness after its deadline, a compaction
by outcome. Read from the process's own registry (application.metrics.counters: no multiprocess
directory in the test process)."""

from __future__ import annotations

import secrets

import pytest
from prometheus_client import generate_latest

from application.accounts.service import AccountService
from application.bots.turns import play_bot_turns
from application.bots.webhook_turns import FAILED, MOVED, WebhookCaller
from application.games import clocks
from application.games.service import GameService
from application.metrics import counters as metrics
from application.operations.compaction import compact_due
from application.webhooks.policy import LOOPBACK_ALLOW, WebhookPolicy, parse_allow
from tests.support.consent import consent
from tests.support.metrics_text import samples, value

CARD = "keltis-card"
DAY = {"move_seconds": 86400, "bank_seconds": 0, "fallback": "random", "max_timeouts": 3}
SECOND = {"move_seconds": 1, "bank_seconds": 0, "fallback": "random", "max_timeouts": 100}
LOOPBACK = WebhookPolicy(parse_allow(LOOPBACK_ALLOW))


def _now() -> dict:
    return samples(generate_latest(metrics.REGISTRY).decode())


def _grown(before: dict, after: dict, name: str, **labels) -> float:
    return value(after, name, **labels) - value(before, name, **labels)


def _webhook_game(redis_client, server) -> tuple[GameService, str]:
    accounts = AccountService(redis_client, LOOPBACK)
    created = accounts.sign_up(f"hook{secrets.token_hex(5)}", True, server.url)
    server.secret = created.webhook_secret
    service = GameService(redis_client)
    players = [{"account": created.record.name}, {"bot": "greedy"}]
    record, _, _ = service.create(
        CARD, players, {}, clock=DAY, consenting=consent(players[0]["account"])
    )
    return service, record.game_id


def test_webhook_calls_are_counted_by_outcome_with_their_latency(redis_client, webhook):
    def broken(turn):
        return 500, {"Content-Type": "text/plain"}, b"down"

    before = _now()
    service, game_id = _webhook_game(redis_client, webhook())
    assert WebhookCaller(service, LOOPBACK, timeout_s=30).call(game_id).kind == MOVED
    service, game_id = _webhook_game(redis_client, webhook(broken))
    assert WebhookCaller(service, LOOPBACK, timeout_s=30).call(game_id).kind == FAILED
    after = _now()
    assert _grown(before, after, "keltis_webhook_calls_total", outcome="ok") == 1
    assert _grown(before, after, "keltis_webhook_calls_total", outcome="http_status") == 1
    assert _grown(before, after, "keltis_webhook_call_seconds_count", outcome="ok") == 1
    assert _grown(before, after, "keltis_webhook_call_seconds_count", outcome="failed") == 1


def test_a_timeout_counts_how_late_it_came_after_the_deadline(redis_client):
    now = {"ms": 1_000_000}
    service = GameService(redis_client, clock=lambda: now["ms"])
    record, _, _ = service.create(CARD, [{"name": "ann"}, {"name": "bea"}], {}, clock=SECOND)
    now["ms"] = record.deadline + 2500  # 2.5 s after the deadline
    before = _now()
    assert clocks.time_out(service, record.game_id)
    after = _now()
    name = "keltis_clock_lateness_seconds"
    assert _grown(before, after, f"{name}_count", game=CARD) == 1
    assert _grown(before, after, f"{name}_sum", game=CARD) == pytest.approx(2.5)
    assert _grown(before, after, f"{name}_bucket", game=CARD, le="2.5") == 1
    assert _grown(before, after, f"{name}_bucket", game=CARD, le="1.0") == 0


def test_compactions_are_counted_by_outcome(private_redis):
    service = GameService(private_redis)  # a Redis of its own: only this game is due
    record, _, _ = service.create(CARD, [{"bot": "greedy"}, {"bot": "random"}], {})
    while not record.finished:
        play_bot_turns(service, record.game_id, record.version)
        record, _, _ = service.load(record.game_id)
    before = _now()
    assert compact_due(private_redis, after_s=0) == 1
    after = _now()
    assert _grown(before, after, "keltis_compactions_total", outcome="compacted") == 1


def test_every_appended_entry_is_counted_by_game_type(redis_client):
    """keltis_moves_appended_total{game}: the creation's entries, a join's (it starts the
    game) and a move's, exactly the game's version; other game types do not move."""
    dice = "keltis-dice"
    service = GameService(redis_client)
    rules = service.rules_for(dice)
    before = _now()
    record, tokens, _ = service.create(dice, [{"name": "ann"}, {"open": True}], {}, clock=DAY)
    created = _now()
    assert _grown(before, created, "keltis_moves_appended_total", game=dice) == record.version
    joined, token = service.join(record.game_id, 1, "bob")
    seat = rules.view(joined.state, 0)["to_move"]
    move = rules.legal_moves(joined.state, seat)[0]
    service.play(record.game_id, token if seat == 1 else tokens[0], dict(move), lambda *_: {})
    after = _now()
    version = service.load(record.game_id)[0].version
    assert version > joined.version > record.version
    assert _grown(before, after, "keltis_moves_appended_total", game=dice) == version
    assert _grown(before, after, "keltis_moves_appended_total", game=CARD) == 0


def _game_of(service, payer: str) -> str:
    """An all-greedy game whose creator record names `payer` (written first, as the API)."""
    from application.games.service import new_game_id
    from store import keys
    from store.budget.records import BudgetStore

    game_id = new_game_id()
    BudgetStore(service.client).open_record(keys.game_creator(game_id), 0, (), payer=payer)
    players = [{"name": "g0", "bot": "greedy"}, {"name": "g1", "bot": "greedy"}]
    service.create(CARD, players, {}, game_id=game_id)
    return game_id


def test_bot_cpu_seconds_are_counted_by_creator_kind(scheduling_service, empty_queues):
    from rq.serializers import JSONSerializer

    from application.operations import jobs
    from workers.fair import FairSimpleWorker

    before = _now()
    account = _game_of(scheduling_service, f"acct:cpu{secrets.token_hex(3)}")
    anonymous = _game_of(scheduling_service, "addr:198.51.100.7")
    client = empty_queues
    worker = FairSimpleWorker(jobs.queues(client), connection=client, serializer=JSONSerializer)
    worker.work(burst=True, logging_level="ERROR", with_scheduler=False)
    assert all(scheduling_service.load(g)[0].finished for g in (account, anonymous))
    after = _now()
    for kind in ("account", "anonymous"):
        assert _grown(before, after, "keltis_bot_cpu_seconds_total", creator=kind) > 0


def test_games_that_end_are_counted_by_what_ended_them(redis_client):
    from application.games.service import ended_by

    service = GameService(redis_client)
    players = [{"name": "g0", "bot": "greedy"}, {"name": "g1", "bot": "random"}]
    record, _, _ = service.create(CARD, players, {})
    before = _now()
    play_bot_turns(service, record.game_id, record.version)
    finished = service.load(record.game_id)[0]
    assert finished.finished
    why = ended_by(finished)
    assert why == (finished.rules.result(finished.state).get("ended_by") or "rules")
    labels = {"game": CARD, "ended_by": why}
    assert _grown(before, _now(), "keltis_games_ended_total", **labels) == 1


def test_the_scrape_tells_the_age_of_the_oldest_waiting_job_per_queue(redis_client, empty_queues):
    import time

    from application.operations import jobs
    from application.operations.metrics_scrape import scrape
    from store.bots.fair_queue import FairQueue

    bulk = jobs.bot_queue(redis_client, False)
    a_minute_ago = FairQueue(
        redis_client, bulk.key, bulk.redis_queues_keys, clock=lambda: time.time() - 60
    )
    a_minute_ago.push("acct:waiting", "bot-waiting-game-1")
    jobs.enqueue_bot_turn(redis_client, "waiting-person-game", 3, person=True)
    found = samples(scrape(redis_client, redis_client).decode())
    person = {"queue": jobs.bot_queue(redis_client, True).name}
    assert value(found, "keltis_queue_depth", **person) == 1
    assert 0 <= value(found, "keltis_queue_oldest_wait_seconds", **person) < 60
    queue = {"queue": bulk.name}
    assert value(found, "keltis_queue_depth", **queue) == 1
    assert 60 <= value(found, "keltis_queue_oldest_wait_seconds", **queue) < 120
    idle = {"queue": jobs.tournament_queue(redis_client).name}
    assert value(found, "keltis_queue_oldest_wait_seconds", **idle) == 0

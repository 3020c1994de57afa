"""The bot CPU budget follows the CPU as it is spent (application.budget.service): each bot job's
CPU
beyond the game's estimate is charged to its creator's budget at once, and once the budget
is spent the game's searching bots move by their cheap fallback (a public `bot_fallback`
event), so no game, long or endless, runs past it; the replay re-derives those moves."""

from __future__ import annotations

import secrets
import time

import pytest
from rq.serializers import JSONSerializer

from application.bots.turns import budget_switch
from application.budget import estimate
from application.budget import service as budget
from application.budget.service import Budgets, Payer
from application.games import cancel
from application.games.service import new_game_id
from application.operations import jobs
from domain.bots import DEFAULT_CAPS_MS
from domain.registry import get_rules
from gamelog.events import BOT_FALLBACK
from replays.verify import verify
from store.budget.records import BudgetStore, Limit
from workers.fair import FairSimpleWorker

pytestmark = pytest.mark.redis

CARD = "keltis-card"
TWO_MCTS = [{"name": "m0", "bot": "mcts"}, {"name": "m1", "bot": "mcts"}]
BUDGET_MS = 5000
RESERVED_S = 2.0  # the estimate charged up front (a game that runs long goes past it)
MOVE_CAP_S = DEFAULT_CAPS_MS[(CARD, 2)] / 1000  # the most one 2-player card move searches
MOVE_MS = round(1000 * estimate.move_seconds(get_rules(CARD).bots, "mcts"))


def _game_on_budget(service, payer: Payer, budgets: Budgets) -> str:
    """An all-bot game created as the API creates one: charged its estimate up front, its
    creator record (payer, limits) written before the game."""
    ticket = budgets.admit(payer, RESERVED_S)
    game_id = new_game_id()
    store = BudgetStore(service.client)
    cancel.record_creator(store, game_id, "kc_test", payer.account, ticket, payer.id)
    service.create(CARD, TWO_MCTS, {}, game_id=game_id)
    return game_id


def test_two_mcts_bots_against_a_five_second_budget_search_about_five_seconds(
    scheduling_service, empty_queues
):
    client = empty_queues
    account = f"budget{secrets.token_hex(4)}"
    payer = Payer.of("10.0.0.1", account)
    store = BudgetStore(client)
    budgets = Budgets(store, [], [Limit(BUDGET_MS, 3600)])
    game_id = _game_on_budget(scheduling_service, payer, budgets)
    worker = FairSimpleWorker(jobs.queues(client), connection=client, serializer=JSONSerializer)
    began = time.thread_time()  # the jobs run in this thread (SimpleWorker)
    worker.work(burst=True, logging_level="ERROR", with_scheduler=False)
    used_s = time.thread_time() - began
    record = scheduling_service.load(game_id)[0]
    assert record.finished
    assert used_s <= BUDGET_MS / 1000 + MOVE_CAP_S, f"{used_s:.2f} s of CPU"
    assert used_s >= BUDGET_MS / 1000 - MOVE_CAP_S  # it searched until the budget was spent
    assert store.spent(payer.id, budgets.account, MOVE_MS)  # less than a move's search left
    events = [e.event for e in scheduling_service.entries_after(game_id, 0, 10_000)]
    fallbacks = [e for e in events if e["type"] == BOT_FALLBACK]
    assert fallbacks == [
        {"type": BOT_FALLBACK, "seats": [0, 1], "reason": "budget", "bot": "greedy"}
    ]
    report = verify(scheduling_service.replay(game_id))
    assert report.ok, report


def test_the_cpu_beyond_the_estimate_is_charged_as_it_is_used_and_settled_once(redis_client):
    store = BudgetStore(redis_client)
    payer = Payer.of("10.0.0.2", f"live{secrets.token_hex(4)}")
    budgets = Budgets(store, [], [Limit(10_000, 3600)])
    ticket = budgets.admit(payer, 1.0)
    game_id = new_game_id()
    cancel.record_creator(store, game_id, "kc_test", payer.account, ticket, payer.id)
    key = budget.record_key(game_id, None)
    (counter,) = store.counters(payer.id, budgets.account)

    def charged_ms() -> int:
        return int(redis_client.get(counter))

    budget.note_cpu(store, key, 0.6)
    assert charged_ms() == 1000  # within the estimate: nothing more yet
    budget.note_cpu(store, key, 0.9)
    assert charged_ms() == 1500  # 0.5 s beyond it, charged at once
    budget.note_cpu(store, key, 0.2, ended=True)
    assert charged_ms() == 1700  # settled: the overrun is charged once, nothing given back
    assert budget.settle(store, key) is None


def test_an_unused_estimate_comes_back_when_the_game_ends(redis_client):
    store = BudgetStore(redis_client)
    payer = Payer.of("10.0.0.3", None)
    budgets = Budgets(store, [Limit(10_000, 3600)], [])
    ticket = budgets.admit(payer, 3.0)
    game_id = new_game_id()
    cancel.record_creator(store, game_id, "kc_test", None, ticket, payer.id)
    (counter,) = store.counters(payer.id, budgets.anon)
    budget.note_cpu(store, budget.record_key(game_id, None), 1.25, ended=True)
    assert int(redis_client.get(counter)) == 1250


def test_a_refilled_budget_ends_the_fallback_with_an_event(quiet_service):
    record, _, _ = quiet_service.create(CARD, TWO_MCTS, {})
    switch, after = budget_switch(record, lambda _: True, 1)
    assert [e.event for e in switch] == [
        {"type": BOT_FALLBACK, "seats": [0, 1], "reason": "budget", "bot": "greedy"}
    ]
    assert after.bot_of(0) == "greedy" and after.version == record.version + 1
    assert budget_switch(after, lambda _: True, 2) == ([], after)  # still spent: no event
    switch, refilled = budget_switch(after, lambda _: False, 3)
    assert [e.event for e in switch] == [{"type": BOT_FALLBACK, "seats": [], "reason": "budget"}]
    assert refilled.bot_of(0) == "mcts"

"""A challenge's bot work charged to its challenger (application.challenges.budget): charged
in full when it fits, refused (429 cpu_budget_exceeded, nothing charged) when it does not,
refunded once, nothing charged without a budget; each game made gets a creator record with
its share of the charge, and a rated two-board match's games their board."""

from __future__ import annotations

import json

import pytest

from application.budget.service import Budgets, CpuBudgetExceeded, Payer, parse_limits
from application.challenges.budget import BudgetCharger, charger_from_env
from store import keys
from store.budget.records import BudgetStore
from store.challenges.records import Stored
from tests.application.documented import answered_status, documented_statuses, served

MCTS = [{"account": "Anna"}, {"bot": "mcts"}]  # bot work worth some CPU seconds


def _stored(rated=False, match=None) -> Stored:
    spec = {"game": "keltis-card", "challenger": "Anna", "opponents": [{"account": "Bela"}]}
    spec.update({"rated": rated, **({"match": match} if match else {})})
    return Stored("ch-1", spec, "open", (), None, None, 0)


@pytest.fixture
def store(private_redis) -> BudgetStore:
    return BudgetStore(private_redis)


def _charger(store, setting="100 per hour") -> BudgetCharger:
    return BudgetCharger(store, Budgets(store, [], parse_limits(setting)))


def _used_ms(store) -> int:
    (used,) = store.used_ms(Payer.of("", "anna").id, parse_limits("100 per hour"))
    return used


def test_the_challengers_account_is_charged_for_every_game(store):
    ticket = _charger(store).charge(_stored(), MCTS, games=2)
    assert ticket.payer == Payer.of("127.0.0.1", "anna")
    assert ticket.cost_ms > 0
    assert _used_ms(store) == ticket.cost_ms
    one = _charger(store).charge(_stored(), MCTS, games=1)
    assert one.cost_ms * 2 == pytest.approx(ticket.cost_ms, abs=2)


def test_work_over_the_budget_is_refused_and_charges_nothing(store):
    charger = _charger(store, "1 per hour")
    with pytest.raises(CpuBudgetExceeded) as refused:
        charger.charge(_stored(), MCTS, games=2)
    assert refused.value.code == "cpu_budget_exceeded"
    assert answered_status(refused.value) == 429
    assert documented_statuses("cpu_budget_exceeded") == {429}
    assert int(served(refused.value).headers["Retry-After"]) >= 1
    (used,) = store.used_ms(Payer.of("", "anna").id, parse_limits("1 per hour"))
    assert used == 0


def test_a_refund_gives_the_charge_back(store):
    charger = _charger(store)
    charger.refund(charger.charge(_stored(), MCTS, games=1))
    assert _used_ms(store) == 0
    charger.refund(None)  # nothing was charged: nothing to give back


def test_without_a_budget_nothing_is_charged(store):
    charger = BudgetCharger(store, None)
    assert charger.charge(_stored(), MCTS, games=2) is None
    assert _used_ms(store) == 0


def test_each_game_made_records_its_creator_and_its_share(store):
    charger = _charger(store)
    ticket = charger.charge(_stored(), MCTS, games=2)
    charger.created(_stored(), ["g-1", "g-2"], ticket)
    for game_id in ("g-1", "g-2"):
        record = store.record(keys.game_creator(game_id))
        assert record["account"] == "anna"
        assert record["payer"] == "acct:anna"
        assert int(record["charged_ms"]) == ticket.cost_ms // 2
        assert json.loads(record["counters"]) == list(ticket.charge.counters)
        assert record["creator"] and "rated_match" not in record


def test_games_made_without_a_charge_still_record_their_creator(store):
    BudgetCharger(store, None).created(_stored(), ["g-1"], None)
    record = store.record(keys.game_creator("g-1"))
    assert (record["account"], record["charged_ms"]) == ("anna", "0")
    assert "payer" not in record


@pytest.mark.parametrize(("rated", "boards"), [(True, ["1", "2"]), (False, [None, None])])
def test_a_two_board_matchs_games_name_their_board_when_rated(store, rated, boards):
    BudgetCharger(store, None).created(_stored(rated, "two_boards"), ["g-1", "g-2"], None)
    found = [store.record(keys.game_creator(g)).get("rated_match") for g in ("g-1", "g-2")]
    assert found == boards


@pytest.mark.parametrize(("setting", "charges"), [("off", False), ("50 per hour", True)])
def test_the_workers_charger_follows_the_account_budget_setting(
    private_redis, monkeypatch, setting, charges
):
    monkeypatch.setenv("KELTIS_BOT_CPU_BUDGET_ACCOUNT", setting)
    charger = charger_from_env(private_redis)
    assert (charger.budgets is not None) is charges
    assert (charger.charge(_stored(), MCTS, games=1) is not None) is charges

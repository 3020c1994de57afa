"""The rated pool over a real Redis, passes run in-process on a fixed clock (no sleeps):
pairing, compatibility, self-pairs, repeat avoidance, tables, rating ranges, max_games,
liveness, pool bots and racing passes."""

from __future__ import annotations

import contextlib
import http.server
import threading

import pytest

from application.games.cancel import cancel_game
from application.seeks.pairing import PairingRules
from application.seeks.service import (
    SeekBounds,
    TooManySeeks,
    WebhookNotAnswering,
    account_seeks,
    cancel_seek,
)
from application.seeks.worker_pass import PoolSettings
from ladder.entries import participant_id
from ladder.fold import Rating
from store import keys
from tests.seeks.conftest import CARD

pytestmark = pytest.mark.redis


def _seated(games, game_id) -> list[str]:
    record, _, _ = games.load(game_id)
    return sorted(p.get("account") or "bot:" + p["bot"] for p in record.players)


def _rate(client, game: str, name: str, mu: float, sigma: float = 1.0) -> None:
    """Give an account a stored ladder rating (ordinal mu - 3 sigma)."""
    rating = Rating(name, False, mu, sigma, 10)
    import orjson

    client.hset(
        keys.ladder_ratings(game),
        participant_id(name, bot=False),
        orjson.dumps(rating.to_dict()),
    )


@pytest.mark.cluster_too
def test_two_compatible_seekers_are_paired_into_a_rated_game(pool, games):
    pool.account("ann")
    pool.account("bea")
    pool.seek("ann")
    pool.seek("bea")
    result = pool.run()
    assert len(result.games) == 1
    record, _, _ = games.load(result.games[0])
    assert record.rated and record.started
    assert _seated(games, result.games[0]) == ["ann", "bea"]
    # Each seek shows the game; with max_games 1 neither is paired again while it plays.
    assert account_seeks(games, pool.records["ann"])[0]["games"] == result.games
    assert pool.run().games == []


def test_incompatible_seeks_are_not_paired(pool):
    for name in ("ann", "bea", "cat", "dan", "eve"):
        pool.account(name)
    pool.seek("ann")
    pool.seek("bea", game="keltis-dice")
    pool.seek("cat", players=3)
    pool.seek("dan", rated=False)
    pool.seek("eve", clock={"move_seconds": 30, "fallback": "greedy"})
    assert pool.run().games == []


def test_self_pair_never_happens(pool, clock):
    pool.account("ann")
    pool.seek("ann")
    pool.seek("ann")
    clock.advance(3600)  # however long it waits, however wide its range
    assert pool.run().games == []


def test_repeat_pairs_are_avoided_while_a_third_seeker_waits(pool, games, clock):
    for name in ("ann", "bea", "cat"):
        pool.account(name)
    pool.seek("ann", max_games=2)
    pool.seek("bea", max_games=2)
    first = pool.run().games
    assert _seated(games, first[0]) == ["ann", "bea"]
    clock.advance(5)
    pool.seek("cat")
    second = pool.run().games
    assert len(second) == 1
    assert "cat" in _seated(games, second[0])  # not ann and bea again


def test_recent_opponents_pair_again_when_nobody_else_waits(pool, games, clock):
    pool.account("ann")
    pool.account("bea")
    pool.seek("ann", max_games=2)
    pool.seek("bea", max_games=2)
    assert len(pool.run().games) == 1
    clock.advance(1)
    assert len(pool.run().games) == 1  # two bot authors alone keep getting games


@pytest.mark.cluster_too
@pytest.mark.parametrize("players", [3, 4])
def test_three_and_four_player_seeks_form_tables(pool, games, players):
    names = [f"p{i}" for i in range(players + 1)]
    for name in names:
        pool.account(name)
        pool.seek(name, players=players)
    result = pool.run()
    assert len(result.games) == 1
    seated = _seated(games, result.games[0])
    assert len(seated) == players == len(set(seated))


def test_the_rating_range_widens_with_the_wait(pool, games, clock, private_redis):
    pool.account("ann")
    pool.account("bea")
    _rate(private_redis, CARD, "ann", mu=30.0)  # ordinal 27
    _rate(private_redis, CARD, "bea", mu=13.0)  # ordinal 10: 17 apart
    settings = PoolSettings(PairingRules(base_range=3.0, widen_per_s=1.0))
    pool.seek("ann")
    pool.seek("bea")
    assert pool.run(settings).games == []
    clock.advance(13)  # ranges 16: not yet
    assert pool.run(settings).games == []
    clock.advance(1)  # ranges 17: both accept
    assert len(pool.run(settings).games) == 1


def test_closer_ratings_are_paired_first(pool, games, private_redis):
    for name, mu in (("ann", 20.0), ("bea", 21.0), ("cat", 40.0), ("dan", 41.0)):
        pool.account(name)
        _rate(private_redis, CARD, name, mu)
        pool.seek(name)
    result = pool.run(PoolSettings(PairingRules(base_range=100.0)))
    assert sorted(_seated(games, g) for g in result.games) == [["ann", "bea"], ["cat", "dan"]]


@pytest.mark.cluster_too
def test_max_games_keeps_a_seek_open_until_that_many_games_are_in_play(pool, games, clock):
    for name in ("ann", "bea", "cat", "dan", "eve"):
        pool.account(name)
    pool.seek("ann", max_games=3)
    made = []
    seeks = {}
    for name in ("bea", "cat", "dan"):
        seeks[name] = pool.seek(name)
        made += pool.run().games
        clock.advance(1)
    assert len(made) == 3
    assert all("ann" in _seated(games, g) for g in made)
    shown = account_seeks(games, pool.records["ann"])[0]
    assert shown["playing"] == 3 and shown["status"] == "open"
    pool.seek("eve")
    assert pool.run().games == []  # ann plays 3 games: its seek waits
    # One game ends: the seek is free again below its max_games.
    cancel_seek(games, pool.records["bea"], seeks["bea"]["id"])  # ann's seek alone is free
    cancel_game(games, games.load(made[0])[0])
    clock.advance(1)
    again = pool.run().games
    assert len(again) == 1 and _seated(games, again[0]) == ["ann", "eve"]


def test_a_seek_ends_within_the_grace_after_its_stream_disconnects(pool, games, clock):
    pool.account("ann")
    pool.account("bea")
    seek = pool.seek("ann")
    pool.hang_up("ann")
    bounds = SeekBounds(grace_ms=15_000)
    settings = PoolSettings(bounds=bounds)
    clock.advance(10)
    assert pool.run(settings).closed == []  # within the grace: kept, but not paired
    pool.seek("bea")
    assert pool.run(settings).games == []
    clock.advance(3.5)  # closed before the grace runs out: the next pass may come late
    assert pool.run(settings).closed == [seek["id"]]
    assert account_seeks(games, pool.records["ann"]) == []


def test_a_stream_back_within_the_grace_keeps_the_seek(pool, clock):
    pool.account("ann")
    pool.account("bea")
    pool.seek("ann")
    pool.seek("bea")
    pool.hang_up("ann")
    clock.advance(10)
    pool.run()
    pool.listen("ann")
    clock.advance(10)
    result = pool.run()
    assert result.closed == [] and len(result.games) == 1


def test_a_ghost_webhook_seek_is_refused_when_placed(pool):
    pool.account("ghost", webhook="http://127.0.0.1:9/turn", listening=False)  # closed port
    with pytest.raises(WebhookNotAnswering):
        pool.seek("ghost")
    assert account_seeks(pool.games, pool.records["ghost"]) == []


def test_a_webhook_seek_whose_webhook_stops_answering_is_never_paired(pool, games, clock):
    with _answering_server() as (server, url):
        pool.account("hook", webhook=url, listening=False)
        seek = pool.seek("hook")  # the probe is answered
        server.shutdown()
        server.server_close()
    clock.advance(31)  # its last answer is no longer recent: the pass probes, in vain
    pool.account("ann")
    pool.seek("ann")
    result = pool.run()
    assert result.games == []  # the real seeker waits rather than meet a ghost
    assert result.closed == [seek["id"]]  # unheard since it was placed, past the grace
    pool.account("bea")
    pool.seek("bea")
    found = pool.run().games
    assert [_seated(games, game_id) for game_id in found] == [["ann", "bea"]]


def test_a_webhook_bot_that_answers_is_paired(pool, games, clock):
    with _answering_server() as (_, url):
        pool.account("hook", webhook=url, listening=False)
        pool.seek("hook")
        clock.advance(31)  # a probe in the pass, answered
        pool.account("ann")
        pool.seek("ann")
        found = pool.run().games
    assert [_seated(games, game_id) for game_id in found] == [["ann", "hook"]]


@contextlib.contextmanager
def _answering_server():
    """A webhook on loopback that answers every POST 200 `{}` (a probe counts any 2xx)."""

    class Answer(http.server.BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"{}")

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Answer)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server, f"http://127.0.0.1:{server.server_address[1]}/turn"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


@pytest.mark.cluster_too
def test_a_deleted_seek_is_never_paired_and_its_games_go_on(pool, games, clock):
    pool.account("ann")
    pool.account("bea")
    pool.account("cat")
    first = pool.seek("ann", max_games=2)
    pool.seek("bea")
    game_id = pool.run().games[0]
    cancelled = cancel_seek(games, pool.records["ann"], first["id"])
    assert cancelled["status"] == "cancelled" and cancelled["games"] == [game_id]
    pool.seek("cat")
    clock.advance(60)
    assert pool.run().games == []  # ann's seek is gone; cat waits alone
    record, _, _ = games.load(game_id)
    assert record.started and not record.finished  # the game goes on with its clock


def test_another_account_cannot_cancel_a_seek(pool, games):
    from application.seeks.service import SeekNotFound

    pool.account("ann")
    pool.account("bea")
    seek = pool.seek("ann")
    with pytest.raises(SeekNotFound):
        cancel_seek(games, pool.records["bea"], seek["id"])


@pytest.mark.cluster_too
def test_open_seeks_are_bounded_per_account_and_per_address(pool):
    pool.account("ann")
    pool.account("bea")
    bounds = SeekBounds(per_account=3, per_address=4)
    one = "10.0.0.1"
    for _ in range(3):
        pool.seek("ann", bounds=bounds, address=one)
    with pytest.raises(TooManySeeks):
        pool.seek("ann", bounds=bounds, address=one)
    pool.seek("bea", bounds=bounds, address=one)
    with pytest.raises(TooManySeeks):
        pool.seek("bea", bounds=bounds, address=one)
    pool.seek("bea", bounds=bounds, address="10.0.0.2")


def test_a_pool_bot_is_offered_after_the_wait_and_its_cpu_is_charged(pool, games, clock):
    from application.budget.service import Budgets, parse_limits
    from store.budget.records import BudgetStore

    pool.account("ann")
    pool.seek("ann")
    rules = PairingRules(pool_bots=("greedy", "mcts:100"), bot_wait_ms=10_000)
    budgets = Budgets(BudgetStore(games.client), [], parse_limits("3600 per hour"))
    clock.advance(9)
    assert pool.run(PoolSettings(rules), budgets=budgets).games == []
    clock.advance(1)
    made = pool.run(PoolSettings(rules), budgets=budgets).games
    assert len(made) == 1
    seated = _seated(games, made[0])
    assert seated == ["ann", "bot:greedy"]  # the closest rating (both unrated), first listed
    record = BudgetStore(games.client).record(keys.game_creator(made[0]))
    assert record["payer"] == "acct:ann"


def test_a_pool_bot_beyond_the_budget_is_not_offered(pool, games, clock):
    from application.budget.service import Budgets, parse_limits
    from store.budget.records import BudgetStore

    pool.account("ann")
    pool.seek("ann")
    rules = PairingRules(pool_bots=("mcts:100",), bot_wait_ms=0)
    budgets = Budgets(BudgetStore(games.client), [], parse_limits("1 per hour"))
    assert pool.run(PoolSettings(rules), budgets=budgets).games == []
    assert account_seeks(games, pool.records["ann"])[0]["playing"] == 0


@pytest.mark.cluster_too
def test_two_racing_passes_never_seat_a_seek_twice(pool, games):
    names = [f"r{i}" for i in range(12)]
    for name in names:
        pool.account(name)
        pool.seek(name)
    passes = [pool.pairing(lease=False) for _ in range(2)]
    results = [None, None]
    barrier = threading.Barrier(2)

    def race(at: int) -> None:
        barrier.wait()
        results[at] = passes[at].run()

    threads = [threading.Thread(target=race, args=(at,)) for at in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    made = results[0].games + results[1].games
    seated = [name for game in made for name in _seated(games, game)]
    assert len(seated) == len(set(seated))
    # A pass that read a table's seeks while the other claimed them one by one may have
    # paired them otherwise and given back its claims: those wait for the next pass.
    made += pool.run().games
    seated = [name for game in made for name in _seated(games, game)]
    assert len(seated) == len(set(seated)) == 12


@pytest.mark.cluster_too
def test_a_claim_whose_game_is_being_created_is_not_given_back(pool, games, monkeypatch):
    """Another pass claimed ann and bea and wrote its game's log, but not yet the accounts'
    index (a later write, another slot): by the index alone the game looks over. The pass
    asks the game's own log, keeps the claims and seats only cat and dan."""
    from store.games import index
    from store.seeks.records import SeekStore

    for name in ("ann", "bea", "cat", "dan"):
        pool.account(name)
    ann, bea = pool.seek("ann"), pool.seek("bea")
    pool.seek("cat")
    pool.seek("dan")
    store = SeekStore(games.client)
    assert store.claim(store.load([ann["id"], bea["id"]]), "game-being-made-xxxxx", 1) == 0
    with monkeypatch.context() as patched:
        patched.setattr(index, "_file_accounts", lambda pipe, record, before: None)
        games.create(
            CARD,
            [{"account": "ann"}, {"account": "bea"}],
            {},
            game_id="game-being-made-xxxxx",
            rated=True,
            consenting=frozenset({"ann", "bea"}),
        )
    made = pool.run().games
    assert [_seated(games, game) for game in made] == [["cat", "dan"]]
    assert store.load([ann["id"]])[0].playing == {"game-being-made-xxxxx": 1}


@pytest.mark.cluster_too
def test_claims_are_all_or_none(pool, games):
    from store.seeks.records import SeekStore

    pool.account("ann")
    pool.account("bea")
    a, b = pool.seek("ann"), pool.seek("bea")
    store = SeekStore(games.client)
    found = store.load([a["id"], b["id"]])
    assert store.claim(found, "game-one-xxxxxxxxxx", 1) == 0
    assert store.claim(found, "game-two-xxxxxxxxxx", 2) == 1  # the first is full
    assert store.load([b["id"]])[0].playing == {"game-one-xxxxxxxxxx": 1}
    # The second seek refused: the first, claimed before it, is given back as it was.
    c = pool.seek("ann")
    fresh, full = store.load([c["id"], b["id"]])
    assert store.claim([fresh, full], "game-three-xxxxxxxx", 3) == 2
    (after,) = store.load([c["id"]])
    assert after.playing == {} and after.since == fresh.since
    assert store.games([c["id"]]) == {c["id"]: []}


def test_two_accounts_seeking_from_one_address_are_each_paired_with_another(pool, games, clock):
    for name in ("ann", "alt"):
        pool.account(name)
    pool.seek("ann", address="203.0.113.5")
    pool.seek("alt", address="203.0.113.5")
    assert pool.run().games == []  # only they wait: they wait
    clock.advance(1)  # they waited longest: each is seated first, with one of the others
    for name, address in (("bea", "198.51.100.7"), ("cat", "198.51.100.8")):
        pool.account(name)
        pool.seek(name, address=address)
    found = pool.run().games
    assert len(found) == 2
    tables = [_seated(games, game_id) for game_id in found]
    assert all(not {"ann", "alt"} <= set(table) for table in tables)
    assert sorted(name for table in tables for name in table) == ["alt", "ann", "bea", "cat"]


def test_accounts_of_a_shared_network_may_meet(pool, games):
    from application.webhooks.policy import parse_allow

    for name in ("ann", "bea"):
        pool.account(name)
        pool.seek(name, address="127.0.0.1")
    assert pool.run().games == []
    shared = PoolSettings(shared=parse_allow("127.0.0.0/8"))
    found = pool.run(shared).games
    assert [_seated(games, game_id) for game_id in found] == [["ann", "bea"]]


def test_the_bot_kit_server_answers_the_pools_probe(pool):
    from keltis_client.webhook import make_server

    from application.bots.webhook_probe import ping
    from tests.support.ports import free_port

    port = free_port()
    record = pool.account("kit", webhook=f"http://127.0.0.1:{port}/move", listening=False)
    server = make_server(record.webhook_secret, lambda view, legal: legal[0], port=port)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        assert ping(pool.accounts.policy, record) is None
        assert pool.seek("kit")["status"] == "open"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)

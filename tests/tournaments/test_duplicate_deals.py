"""Nothing about a game of a duplicate deal that is not over (its
result, score or progress) is published anywhere until every game of the deal is over: not
the tournament's stream, its standings (GET, standings.json/csv), the ladder, the /v1/games
list (status, version, to_move) or the export. Then the deal's games come out together, in
index order.

A 2-game duplicate tournament of built-in bots (one deal, played once per seat rotation;
unrated, as every tournament of built-in bots alone, so the ladder never shows it), on
a Redis nobody else writes to (the ladder and the listings span every game): game 1 is
played to its end first, game 0 is left in play, then finished.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from api import create_app
from application.bots.turns import bots_of, rng_for, run_of_turns
from application.games.service import GameService
from application.games.settle import settle_due
from application.live.streams import StreamSettings, tournament_events
from application.operations import jobs
from application.operations.sweep import sweep_tournaments
from application.tournaments import service as use_cases
from domain.autoplay import play_bots
from domain.chance import Chance
from store import keys
from store.ladder.records import LadderStore
from store.tournaments.records import TournamentStore
from tests.api.contract import ContractClient
from tournaments import seeds
from tournaments.spec import make_spec, new_salt

pytestmark = pytest.mark.redis

LISTINGS = (
    {},
    {"status": "finished"},
    {"status": "active"},
    {"game": "keltis-card"},
    {"game": "keltis-card", "status": "finished"},
)


@pytest.fixture
def deal(private_redis, private_redis_server):
    spec = make_spec("keltis-card", ["greedy", "random"], 2, None, "deal", format="duplicate")
    spec = replace(spec, salt=new_salt())
    tid = seeds.new_tournament_id()
    store = TournamentStore(private_redis)
    store.create(tid, spec)
    app = create_app({"REDIS_URL": private_redis_server.url, "TESTING": True})
    app.test_client_class = ContractClient
    return tid, spec, store, GameService(private_redis), app.test_client()


def listed_ids(http) -> set[str]:
    found: set[str] = set()
    for query in LISTINGS:
        answer = http.get("/v1/games", query_string={"limit": 100, **query})
        found |= {game["id"] for game in answer.json["games"]}
    return found


def exported_ids(http, tid: str) -> set[str]:
    found = set()
    for query in ({}, {"tournament": tid}):
        body = http.get("/v1/games/export", query_string=query).get_data(as_text=True)
        for line in map(json.loads, filter(None, body.splitlines())):
            if "replay" in line:
                found.add(line["replay"]["header"]["game_id"])
    return found


def streamed(service: GameService, tid: str) -> list[dict]:
    settings = StreamSettings(keepalive_s=0.05, max_s=0.1)
    return [line for line in tournament_events(service, tid, 0, settings) if line is not None]


def some_turns(service: GameService, record, count: int) -> None:
    """Append the next `count` bot turns of a game (not to its end)."""
    chance = Chance.from_hex(record.seed_hex)
    bots = bots_of(record)
    turns = list(
        play_bots(record.rules, record.state, bots, chance, rng_for(record), record.version, count)
    )
    entries, after = run_of_turns(record, turns, service.clock())
    assert service.append_batch(record, entries, after) and not after.finished


def in_ladder(service: GameService, game_ids: list[str]) -> list[bool]:
    return [seq is not None for seq in LadderStore(service.client).sequence_of(game_ids)]


def test_r2_a_duplicate_deal_publishes_nothing_until_all_its_games_are_over(deal):
    tid, spec, store, service, http = deal
    first, second = seeds.game_id(tid, 0), seeds.game_id(tid, 1)
    some_turns(service, use_cases.load_or_create(service, spec, tid, 0), 6)  # game 0 in play
    use_cases.play_game(service, store, tid, spec, 1)  # game 1 over: its mirror is not
    assert service.load(second)[0].finished
    settle_due(service)
    # nothing of either game shows anywhere
    assert streamed(service, tid) == []
    summary = http.get(f"/v1/tournaments/{tid}").json
    assert summary["progress"]["finished"] == 0 and summary["status"] == "running"
    assert [row["games"] for row in summary["standings"]] == [0, 0]
    document = http.get(f"/v1/tournaments/{tid}/standings.json").json
    assert document["outcomes"] == [] and document["win_totals"]["games"] == 0
    csv_text = http.get(f"/v1/tournaments/{tid}/standings.csv").get_data(as_text=True)
    assert [line.split(",")[1] for line in csv_text.splitlines()[1:]] == ["0", "0"]
    assert not listed_ids(http) & {first, second}
    assert not exported_ids(http, tid) & {first, second}
    assert in_ladder(service, [first, second]) == [False, False]
    assert http.get("/v1/ratings", query_string={"game": "keltis-card"}).json["ratings"] == []
    # the deal ends: both games come out together, in index order
    use_cases.play_game(service, store, tid, spec, 0)
    lines = streamed(service, tid)
    assert [(line["type"], line["index"]) for line in lines[:2]] == [
        ("game_finished", 0),
        ("game_finished", 1),
    ]
    assert lines[-1]["type"] == "tournament_finished"
    summary = http.get(f"/v1/tournaments/{tid}").json
    assert summary["status"] == "finished" and summary["progress"]["finished"] == 2
    assert [row["games"] for row in summary["standings"]] == [2, 2]
    listed = http.get("/v1/games", query_string={"status": "finished", "limit": 100}).json
    assert {first, second} <= {game["id"] for game in listed["games"]}
    assert {first, second} <= exported_ids(http, tid)
    settle_due(service)  # built-in bots alone: unrated, never in the ladder
    assert in_ladder(service, [first, second]) == [False, False]
    assert http.get("/v1/ratings", query_string={"game": "keltis-card"}).json["ratings"] == []


def test_a_game_of_a_sealed_deal_reindexed_stays_unlisted(deal):
    """`keltis reindex` (or any refresh of a game's index) keeps a sealed game unlisted."""
    tid, spec, store, service, http = deal
    use_cases.play_game(service, store, tid, spec, 0)
    assert service.rebuild_index() >= 1
    assert seeds.game_id(tid, 0) not in listed_ids(http)
    use_cases.play_game(service, store, tid, spec, 1)
    assert service.rebuild_index() >= 2
    assert {seeds.game_id(tid, 0), seeds.game_id(tid, 1)} <= listed_ids(http)


def test_the_sweep_does_not_revive_a_game_whose_deal_waits_for_its_mirror(
    private_redis, private_redis_server, monkeypatch
):
    """A game held back for its deal has its outcome recorded: its job is not lost."""
    monkeypatch.setenv("REDIS_URL", private_redis_server.url)  # jobs find Redis here
    spec = make_spec(
        "keltis-card", ["greedy", "random"], 2, None, "sweep", games_per_job=1, format="duplicate"
    )
    tid = seeds.new_tournament_id()
    store = TournamentStore(private_redis)
    store.create(tid, replace(spec, salt=new_salt()))
    private_redis.hset(keys.tournament_dispatch(tid), "dispatched", 1)  # job 0 handed out
    assert jobs.play_tournament_games(tid, 0)["recorded"] == [0]  # held: game 1 not played
    assert store.done(tid) == 0
    assert [first for t, first in sweep_tournaments(private_redis, 1.0) if t == tid] == []
    assert store.revivals(tid) == {}

"""GET /v1/games/export: finished games' replays as NDJSON, one a line with its cursor, a
last line ending the export; filters, resuming, and what stays hidden (R2, sealed deals)."""

from __future__ import annotations

import orjson
import pytest

from application.bots.turns import play_out
from application.games.service import GameService
from application.operations.export import ExportFilter, export_lines
from devtools.finished_games import finish_bot_game
from replays.verify import verify
from store.core.clock import now_ms
from store.core.cursor import Position
from store.tournaments.records import TournamentStore
from tests.store import toy_game
from tournaments.seeds import game_id as tournament_game_id
from tournaments.seeds import new_tournament_id
from tournaments.spec import make_spec


@pytest.fixture
def games(redis_client) -> GameService:
    return GameService(redis_client)


def export(client, **query) -> list[dict]:
    response = client.get("/v1/games/export", query_string=query)
    assert response.status_code == 200, response.data[:300]
    assert response.mimetype == "application/x-ndjson"
    return [orjson.loads(line) for line in response.data.splitlines()]


def exported_ids(lines: list[dict]) -> list[str]:
    return [line["replay"]["header"]["game_id"] for line in lines if "replay" in line]


def test_export_streams_every_finished_game_once_newest_first_and_each_verifies(client, games):
    since = now_ms()
    finished = [finish_bot_game(games).game_id for _ in range(5)]
    live, _, _ = games.create("keltis-dice", [{"name": "a"}, {"bot": "random"}], {})
    lines = export(client, since=since)
    assert lines[-1] == {"end": True, "exported": 5, "next_cursor": None}
    assert exported_ids(lines) == finished[::-1]
    assert live.game_id not in exported_ids(lines)
    for line in lines[:-1]:
        assert set(line) == {"cursor", "replay"}
        assert verify(line["replay"]).ok


def test_export_resumes_from_a_cursor_without_skipping_or_repeating(client, games):
    since = now_ms()
    finished = [finish_bot_game(games).game_id for _ in range(5)]
    first = export(client, since=since, limit=2)
    assert first[-1]["end"] and first[-1]["exported"] == 2
    assert first[-1]["next_cursor"] == first[-2]["cursor"]
    finish_bot_game(games)  # created after the export began: behind its walk
    cut = first[0]["cursor"]  # a client whose connection broke after one line
    rest = export(client, since=since, cursor=cut)
    assert exported_ids(first[:1] + rest) == finished[::-1]


def test_export_filters_by_game_time_and_account(client, games):
    since = now_ms()
    dice = finish_bot_game(games).game_id
    card = finish_bot_game(games, "keltis-card").game_id
    until = now_ms() + 1
    assert exported_ids(export(client, since=since, game="keltis-card")) == [card]
    assert exported_ids(export(client, since=since, until=until)) == [card, dice]
    assert exported_ids(export(client, since=until)) == []
    assert exported_ids(export(client, since=since, account="nobody-here")) == []


def test_export_of_a_tournament_lists_its_finished_games_last_first(client, games, redis_client):
    tid = new_tournament_id()
    TournamentStore(redis_client).create(
        tid, make_spec("keltis-dice", ["random", "greedy"], None, 3, None)
    )
    for index in (0, 1):
        finish_bot_game(
            games,
            game_id=tournament_game_id(tid, index),
            tournament={"id": tid, "index": index, "deal": index},
        )
    games.create(
        "keltis-dice",
        [{"bot": "random"}, {"bot": "greedy"}],
        {},
        game_id=tournament_game_id(tid, 2),
        tournament={"id": tid, "index": 2, "deal": 2},
    )  # live: not exported
    lines = export(client, tournament=tid)
    assert exported_ids(lines) == [tournament_game_id(tid, 1), tournament_game_id(tid, 0)]
    again = export(client, tournament=tid, cursor=lines[0]["cursor"])
    assert exported_ids(again) == [tournament_game_id(tid, 0)]
    TournamentStore(redis_client).cancel(tid)
    assert client.get("/v1/games/export?tournament=no-such-tournament").status_code == 404


def test_R2_export_skips_a_sealed_duplicate_deal_game(client, games):
    """A duplicate deal's finished game stays sealed while another game of its deal is not
    over: the export leaves it out, as GET .../replay refuses it."""
    since = now_ms()
    tid = new_tournament_id()
    sealed = finish_bot_game(
        games,
        game_id=tournament_game_id(tid, 0),
        tournament={"id": tid, "index": 0, "deal": 0, "deal_games": [0, 1]},
    ).game_id
    opened = finish_bot_game(games).game_id
    assert client.get(f"/v1/games/{sealed}/replay").status_code != 200
    lines = export(client, since=since)
    assert exported_ids(lines) == [opened]
    assert sealed.encode() not in orjson.dumps(lines)


@pytest.mark.parametrize(
    "query",
    ["status=active", "status=waiting", "cursor=bogus", "since=-1", "account=a", "bogus=1"],
)
def test_export_refuses_live_statuses_and_malformed_filters(client, query):
    response = client.get(f"/v1/games/export?{query}")
    assert response.status_code == 400
    assert response.json["error"]["code"]


def test_an_export_that_runs_out_of_time_ends_with_where_to_go_on(games):
    """A stream's lifetime (KELTIS_STREAM_MAX_S) bounds an export too: it ends early with a
    next_cursor, and going on from there gives the rest, none twice."""
    since = now_ms()
    finished = [finish_bot_game(games).game_id for _ in range(4)]
    ticks = iter(range(100))
    chosen = ExportFilter(since=since)
    first = list(export_lines(games, chosen, None, max_s=2, clock=lambda: next(ticks)))
    assert first[-1]["end"] and first[-1]["exported"] == 2 and first[-1]["next_cursor"]
    rest = list(export_lines(games, chosen, Position.decode(first[-1]["next_cursor"])))
    assert exported_ids(first + rest) == finished[::-1]
    assert rest[-1] == {"end": True, "exported": 2, "next_cursor": None}


def test_a_game_whose_replay_cannot_be_built_is_skipped_not_the_stream_broken(
    client, games, monkeypatch
):
    """A finished game of a game type this server no longer knows has no replay (its log
    names unknown rules): the export leaves it out and goes on."""
    since = now_ms()
    gone = toy_game.register(monkeypatch)
    record, _, _ = games.create(gone, [{"bot": "first"}, {"bot": "first"}], {})
    entries, after = play_out(record, now_ms())
    assert games.append_batch(record, entries, after) and after.finished
    monkeypatch.undo()  # the game type is gone
    kept = finish_bot_game(games).game_id
    lines = export(client, since=since)
    assert exported_ids(lines) == [kept]
    assert lines[-1] == {"end": True, "exported": 1, "next_cursor": None}

"""R1, R2: nothing published before an event ends predicts a roll or a card still to come.

Each event is stopped with one game over and the next one live: a single-game tournament of
each schedule (rotation, round robin, an open one of an account's games), a duplicate deal
(the same deal at a second table), a two-board match of a tournament (built-in bots, and an
open one) and a two-board match of a challenge; and a single game stopped half-way.
Everything a spectator can read then (the finished game's state, events and replay, the live
game, the tournament's pages and standings, the export, the listings) is searched for the
live game's seed, the tournament's secret, and any seed that yields the live one the way the
service derives seeds (a board's from another's, a game's from a tournament's material).
Once the event is over its seeds re-derive (R3)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import replace

import pytest

from application.games.service import GameService
from application.tournaments import match_tournaments as match_cases
from application.tournaments import matches
from application.tournaments import service as use_cases
from replays.verify import verify
from store import keys as store_keys
from store.tournaments.records import TournamentStore
from tests.api.helpers import bearer, create
from tests.api.test_accounts import sign_up
from tests.api.test_challenges import challenge
from tests.api.test_matches import play_out
from tests.tournaments.test_endings import Open
from tests.tournaments.test_two_boards_endings import Match
from tournaments import seeds
from tournaments.schedule import ROUND_ROBIN
from tournaments.spec import TWO_BOARDS, make_spec, new_salt

pytestmark = pytest.mark.redis

HEX64 = re.compile(r"[0-9a-f]{64}")
GAME_PATHS = ("", "?at=1", "/events", "/replay", "/replay.html", "/analysis")


def published(client, game_ids: list[str], tid: str | None = None) -> str:
    """Every answer a spectator gets about these games (and their tournament), as one text."""
    paths = [f"/v1/games/{game_id}{path}" for game_id in game_ids for path in GAME_PATHS]
    paths += ["/v1/games?limit=100", "/v1/games?status=finished&limit=100"]
    if tid is not None:
        paths += [
            f"/v1/tournaments/{tid}",
            f"/v1/tournaments/{tid}/standings.json",
            f"/v1/tournaments/{tid}/standings.csv",
            f"/v1/tournaments/{tid}/archive",
            f"/v1/games/export?tournament={tid}",
        ]
    return "\n".join(client.get(path).get_data(as_text=True) for path in paths)


def derivable(text: str) -> set[bytes]:
    """Every seed computable from a 64-hex value in `text` as the service derives seeds."""
    found = set()
    for value in set(HEX64.findall(text)):
        raw = bytes.fromhex(value)
        found.add(raw)
        for board in matches.BOARDS:
            found.add(hashlib.sha256(raw + b":" + board.encode()).digest())
            found.add(hashlib.sha256(f"{value}:{board}".encode()).digest())
        for game in range(4):
            found.add(hashlib.sha256(f"{value}:game:{game}".encode()).digest())
    return found


def assert_unpredictable(text: str, live_seed: str, secrets: tuple[str, ...] = ()) -> None:
    assert live_seed not in text, "the live game's seed is published"
    predicted = bytes.fromhex(live_seed) in derivable(text)
    assert not predicted, "a published seed derives the live game's"
    shown = [secret for secret in secrets if secret in text]
    assert not shown, "the event's secret is published"


def stored_tournament(redis_client, spec):
    spec = replace(spec, salt=new_salt())
    tid = seeds.new_tournament_id()
    store = TournamentStore(redis_client)
    store.create(tid, spec)
    return tid, spec, store, GameService(redis_client)


def test_a_single_game_tournament_publishes_nothing_of_its_next_game(client, redis_client):
    spec = make_spec("keltis-dice", ["greedy", "random"], 2, 2, "single-seeds")
    tid, spec, store, service = stored_tournament(redis_client, spec)
    use_cases.play_game(service, store, tid, spec, 0)
    live = use_cases.load_or_create(service, spec, tid, 1)
    text = published(client, [seeds.game_id(tid, 0), live.game_id], tid)
    assert_unpredictable(text, live.seed_hex, (spec.salt,))


def test_R2_a_single_game_half_played_publishes_nothing_of_its_rolls_to_come(client, redis_client):
    made = create(client, "keltis-dice", [{"name": "ann"}, {"bot": "greedy"}])
    game_id, token = made["id"], made["seats"][0]["token"]
    for _ in range(2):  # ann rolls, rerolls and moves: the game's rolls so far are public
        move = client.get(f"/v1/games/{game_id}/moves", headers=bearer(token)).json["moves"][0]
        moved = client.post(f"/v1/games/{game_id}/moves", json=move, headers=bearer(token))
        assert moved.status_code == 200, moved.json
    live = GameService(redis_client).load(game_id)[0]
    assert not live.finished and live.version > 2
    assert_unpredictable(published(client, [game_id]), live.seed_hex)


def test_R2_a_round_robin_tournament_publishes_nothing_of_its_next_game(client, redis_client):
    spec = make_spec(
        "keltis-dice", ["greedy", "random", "greedy"], 2, None, "rr-seeds", format=ROUND_ROBIN
    )
    tid, spec, store, service = stored_tournament(redis_client, spec)
    use_cases.play_game(service, store, tid, spec, 0)
    live = use_cases.load_or_create(service, spec, tid, 1)
    text = published(client, [seeds.game_id(tid, 0), live.game_id], tid)
    assert_unpredictable(text, live.seed_hex, (spec.salt,))


def test_R2_an_open_tournament_publishes_nothing_of_its_next_game(
    private_redis, private_redis_server
):
    """An account's games, turn by turn: its first game over, its second launched."""
    t = Open(private_redis, private_redis_server.url)
    assert t.advance().launched == [0]
    record = t.bots_move(0)
    while not record.finished:
        t.account_moves(record)
        record = t.bots_move(0)
    assert t.advance().launched == [1]
    live = t.load(1)
    assert not live.finished
    text = published(t.http, [t.game_id(0), live.game_id], t.tid)
    assert_unpredictable(text, live.seed_hex, (t.spec.salt,))


def test_R2_an_open_two_board_tournament_keeps_its_second_board_unpredictable(
    private_redis, private_redis_server
):
    t = Match(private_redis, private_redis_server.url)
    assert t.advance().launched == [0]
    t.play_out(t.gid(0))
    t.advance()  # the first board is over: the second starts
    live = t.load(t.gid(0, 1))
    assert t.load(t.gid(0)).finished and not live.finished
    text = published(t.http, [t.gid(0), live.game_id], t.tid)
    assert t.load(t.gid(0)).seed_hex in text  # the first board's replay is public
    assert_unpredictable(text, live.seed_hex, (t.spec.salt,))


def test_a_duplicate_deal_publishes_nothing_while_a_table_still_plays_it(client, redis_client):
    spec = make_spec("keltis-card", ["greedy", "random"], 2, None, "dup-seeds", format="duplicate")
    tid, spec, store, service = stored_tournament(redis_client, spec)
    use_cases.play_game(service, store, tid, spec, 0)  # one table is over
    live = use_cases.load_or_create(service, spec, tid, 1)  # the other still plays the deal
    text = published(client, [seeds.game_id(tid, 0), live.game_id], tid)
    assert_unpredictable(text, live.seed_hex, (spec.salt,))


def test_a_two_board_tournament_match_keeps_its_second_board_unpredictable(client, redis_client):
    spec = make_spec("keltis-dice", ["greedy", "random"], 2, 1, "two-board-seeds", match=TWO_BOARDS)
    tid, spec, store, service = stored_tournament(redis_client, spec)
    first = use_cases.finish(service, match_cases.board_game(service, spec, tid, 0, 0))
    live = match_cases.board_game(service, spec, tid, 0, 1)
    assert first.finished and not live.finished
    text = published(client, [first.game_id, live.game_id], tid)
    assert first.seed_hex in text  # the first board's replay is public: it must not matter
    assert_unpredictable(text, live.seed_hex, (spec.salt,))
    match_cases.play_match(service, store, tid, spec, 0)
    summary = client.get(f"/v1/tournaments/{tid}").json
    assert summary["status"] == "finished"
    for board, game_id in enumerate([first.game_id, live.game_id]):  # R3: both re-derive
        replay = client.get(f"/v1/games/{game_id}/replay").json
        assert verify(replay).ok
        derived = seeds.board_seed(summary["seed"], 0, matches.BOARDS[board], summary["salt"])
        assert replay["seed"] == derived.hex()


def test_a_two_board_challenge_match_keeps_its_second_board_unpredictable(client, redis_client):
    service = GameService(redis_client)
    ann, bea = sign_up(client, bot=True), sign_up(client, bot=True)
    keys = {ann["name"]: ann["key"], bea["name"]: bea["key"]}
    made = challenge(
        client, ann["key"], [{"account": bea["name"]}], game="keltis-dice", match="two_boards"
    )
    accepted = client.post(f"/v1/challenges/{made['id']}/accept", headers=bearer(bea["key"])).json
    match_id = accepted["match_id"]
    play_out(client, accepted["game_id"], keys)
    assert matches.advance(service, match_id)
    live = service.load(matches.second_game_id(accepted["game_id"]))[0]
    assert not live.finished
    shown = client.get(f"/v1/matches/{match_id}").json
    assert shown["seed"] is None and shown["seed_sha256"]
    text = published(client, [accepted["game_id"], live.game_id])
    text += client.get(f"/v1/matches/{match_id}").get_data(as_text=True)
    secret = redis_client.hget(store_keys.match(match_id), "secret").decode()
    assert_unpredictable(text, live.seed_hex, (secret,))
    play_out(client, live.game_id, keys)
    assert matches.advance(service, match_id)
    shown = client.get(f"/v1/matches/{match_id}").json
    assert shown["status"] == "finished" and shown["seed"]  # R3: both seeds re-derive
    assert hashlib.sha256(shown["seed"].encode()).hexdigest() == shown["seed_sha256"]
    for board, game_id in zip(matches.BOARDS, [accepted["game_id"], live.game_id], strict=True):
        replay = client.get(f"/v1/games/{game_id}/replay").json
        assert verify(replay).ok
        assert replay["seed"] == matches.board_seed(shown["seed"], board).hex()

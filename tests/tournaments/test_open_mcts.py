"""Open tournaments of the search bot (issues 14 and 24) on the real stack (gunicorn, real
`keltis worker` processes, tests/tournaments/open_stack.py): played turn by turn, so that a
worker busy with a tournament of searches still answers a person's game at once.

A file of their own: the search games keep a worker busy for minutes on a loaded machine,
and under `--dist loadfile` a file's tests share one process."""

from __future__ import annotations

import time

import pytest

from replays.verify import verify
from tests.tournaments.open_stack import archived, bearer, follow, summed
from tests.workers.processes import wait_for

pytestmark = [pytest.mark.redis, pytest.mark.slow]


def test_a_tournament_of_mcts_is_played_turn_by_turn_and_holds_no_worker_for_a_game(
    web, http, workers
):
    """With one worker playing a tournament of the search bot, a person's
    game against greedy still gets each bot reply within about one search's budget.

    The worker has no interactive lane (workers.lanes), which would answer the person's
    game beside a held worker and prove nothing here: its one thread takes the person's bot
    turns between the tournament's jobs, so they wait for one search move at most, not for a
    whole game."""
    base = web.base_url
    workers("--interactive-lanes", "0")
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
        game = http.get(f"{base}/v1/games/{game_id}", headers=bearer(token)).json()
        while game["to_move"] == 0:
            moves = http.get(f"{base}/v1/games/{game_id}/moves", headers=bearer(token)).json()
            move = http.post(
                f"{base}/v1/games/{game_id}/moves", json=moves["moves"][0], headers=bearer(token)
            ).json()
            game = {"to_move": move["to_move"], "version": move["version"]}
        begun = time.monotonic()
        while game["to_move"] != 0:
            http.get(
                f"{base}/v1/games/{game_id}/events?after={game['version']}&wait=10",
                headers=bearer(token),
            )
            game = http.get(f"{base}/v1/games/{game_id}", headers=bearer(token)).json()
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


def test_a_two_boards_tournament_of_mcts_is_played_turn_by_turn(web, http, workers):
    """A searching bot's two_boards tournament is played turn by turn;
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
        assert outcome["scores"] == summed(http, base, outcome["game_id"])
        for gid in outcome["game_ids"]:
            created_event = http.get(f"{base}/v1/games/{gid}/events").json()["events"][0]
            assert created_event["event"]["tournament"]["open"] is True  # turn by turn
            assert verify(http.get(f"{base}/v1/games/{gid}/replay").json()).ok
    names = archived(http, base, tid)
    assert names == sorted(f"{g}{b}.replay.json" for g in finished["game_ids"] for b in ("", "-b2"))

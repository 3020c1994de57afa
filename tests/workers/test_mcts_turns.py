"""The search bot on workers: one searched move per job, and a served game against `mcts`
played to its end by a real worker process."""

from __future__ import annotations

import random

from application.operations import jobs as bot_jobs
from tests.api.helpers import play_against_bots

DICE = "keltis-dice"


def test_a_bot_job_plays_one_searched_move_and_leaves_the_next_due(
    quiet_service, monkeypatch, redis_url
):
    """A job holds its worker for one move budget at most: other games' bot turns queue in
    between a searching bot's moves."""
    monkeypatch.setenv("REDIS_URL", redis_url)
    players = [{"name": "b1", "bot": "mcts:i3"}, {"name": "b2", "bot": "mcts:i3"}, {"name": "h"}]
    record, _, _ = quiet_service.create("keltis-card", players, {})
    assert bot_jobs.play_bot_turns(record.game_id, record.version) == 1
    after, _, _ = quiet_service.load(record.game_id)
    assert after.version > record.version and after.to_move in (0, 1)
    assert bot_jobs.play_bot_turns(after.game_id, after.version) == 1


def test_a_served_game_against_mcts_finishes_through_a_real_worker(client, worker_process):
    players = [{"name": "ann"}, {"name": "deep", "bot": "mcts:20"}]
    created = client.post("/v1/games", json={"game": DICE, "players": players}).json
    game, _ = play_against_bots(client, created, random.Random(5).choice, timeout_s=90)
    assert game["status"] == "finished"
    events = client.get(f"/v1/games/{created['id']}/events").json["events"]
    assert {e["by"] for e in events if "cmd" in e} == {0, 1}

"""A cancelled tournament's replay archive: its unplayed games never come, so once no game
job is at work (no fresh lease) the archive of the games it did play is built (it answered
409 "still has unfinished games" with 0 running, forever). A job still at work holds it back
(R3: the archive holds every game that finished)."""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import replace

import pytest

from application.games.service import GameService
from application.tournaments import service as use_cases
from replays.verify import verify
from store.core.clock import now_ms
from store.tournaments.records import TournamentStore
from tournaments import seeds
from tournaments.spec import make_spec, new_salt

pytestmark = pytest.mark.redis


def test_a_cancelled_tournament_archives_the_games_it_played(
    client, redis_client, run_queued_jobs, drained_tournament_queue
):
    spec = replace(make_spec("keltis-card", ["greedy", "random"], 2, 4, "cut"), salt=new_salt())
    tid = seeds.new_tournament_id()
    store = TournamentStore(redis_client)
    store.create(tid, spec)
    use_cases.play_game(GameService(redis_client), store, tid, spec, 0)
    assert store.cancel(tid)
    assert client.get(f"/v1/tournaments/{tid}").json["progress"]["running"] == 0
    store.take_lease(tid, 0)  # a job at work: its game may still finish
    held = client.post(f"/v1/tournaments/{tid}/archive")
    assert held.status_code == 409 and held.json["error"]["code"] == "tournament_running"
    store.take_lease(tid, 0, now_ms() - use_cases.LEASE_FRESH_MS - 1)  # a dead worker's
    accepted = client.post(f"/v1/tournaments/{tid}/archive")
    assert accepted.status_code == 202, accepted.json
    run_queued_jobs()
    archive = client.get(f"/v1/tournaments/{tid}/archive")
    assert archive.status_code == 200
    zipped = zipfile.ZipFile(io.BytesIO(archive.data))
    assert zipped.namelist() == [f"{seeds.game_id(tid, 0)}.replay.json"]
    assert verify(json.loads(zipped.read(zipped.namelist()[0]))).ok

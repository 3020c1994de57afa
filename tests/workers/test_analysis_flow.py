"""Game analysis over HTTP through a real worker: requested for a
finished game only, run once in the bulk bot lane and cached, charged to the bot-work
budget, shown in the API and carried by the replay download and the export."""

from __future__ import annotations

import json
import secrets

import pytest

from api import create_app
from application.bots import analysis
from application.operations import jobs as bot_jobs
from replays.verify import verify
from store import keys
from tests.api.contract import ContractClient
from tests.workers.processes import start_worker, stop, wait_for

pytestmark = pytest.mark.redis
DICE = "keltis-dice"


@pytest.fixture
def finished_game(quiet_service, monkeypatch, redis_url) -> str:
    """A finished 2-player dice game of two built-in bots (played in this process)."""
    monkeypatch.setenv("REDIS_URL", redis_url)
    players = [{"name": "g", "bot": "greedy"}, {"name": "r", "bot": "random"}]
    record, _, _ = quiet_service.create(DICE, players, {"board": "basic"})
    bot_jobs.play_bot_turns(record.game_id, record.version)
    assert quiet_service.load(record.game_id)[0].finished
    return record.game_id


@pytest.fixture
def analysis_worker(redis_url, empty_queues):
    """A real worker that analyses with one determinization per decision (quick)."""
    process = start_worker(redis_url, **{analysis.ITERATIONS_ENV: "1"})
    yield process
    stop(process)


@pytest.mark.slow
def test_an_analysis_runs_once_on_a_worker_and_is_cached(
    client, finished_game, analysis_worker, quiet_service
):
    game_id = finished_game
    untouched = client.get(f"/v1/games/{game_id}/analysis")
    assert untouched.status_code == 200
    assert untouched.json == {"game_id": game_id, "status": "none", "job_id": None}
    first = client.post(f"/v1/games/{game_id}/analysis")
    assert first.status_code in (200, 202), first.json
    again = client.post(f"/v1/games/{game_id}/analysis")
    assert again.json["job_id"] == first.json["job_id"]

    def done():
        got = client.get(f"/v1/games/{game_id}/analysis")
        return got if got.status_code == 200 else None

    got = wait_for(done, 120, "the analysis to be done")
    record = got.json
    assert record["status"] == "done" and record["job_id"] == first.json["job_id"]
    result = record["result"]
    assert result["iterations"] == 1 and len(result["seats"]) == 2 and result["decisions"]
    # deterministic: the same analysis as one made here from the replay
    here = analysis.analyse_replay(quiet_service.replay(game_id), 1)
    assert {**here, "cpu_seconds": 0} == {**result, "cpu_seconds": 0}
    # cached: a later request gets the same result, no new job
    later = client.post(f"/v1/games/{game_id}/analysis")
    assert later.status_code == 200 and later.json == record

    replay = json.loads(client.get(f"/v1/games/{game_id}/replay").data)
    assert replay["analysis"] == result
    assert verify(replay).ok  # the analysis lies outside the hash chain
    page = client.get(f"/v1/games/{game_id}/replay.html").get_data(as_text=True)
    assert '__modules["analysis.js"]' in page and '"average_loss"' in page
    lines = client.get(f"/v1/games/export?game={DICE}&limit=50").get_data(as_text=True)
    exported = [json.loads(x) for x in lines.splitlines() if x.strip()]
    mine = [x for x in exported if x.get("replay", {}).get("header", {}).get("game_id") == game_id]
    assert mine and mine[0]["replay"]["analysis"] == result


def test_R2_a_game_still_being_played_is_not_analysed(client, redis_client):
    created = client.post(
        "/v1/games", json={"game": DICE, "players": [{"name": "ann"}, {"name": "bob"}]}
    ).json
    refused = client.post(f"/v1/games/{created['id']}/analysis")
    assert refused.status_code == 409
    assert refused.json["error"]["code"] == "game_not_finished"
    assert client.get(f"/v1/games/{created['id']}/analysis").json["status"] == "none"


def test_an_unknown_game_has_no_analysis(client):
    assert client.post("/v1/games/no-such-game-0123456789/analysis").status_code == 404
    unknown = client.get("/v1/games/no-such-game-0123456789/analysis")
    assert unknown.status_code == 404 and unknown.json["error"]["code"] == "game_not_found"


def test_an_analysis_over_the_bot_work_budget_is_refused_and_leaves_nothing(
    redis_url, finished_game, empty_queues
):
    app = create_app(
        {
            "REDIS_URL": redis_url,
            "TESTING": True,
            "BUDGET_ENABLED": True,
            "BUDGET_ANON": "1 per hour",  # a game's analysis needs more than a second
        }
    )
    app.test_client_class = ContractClient
    client = app.test_client()
    refused = client.post(
        f"/v1/games/{finished_game}/analysis", environ_base={"REMOTE_ADDR": "10.9.8.7"}
    )
    assert refused.status_code == 429
    assert refused.json["error"]["code"] == "cpu_budget_exceeded"
    assert client.get(f"/v1/games/{finished_game}/analysis").json["status"] == "none"
    assert all(queue.count == 0 for queue in bot_jobs.queues(empty_queues))


def test_an_analysis_is_charged_to_the_requesting_accounts_budget(
    redis_url, finished_game, empty_queues
):
    """With an account key the account's budget pays (here too small), not the address's."""
    app = create_app(
        {
            "REDIS_URL": redis_url,
            "TESTING": True,
            "BUDGET_ENABLED": True,
            "BUDGET_ANON": "3600 per hour",
            "BUDGET_ACCOUNT": "1 per hour",
        }
    )
    app.test_client_class = ContractClient
    client = app.test_client()
    made = client.post("/v1/accounts", json={"name": f"analyst_{secrets.token_hex(4)}"})
    assert made.status_code == 201, made.json
    key = {"Authorization": f"Bearer {made.json['key']}"}
    refused = client.post(f"/v1/games/{finished_game}/analysis", headers=key)
    assert refused.status_code == 429
    assert refused.json["error"]["budget_seconds"] == 1
    taken = client.post(
        f"/v1/games/{finished_game}/analysis", environ_base={"REMOTE_ADDR": "10.9.8.6"}
    )
    assert taken.status_code == 202 and taken.json["status"] == "queued"
    assert bot_jobs.bot_queue(empty_queues, False).count == 1


def test_an_analysis_whose_job_was_lost_is_claimed_again(redis_client, empty_queues):
    """A worker that died with the job leaves the record pending: after LOST_AFTER_S with
    no job, the next request runs it again (and not before)."""
    game_id = "lost-analysis-0123456789"
    redis_client.delete(keys.game_analysis(game_id))
    assert analysis.claim(redis_client, game_id)
    assert not analysis.claim(redis_client, game_id)
    since = analysis.pending_since(redis_client, game_id)
    gone = bot_jobs.job_gone(empty_queues, analysis.load(redis_client, game_id)["job_id"])
    assert gone  # never enqueued here
    assert not analysis.give_up_lost(redis_client, game_id, gone, since + 1)
    assert not analysis.give_up_lost(redis_client, game_id, False, since + 3600)
    assert analysis.give_up_lost(redis_client, game_id, gone, since + analysis.LOST_AFTER_S)
    assert analysis.load(redis_client, game_id)["status"] == "failed"
    assert analysis.claim(redis_client, game_id)
    redis_client.delete(keys.game_analysis(game_id))

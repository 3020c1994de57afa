"""A tournament on a Redis Cluster store, with RQ on its own standalone Redis."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from rq import SimpleWorker
from rq.serializers import JSONSerializer

from api import create_app
from application.operations.jobs import tournament_queue
from devtools.redis_servers import RedisServer
from devtools.tallies import recompute_from_logs
from replays.verify import verify
from store.keys import tournament_spec as spec_key
from tests.api.contract import ContractClient

pytestmark = [pytest.mark.redis, pytest.mark.slow]


@pytest.fixture
def split_stack(redis_cluster, monkeypatch):
    """(client, cluster store client, queue client, run queued jobs) with REDIS_URL naming
    the cluster and RQ_REDIS_URL a standalone server."""
    store_url = redis_cluster.url.replace("redis://", "redis+cluster://")
    with RedisServer() as queue_server:
        monkeypatch.setenv("REDIS_URL", store_url)
        monkeypatch.setenv("RQ_REDIS_URL", queue_server.url)
        app = create_app({"REDIS_URL": store_url, "RQ_REDIS_URL": queue_server.url})
        app.test_client_class = ContractClient
        queue_client = queue_server.client()
        store = redis_cluster.client()

        def run_jobs() -> None:
            worker = SimpleWorker(
                [tournament_queue(queue_client)], connection=queue_client, serializer=JSONSerializer
            )
            worker.work(burst=True, logging_level="ERROR", with_scheduler=False)

        yield app.test_client(), store, queue_client, run_jobs
        store.close()
        queue_client.close()


def test_records_and_games_live_in_the_cluster_and_jobs_in_the_queue_redis(split_stack):
    client, store, queue_client, run_jobs = split_stack
    body = {"game": "keltis-card", "bots": ["greedy", "random"], "games": 6, "seed": "cl"}
    tid = client.post("/v1/tournaments", json=body).json["id"]
    assert store.exists(spec_key(tid)) and not queue_client.exists(spec_key(tid))
    assert tournament_queue(queue_client).count == 1  # one job waits; each hands on the next
    run_jobs()
    state = client.get(f"/v1/tournaments/{tid}").json
    assert state["status"] == "finished"
    totals = recompute_from_logs(store, state["game_ids"], ["greedy", "random"])
    assert [row["wins"] for row in state["standings"]] == [
        totals["greedy"]["wins"],
        totals["random"]["wins"],
    ]
    assert client.post(f"/v1/tournaments/{tid}/archive").status_code == 202
    run_jobs()
    archive = client.get(f"/v1/tournaments/{tid}/archive")
    assert archive.status_code == 200
    with zipfile.ZipFile(io.BytesIO(archive.data)) as bundle:
        first = bundle.read(f"{state['game_ids'][0]}.replay.json")
    assert verify(json.loads(first)).ok

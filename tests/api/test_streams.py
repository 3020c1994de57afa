"""Live streams over the real Redis: GET /v1/me/events, GET
/v1/games/{id}/stream and the long-poll, woken by notifications; every answer is held
against openapi.yaml (a stream is read to its end: the tests bound its lifetime)."""

from __future__ import annotations

import json
import threading
import time

import pytest
import redis

from store import keys
from tests.api.helpers import accounts_game, assert_nothing_hidden, bearer, create
from tests.api.live_stream import LiveStream, typed
from tests.api.test_accounts import sign_up
from tests.workers.processes import wait_for

KEEPALIVE_S = 0.3


@pytest.fixture
def app(app):
    app.config.update(STREAM_KEEPALIVE_S=KEEPALIVE_S, STREAM_MAX_S=3.0, STREAMS_PER_ACCOUNT=2)
    return app


def lines_of(response) -> list[dict | None]:
    """The NDJSON lines of a finished stream (None for a blank keep-alive line)."""
    assert response.status_code == 200, response.data
    assert response.mimetype == "application/x-ndjson"
    return [json.loads(line) if line else None for line in response.data.decode().split("\n")[:-1]]


def in_background(call):
    """Run `call` in a thread; the returned function joins it and gives its result."""
    box = {}
    thread = threading.Thread(target=lambda: box.setdefault("result", call()))
    thread.start()

    def result():
        thread.join(timeout=30)
        return box["result"]

    return result


def account_game(client) -> tuple[dict, dict, dict]:
    """Two bot accounts seated in a keltis-card game: (created game, account of seat 0,
    account of seat 1)."""
    first, second = sign_up(client, bot=True), sign_up(client, bot=True)
    return accounts_game(client, "keltis-card", first, second), first, second


def move(client, game_id: str, key: str) -> dict:
    legal = client.get(f"/v1/games/{game_id}/moves", headers=bearer(key)).json["moves"]
    posted = client.post(f"/v1/games/{game_id}/moves", json=legal[0], headers=bearer(key))
    assert posted.status_code == 200, posted.json
    return posted.json


def test_a_reconnecting_stream_opens_with_the_turn_waiting_on_it(client):
    created, *accounts = account_game(client)
    mover = accounts[created["to_move"]]
    lines = lines_of(client.get("/v1/me/events", headers=bearer(mover["key"])))
    assert lines[0] == {
        "type": "your_turn",
        "game": created["id"],
        "version": created["version"],
        "deadline": None,
    }
    assert all(line is None for line in lines[1:])


def test_your_turn_arrives_after_the_opponents_move(app, client):
    created, *accounts = account_game(client)
    mover, waiter = accounts[created["to_move"]], accounts[1 - created["to_move"]]
    with live(app, waiter["key"]) as stream:
        version = created["version"]
        for _ in range(10):  # a turn of keltis-card may take several moves of one seat
            answer = move(client, created["id"], mover["key"])
            version = answer["version"]
            if answer["to_move"] != created["to_move"]:
                break
        turns = stream.until(lambda lines: typed(lines, "your_turn"))
    assert turns == [
        {"type": "your_turn", "game": created["id"], "version": version, "deadline": None}
    ]


def test_idle_streams_send_keep_alive_lines(client):
    account = sign_up(client, bot=True)
    started = time.monotonic()
    lines = lines_of(client.get("/v1/me/events", headers=bearer(account["key"])))
    assert time.monotonic() - started >= 2.5
    assert len(lines) >= 5 and all(line is None for line in lines)


def test_an_idle_game_stream_ends_at_its_max_time_not_at_its_next_keep_alive(app, client):
    """A game stream without a key (it follows the game's shared feed) ends once its max
    time is up, though no keep-alive or move wakes it before then."""
    app.config.update(STREAM_KEEPALIVE_S=60.0, STREAM_MAX_S=0.5)
    created = create(client, "keltis-card", [{"name": "ann"}, {"name": "bea"}])
    started = time.monotonic()
    lines = lines_of(client.get(f"/v1/games/{created['id']}/stream?after={created['version']}"))
    assert lines == [None]  # the opening keep-alive, then the end
    assert time.monotonic() - started < 30.0  # not the 60 s keep-alive; a loaded machine


def test_streams_need_an_account_key_and_are_bounded_per_account(app, client):
    assert client.get("/v1/me/events").status_code == 401
    account = sign_up(client, bot=True)
    # Two streams held open (each has sent its first line) until the test closes them.
    held = [LiveStream(app, "/v1/me/events", bearer(account["key"])) for _ in range(2)]
    refused = client.get("/v1/me/events", headers=bearer(account["key"]))
    assert refused.status_code == 429 and refused.json["error"]["code"] == "too_many_streams"
    for stream in held:
        stream.close()  # what a server does when the stream ends: it stops counting
    assert client.get("/v1/me/events", headers=bearer(account["key"])).status_code == 200


def live(app, key: str) -> LiveStream:
    """The account's event stream, opened (its catch-up done) and read as it comes; closed by
    the test once the lines it waits for have come, so it may stay open long."""
    app.config.update(STREAM_MAX_S=120.0)
    return LiveStream(app, "/v1/me/events", bearer(key))


def _human_game(client) -> tuple[str, dict[int, str]]:
    created = create(client, "keltis-card", [{"name": "ann"}, {"name": "bea"}])
    return created["id"], {s["seat"]: s["token"] for s in created["seats"]}


# Seeds of the game below: 153 deals two `brown-7` on top of the draw pile, so seat 0 draws
# one (hidden) and seat 1 draws its twin (the old test, on random seeds,
# took seat 1's own `{"card": "brown-7"}` for seat 0's; ~0.75 % of games, no leak).
R2_SEEDS = [153, 7]


def _seeded_human_game(app, seed: int) -> tuple[str, dict[int, str]]:
    """A two-person keltis-card game dealt from a fixed seed (the API draws its own)."""
    record, tokens, _ = app.extensions["keltis"].create(
        "keltis-card", [{"name": "ann"}, {"name": "bea"}], {}, seed=seed.to_bytes(32, "big")
    )
    return record.game_id, tokens


def _without_own_hidden(line: dict, owner: int | None) -> dict:
    """A stream line with the `hidden` part of `owner`'s own events taken out."""
    event = line["event"]
    if owner is not None and event.get("owner") == owner and "hidden" in event:
        event = {k: v for k, v in event.items() if k != "hidden"}
    return {**line, "event": event}


@pytest.mark.parametrize("seed", R2_SEEDS)
@pytest.mark.parametrize("viewer", [None, 1])
def test_r2_a_game_stream_redacts_hidden_cards_like_the_events(app, client, viewer, seed):
    """R2: a spectator's and the other seat's stream show no hand of another seat: apart
    from the viewer's own hidden fields, its stream is seat 0's stream with seat 0's hidden
    fields taken out, line by line, and no text of seat 0's hidden fields appears in it."""
    game_id, tokens = _seeded_human_game(app, seed)
    for _ in range(6):
        state = client.get(f"/v1/games/{game_id}").json
        move(client, game_id, tokens[state["to_move"]])
    headers = bearer(tokens[viewer]) if viewer is not None else {}
    streamed = [
        line
        for line in lines_of(client.get(f"/v1/games/{game_id}/stream?after=0", headers=headers))
        if line is not None
    ]
    polled = client.get(f"/v1/games/{game_id}/events?after=0", headers=headers).json["events"]
    assert streamed == polled
    own = [
        line
        for line in lines_of(
            client.get(f"/v1/games/{game_id}/stream?after=0", headers=bearer(tokens[0]))
        )
        if line is not None
    ]
    assert [_without_own_hidden(line, 0) for line in own] == [
        _without_own_hidden(line, viewer) for line in streamed
    ]
    for line in streamed:
        assert "hidden" not in line["event"] or line["event"].get("owner") == viewer
    # Seat 0's hidden texts, minus those a public event shows too (a card taken from a
    # pile), must not appear in what the viewer sees of anything but its own hidden cards
    # (a twin card drawn by the viewer is its own, under the same name).
    private = {json.dumps(line["event"]["hidden"]) for line in own if "hidden" in line["event"]}
    public = json.dumps([line for line in streamed if "hidden" not in line["event"]])
    secrets = [text for text in private if text not in public]
    for line in streamed:
        assert_nothing_hidden(_without_own_hidden(line, viewer), viewer, secrets)


def test_r2_the_seeded_game_draws_twin_cards_into_both_hands(app, client):
    """The first seed of R2_SEEDS keeps the case that made the old test flaky: seat 0 and
    seat 1 each draw a `brown-7` (two cards of one name, C1/C4) in their first turns."""
    game_id, tokens = _seeded_human_game(app, R2_SEEDS[0])
    for _ in range(6):
        state = client.get(f"/v1/games/{game_id}").json
        move(client, game_id, tokens[state["to_move"]])
    drawn = {
        seat: [
            line["event"]["hidden"]["card"]
            for line in lines_of(
                client.get(f"/v1/games/{game_id}/stream?after=0", headers=bearer(tokens[seat]))
            )
            if line
            and line["event"].get("owner") == seat
            and "card" in line["event"].get("hidden", {})
        ]
        for seat in (0, 1)
    }
    assert "brown-7" in drawn[0] and "brown-7" in drawn[1]


def test_a_game_stream_wakes_on_a_move_and_ends_with_the_finished_game(app, client):
    game_id, tokens = _human_game(client)
    version = client.get(f"/v1/games/{game_id}").json["version"]
    app.config.update(STREAM_MAX_S=120.0)  # closed once the lines came
    with LiveStream(app, f"/v1/games/{game_id}/stream?after={version}") as stream:
        state = client.get(f"/v1/games/{game_id}").json
        answer = move(client, game_id, tokens[state["to_move"]])

        def caught_up(lines: list) -> list[dict] | None:
            events = [line for line in lines if line is not None]
            return events if events and events[-1]["version"] >= answer["version"] else None

        events = stream.until(caught_up)
    assert [line["version"] for line in events] == list(range(version + 1, answer["version"] + 1))


def test_a_lost_notification_still_delivers_through_the_safety_recheck(app, client, monkeypatch):
    from store.core import notify

    created, *accounts = account_game(client)
    mover, waiter = accounts[created["to_move"]], accounts[1 - created["to_move"]]
    monkeypatch.setattr(notify, "channels_of", lambda *args, **kwargs: [])  # nothing is told
    with live(app, waiter["key"]) as stream:
        for _ in range(10):
            answer = move(client, created["id"], mover["key"])
            if answer["to_move"] != created["to_move"]:
                break
        turns = stream.until(lambda lines: typed(lines, "your_turn"))
    assert [t["version"] for t in turns] == [answer["version"]]


def test_a_long_poll_wakes_on_the_notification_not_a_poll(app, client):
    game_id, tokens = _human_game(client)
    app.extensions["keltis"].watcher.safety_s = 60.0  # only a notification can wake it now
    app.config["MAX_EVENTS_WAIT_S"] = 30.0  # held past a loaded machine's subscription
    version = client.get(f"/v1/games/{game_id}").json["version"]
    started = time.monotonic()
    polled = in_background(
        lambda: app.test_client().get(f"/v1/games/{game_id}/events?after={version}&wait=20")
    )
    # The move once the long poll listens (Redis confirmed its subscription), not a guess.
    confirmed = app.extensions["keltis"].notices._confirmed
    channel = keys.game_channel(game_id)
    wait_for(lambda: channel in confirmed and confirmed[channel].is_set(), 30, "its listening")
    state = client.get(f"/v1/games/{game_id}").json
    move(client, game_id, tokens[state["to_move"]])
    answer = polled()
    assert answer.status_code == 200 and answer.json["events"][0]["version"] == version + 1
    # Woken by the move, not by a re-check (in 60 s) nor the end of the 20 s wait; a loaded
    # machine is given room.
    assert time.monotonic() - started < 15.0


def test_an_idle_stream_sends_redis_no_command_between_keep_alives(app, client, redis_url):
    """Between its keep-alives (each one a safety re-check of the log) an idle stream only
    waits on the pub/sub socket: Redis's MONITOR sees no command in a quiet window."""
    _, first, _ = account_game(client)
    # No keep-alive before the stream's end, 6 s after it opened: the quiet window below
    # starts once it has opened (its catch-up reads done) and ends long before that.
    app.config.update(STREAM_KEEPALIVE_S=60.0, STREAM_MAX_S=6.0)
    opened = threading.Event()

    def read() -> None:
        stream = LiveStream(app, "/v1/me/events", bearer(first["key"]))
        opened.set()
        stream.rest()  # waits on the pub/sub socket for a notification

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert opened.wait(30), "the stream did not open"
    seen: list[str] = []
    monitor_client = redis.Redis.from_url(redis_url)

    def record(monitor) -> None:
        try:
            for command in monitor.listen():
                seen.append(command["command"])
        except Exception:  # the monitor connection closed at the end of the window
            return

    with monitor_client.monitor() as monitor:
        threading.Thread(target=record, args=(monitor,), daemon=True).start()
        time.sleep(1.2)  # a window of the stream's wait, well before its end
        quiet = list(seen)
    reader.join(30)
    monitor_client.close()
    assert quiet == []

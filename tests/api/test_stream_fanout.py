"""A game's streams in one process follow one feed (application.live.feeds): one
subscription and one read of the log per move for all of them, each page encoded once per
viewer; a stream that does not read delays nobody, and a closed stream leaves the feed.

The test client runs a stream's code only when the test reads it, so which stream reads
what, and when, is the test's choice."""

from __future__ import annotations

import pytest

from api.live import endpoints
from application.live import feeds as feed_module
from application.live.feeds import feeds_of
from store import keys
from tests.api.helpers import bearer, create
from tests.api.live_stream import LiveStream
from tests.api.test_streams import move
from tests.workers.processes import wait_for


@pytest.fixture
def app(app):
    app.config.update(STREAM_KEEPALIVE_S=5.0, STREAM_MAX_S=120.0)
    return app


def _game(client) -> tuple[str, dict[int, str], int]:
    created = create(client, "keltis-card", [{"name": "ann"}, {"name": "bea"}])
    return created["id"], {s["seat"]: s["token"] for s in created["seats"]}, created["version"]


def _events(stream: LiveStream, version: int) -> list[dict]:
    """The stream's event lines, read on until the one of `version` has come."""

    def reached(lines):
        events = [line for line in lines if line is not None]
        return events if events and events[-1]["version"] >= version else None

    return stream.until(reached)


def _play(client, game_id: str, tokens: dict[int, str]) -> int:
    state = client.get(f"/v1/games/{game_id}").json
    return move(client, game_id, tokens[state["to_move"]])["version"]


def test_the_streams_of_a_game_share_one_subscription_and_one_encoding(app, client, monkeypatch):
    service = app.extensions["keltis"]
    game_id, tokens, version = _game(client)
    url = f"/v1/games/{game_id}/stream?after={version}"
    encoded = []
    real_encode = endpoints.encode
    monkeypatch.setattr(endpoints, "encode", lambda lines: encoded.append(1) or real_encode(lines))
    spectators = [LiveStream(app, url) for _ in range(3)]
    seat = LiveStream(app, url, bearer(tokens[0]))
    try:
        channel = keys.game_channel(game_id)
        assert feeds_of(service).open() == 1
        assert len(service.notices.listeners[channel]) == 1  # the feed's, for all four
        moved = _play(client, game_id, tokens)
        seen = [_events(stream, moved) for stream in spectators]
        assert seen[0] == seen[1] == seen[2]
        assert len(encoded) == 1  # one encoding for the three spectators
        mine = _events(seat, moved)
        assert [line["version"] for line in mine] == [line["version"] for line in seen[0]]
        assert len(encoded) == 2  # and one for the seat, which may see its own cards (R2)
    finally:
        for stream in [*spectators, seat]:
            stream.close()


def test_a_stream_that_does_not_read_delays_no_other(app, client, monkeypatch):
    """One stream is left unread while moves go to the other, past the pages the feed
    keeps; when it reads at last it gets every line in order (from the log)."""
    monkeypatch.setattr(feed_module, "RECENT", 1)
    game_id, tokens, version = _game(client)
    url = f"/v1/games/{game_id}/stream?after={version}"
    with LiveStream(app, url) as slow, LiveStream(app, url) as quick:
        versions = []
        for _ in range(3):
            versions.append(_play(client, game_id, tokens))
            assert _events(quick, versions[-1])[-1]["version"] == versions[-1]
        late = _events(slow, versions[-1])
        assert [line["version"] for line in late] == list(range(version + 1, versions[-1] + 1))
        assert late == [line for line in quick.lines if line is not None]


def test_a_closed_stream_leaves_the_feed_and_the_last_one_ends_it(app, client):
    service = app.extensions["keltis"]
    game_id, tokens, version = _game(client)
    url = f"/v1/games/{game_id}/stream?after={version}"
    first, second = LiveStream(app, url), LiveStream(app, url)
    feed = feeds_of(service).feeds[game_id]
    assert feed.members == 2
    first.close()
    assert feed.members == 1
    moved = _play(client, game_id, tokens)
    assert _events(second, moved)[-1]["version"] == moved
    second.close()
    assert feeds_of(service).open() == 0
    channel = keys.game_channel(game_id)
    wait_for(lambda: channel not in service.notices.listeners, 30, "the feed's unsubscribe")
    reopened = LiveStream(app, url)  # a new stream starts a new feed
    try:
        assert feeds_of(service).feeds[game_id] is not feed
    finally:
        reopened.close()

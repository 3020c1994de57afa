"""Bounds on held requests: streams and long polls per client address, per
account and per web process, counted in the real Redis with leases that expire when their
process dies; refusals in the one error shape with Retry-After."""

from __future__ import annotations

import threading
import time

import pytest

from application.live import holds
from application.live.errors import TooManyStreams
from store.live import streams as slots
from store.live.streams import SlotStore
from tests.api.helpers import bearer, create
from tests.api.live_stream import LiveStream
from tests.api.test_accounts import sign_up
from tests.api.test_streams import lines_of


@pytest.fixture
def app(app):
    app.config.update(
        STREAM_KEEPALIVE_S=0.3,
        STREAM_MAX_S=2.0,
        STREAMS_PER_ADDRESS=2,
        STREAMS_PER_ACCOUNT=8,
        STREAMS_PER_PROCESS=0,
    )
    return app


def _game(client) -> tuple[str, int]:
    created = create(client, "keltis-card", [{"name": "ann"}, {"name": "bea"}])
    return created["id"], created["version"]


def _wait_until(condition, timeout_s: float = 5.0) -> None:
    ends = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < ends, "condition not met in time"
        time.sleep(0.02)


def _held(app, key: str) -> int:
    return SlotStore(app.extensions["keltis"].client).held(key)


def _refused(response, code: str, status: int) -> None:
    assert response.status_code == status, response.data
    assert response.json["error"]["code"] == code
    assert set(response.json["error"]) >= {"code", "message"}
    assert int(response.headers["Retry-After"]) >= 1


@pytest.mark.cluster_too
def test_streams_and_long_polls_are_bounded_per_client_address(app, client):
    """Two held requests of one (anonymous) address: a third, stream or long poll, is 429;
    another address is not affected; an ended stream frees its slot."""
    address = f"10.23.5.{time.time_ns() % 250}"
    other = f"10.23.6.{time.time_ns() % 250}"
    game_id, version = _game(client)
    url = f"/v1/games/{game_id}/stream?after={version}"
    # Held open (each has sent its first line) until the test closes them.
    held = [LiveStream(app, url, environ_base={"REMOTE_ADDR": address}) for _ in range(2)]
    assert _held(app, slots.address_key(address)) == 2
    _refused(client.get(url, environ_base={"REMOTE_ADDR": address}), "too_many_streams", 429)
    poll = f"/v1/games/{game_id}/events?after={version}&wait=5"
    _refused(client.get(poll, environ_base={"REMOTE_ADDR": address}), "too_many_streams", 429)
    # A request that is not held (no wait, or nothing to wait for) is never refused.
    answer = client.get(
        f"/v1/games/{game_id}/events?after=0&wait=5", environ_base={"REMOTE_ADDR": address}
    )
    assert answer.status_code == 200
    assert (
        client.get(f"/v1/games/{game_id}", environ_base={"REMOTE_ADDR": address}).status_code == 200
    )
    # Another address still streams.
    assert lines_of(client.get(url, environ_base={"REMOTE_ADDR": other})) is not None
    for stream in held:
        stream.close()
    assert _held(app, slots.address_key(address)) == 0
    assert lines_of(client.get(url, environ_base={"REMOTE_ADDR": address})) is not None


def test_a_long_poll_frees_its_slot_when_it_answers(app, client):
    address = f"10.23.7.{time.time_ns() % 250}"
    game_id, version = _game(client)
    poll = f"/v1/games/{game_id}/events?after={version}&wait=0.2"
    for _ in range(4):  # more than the bound, one after the other
        answer = client.get(poll, environ_base={"REMOTE_ADDR": address})
        assert answer.status_code == 200 and answer.json["events"] == []
    assert _held(app, slots.address_key(address)) == 0


def test_long_polls_and_streams_are_bounded_per_account(app, client):
    """The account's bound counts its game streams and long polls too, whatever the
    address."""
    app.config.update(STREAMS_PER_ACCOUNT=2, STREAMS_PER_ADDRESS=0)
    account = sign_up(client, bot=True)
    players = [{"account": account["name"]}, {"name": "bea"}]
    created = create(client, "keltis-card", players, key=account["key"])
    version = created["version"]
    auth = bearer(account["key"])
    url = f"/v1/games/{created['id']}/stream?after={version}"
    held = [LiveStream(app, url, auth), LiveStream(app, "/v1/me/events", auth)]  # until closed
    assert _held(app, slots.account_key(account["name"])) == 2
    poll = f"/v1/games/{created['id']}/events?after={version}&wait=5"
    _refused(client.get(poll, headers=auth), "too_many_streams", 429)
    _refused(client.get(url, headers=auth), "too_many_streams", 429)
    assert client.get(url).status_code == 200  # a spectator's stream is not the account's
    for stream in held:
        stream.close()


def test_a_web_process_keeps_connections_for_ordinary_requests(app, client):
    """At the process's share of held requests a new stream is 503 streams_busy, while
    ordinary requests are served."""
    app.config.update(STREAMS_PER_PROCESS=1, STREAMS_PER_ADDRESS=0)
    game_id, version = _game(client)
    url = f"/v1/games/{game_id}/stream?after={version}"
    held = LiveStream(app, url)  # until closed
    _, gate = app.extensions["keltis_holds"]
    assert gate.held == 1
    _refused(client.get(url), "streams_busy", 503)
    _refused(client.get(f"/v1/games/{game_id}/events?after={version}&wait=3"), "streams_busy", 503)
    assert client.get("/healthz").status_code == 200
    assert client.get(f"/v1/games/{game_id}").status_code == 200
    held.close()
    assert gate.held == 0
    assert client.get(url).status_code == 200


def test_a_slot_whose_process_died_is_reclaimed_after_its_lease(app, redis_client):
    """A process that dies never releases its slots: they stop counting when their lease
    runs out (the server's clock), not after a stream's whole lifetime."""
    store = SlotStore(redis_client)
    key = slots.address_key(f"10.23.8.{time.time_ns() % 250}")
    gate = holds.ProcessGate()
    # A lease of 2 s: the second hold below comes well within it, even on a loaded machine
    # (with 0.3 s a stall between the two could outlast it).
    limits = holds.HoldLimits(per_address=1, per_account=0, per_process=0, lease_s=2.0)
    address = key.rsplit("{c:", 1)[1].rstrip("}")
    holds.hold(store, gate, limits, address, None)  # taken, then its process "dies"
    with pytest.raises(TooManyStreams):
        holds.hold(store, gate, limits, address, None)
    _wait_until(lambda: store.claim(key, "after-the-lease", 300, 1), timeout_s=30.0)


@pytest.mark.cluster_too
def test_a_renewed_lease_keeps_its_slot(redis_client):
    store = SlotStore(redis_client)
    key = slots.address_key(f"10.23.9.{time.time_ns() % 250}")
    # Leases of 2 s renewed every 0.5 s, for longer than one lease: a stall of 1.5 s would
    # be needed to lose it (with 0.3 s leases renewed every 0.1 s, a stall of 0.2 s was).
    assert store.claim(key, "kept", 2000, 1)
    for _ in range(5):
        time.sleep(0.5)
        store.renew(key, "kept", 2000)
    assert not store.claim(key, "another", 2000, 1)
    store.free(key, "kept")
    assert store.claim(key, "another", 2000, 1)


def test_the_leases_of_a_process_streams_are_renewed_together(redis_client):
    """Every sending stream's lease is renewed by one round trip of the process (one script
    call per key), only once a third of a lease old; a released hold is left out."""
    store = SlotStore(redis_client)
    calls = []
    real = store.renew_many
    store.renew_many = lambda found: calls.append(found) or real(found)
    parked = threading.Event()
    gate = holds.ProcessGate(renewals=holds.Renewals(sleep=lambda _: parked.wait()))
    now = [0.0]
    address = f"10.23.10.{time.time_ns() % 250}"
    key = slots.address_key(address)
    limits = holds.HoldLimits(per_address=5, per_account=0, per_process=0, lease_s=3.0)
    taken = [holds.hold(store, gate, limits, address, None) for _ in range(3)]
    for hold in taken:
        hold.clock = lambda: now[0]
        hold.renewed = 0.0
        hold.renew()
        hold.renew()  # twice is once
    try:
        assert gate.renewals.renew_due() == 0 and calls == []  # none is due yet
        now[0] = 1.5
        taken[2].release()
        assert gate.renewals.renew_due() == 2
        assert len(calls) == 1 and list(calls[0]) == [(key, 3000)]
        assert sorted(calls[0][(key, 3000)]) == sorted(h.slot_id for h in taken[:2])
        assert store.held(key) == 2
    finally:
        parked.set()
        for hold in taken:
            hold.release()

"""HTTPS webhooks against a real TLS server on loopback (a `trustme` CA, trusted through
KELTIS_WEBHOOK_CA_FILE): the call connects to the checked address while the certificate
must be valid for the URL's host name. A valid certificate: the move is appended; a
certificate for another name, or from a CA nobody trusts: the turn times out with reason
`tls`, never a move; plain http still works."""

from __future__ import annotations

import secrets
import ssl

import pytest
import trustme

from application.accounts.service import AccountService
from application.bots.webhook_turns import FAILED, MOVED, WebhookCaller
from application.games.service import GameService
from application.webhooks.delivery import CA_FILE_ENV
from application.webhooks.policy import LOOPBACK_ALLOW, WebhookPolicy, parse_allow
from store.bots.webhook_calls import last_error
from tests.support.consent import consent
from tests.support.webhook_server import WebhookServer
from tests.workers import processes
from tests.workers.processes import stop

CARD = "keltis-card"
HOST = "localhost"
# A move clock that a loaded machine cannot run out (the test asserts no turn times out).
CLOCK = {"move_seconds": 30, "bank_seconds": 0, "fallback": "random", "max_timeouts": 1}


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def ca_file(ca, tmp_path, monkeypatch) -> str:
    """The test CA's PEM, trusted by this process's webhook calls."""
    path = tmp_path / "webhook-ca.pem"
    ca.cert_pem.write_to_path(str(path))
    monkeypatch.setenv(CA_FILE_ENV, str(path))
    return str(path)


@pytest.fixture
def https_webhook(ca):
    """HTTPS webhook servers whose certificate names `names`; closed at teardown."""
    servers = []

    def make(*names: str, issuer: trustme.CA | None = None) -> WebhookServer:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        (issuer or ca).issue_cert(*names).configure_cert(context)
        server = WebhookServer(tls=context, host=HOST).start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.close()


def seat_webhook(redis_client, server: WebhookServer) -> tuple[GameService, str]:
    """A game whose seat 0 is a webhook bot account calling `server`, to move now."""
    accounts = AccountService(redis_client, WebhookPolicy(parse_allow(LOOPBACK_ALLOW)))
    created = accounts.sign_up(f"tls{secrets.token_hex(5)}", True, server.url)
    server.secret = created.webhook_secret
    service = GameService(redis_client)
    players = [{"account": created.record.name}, {"bot": "greedy"}]
    record, _, _ = service.create(
        CARD, players, {}, clock=CLOCK, consenting=consent(created.record.name)
    )
    assert record.to_move == 0  # keltis-card: seat 0 opens
    return service, record.game_id


def events_of(service: GameService, game_id: str) -> list[dict]:
    return [entry.event for entry in service.entries_after(game_id, 0, 10_000)]


def policy() -> WebhookPolicy:
    return WebhookPolicy(parse_allow(LOOPBACK_ALLOW))


def call_turn(service: GameService, game_id: str):
    """Call the turn's webhook once; its outcome."""
    return WebhookCaller(service, policy(), timeout_s=5).call(game_id)


def test_an_https_webhook_with_a_valid_certificate_for_its_host_name_moves(
    redis_client, ca_file, https_webhook
):
    server = https_webhook(HOST)
    assert server.url.startswith(f"https://{HOST}:")
    service, game_id = seat_webhook(redis_client, server)
    assert call_turn(service, game_id).kind == MOVED
    assert len(server.turns) == 1 and server.bad_signatures == 0
    moved = [e for e in events_of(service, game_id) if e["type"] != "turn_timed_out"]
    assert len(moved) >= 2  # the game's start, then the webhook's move


@pytest.mark.parametrize("case", ["another_host_name", "untrusted_ca"])
def test_an_https_webhook_whose_certificate_does_not_check_out_fails_with_tls_told_to_its_owner(
    redis_client, ca_file, https_webhook, case
):
    if case == "another_host_name":
        server = https_webhook("bot.example.org")  # trusted CA, wrong name
    else:
        server = https_webhook(HOST, issuer=trustme.CA())  # right name, unknown CA
    service, game_id = seat_webhook(redis_client, server)
    outcome = call_turn(service, game_id)
    assert (outcome.kind, outcome.reason) == (FAILED, "tls")
    assert server.turns == []  # the body never reached the server
    assert not [e for e in events_of(service, game_id) if e["type"] == "turn_timed_out"]
    owner = service.load(game_id)[0].players[0]["account"].lower()
    assert last_error(redis_client, owner)["reason"] == "tls"  # told to the owner only


def test_plain_http_webhooks_still_work_with_a_ca_file_set(redis_client, ca_file):
    server = WebhookServer().start()
    try:
        service, game_id = seat_webhook(redis_client, server)
        assert call_turn(service, game_id).kind == MOVED
        assert len(server.turns) == 1
    finally:
        server.close()


def test_a_worker_process_plays_an_https_webhook_trusting_the_configured_ca(
    redis_client, redis_url, ca_file, https_webhook
):
    """The real `keltis worker`, told the CA through its environment: the webhook plays
    its turns over HTTPS until the game ends, and no turn times out."""
    server = https_webhook(HOST)
    service, game_id = seat_webhook(redis_client, server)
    worker = processes.start_worker(redis_url, "--deadline-every", "0.1", **{CA_FILE_ENV: ca_file})
    try:
        final = processes.wait_for(lambda: _finished(service, game_id), 60)
    finally:
        stop(worker)
    assert final.status == "finished" and not final.forfeited
    assert not [e for e in events_of(service, game_id) if e["type"] == "turn_timed_out"]
    assert server.turns and server.bad_signatures == 0


def _finished(service: GameService, game_id: str):
    record, _, _ = service.load(game_id)
    return record if record.finished else None

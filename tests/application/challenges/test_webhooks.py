"""A challenged account's webhook (application.challenges.webhooks): the answers it reads
(accept, a decline with its reason, anything else as none), and asking it: an accept or a
decline acted on, any other answer, a failure, a timeout or a disallowed address leaving the
challenge open, nothing asked of a closed, missing or webhookless challenge, and an answer
that comes after the challenge closed not taken."""

from __future__ import annotations

import contextlib
import time

import pytest

from application.accounts.service import AccountService
from application.challenges.service import DECLINE_REASONS, Challenges
from application.challenges.webhooks import ACCEPTED, DECLINED, UNANSWERED, answer_of, ask
from application.webhooks.policy import WebhookPolicy, parse_allow
from store.accounts.records import AccountStore
from tests.support.webhook_server import Tarpit, WebhookServer


def test_accept_true_accepts():
    assert answer_of(b'{"accept": true}') == ("accept", None)


@pytest.mark.parametrize("reason", DECLINE_REASONS)
def test_a_decline_keeps_a_known_reason(reason):
    assert answer_of(b'{"decline": "%s"}' % reason.encode()) == ("decline", reason)


@pytest.mark.parametrize("reason", ['"because"', "1", '""', "false", "[]"])
def test_a_decline_with_an_unknown_reason_is_generic(reason):
    assert answer_of(b'{"decline": %s}' % reason.encode()) == ("decline", "generic")


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"not json",
        b"[1, 2]",
        b'"accept"',
        b"true",
        b"{}",
        b'{"accept": 1}',
        b'{"accept": "true"}',
        b'{"accept": false}',
        b'{"decline": null}',
    ],
)
def test_anything_else_is_no_answer(raw):
    assert answer_of(raw) == ("none", None)


def test_an_accept_beside_a_decline_accepts():
    assert answer_of(b'{"accept": true, "decline": "later"}') == ("accept", None)


# ----- asking the webhook -----------------------------------------------------------------

LOOPBACK = WebhookPolicy(parse_allow("127.0.0.0/8"))
BODY = {
    "game": "keltis-card",
    "opponents": [{"account": "Bela"}],
    "options": {},
    "clock": None,
    "rated": False,
    "seat_order": "random",
    "match": "single",
    "expires_in_s": 300,
}


def _answering(body: bytes, status: int = 200):
    return lambda _call: (status, {"Content-Type": "application/json"}, body)


@pytest.fixture(scope="module")
def webhook_server():
    """One server for the module (each stop waits out its poll interval)."""
    webhook = WebhookServer().start()
    yield webhook
    webhook.close()


@pytest.fixture
def server(webhook_server):
    """The server with no calls yet, answering `{}` until the test says otherwise."""
    webhook_server.behaviour = _answering(b"{}")
    webhook_server.calls.clear()
    webhook_server.turns.clear()
    return webhook_server


@pytest.fixture
def people(private_redis, server):
    """Anna (no webhook) and Bela, whose webhook is `server`."""
    accounts = AccountService(private_redis, LOOPBACK)
    anna = accounts.sign_up("Anna", bot=False, webhook=None).record
    bela = accounts.sign_up("Bela", bot=False, webhook=server.url)
    server.secret = bela.webhook_secret
    return anna, bela.record


@pytest.fixture
def challenges(games) -> Challenges:
    return Challenges(games)


@pytest.fixture
def challenge_id(challenges, people) -> str:
    return challenges.open(people[0], BODY)["id"]


def test_an_accepting_webhook_accepts_and_the_game_is_made(server, challenges, challenge_id):
    server.behaviour = _answering(b'{"accept": true}')
    assert ask(challenges, LOOPBACK, challenge_id, "bela") == ACCEPTED
    stored = challenges.store.get(challenge_id)
    assert stored.status == "accepted" and stored.game_id is not None
    (call,) = server.turns
    assert call["type"] == "challenge" and call["challenge"]["id"] == challenge_id


def test_a_declining_webhook_declines_with_its_reason(server, challenges, challenge_id):
    server.behaviour = _answering(b'{"decline": "too_fast"}')
    assert ask(challenges, LOOPBACK, challenge_id, "bela") == DECLINED
    stored = challenges.store.get(challenge_id)
    assert (stored.status, stored.decline_reason) == ("declined", "too_fast")


@pytest.mark.parametrize(("body", "status"), [(b"{}", 200), (b"maybe", 200), (b"{}", 500)])
def test_any_other_answer_leaves_the_challenge_open(server, challenges, challenge_id, body, status):
    server.behaviour = _answering(b'{"accept": true}' if status == 500 else body, status)
    assert ask(challenges, LOOPBACK, challenge_id, "bela") == UNANSWERED
    assert challenges.store.get(challenge_id).status == "open"
    assert len(server.calls) == 1


def test_a_webhook_that_never_answers_is_given_up_on_in_time(challenges, people, private_redis):
    anna, _ = people
    with contextlib.closing(Tarpit().start()) as tarpit:
        AccountStore(private_redis).set_webhook("bela", tarpit.url)
        challenge_id = challenges.open(anna, BODY)["id"]
        started = time.monotonic()
        assert ask(challenges, LOOPBACK, challenge_id, "bela", timeout_s=0.3) == UNANSWERED
        assert time.monotonic() - started < 10
    assert challenges.store.get(challenge_id).status == "open"


def test_a_webhook_the_policy_does_not_allow_is_not_called(server, challenges, challenge_id):
    server.behaviour = _answering(b'{"accept": true}')
    assert ask(challenges, WebhookPolicy(()), challenge_id, "bela") == UNANSWERED
    assert server.calls == []
    assert challenges.store.get(challenge_id).status == "open"


def test_nothing_is_asked_of_a_closed_missing_or_webhookless_challenge(
    server, challenges, people, challenge_id
):
    server.behaviour = _answering(b'{"accept": true}')
    assert ask(challenges, LOOPBACK, "no-such-challenge", "bela") == UNANSWERED
    assert ask(challenges, LOOPBACK, challenge_id, "anna") == UNANSWERED  # Anna has none
    assert ask(challenges, LOOPBACK, challenge_id, "nobody") == UNANSWERED
    challenges.cancel(people[0], challenge_id)
    assert ask(challenges, LOOPBACK, challenge_id, "bela") == UNANSWERED
    assert server.calls == []


def test_an_answer_that_comes_after_the_challenge_closed_is_not_taken(
    server, challenges, people, challenge_id
):
    def cancel_then_accept(_call):
        challenges.cancel(people[0], challenge_id)
        return 200, {}, b'{"accept": true}'

    server.behaviour = cancel_then_accept
    assert ask(challenges, LOOPBACK, challenge_id, "bela") == UNANSWERED
    assert challenges.store.get(challenge_id).status == "cancelled"

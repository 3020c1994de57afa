"""The webhook allow-list (SSRF guard): resolution only, every address must be allowed."""

from __future__ import annotations

import pytest

from application.errors import WebhookNotAllowed
from application.webhooks_policy import DEFAULT_ALLOW, WebhookPolicy, parse_allow

LOOPBACK = parse_allow(DEFAULT_ALLOW)


def resolver(addresses):
    def resolve(host, port):
        return addresses

    return resolve


def test_a_name_resolving_outside_the_allow_list_is_refused():
    policy = WebhookPolicy(LOOPBACK, resolver(["10.0.0.7"]))
    with pytest.raises(WebhookNotAllowed):
        policy.check("http://bot.example/move")


def test_every_address_of_a_name_must_be_allowed():
    policy = WebhookPolicy(LOOPBACK, resolver(["127.0.0.1", "192.168.1.5"]))
    with pytest.raises(WebhookNotAllowed):
        policy.check("http://bot.example/move")
    ok = WebhookPolicy(LOOPBACK, resolver(["127.0.0.1", "::1"]))
    assert ok.check("http://bot.example/move") == "http://bot.example/move"


def test_a_name_that_does_not_resolve_in_time_is_refused():
    import time

    def slow(host, port):
        time.sleep(0.5)
        return ["127.0.0.1"]

    with pytest.raises(WebhookNotAllowed):
        WebhookPolicy(LOOPBACK, slow, timeout_s=0.05).check("http://slow.example/")


def test_the_operator_may_allow_a_network():
    policy = WebhookPolicy(parse_allow("10.0.0.0/8"), resolver([]))
    assert policy.check("http://10.1.2.3:8080/x")
    with pytest.raises(WebhookNotAllowed):
        policy.check("http://127.0.0.1/x")

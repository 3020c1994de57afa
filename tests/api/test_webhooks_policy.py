"""The webhook allow-list (SSRF guard): resolution only, every address must be allowed;
public addresses only unless the operator allows a network, numbers spelled canonically, the
service's own ports never."""

from __future__ import annotations

import pytest
import redis

from application.webhooks.errors import WebhookNotAllowed
from application.webhooks.policy import (
    DEFAULT_ALLOW,
    LOOPBACK_ALLOW,
    WebhookPolicy,
    parse_allow,
    policy_from_env,
    service_ports,
)

LOOPBACK = parse_allow(LOOPBACK_ALLOW)
DEFAULT = WebhookPolicy(parse_allow(DEFAULT_ALLOW))


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


NOT_PUBLIC = [
    "127.0.0.1", "127.255.0.9", "10.0.0.1", "172.16.5.4", "172.31.255.255", "192.168.1.1",
    "169.254.169.254", "100.64.0.1", "100.127.255.254", "0.0.0.0", "0.1.2.3", "224.0.0.1",
    "239.255.255.250", "255.255.255.255", "240.0.0.1", "192.0.0.8", "198.18.0.1",
    "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "fec0::1", "ff02::1", "ff0e::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254", "::127.0.0.1",
    "::ffff:0:127.0.0.1", "64:ff9b::127.0.0.1", "64:ff9b::10.0.0.1", "64:ff9b:1::1",
    "2002:7f00:1::1", "2002:c0a8:101::1", "2001:0:4136:e378:8000:63bf:3fff:fdd2",
    "2001:db8::1", "100::1",
]  # fmt: skip
PUBLIC = ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:82b::200e"]


def shown(address: str) -> str:
    return f"[{address}]" if ":" in address else address


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_by_default_no_loopback_private_or_special_address_is_allowed(address):
    with pytest.raises(WebhookNotAllowed):
        DEFAULT.check(f"http://{shown(address)}:9101/move")  # as a literal
    with pytest.raises(WebhookNotAllowed):  # as what a name resolves to
        WebhookPolicy(resolve=resolver([address])).check("http://bot.example/move")


@pytest.mark.parametrize("address", PUBLIC)
def test_by_default_public_addresses_are_allowed(address):
    assert DEFAULT.pin(f"https://{shown(address)}/move").address == address
    assert WebhookPolicy(resolve=resolver([address])).check("http://bot.example/x")


@pytest.mark.parametrize(
    "host",
    [
        "127.1", "2130706433", "0x7f000001", "0x7F.1", "0177.0.0.1", "017700000001",
        "127.0.0.1.", "127.000.000.001", "8.8.8.8.", "134744072", "1.2.3.4.5",
        "[fe80::1%25eth0]", "bot_.exa mple", "bot..example",
    ],
)  # fmt: skip
def test_odd_spellings_of_an_address_are_refused_even_where_it_is_allowed(host):
    for policy in (DEFAULT, WebhookPolicy(LOOPBACK), WebhookPolicy(parse_allow("0.0.0.0/0"))):
        with pytest.raises(WebhookNotAllowed):
            policy.check(f"http://{host}:9101/move")


def test_a_mapped_or_compatible_address_is_its_ipv4_address():
    policy = WebhookPolicy(LOOPBACK)
    assert policy.pin("http://[::ffff:127.0.0.1]:9101/").address == "127.0.0.1"
    assert policy.pin("http://[::ffff:7f00:1]:9101/").address == "127.0.0.1"
    assert DEFAULT.pin("http://[::ffff:8.8.8.8]/").address == "8.8.8.8"
    with pytest.raises(WebhookNotAllowed):
        DEFAULT.check("http://[::ffff:127.0.0.1]:9101/")


def test_the_service_ports_are_closed_even_on_an_allowed_loopback():
    policy = WebhookPolicy(LOOPBACK, resolver(["127.0.0.1"]), closed_ports=frozenset({6379, 8000}))
    for url in ("http://127.0.0.1:6379/", "http://localhost:8000/x", "http://[::1]:6379/"):
        with pytest.raises(WebhookNotAllowed):
            policy.check(url)
    assert policy.check("http://127.0.0.1:9101/move")


def test_the_service_knows_its_redis_port_and_its_own(monkeypatch):
    monkeypatch.setenv("KELTIS_SERVICE_PORT", "8123")
    monkeypatch.setenv("KELTIS_WEBHOOK_ALLOW", LOOPBACK_ALLOW)
    client = redis.Redis(host="127.0.0.1", port=6390)  # never connected to
    assert service_ports(client) == {6390, 8123}
    assert service_ports(redis.Redis(unix_socket_path="/tmp/x.sock")) == {8123}
    policy = policy_from_env(client)
    for port in (6390, 8123):
        with pytest.raises(WebhookNotAllowed):
            policy.check(f"http://127.0.0.1:{port}/")
    assert policy.check("http://127.0.0.1:9101/")
    monkeypatch.delenv("KELTIS_WEBHOOK_ALLOW")
    with pytest.raises(WebhookNotAllowed):  # the default: public addresses only
        policy_from_env(client).check("http://127.0.0.1:9101/")


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:3/hook*",  # a character openapi.yaml's pattern leaves out
        "http://127.0.0.1/hook#part",
        "http://127.0.0.1/a b",
        "http://127.0.0.1/%zz",
        "http://127.0.0.1/hook?x=(1)",
    ],
)
def test_a_webhook_path_or_query_outside_the_documented_alphabet_is_refused(url):
    with pytest.raises(WebhookNotAllowed):
        WebhookPolicy(LOOPBACK).check(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080/bots/my-bot_1.v2~x",
        "http://127.0.0.1/t?token=a%2Fb&x=1",
        "http://127.0.0.1",
    ],
)
def test_a_webhook_of_letters_digits_escapes_and_a_query_is_allowed(url):
    assert WebhookPolicy(LOOPBACK).check(url) == url

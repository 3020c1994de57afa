"""Why a webhook call failed is told to the account's owner only: GET
/v1/me shows `last_webhook_error`; the public profile and the game show nothing of it."""

from __future__ import annotations

import json
import secrets

import pytest

from store.bots.webhook_calls import WebhookCalls
from tests.api.helpers import bearer


def test_r2_the_owner_sees_its_last_webhook_error_and_nobody_else_does(client, redis_client):
    name = f"hook_{secrets.token_hex(5)}"
    body = {"name": name, "bot": True, "webhook": "http://127.0.0.1:9101/move"}
    made = client.post("/v1/accounts", json=body).json
    me = client.get("/v1/me", headers=bearer(made["key"]))
    assert me.status_code == 200 and me.json["last_webhook_error"] is None
    detail = {
        "reason": "http_status",
        "game": "g" * 22,
        "version": 7,
        "turn": f"{'g' * 22}.7",
        "attempt": 2,
        "at": 1_700_000_000_000,
    }
    WebhookCalls(redis_client).record_error(name.lower(), detail)
    me = client.get("/v1/me", headers=bearer(made["key"]))
    assert me.json["last_webhook_error"] == detail
    profile = client.get(f"/v1/accounts/{name}")
    assert profile.status_code == 200 and "http_status" not in json.dumps(profile.json)
    patched = client.patch(
        "/v1/me", json={"webhook": "http://127.0.0.1:9102/b"}, headers=bearer(made["key"])
    )
    assert patched.json["last_webhook_error"] == detail


@pytest.mark.parametrize(
    "url",
    [
        "http://127.1:9101/move",
        "http://2130706433:9101/move",
        "http://0x7f000001:9101/move",
        "http://0177.0.0.1:9101/move",
        "http://10.0.0.7:9101/move",
        "http://169.254.169.254/latest",
        "http://[::ffff:10.0.0.7]:9101/move",
    ],
)
def test_odd_spellings_and_private_addresses_are_refused_at_registration(client, url):
    """With loopback allowed (as in `make run`), other spellings of it
    and private addresses are still refused, in the one error shape."""
    body = {"name": f"hook_{secrets.token_hex(5)}", "bot": True, "webhook": url}
    refused = client.post("/v1/accounts", json=body)
    assert refused.status_code == 422
    assert refused.json["error"]["code"] in {"webhook_not_allowed", "invalid_request"}

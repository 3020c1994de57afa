"""Sign-ups are limited per client address (KELTIS_QUOTA_ACCOUNTS)."""

from __future__ import annotations

import secrets

from api import create_app
from tests.api.contract import ContractClient


def test_sign_ups_are_rate_limited_per_client_address(redis_url):
    app = create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "QUOTAS_ENABLED": True,
         "QUOTA_ACCOUNTS": "2 per hour"}
    )  # fmt: skip
    app.test_client_class = ContractClient
    client = app.test_client()
    address = {"REMOTE_ADDR": f"127.0.{secrets.randbelow(250)}.{secrets.randbelow(250)}"}
    for _ in range(2):
        made = client.post(
            "/v1/accounts", json={"name": f"q_{secrets.token_hex(5)}"}, environ_base=address
        )
        assert made.status_code == 201
    refused = client.post(
        "/v1/accounts", json={"name": f"q_{secrets.token_hex(5)}"}, environ_base=address
    )
    assert refused.status_code == 429 and refused.json["error"]["code"] == "quota_exceeded"
    assert int(refused.headers["Retry-After"]) > 0

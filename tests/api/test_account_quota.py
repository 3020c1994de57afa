"""Sign-ups are limited per client address (KELTIS_QUOTA_ACCOUNTS)."""

from __future__ import annotations

import secrets

from api import create_app
from tests.api.contract import ContractClient
from tests.api.helpers import own_address


def test_sign_ups_are_rate_limited_per_client_address(redis_url):
    app = create_app(
        {"REDIS_URL": redis_url, "TESTING": True, "QUOTAS_ENABLED": True,
         "QUOTA_ACCOUNTS": "2 per hour"}
    )  # fmt: skip
    app.test_client_class = ContractClient
    client = app.test_client()
    address = own_address(11)  # a random 127.0.x.y could be every test client's 127.0.0.1
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

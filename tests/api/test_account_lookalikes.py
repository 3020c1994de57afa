"""Look-alike account names: `aIice1` and `a1ice1` were signed up beside
`alice1`. A name whose confusable skeleton (application.accounts.name_skeleton) is held is refused
like a taken name, atomically with the lower-case uniqueness (one script)."""

from __future__ import annotations

import secrets
from concurrent.futures import ThreadPoolExecutor

import pytest

from application.accounts.errors import NameTaken
from application.accounts.name_skeleton import skeleton
from application.accounts.service import AccountService
from application.webhooks.policy import WebhookPolicy
from store import keys
from store.accounts.records import AccountStore
from tests.api.test_accounts import error_code


def _base() -> str:
    return "x" + secrets.token_hex(4).replace("0", "a").replace("1", "b")  # no o, l, i, 0, 1


@pytest.mark.parametrize(
    ("first", "second"),
    [("alice1", "aIice1"), ("alice1", "a1ice1"), ("alice1", "ALICE1"), ("bob0", "BOBO"),
     ("mary", "rnary"), ("will", "VViII"), ("done", "cIone")],
)  # fmt: skip
def test_a_look_alike_of_a_taken_name_is_refused(client, first, second):
    suffix = _base()
    made = client.post("/v1/accounts", json={"name": first + suffix})
    assert made.status_code == 201, made.json
    again = client.post("/v1/accounts", json={"name": second + suffix})
    assert again.status_code == 409 and error_code(again) == "name_taken"
    assert first + suffix in again.json["error"]["message"] or second.lower() == first.lower()


def test_names_that_only_share_letters_in_order_stay_apart(client):
    suffix = _base()
    for name in ("alice2", "alice3", "a-lice", "alice_"):
        made = client.post("/v1/accounts", json={"name": name + suffix})
        assert made.status_code == 201, made.json


def test_skeletons_of_look_alikes_are_equal_and_of_others_differ():
    assert len({skeleton(n) for n in ("alice1", "aIice1", "a1ice1", "ALICE1", "AL1CEl")}) == 1
    assert skeleton("rn0") == skeleton("mo") and skeleton("vvx") == skeleton("WX")
    assert skeleton("alice") != skeleton("alice1") and skeleton("a_b") != skeleton("a-b")


def test_look_alike_sign_ups_racing_leave_exactly_one_account(redis_client):
    suffix = _base()
    names = [f"{a}{b}{c}{suffix}" for a in "lI1" for b in "oO0" for c in ("rn", "m")]
    service = AccountService(redis_client, WebhookPolicy(()))

    def sign_up(name):
        try:
            return service.sign_up(name, False, None).record.name
        except NameTaken:
            return None

    with ThreadPoolExecutor(8) as pool:
        made = [name for name in pool.map(sign_up, names) if name]
    assert len(made) == 1
    holder = redis_client.get(keys.account_skeleton(skeleton(made[0])))
    assert holder.decode() == made[0].lower()


def test_reindex_indexes_the_skeletons_of_accounts_from_before(redis_client):
    """An account stored before skeletons has none indexed; reindexing adds it."""
    suffix = _base()
    store, service = AccountStore(redis_client), AccountService(redis_client, WebhookPolicy(()))
    old = service.sign_up("alice1" + suffix, False, None).record
    redis_client.delete(keys.account_skeleton(skeleton(old.name)))  # as before skeletons
    assert store.index_skeletons(skeleton) >= 1
    with pytest.raises(NameTaken, match="looks like"):
        service.sign_up("aIice1" + suffix, False, None)

"""The webhook URL form openapi.yaml states (pattern and `not`, as JSON Schema reads them):
the path and query of letters, digits, `-._~/` (`=&` in the query) and percent-escapes, up
to 500 characters, on the loopback hosts the tests allow."""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import jsonschema
import pytest
import yaml

OPENAPI = Path(__file__).resolve().parents[2] / "openapi.yaml"
# The form spelled the plain way, each escape inside the repeated group: the same URLs.
PLAIN = re.compile(
    r"^[h]ttps?://(127\.0\.0\.1|localhost|\[::1\])(:[1-9][0-9]{0,4})?"
    r"(/([A-Za-z0-9._~-]|%[0-9A-Fa-f]{2})*)*(\?([A-Za-z0-9._~=&-]|%[0-9A-Fa-f]{2})*)?$"
)


@pytest.fixture(scope="module")
def webhook_form():
    schema = yaml.safe_load(OPENAPI.read_text())["components"]["schemas"]["Webhook"]
    string_only = {key: value for key, value in schema.items() if key != "nullable"}
    return jsonschema.Draft4Validator(string_only)


@pytest.mark.parametrize(
    "url",
    [
        "http://localhost",
        "http://127.0.0.1:8000/hook",
        "https://[::1]/a%2Fb//c.d~e_f-g?x=1&y=%7e",
        "http://localhost/" + "a" * 483,
    ],
)
def test_the_form_takes_loopback_urls_with_escapes_up_to_500_characters(webhook_form, url):
    assert webhook_form.is_valid(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://localhost/%zz",
        "http://localhost/a%4",
        "http://localhost/a%",
        "http://localhost?x=%",
        "http://localhost/#top",
        "http://user@localhost/",
        "http://localhost?x=/",
        "http://example.com/",
        "http://localhost:0/",
        "http://localhost/" + "a" * 484,
    ],
)
def test_the_form_refuses_broken_escapes_other_parts_and_501_characters(webhook_form, url):
    assert not webhook_form.is_valid(url)


def test_the_form_takes_exactly_the_urls_of_the_plain_spelling(webhook_form):
    heads = ["http://localhost", "https://127.0.0.1:8080", "http://[::1]", "http://example.org"]
    letters = "/?%aF0g9=&-.~_#:@ "
    rng = random.Random(2026)
    tails = [*map("".join, itertools.product(letters, repeat=3))]
    tails += [
        "".join(rng.choice(letters) for _ in range(rng.randrange(4, 12))) for _ in range(3000)
    ]
    differ = [
        head + tail
        for head in heads
        for tail in tails
        if webhook_form.is_valid(head + tail) != bool(PLAIN.match(head + tail))
    ]
    assert differ == []

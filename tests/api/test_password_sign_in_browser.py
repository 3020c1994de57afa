"""Signing in by name and password in Debian's headless Chromium against the real stack
(gunicorn, a worker, Redis): one browser signs up with a password, a second signs in by name
and password and sees the account, lists both browsers' sessions on the account page and
signs out everywhere; the first browser is signed out at its next request."""

from __future__ import annotations

import secrets

import pytest
import requests

from devtools import webpages
from tests.support.chromium import chromium_page
from tests.workers.processes import wait_for

pytestmark = pytest.mark.redis
PASSWORD = "a long enough password"


def _testid(browser, testid: str):
    from selenium.webdriver.common.by import By

    return browser.find_element(By.CSS_SELECTOR, f'[data-testid="{testid}"]')


def _wait(browser, script: str, what: str, *args):
    return wait_for(lambda: browser.execute_script(script, *args), 20.0, what, every=0.03)


def _stored_account(browser):
    return browser.execute_script("return JSON.parse(localStorage.getItem('keltis.account'))")


SIGNED_IN_AS = """
const box = document.querySelector('[data-testid="signed-in"]');
const shown = document.querySelector('[data-testid="account-shown"]');
return !box.hidden && shown.textContent === arguments[0];
"""
SIGNED_OUT = """
return !document.querySelector('[data-testid="signed-out"]').hidden
  && document.querySelector('[data-testid="signed-in"]').hidden;
"""


def _lobby(browser, base: str) -> None:
    browser.get(base + "/")
    webpages.wait_for(browser, webpages.LOBBY_READY)


def _type(browser, testid: str, text: str) -> None:
    field = _testid(browser, testid)
    field.clear()
    field.send_keys(text)


def test_a_password_sign_in_in_a_second_browser_and_sign_out_everywhere(live_stack):
    base = live_stack.base_url
    name = f"Pat{secrets.token_hex(3)}"
    with chromium_page() as first, chromium_page() as second:
        _lobby(first, base)
        _type(first, "account-name", name)
        _type(first, "account-password", PASSWORD)
        _testid(first, "sign-up").click()
        _wait(first, SIGNED_IN_AS, "the first browser signed up", name)
        held = _stored_account(first)
        assert held["key"].startswith("ks_") and held["session"]  # a session, not the key
        assert "kk_" in _testid(first, "new-key").text  # the key, shown once for programs

        _lobby(second, base)
        _type(second, "account-name", name.lower())  # any case of the name
        _type(second, "account-password", PASSWORD)
        _testid(second, "password-sign-in").click()
        _wait(second, SIGNED_IN_AS, "the second browser signed in", name)
        assert _stored_account(second)["session"] != held["session"]

        _testid(second, "sessions-link").click()
        _wait(second, "return document.body.dataset.ready === '1'", "the account page")
        listed = """
        const items = [...document.querySelectorAll('[data-testid="session"]')];
        return !document.querySelector('[data-testid="sessions-panel"]').hidden
          && items.length === 2
          && items.filter((li) => li.querySelector('[data-testid="session-current"]')).length === 1;
        """
        _wait(second, listed, "both sessions listed, this browser's marked")
        _testid(second, "sign-out-everywhere").click()
        ended = "return document.querySelector('[data-testid=\"sessions-status\"]').textContent"
        _wait(second, ended, "signed out everywhere")
        assert _stored_account(second) is None

        gone = requests.get(f"{base}/v1/me", headers={"Authorization": f"Bearer {held['key']}"})
        assert gone.status_code == 401
        _lobby(first, base)  # its next request finds its session ended
        _wait(first, SIGNED_OUT, "the first browser signed out")
        assert _stored_account(first) is None
        assert _testid(first, "account-error").text

"""devtools.environment.overridden: set and unset inside the block, put back after it."""

from __future__ import annotations

import os

from devtools.environment import overridden


def test_overridden_sets_and_unsets_then_restores_every_name(monkeypatch):
    monkeypatch.setenv("KELTIS_T_KEPT", "before")
    monkeypatch.setenv("KELTIS_T_GONE", "there")
    monkeypatch.delenv("KELTIS_T_NEW", raising=False)
    with overridden({"KELTIS_T_KEPT": "inside", "KELTIS_T_NEW": "1"}, unset=["KELTIS_T_GONE"]):
        assert os.environ["KELTIS_T_KEPT"] == "inside"
        assert os.environ["KELTIS_T_NEW"] == "1"
        assert "KELTIS_T_GONE" not in os.environ
    assert os.environ["KELTIS_T_KEPT"] == "before"
    assert os.environ["KELTIS_T_GONE"] == "there"
    assert "KELTIS_T_NEW" not in os.environ

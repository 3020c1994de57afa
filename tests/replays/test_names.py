"""The player-name rule shared by the API and `keltis replay verify` (gamelog.names)."""

from __future__ import annotations

import pytest

from gamelog.names import NAME_MAX_LENGTH, name_problem


@pytest.mark.parametrize(
    "name", ["ann", "Ádám Éva", "小林 🎲", "a" * NAME_MAX_LENGTH, "x y", "greedy-0", "O'Brien"]
)
def test_R3_names_the_api_accepts(name):
    assert name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("", "must be 1 to 40 characters long"),
        ("a" * (NAME_MAX_LENGTH + 1), "must be 1 to 40 characters long"),
        (" ", "must not be only whitespace"),
        ("\t\u3000\u00a0", "must not be only whitespace"),
        ("a\x1b[31m", "must not contain control"),
        ("a\x7f", "must not contain control"),
        ("a\x9b", "must not contain control"),
        ("a\u202eb", "must not contain control"),
        ("a\u2067b", "must not contain control"),
        ("a\u200db", "must not contain control"),
        ("a\ud800", "must not contain control"),
        ("a\ue000", "must not contain control"),
        ("a\U000e0001", "must not contain control"),
        (None, "is not a string"),
        (["ann"], "is not a string"),
    ],
)
def test_R3_names_the_api_refuses(name, problem):
    assert problem in name_problem(name)

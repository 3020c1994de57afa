"""R3: the terminal tables show every state, in any game's shape."""

from __future__ import annotations

from replays.tables import render_generic, render_view


def test_R3_generic_table_lists_every_field_and_row():
    view = {"deck_size": 7, "seats": [{"seat": 0, "hand": ["a", "b"]}, {"seat": 1, "hand": []}]}
    lines = render_generic(view).splitlines()
    assert lines[0] == "deck_size: 7"
    assert lines[2].split() == ["seat", "hand"]
    assert lines[3].split() == ["0", "a", "b"]
    assert lines[4].split() == ["1", "(none)"]


def test_R3_unknown_view_shape_falls_back_to_generic_table():
    odd = {"game": "keltis-card", "something": {"else": [1, 2]}}
    assert render_view("keltis-card", odd, []) == render_generic(odd)

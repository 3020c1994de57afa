"""ladder.history.HistoryPoint: the bytes the history's sorted set keeps and the API's shape
(members already written must stay equal to those written again)."""

from __future__ import annotations

from ladder.history import HistoryPoint

POINT = HistoryPoint(7, "g1", 1_900_000_000_000, 2, 25.5, 8.25, 3)


def test_a_point_is_kept_as_compact_json_of_its_fields_in_order_and_read_back():
    member = POINT.to_member()
    assert member == (
        b'{"seq":7,"game_id":"g1","at":1900000000000,"rank":2,"mu":25.5,"sigma":8.25,"games":3}'
    )
    assert HistoryPoint.from_member(member) == POINT


def test_the_api_shows_the_fields_with_the_ordinal_before_games():
    shown = POINT.shown()
    assert list(shown) == [
        "seq", "game_id", "at", "rank", "mu", "sigma", "ordinal", "games", "rating", "provisional",
    ]  # fmt: skip
    assert shown["ordinal"] == 25.5 - 3 * 8.25
    assert shown["games"] == 3
    assert shown["rating"] == round(1500 + 40 * shown["ordinal"]) and shown["provisional"]

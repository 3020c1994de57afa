"""Building replays: only of finished games (R2), with everything needed to re-check (R3)."""

from __future__ import annotations

import pytest

from domain.registry import get_rules
from replays.build import FORMAT, FORMAT_VERSION, build_replay
from replays.errors import GameNotFinished, MalformedLog
from replays.verify import verify
from tests.replays.conftest import finished_entries


def _cut_before_last_command(entries: list[dict]) -> list[dict]:
    last = max(i for i, entry in enumerate(entries) if "cmd" in entry)
    return entries[:last]


def test_R2_replay_of_live_game_is_refused(game):
    entries = _cut_before_last_command(finished_entries(game))
    with pytest.raises(GameNotFinished, match="only finished games"):
        build_replay("live", entries)


def test_R2_replay_of_live_game_is_refused_at_every_stage(game):
    entries = finished_entries(game, players=2, seed=5)
    for cut in range(1, len(entries), 17):
        with pytest.raises(GameNotFinished):
            build_replay("live", entries[:cut])


def test_R2_replay_of_game_waiting_for_players_is_refused(game):
    created = finished_entries(game)[0]
    created["e"]["players"][1] = {"open": True}
    with pytest.raises(GameNotFinished, match="not started"):
        build_replay("waiting", [created])


def test_R3_replay_holds_header_seed_entries_result_and_chain(game):
    entries = finished_entries(game, players=4, seed=2)
    replay = build_replay("g-42", entries)
    assert (replay["format"], replay["format_version"]) == (FORMAT, FORMAT_VERSION)
    header = replay["header"]
    assert header["game_id"] == "g-42"
    assert header["game"] == game
    assert [p["seat"] for p in header["players"]] == [0, 1, 2, 3]
    assert [p["bot"] for p in header["players"]] == ["random", "greedy", "random", "greedy"]
    assert header["created_at"] == entries[0]["at"]
    assert header["ended_at"] == entries[-1]["at"]
    assert header["started_at"] <= header["ended_at"]
    assert replay["entries"] == entries
    assert replay["seed"] == entries[0]["e"]["hidden"]["seed"]
    rules = get_rules(game)
    state = rules.fold([e["e"] for e in entries if e["e"]["type"] != "game_created"])
    assert replay["result"] == rules.result(state)


def test_R3_seat_joined_names_open_seats_in_header(game):
    entries = finished_entries(game, players=2)
    created = entries[0]
    created["e"]["players"][1] = {"open": True}
    joined = {
        "v": 1,
        "n": 2,
        "at": created["at"],
        "by": None,
        "e": {"type": "seat_joined", "seat": 1, "name": "bea"},
    }
    entries.insert(1, joined)
    for n, entry in enumerate(entries, 1):
        entry["n"] = n
    replay = build_replay("joined", entries)
    assert replay["header"]["players"][1] == {"seat": 1, "name": "bea", "bot": None}
    assert verify(replay).ok, verify(replay).line()


def test_R3_broken_log_is_refused_with_named_error():
    with pytest.raises(MalformedLog, match="no entries"):
        build_replay("none", [])
    entries = finished_entries("keltis-card")
    entries[4]["n"] = 99
    with pytest.raises(MalformedLog, match="position 5 has n=99"):
        build_replay("bad", entries)

"""R3: a finished game's replay verifies, and any edit is caught, naming the entry."""

from __future__ import annotations

import hashlib
import random

import pytest

from replays.chain import build_chain
from replays.verify import verify
from tests.replays.conftest import GAMES, finished_replay


def _rechain(replay: dict) -> dict:
    """What a forger does after an edit: recompute every hash."""
    replay["chain"] = build_chain(replay)
    return replay


def _turn_positions(replay: dict) -> list[int]:
    """1-based positions of the entries that carry a command."""
    return [i for i, entry in enumerate(replay["entries"], 1) if "cmd" in entry]


def _mutate(value):
    """A different JSON value of the same kind."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if value is None:
        return 0
    if isinstance(value, list):
        return [*value, 0]
    return {**value, "extra": 1}


def _leaves(value, path=()):
    if isinstance(value, dict) and value:
        for key, item in value.items():
            yield from _leaves(item, (*path, key))
    elif isinstance(value, list) and value:
        for index, item in enumerate(value):
            yield from _leaves(item, (*path, index))
    else:
        yield path


def _mutate_at(event: dict, path: tuple) -> None:
    target = event
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = _mutate(target[path[-1]])


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_R3_every_finished_game_replay_verifies(game, players, seed):
    replay = finished_replay(game, players, seed)
    report = verify(replay)
    assert report.ok, report.line()
    assert report.line().startswith("OK: ")
    assert replay["chain"]["final"] in report.message


def test_R3_replay_reveals_seed_matching_commitment(game):
    replay = finished_replay(game)
    created = replay["entries"][0]["e"]
    assert hashlib.sha256(bytes.fromhex(replay["seed"])).hexdigest() == replay["seed_sha256"]
    assert created["seed_sha256"] == replay["seed_sha256"]
    assert created["hidden"]["seed"] == replay["seed"]


def test_R3_edited_event_field_fails_chain_naming_entry(game):
    rng = random.Random(7)
    replay = finished_replay(game)
    for _ in range(15):
        forged = finished_replay(game)
        position = rng.randrange(1, len(replay["entries"]) + 1)
        event = forged["entries"][position - 1]["e"]
        _mutate_at(event, rng.choice(list(_leaves(event))))
        report = verify(forged)
        assert not report.ok
        assert (report.check, report.n) == ("chain", position), report.line()
        assert f"n={position}" in report.line()


def test_R3_edited_event_with_recomputed_chain_fails_rerun_naming_entry(game):
    rng = random.Random(11)
    replay = finished_replay(game)
    first_rule_entry = 2
    for _ in range(10):
        forged = finished_replay(game)
        position = rng.randrange(first_rule_entry, len(replay["entries"]) + 1)
        event = forged["entries"][position - 1]["e"]
        _mutate_at(event, rng.choice(list(_leaves(event))))
        report = verify(_rechain(forged))
        assert not report.ok
        assert report.check == "event", report.line()
        assert report.n == position, report.line()
        assert "differs from what" in report.message


def test_R3_edited_command_with_recomputed_chain_fails_naming_entry(game):
    forged = finished_replay(game)
    position = _turn_positions(forged)[5]
    forged["entries"][position - 1]["cmd"] = {"action": "no-such-action"}
    report = verify(_rechain(forged))
    assert not report.ok
    assert (report.check, report.n) == ("turn", position), report.line()


def test_R3_reordered_events_fail_naming_first_moved_entry(game):
    forged = finished_replay(game)
    turns = _turn_positions(forged)
    i, j = turns[3], turns[4]
    entries = forged["entries"]
    entries[i - 1], entries[j - 1] = entries[j - 1], entries[i - 1]
    report = verify(forged)
    assert (report.ok, report.check, report.n) == (False, "chain", i), report.line()


def test_R3_reordered_renumbered_rechained_events_fail_rerun(game):
    forged = finished_replay(game)
    turns = _turn_positions(forged)
    i, j = turns[3], turns[4]
    entries = forged["entries"]
    entries[i - 1], entries[j - 1] = entries[j - 1], entries[i - 1]
    entries[i - 1]["n"], entries[j - 1]["n"] = i, j
    report = verify(_rechain(forged))
    assert not report.ok
    assert report.check in ("turn", "event", "log"), report.line()
    assert i <= report.n <= j, report.line()  # the batches' other entries may expose it first


def test_R3_deleted_event_fails_chain_naming_position(game):
    forged = finished_replay(game)
    position = _turn_positions(forged)[7]
    del forged["entries"][position - 1]
    report = verify(forged)
    assert (report.ok, report.check, report.n) == (False, "chain", position), report.line()


def test_R3_deleted_renumbered_rechained_event_fails_rerun(game):
    forged = finished_replay(game)
    position = _turn_positions(forged)[7]
    del forged["entries"][position - 1]
    for n, entry in enumerate(forged["entries"], 1):
        entry["n"] = n
    forged["header"]["entry_count"] = len(forged["entries"])
    report = verify(_rechain(forged))
    assert not report.ok
    assert report.check in ("turn", "event", "log"), report.line()
    assert position <= report.n <= _turn_positions(forged)[8], report.line()


def test_R3_truncated_log_with_recomputed_chain_fails(game):
    forged = finished_replay(game)
    last_turn = _turn_positions(forged)[-1]
    del forged["entries"][last_turn - 1 :]
    forged["header"]["entry_count"] = len(forged["entries"])
    forged["header"]["ended_at"] = forged["entries"][-1]["at"]
    report = verify(_rechain(forged))
    assert (report.ok, report.check) == (False, "result"), report.line()
    assert "before the game is over" in report.message


def test_R3_edited_top_level_seed_fails(game):
    forged = finished_replay(game)
    forged["seed"] = "00" * 32
    report = verify(forged)
    assert (report.ok, report.check) == (False, "chain"), report.line()
    assert "h0" in report.message
    report = verify(_rechain(forged))
    assert (report.ok, report.check) == (False, "seed"), report.line()


def test_R3_edited_seed_in_game_created_fails_naming_entry_1(game):
    forged = finished_replay(game)
    forged["entries"][0]["e"]["hidden"]["seed"] = "11" * 32
    report = verify(forged)
    assert (report.ok, report.check, report.n) == (False, "chain", 1), report.line()
    report = verify(_rechain(forged))
    assert (report.ok, report.check, report.n) == (False, "seed", 1), report.line()


def test_R3_consistently_replaced_seed_fails_at_the_opening(game):
    """A forger who swaps in another seed and its commitment everywhere: the shuffle or
    the rolls it derives differ from the logged opening."""
    forged = finished_replay(game)
    seed = "22" * 32
    commitment = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    forged["seed"], forged["seed_sha256"] = seed, commitment
    created = forged["entries"][0]["e"]
    created["seed_sha256"], created["hidden"]["seed"] = commitment, seed
    report = verify(_rechain(forged))
    assert (report.ok, report.check) == (False, "event"), report.line()
    first_random_entry = {"keltis-card": 2, "keltis-dice": 3}[game]  # the shuffle; the 1st roll
    assert report.n == first_random_entry, report.line()
    assert forged["entries"][report.n - 1]["e"]["type"] in ("game_started", "dice_rolled")


def test_R3_edited_result_fails(game):
    forged = finished_replay(game)
    forged["result"]["scores"][0] += 5
    report = verify(forged)
    assert (report.ok, report.check) == (False, "chain"), report.line()
    report = verify(_rechain(forged))
    assert (report.ok, report.check) == (False, "result"), report.line()
    assert "scores[0]" in report.message


def test_R3_edited_header_player_name_fails(game):
    forged = finished_replay(game)
    forged["header"]["players"][1]["name"] = "mallory"
    report = verify(_rechain(forged))
    assert (report.ok, report.check) == (False, "header"), report.line()
    assert "players" in report.message


def test_R3_chain_is_deterministic_and_covers_every_entry(game):
    replay = finished_replay(game)
    chain = replay["chain"]
    assert chain["algorithm"] == "sha256"
    assert len(chain["entries"]) == len(replay["entries"])
    assert chain["final"] == chain["entries"][-1]
    assert build_chain(replay) == chain


def test_R3_dice_game_on_advanced_board_verifies_and_opening_uses_options():
    from replays.build import build_replay
    from replays.playlog import play_log

    entries = play_log(
        "keltis-dice",
        ["greedy", "random", "greedy"],
        b"\x07" * 32,
        7,
        options={"board": "advanced"},
    )
    replay = build_replay("adv", entries)
    assert replay["header"]["options"] == {"board": "advanced"}
    assert verify(replay).ok, verify(replay).line()
    replay["entries"][0]["e"]["options"] = {"board": "basic"}
    replay["header"]["options"] = {"board": "basic"}
    report = verify(_rechain(replay))
    assert (report.ok, report.check, report.n) == (False, "event", 2), report.line()

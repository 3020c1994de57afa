"""The search benchmark's ledger (bench.mcts_ledger): a figure of many slow games is filled
over several runs, each playing only the games the ledger lacks for the same code."""

from __future__ import annotations

import json

import pytest

from bench import mcts
from bench.mcts_ledger import Ledger, fingerprint


@pytest.fixture
def ledger_path(tmp_path, monkeypatch):
    path = tmp_path / "games.jsonl"
    monkeypatch.setattr(mcts, "LEDGER", str(path))
    monkeypatch.setattr(mcts, "PROCS", 1)
    monkeypatch.setattr(mcts, "TUNE", [])
    return path


def _counting(monkeypatch) -> list[int]:
    played: list[int] = []
    real = mcts.play_one

    def play_one(match, bot, number):
        played.append(number)
        return real(match, bot, number)

    monkeypatch.setattr(mcts, "play_one", play_one)
    return played


def test_a_second_run_plays_only_the_games_the_ledger_lacks(ledger_path, monkeypatch):
    played = _counting(monkeypatch)
    first = mcts._run("card_2p", "mcts:i1", 2)
    assert played == [0, 1]
    again = mcts._run("card_2p", "mcts:i1", 3)
    assert played == [0, 1, 2]
    assert [r[:2] for r in again[:2]] == [r[:2] for r in first]
    assert [len(r[2]) for r in again[:2]] == [len(r[2]) for r in first]
    records = [json.loads(line) for line in ledger_path.read_text().splitlines()]
    assert [r["game"] for r in records] == [0, 1, 2]
    assert {r["match"] for r in records} == {"card_2p"}


def test_another_bot_tune_or_code_starts_afresh(ledger_path, monkeypatch):
    played = _counting(monkeypatch)
    mcts._run("card_2p", "mcts:i1", 1)
    mcts._run("card_2p", "mcts:i2", 1)
    monkeypatch.setattr(mcts, "TUNE", ["card_tree.ROLLOUT_TURNS=2"])
    mcts._run("card_2p", "mcts:i1", 1)
    monkeypatch.setattr(mcts, "_code", lambda: "another-code")
    mcts._run("card_2p", "mcts:i1", 1)
    assert played == [0, 0, 0, 0]


def test_a_line_cut_short_by_a_killed_run_is_skipped(tmp_path):
    path = tmp_path / "games.jsonl"
    ledger = Ledger(path, "c", "card_2p", "mcts", [])
    ledger.add(0, (1.0, 3.0, [(250.04, True), (0.1, False)]))
    with path.open("a") as out:
        out.write('{"code": "c", "match": "card_2p", "bot": "mcts", "tu')
    assert ledger.load() == {0: (1.0, 3.0, [(250.0, True), (0.1, False)])}


def test_the_fingerprint_follows_the_code_not_its_comments(tmp_path):
    (tmp_path / "domain").mkdir()
    source = tmp_path / "domain" / "rules.py"
    source.write_text('"""Rules."""\nA = 1\n\n\ndef f():\n    """F."""\n    return A\n')
    first = fingerprint("loop", tmp_path)
    assert fingerprint("another loop", tmp_path) != first
    source.write_text('"""The rules."""\nA = 1  # one\n\n\ndef f():\n    """G."""\n    return A\n')
    assert fingerprint("loop", tmp_path) == first
    source.write_text('"""Rules."""\nA = 2\n\n\ndef f():\n    """F."""\n    return A\n')
    assert fingerprint("loop", tmp_path) != first
    changed = fingerprint("loop", tmp_path)
    (tmp_path / "domain" / "table.json").write_text("{}")
    assert fingerprint("loop", tmp_path) != changed

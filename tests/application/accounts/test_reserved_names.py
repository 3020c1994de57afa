"""Names no account may take (application.accounts.reserved_names): every built-in bot's and
level's name and the service's words, read through case, separators and look-alike letters,
while ordinary names (even ones that contain a reserved word) stay free."""

from __future__ import annotations

import pytest

from application.accounts import reserved_names
from domain.registry import game_names, get_rules


def test_every_built_in_bot_of_every_game_is_reserved():
    bots = {bot for game in game_names() for bot in get_rules(game).bots}
    assert {"greedy", "random", "mcts", "level:1", "level:5"} <= bots
    assert all(reserved_names.is_reserved(bot) for bot in bots)


@pytest.mark.parametrize("word", sorted(reserved_names.SERVICE_WORDS))
def test_each_service_word_is_reserved(word):
    assert reserved_names.is_reserved(word)
    assert reserved_names.is_reserved(word.upper())


@pytest.mark.parametrize(
    "name", ["level-1", "Level_I", "level1", "LEVEL:1", "rncts", "GREEDY", "R_A_N_D_O_M", "r00t"]
)
def test_a_bot_or_word_written_with_separators_case_or_look_alikes_is_reserved(name):
    assert reserved_names.is_reserved(name)


@pytest.mark.parametrize("name", ["anna", "greedybot", "level6", "level:10", "admins", "mctsx"])
def test_other_names_are_free(name):
    assert not reserved_names.is_reserved(name)


def test_the_reserved_set_is_read_anew_from_the_games_registered_now(monkeypatch):
    """A game registered after start reserves its bots' names at once (nothing cached)."""
    assert not reserved_names.is_reserved("oracle")
    real = reserved_names.get_rules

    class Rules:
        def __init__(self, rules):
            self.bots = {*rules.bots, "oracle"}

    monkeypatch.setattr(reserved_names, "get_rules", lambda game: Rules(real(game)))
    assert reserved_names.is_reserved("oracle")
    assert reserved_names.is_reserved("0racle")

"""Levels for people: `level:1`..`level:5` are fixed recipes of the
service's bots, usable wherever a bot name is, costed and reproduced as their recipe."""

from __future__ import annotations

import hashlib

import pytest

from application.budget.estimate import move_seconds
from domain.levels import level_names, level_of, recipe, recipes
from domain.playout import play_game
from domain.registry import get_rules

GAMES = ["keltis-card", "keltis-dice"]


@pytest.mark.parametrize("game", GAMES)
def test_levels_run_from_random_to_the_full_default_search(game):
    assert level_names() == ["level:1", "level:2", "level:3", "level:4", "level:5"]
    made = recipes(game)
    assert made[1] == "random" and made[5] == "mcts" and "greedy" in made.values()
    assert recipe("level:3", game) == made[3] and recipe("greedy", game) == "greedy"


def test_each_game_has_its_own_ladder_of_recipes():
    """Measured (bench levels): a few search iterations play below greedy in keltis-card and
    above it in keltis-dice, so greedy is level 4 of one and level 2 of the other."""
    assert recipes("keltis-card")[4] == "greedy" and recipes("keltis-dice")[2] == "greedy"
    assert recipe("level:4") == recipes("keltis-card")[4]  # a game without its own: card's


@pytest.mark.parametrize("name", ["level:0", "level:6", "level:33", "level3", "Level:3", 3, None])
def test_other_names_are_not_levels(name):
    assert level_of(name) is None


@pytest.mark.parametrize("game", GAMES)
def test_every_level_is_a_bot_name_of_both_games_and_is_listed(game):
    bots = get_rules(game).bots
    for name in level_names():
        assert name in bots
        assert bots[name] is bots[recipe(name, game)]
    assert set(level_names()) <= set(bots)
    assert "level:6" not in bots


@pytest.mark.parametrize("game", GAMES)
def test_a_level_is_reproducible_searching_and_costed_as_its_recipe(game):
    bots = get_rules(game).bots
    for name in level_names():
        inner = recipe(name, game)
        assert bots.reproducible(name) == bots.reproducible(inner)
        assert bots.searching(name) == bots.searching(inner)
        assert not bots.external(name)
        assert move_seconds(bots, name) == move_seconds(bots, inner)
    assert bots.reproducible("level:2") and not bots.reproducible("level:5")
    assert not bots.searching("level:1") and bots.searching("level:3")


@pytest.mark.parametrize("game", GAMES)
def test_a_game_of_levels_plays_exactly_as_the_game_of_their_recipes(game):
    seed = hashlib.sha256(f"levels-{game}".encode()).digest()
    rules = get_rules(game)
    by_level = play_game(rules, ["level:1", "level:3"], seed, 7)
    by_recipe = play_game(rules, [recipes(game)[1], recipes(game)[3]], seed, 7)
    assert by_level.result is not None
    assert by_level.events == by_recipe.events

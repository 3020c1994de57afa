"""Whole keltis-card games over HTTP, one client per seat, checked for hidden information."""

from __future__ import annotations

import json
import random

import pytest

from tests.api.helpers import assert_nothing_hidden, bearer, play_to_end, start_humans
from tests.api.test_games import seed_of

CARD = "keltis-card"
SECRET_KEYS = {"hands", "deck", "removed"}


def deck_first(rng: random.Random):
    """Pick a random legal move, but always draw from the deck (keeps games short)."""

    def pick(moves: list[dict], count: int) -> dict:
        for move in moves:
            if move.get("action") == "draw" and move.get("source") == "deck":
                return move
        return rng.choice(moves)

    return pick


def check_card_view(view: dict, viewer: int | None) -> None:
    """A live view holds only the viewer's own hand: no other hand, deck or removed cards."""
    assert not SECRET_KEYS & set(view)
    if viewer is None:
        assert "hand" not in view
    else:
        assert len(view["hand"]) == view["seats"][viewer]["hand_size"]


def check_every_viewer(client, game_id: str, tokens: dict[int, str], seed: str) -> None:
    viewers = [(None, {})] + [(seat, bearer(token)) for seat, token in tokens.items()]
    for viewer, headers in viewers:
        game = client.get(f"/v1/games/{game_id}", headers=headers).json
        events = client.get(f"/v1/games/{game_id}/events", headers=headers).json
        if game["status"] == "finished":
            continue
        check_card_view(game["view"], viewer)
        assert_nothing_hidden(game, viewer, [seed])
        assert_nothing_hidden(events, viewer, [seed])
        owned = [e for e in events["events"] if "hidden" in e["event"]]
        assert all(e["event"]["owner"] == viewer for e in owned)


@pytest.mark.parametrize("players", [2, 4])
def test_R2_a_whole_card_game_over_http_by_separate_clients(app, redis_client, players):
    names = ["ann", "bea", "cat", "dan"][:players]
    clients = {seat: app.test_client() for seat in range(players)}
    game_id, tokens = start_humans(clients[0], CARD, names)
    seed = seed_of(redis_client, game_id)
    check_every_viewer(clients[0], game_id, tokens, seed)

    def on_move(seat, answer, count):
        if answer["status"] != "finished":
            check_card_view(answer["view"], seat)
            assert_nothing_hidden(answer, seat, [seed])
        if count % 60 == 59:
            check_every_viewer(clients[0], game_id, tokens, seed)

    final, moves = play_to_end(
        clients, game_id, tokens, pick=deck_first(random.Random(players)), on_move=on_move
    )
    assert final["status"] == "finished"
    assert moves > 50
    assert sorted(final["result"]["winners"])
    assert len(final["result"]["scores"]) == players
    revealed = clients[1].get(f"/v1/games/{game_id}/events").json
    assert revealed["events"][0]["event"]["hidden"]["seed"] == seed
    assert set(final["view"]) >= SECRET_KEYS
    assert json.dumps(revealed).count('"hidden"') >= players + 1

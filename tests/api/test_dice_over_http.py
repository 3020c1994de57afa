"""The service is game-agnostic: a whole keltis-dice game over HTTP, no future roll leaked."""

from __future__ import annotations

from tests.api.helpers import assert_nothing_hidden, bearer, play_to_end, start_humans
from tests.api.test_games import seed_of


def test_R2_a_whole_dice_game_over_http_reveals_its_seed_only_at_the_end(app, redis_client):
    clients = {0: app.test_client(), 1: app.test_client()}
    game_id, tokens = start_humans(clients[0], "keltis-dice", ["ann", "bea"])
    seed = seed_of(redis_client, game_id)

    def on_move(seat, answer, count):
        if answer["status"] != "finished":
            assert_nothing_hidden(answer, seat, [seed])
        if count % 40 == 0:
            for viewer, headers in [(None, {}), (1 - seat, bearer(tokens[1 - seat]))]:
                events = clients[0].get(f"/v1/games/{game_id}/events", headers=headers).json
                if events["status"] != "finished":
                    assert_nothing_hidden(events, viewer, [seed])

    final, _moves = play_to_end(clients, game_id, tokens, on_move=on_move)
    assert final["status"] == "finished"
    assert len(final["result"]["scores"]) == 2
    assert seed in clients[1].get(f"/v1/games/{game_id}/events").text

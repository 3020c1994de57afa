"""Play one game against a Keltis server, as a third-party bot author would.

    .venv/bin/python examples/play.py                      # create a game against a greedy bot
    .venv/bin/python examples/play.py --players 3 --bot random
    .venv/bin/python examples/play.py --join GAME_ID --seat 1 --name bea

Only `requests` and the public HTTP API: create (or join) a game, then, on each turn,
pick one of the legal moves the server lists (GET /moves) and POST it as is.
"""

from __future__ import annotations

import argparse
import random

import requests


def pick(moves: list[dict], rng: random.Random) -> dict:
    """A simple policy: draw from the deck when drawing, otherwise any legal move."""
    for move in moves:
        if move.get("action") == "draw" and move.get("source") == "deck":
            return move
    return rng.choice(moves)


def play(
    base_url: str,
    game: str = "keltis-card",
    name: str = "me",
    players: int = 2,
    bot: str = "greedy",
    join: str | None = None,
    seat: int | None = None,
    session: requests.Session | None = None,
    seed: int | None = None,
) -> dict:
    """Play one game to its end; returns the final game as the server shows it."""
    http = session or requests.Session()
    rng = random.Random(seed)
    if join is not None:
        answer = http.post(f"{base_url}/v1/games/{join}/seats/{seat}/join", json={"name": name})
        answer.raise_for_status()
        game_id, token = join, answer.json()["token"]
    else:
        seats = [{"name": name}] + [{"name": f"{bot}-{n}", "bot": bot} for n in range(1, players)]
        answer = http.post(f"{base_url}/v1/games", json={"game": game, "players": seats})
        answer.raise_for_status()
        created = answer.json()
        game_id, token = created["id"], created["seats"][0]["token"]
        seat = 0
    auth = {"Authorization": f"Bearer {token}"}
    url = f"{base_url}/v1/games/{game_id}"
    while True:
        state = http.get(url, headers=auth).json()
        if state["status"] == "finished":
            return state
        if state["to_move"] == seat:
            moves = http.get(f"{url}/moves", headers=auth).json()["moves"]
            http.post(f"{url}/moves", json=pick(moves, rng), headers=auth).raise_for_status()
        else:  # wait for the others (long poll)
            http.get(f"{url}/events", params={"after": state["version"], "wait": 10}, headers=auth)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--game", default="keltis-card")
    parser.add_argument("--name", default="me")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--join", metavar="GAME_ID")
    parser.add_argument("--seat", type=int, default=1)
    args = parser.parse_args()
    final = play(args.url, args.game, args.name, args.players, args.bot, args.join, args.seat)
    result = final["result"]
    print(f"game {final['id']} finished at version {final['version']}")
    for player, score in zip(final["players"], result["scores"], strict=True):
        mark = "  (winner)" if player["seat"] in result["winners"] else ""
        print(f"  seat {player['seat']} {player['name']}: {score}{mark}")


if __name__ == "__main__":
    main()

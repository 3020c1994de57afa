"""A bot account that plays every game it is seated in, driven by its event stream.

    python examples/stream_bot.py --server http://127.0.0.1:8000 --name streambot
    python examples/stream_bot.py --key kk_...          # an existing account's key

The pull style of an outside player: one account key, one NDJSON stream of events across all
its games (`GET /v1/me/events`), and the move endpoint. The stream opens with a `your_turn`
for every game already waiting on the account, so a bot that reconnects misses nothing;
blank lines are keep-alives. Only `requests` and the public HTTP API.
"""

from __future__ import annotations

import argparse
import json
import random

import requests


def sign_up(server: str, name: str, http: requests.Session) -> str:
    """A new bot account; its key (shown only once)."""
    answer = http.post(f"{server}/v1/accounts", json={"name": name, "bot": True}, timeout=10)
    answer.raise_for_status()
    return answer.json()["key"]


def pick(moves: list[dict], rng: random.Random) -> dict:
    """A simple policy: draw from the deck when drawing, otherwise any legal move."""
    for move in moves:
        if move.get("action") == "draw" and move.get("source") == "deck":
            return move
    return rng.choice(moves)


def take_turn(server: str, game: str, seat: int | None, http: requests.Session, rng) -> None:
    """Play one move in `game` (the seat the stream named); a stale turn is skipped."""
    headers = {} if seat is None else {"X-Keltis-Seat": str(seat)}
    listed = http.get(f"{server}/v1/games/{game}/moves", headers=headers, timeout=10)
    if listed.status_code != 200 or not listed.json()["moves"]:
        return
    body = {**pick(listed.json()["moves"], rng), "expected_version": listed.json()["version"]}
    http.post(f"{server}/v1/games/{game}/moves", json=body, headers=headers, timeout=10)


def run(
    server: str,
    key: str,
    games_to_finish: int | None = None,
    seed: int | None = None,
    http: requests.Session | None = None,
) -> list[str]:
    """Follow the account's stream and move whenever it says so; stops after
    `games_to_finish` finished games (None: never). The ids of the finished games."""
    http = http or requests.Session()
    http.headers["Authorization"] = f"Bearer {key}"
    rng = random.Random(seed)
    finished: list[str] = []
    while games_to_finish is None or len(finished) < games_to_finish:
        with http.get(f"{server}/v1/me/events", stream=True, timeout=(5, 60)) as stream:
            stream.raise_for_status()
            for raw in stream.iter_lines():
                if not raw:
                    continue  # a keep-alive
                line = json.loads(raw)
                if line["type"] == "your_turn":
                    take_turn(server, line["game"], line.get("seat"), http, rng)
                elif line["type"] == "game_finished" and line["game"] not in finished:
                    finished.append(line["game"])
                    if games_to_finish is not None and len(finished) >= games_to_finish:
                        break
    return finished


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--key", help="an account key (default: sign up --name)")
    parser.add_argument("--name", default="streambot")
    parser.add_argument("--games", type=int, default=None, help="stop after N finished games")
    args = parser.parse_args()
    http = requests.Session()
    key = args.key or sign_up(args.server, args.name, http)
    if not args.key:
        print(f"account {args.name}: key {key} (keep it; it is shown only once)")
    for game in run(args.server, key, args.games, http=http):
        print(f"finished {game}")


if __name__ == "__main__":
    main()

"""HTTP helpers of the API tests: create, join, play to the end by picking legal moves (all
seats over HTTP, or one person's seat against bots that a worker plays)."""

from __future__ import annotations

import json
import secrets
import time

from devtools.picks import rotating_pick

_ADDRESSES_GIVEN: set[str] = set()


def own_address(last: int) -> dict:
    """`environ_base` of a client address of its own, 10.x.y.`last` (limits kept per remote
    address see a new client). Never one given before in this process: two random draws
    alone were the same about once in 60,000 pairs, and two tests then shared a quota.
    Random still, for test processes sharing one Redis (REDIS_URL)."""
    while True:
        address = f"10.{secrets.randbelow(256)}.{secrets.randbelow(256)}.{last}"
        if address not in _ADDRESSES_GIVEN:
            _ADDRESSES_GIVEN.add(address)
            return {"REMOTE_ADDR": address}


def one_rate_window(app, at: float | None = None) -> None:
    """Hold the app's rate-limit windows at one instant (`at`, else now). They are fixed
    windows of the wall clock: a test's requests that straddled a minute's boundary were
    counted in two windows, and the request to be refused was let through."""
    counts = app.extensions["keltis_rate_limit"].counts
    instant = counts.clock() if at is None else at
    counts.clock = lambda: instant


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


def create(
    client, game: str, players: list[dict], options: dict | None = None, key: str | None = None
) -> dict:
    """A new game (201); `key`: the creator's account key (an account is seated only with
    its own key)."""
    body = {"game": game, "players": players}
    if options is not None:
        body["options"] = options
    response = client.post("/v1/games", json=body, headers=bearer(key) if key else {})
    assert response.status_code == 201, response.json
    return response.json


def accounts_game(client, game: str, first: dict, second: dict) -> dict:
    """A game of two accounts, each seated with its own consent: `first` creates it with its
    key, `second` joins the open seat with its key; the game as it stands then (started)."""
    players = [{"account": first["name"]}, {"open": True}]
    created = create(client, game, players, key=first["key"])
    url = f"/v1/games/{created['id']}"
    joined = client.post(f"{url}/seats/1/join", json={}, headers=bearer(second["key"]))
    assert joined.status_code == 200, joined.json
    return client.get(url).json


def accounts_game_over_http(base: str, game: str, first: dict, second: dict, http=None) -> dict:
    """`accounts_game` against a server at `base` (`http`: a requests session or module)."""
    import requests

    http = http or requests
    players = [{"account": first["name"]}, {"open": True}]
    body = {"game": game, "players": players}
    made = http.post(f"{base}/v1/games", json=body, headers=bearer(first["key"]), timeout=10)
    assert made.status_code == 201, made.text
    url = f"{base}/v1/games/{made.json()['id']}"
    joined = http.post(f"{url}/seats/1/join", json={}, headers=bearer(second["key"]), timeout=10)
    assert joined.status_code == 200, joined.text
    return http.get(url, timeout=10).json()


def move_each_once_over_http(base: str, game_id: str, keys: dict[int, str], http=None) -> None:
    """Play first legal moves, each seat by its key, until every seat in `keys` has moved
    (a rated game in which a seat never moved is aborted, not rated)."""
    import requests

    http = http or requests
    url, moved = f"{base}/v1/games/{game_id}", set()
    while moved != set(keys):
        seat = http.get(url, timeout=10).json()["to_move"]
        auth = bearer(keys[seat])
        move = http.get(f"{url}/moves", headers=auth, timeout=10).json()["moves"][0]
        answer = http.post(f"{url}/moves", json=move, headers=auth, timeout=10)
        assert answer.status_code == 200, answer.text
        moved.add(seat)


def start_humans(client, game: str, names: list[str]) -> tuple[str, dict[int, str]]:
    """A game whose first seat is created named and the others joined over HTTP."""
    players = [{"name": names[0]}] + [{"open": True} for _ in names[1:]]
    created = create(client, game, players)
    tokens = {seat["seat"]: seat["token"] for seat in created["seats"]}
    for seat, name in enumerate(names[1:], start=1):
        joined = client.post(f"/v1/games/{created['id']}/seats/{seat}/join", json={"name": name})
        assert joined.status_code == 200, joined.json
        tokens[seat] = joined.json["token"]
    return created["id"], tokens


def play_to_end(
    clients: dict,
    game_id: str,
    tokens: dict[int, str],
    max_moves: int = 5000,
    pick=rotating_pick,
    on_move=None,
):
    """Each seat uses its own client; whoever is to move picks from GET /moves.

    `on_move(seat, response_json, count)` sees every POST /moves answer.
    """
    moves = 0
    while True:
        state = clients[0].get(f"/v1/games/{game_id}").json
        if state["status"] == "finished":
            return state, moves
        seat = state["to_move"]
        legal = clients[seat].get(f"/v1/games/{game_id}/moves", headers=bearer(tokens[seat]))
        assert legal.status_code == 200
        assert legal.json["moves"], f"seat {seat} is to move but has no legal move"
        move = pick(legal.json["moves"], moves)
        posted = clients[seat].post(
            f"/v1/games/{game_id}/moves", json=move, headers=bearer(tokens[seat])
        )
        assert posted.status_code == 200, posted.json
        if on_move is not None:
            on_move(seat, posted.json, moves)
        moves += 1
        assert moves < max_moves


def play_against_bots(
    client, created: dict, pick, timeout_s: float, seat: int = 0
) -> tuple[dict, float]:
    """Play `seat` of a game just created (its POST /v1/games answer) whose other seats are
    bots that a worker moves: when the seat is to move it plays `pick(legal_moves)`, else it
    long-polls the events until the bots moved. Stops once the game is finished or after
    `timeout_s`; the last state seen and the seconds taken."""
    game_id, token = created["id"], created["seats"][seat]["token"]
    started = time.monotonic()
    version = created["version"]
    while time.monotonic() - started < timeout_s:
        game = client.get(f"/v1/games/{game_id}", headers=bearer(token)).json
        if game["status"] == "finished":
            break
        if game["to_move"] == seat:
            moves = client.get(f"/v1/games/{game_id}/moves", headers=bearer(token)).json["moves"]
            answer = client.post(
                f"/v1/games/{game_id}/moves", json=pick(moves), headers=bearer(token)
            )
            assert answer.status_code == 200
            version = answer.json["version"]
        else:
            waited = client.get(
                f"/v1/games/{game_id}/events?after={version}&wait=5", headers=bearer(token)
            ).json
            version = waited["version"]
    return game, time.monotonic() - started


def assert_nothing_hidden(payload, viewer: int | None, secrets: list[str]) -> None:
    """No event shows hidden fields to anyone but their owner; no secret string appears."""
    text = json.dumps(payload)
    for secret in secrets:
        assert secret not in text
    for event in _events_in(payload):
        if "hidden" in event:
            assert viewer is not None and event.get("owner") == viewer


def _events_in(payload):
    if isinstance(payload, dict):
        if "event" in payload and isinstance(payload["event"], dict):
            yield payload["event"]
        for value in payload.values():
            yield from _events_in(value)
    elif isinstance(payload, list):
        for value in payload:
            yield from _events_in(value)

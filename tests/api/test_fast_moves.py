"""api.games.fast_moves: a move's two requests answered without Flask's request machinery give the
same answers as Flask's path, byte for byte: twin games (the same id, seed, tokens and clock)
on two Redis databases, one app with the fast path and one without, played move by move;
every error through Flask's own handlers; the hooks' work done once (rate limit, metrics, log
line); a move never run twice."""

from __future__ import annotations

import json

import pytest
import redis

from api import create_app
from api.games import fast_moves
from application.metrics import counters as metrics
from store.games import tokens as store_tokens
from tests.api.helpers import one_rate_window

pytestmark = pytest.mark.redis

CARD = "keltis-card"
GAME_ID = "fastmovestwin"
NOW_MS = 1_800_000_000_000
SEED = bytes(range(32))
IGNORED = {"Date", "Server"}


def db_url(url: str, db: int) -> str:
    """`url` naming database `db` of the same server."""
    if url.startswith("unix://"):
        return f"{url.split('?')[0]}?db={db}"
    return f"{url.rstrip('/').rsplit('/', 1)[0] if url.count('/') > 2 else url}/{db}"


def make_app(url: str, fast: bool, **config):
    app = create_app({"REDIS_URL": url, "TESTING": True, "FAST_MOVES": fast, **config})
    app.extensions["keltis"].clock = lambda: NOW_MS
    return app


def make_twins(redis_url: str, **config) -> tuple:
    """(fast client, Flask-only client, seat tokens): the same game on two databases."""
    apps = []
    for db, fast in ((5, True), (6, False)):
        url = db_url(redis_url, db)
        redis.Redis.from_url(url).flushdb()
        app = make_app(url, fast, **config)
        _, tokens, _ = app.extensions["keltis"].create(
            CARD, [{"name": "ann"}, {"name": "bea"}], {}, game_id=GAME_ID, seed=SEED
        )
        apps.append(app)
    assert isinstance(apps[0].wsgi_app, fast_moves.FastMoves)
    assert not isinstance(apps[1].wsgi_app, fast_moves.FastMoves)
    return apps[0].test_client(), apps[1].test_client(), tokens


@pytest.fixture
def fixed_tokens(monkeypatch):
    monkeypatch.setattr(store_tokens, "new_token", lambda gid, seat: f"{gid}.{seat}.s{seat}")


@pytest.fixture
def twins(redis_url, fixed_tokens):
    return make_twins(redis_url)


def answer_of(response) -> tuple:
    headers = sorted((k, v) for k, v in response.headers.items() if k not in IGNORED)
    return response.status_code, headers, response.get_data()


def both(twins, method: str, path: str, **kwargs) -> tuple:
    """The same request to both apps; their answers, which must be equal."""
    fast, flask, _ = twins
    headers = {"X-Request-Id": "same-id", **kwargs.pop("headers", {})}
    answers = [
        answer_of(client.open(path, method=method, headers=headers, **kwargs))
        for client in (fast, flask)
    ]
    assert answers[0] == answers[1]
    return answers[0]


def auth(token: str, **more) -> dict:
    return {"Authorization": f"Bearer {token}", **more}


def moves_path(version: int | None = None) -> str:
    return f"/v1/games/{GAME_ID}/moves" + ("" if version is None else f"?version={version}")


def test_a_game_played_through_both_paths_answers_alike(twins):
    """Every GET /moves?version and POST /moves of a whole game (full and minimal answers,
    both seats), and the answers of the other seat and of a stale version, byte for byte."""
    _, _, tokens = twins
    posted = 0
    while True:
        game = json.loads(both(twins, "GET", f"/v1/games/{GAME_ID}", headers=auth(tokens[0]))[2])
        if game["status"] == "finished":
            break
        seat, version = game["to_move"], game["version"]
        status, _, body = both(twins, "GET", moves_path(version), headers=auth(tokens[seat]))
        assert status == 200
        moves = json.loads(body)["moves"]
        other = both(twins, "GET", moves_path(version), headers=auth(tokens[1 - seat]))
        assert other[0] == 200 and json.loads(other[2])["moves"] == []
        assert both(twins, "GET", moves_path(version + 1), headers=auth(tokens[seat]))[0] == 409
        prefer = {"Prefer": "return=minimal"} if posted % 2 else {}
        if posted % 3 == 0:  # the version and seat named by headers, as some clients do
            prefer.update({"If-Match": f'"{version}"', "X-Keltis-Seat": str(seat)})
        move = moves[posted % len(moves)]
        status, _, body = both(
            twins, "POST", moves_path(), json=move, headers=auth(tokens[seat], **prefer)
        )
        assert status == 200 and json.loads(body)["version"] > version
        posted += 1
    assert posted > 50 and game["status"] == "finished"


def current(twins) -> tuple[int, int, list]:
    """(version, seat to move, its legal moves), read through the Flask-only app."""
    _, flask, tokens = twins
    game = flask.get(f"/v1/games/{GAME_ID}", headers=auth(tokens[0])).json
    seat = game["to_move"]
    moves = flask.get(moves_path(), headers=auth(tokens[seat])).json["moves"]
    return game["version"], seat, moves


def test_every_refusal_is_flasks_own_error_answer(twins):
    _, _, tokens = twins
    version, seat, moves = current(twins)
    me, other = auth(tokens[seat]), auth(tokens[1 - seat])
    refused = [
        ("POST", moves_path(), {"json": {"action": "fly"}, "headers": me}),
        ("POST", moves_path(), {"json": moves[0], "headers": other}),
        ("POST", moves_path(), {"json": moves[0], "headers": auth(f"{GAME_ID}.{seat}.forged")}),
        ("POST", moves_path(), {"json": moves[0], "headers": auth(f"elsewhere.{seat}.s{seat}")}),
        ("POST", moves_path(), {"json": moves[0], "headers": {"Authorization": "Basic eA=="}}),
        ("POST", moves_path(), {"json": moves[0]}),
        (
            "POST",
            moves_path(),
            {"json": {**moves[0], "expected_version": version - 1}, "headers": me},
        ),
        ("POST", moves_path(), {"data": b"{", "content_type": "application/json", "headers": me}),
        ("POST", moves_path(), {"json": [moves[0]], "headers": me}),
        ("POST", moves_path(), {"json": {"action": ""}, "headers": me}),
        ("POST", moves_path(), {"data": b"x", "content_type": "text/plain", "headers": me}),
        ("POST", moves_path(), {"json": moves[0], "headers": {**me, "Idempotency-Key": "a b"}}),
        (
            "POST",
            moves_path(),
            {"json": moves[0], "headers": {**me, "If-Match": f'"{version - 1}"'}},
        ),
        ("POST", moves_path(), {"json": moves[0], "headers": {**me, "X-Keltis-Seat": "x"}}),
        (
            "POST",
            moves_path(),
            {"json": moves[0], "headers": {**me, "X-Keltis-Seat": str(1 - seat)}},
        ),
        ("POST", moves_path(), {"json": moves[0], "headers": {**me, "If-Match": "soon"}}),
        ("GET", moves_path(version), {"headers": {**me, "X-Keltis-Seat": "x"}}),
        ("GET", moves_path(version + 5), {"headers": me}),
        ("GET", moves_path(version), {"headers": auth(f"{GAME_ID}.{seat}.forged")}),
        ("GET", moves_path(version), {}),
        ("GET", moves_path() + "?version=abc", {"headers": me}),
        ("GET", "/v1/games/nosuchgame/moves?version=1", {"headers": auth("nosuchgame.0.s0")}),
        ("PUT", moves_path(), {"json": moves[0], "headers": me}),
        ("GET", "/v1/games/%C3%A9t%C3%A9/moves?version=1", {"headers": me}),
    ]
    for method, path, kwargs in refused:
        status, _, body = both(twins, method, path, **kwargs)
        assert status >= 400, (method, path, kwargs, body)
        assert set(json.loads(body)) == {"error"}, body
    assert current(twins)[0] == version  # nothing was played


def test_the_fast_path_answers_without_the_views_and_hands_the_rest_to_them(
    redis_url, fixed_tokens
):
    fast, _, tokens = make_twins(redis_url)
    app = fast.application
    for endpoint in ("games.post_move", "games.get_moves"):
        app.view_functions[endpoint] = lambda **_: ("the view", 299)
    version, seat, moves = current_of(fast, tokens)
    assert fast.get(moves_path(version), headers=auth(tokens[seat])).status_code == 200
    assert fast.get(moves_path(), headers=auth(tokens[seat])).status_code == 299
    unusual = fast.post(moves_path(), json={"action": ""}, headers=auth(tokens[seat]))
    assert unusual.status_code == 299  # its body was read, then handed to the view whole
    malformed = {"Authorization": "Basic eA=="}  # not a bearer token: Flask's path answers
    assert fast.post(moves_path(), json=moves[0], headers=malformed).status_code == 299
    if_match = {"If-Match": f'"{version}"', "X-Keltis-Seat": str(seat)}
    played = fast.post(moves_path(), json=moves[0], headers=auth(tokens[seat], **if_match))
    assert played.status_code == 200 and played.json["version"] > version


def current_of(client, tokens) -> tuple[int, int, list]:
    game = client.get(f"/v1/games/{GAME_ID}", headers=auth(tokens[0])).json
    seat = game["to_move"]
    version = game["version"]
    moves = client.get(moves_path(version), headers=auth(tokens[seat])).json["moves"]
    return version, seat, moves


def test_a_failure_after_the_commit_is_answered_once_and_never_replays_the_move(
    redis_url, fixed_tokens, monkeypatch
):
    """The move is appended, then a later step fails (here: caching the new version): the
    answer is the error shape from Flask's handler, and the game moved on by that one move,
    as on Flask's own path."""
    twins = make_twins(redis_url)
    version, seat, moves = current(twins)
    for client in twins[:2]:
        service = client.application.extensions["keltis"]
        monkeypatch.setattr(service, "_committed", _fail_after_commit)
    status, _, body = both(twins, "POST", moves_path(), json=moves[0], headers=auth(twins[2][seat]))
    assert status == 500 and json.loads(body)["error"]["code"]
    for client in twins[:2]:
        client.application.extensions["keltis"].cache.discard(GAME_ID)
        assert current_of(client, twins[2])[0] == version + 1


def _fail_after_commit(*_args, **_kwargs):
    raise RuntimeError("a step after the commit failed")


def test_the_rate_limit_counts_a_request_handed_to_flask_once(redis_url, fixed_tokens):
    fast, _, tokens = make_twins(
        redis_url, RATELIMIT_ENABLED=True, RATELIMIT_APPLICATION="3 per minute"
    )
    one_rate_window(fast.application)
    version, seat, _ = current_of_unlimited(redis_url, tokens)
    answers = [
        fast.post(moves_path(), json={"action": ""}, headers=auth(tokens[seat])).status_code
        for _ in range(4)
    ]
    assert answers == [422, 422, 422, 429]
    refused = fast.get(moves_path(version), headers=auth(tokens[seat]))
    assert refused.status_code == 429 and refused.json["error"]["code"] == "rate_limited"
    assert refused.headers["Retry-After"]


def current_of_unlimited(redis_url: str, tokens) -> tuple[int, int, list]:
    """`current_of` through an app of the fast twin's database without a rate limit."""
    return current_of(make_app(db_url(redis_url, 5), False).test_client(), tokens)


def test_the_metrics_and_the_log_line_are_the_same_on_both_paths(redis_url, fixed_tokens):
    lines: list[bytes] = []
    twins = make_twins(redis_url, REQUEST_LOG=True, REQUEST_LOG_SINK=lines.append)
    _, seat, moves = current(twins)
    series = metrics.REQUESTS.labels("/v1/games/<game_id>/moves", "POST", "200")
    before = series._value.get()
    lines.clear()
    both(twins, "POST", moves_path(), json=moves[0], headers=auth(twins[2][seat]))
    assert series._value.get() == before + 2  # one answer of each app
    logged = [json.loads(line) for line in lines]
    for line in logged:
        del line["at"], line["ms"]
    assert (
        logged[0]
        == logged[1]
        == {
            "request_id": "same-id",
            "method": "POST",
            "route": "/v1/games/<game_id>/moves",
            "path": moves_path(),
            "status": 200,
        }
    )


def test_keltis_fast_moves_off_leaves_every_request_to_flask(redis_url, monkeypatch):
    monkeypatch.setenv(fast_moves.ENV, "off")
    app = create_app({"REDIS_URL": redis_url, "TESTING": True})
    assert not isinstance(app.wsgi_app, fast_moves.FastMoves)
    monkeypatch.setenv(fast_moves.ENV, "on")
    app = create_app({"REDIS_URL": redis_url, "TESTING": True})
    assert isinstance(app.wsgi_app, fast_moves.FastMoves)


def test_a_move_repeated_with_its_idempotency_key_is_answered_alike(twins):
    _, seat, moves = current(twins)
    keyed = auth(twins[2][seat], **{"Idempotency-Key": "move-1"})
    first = both(twins, "POST", moves_path(), json=moves[0], headers=keyed)
    again = both(twins, "POST", moves_path(), json=moves[0], headers=keyed)
    assert first[0] == again[0] == 200 and first[2] == again[2]
    assert ("Idempotent-Replayed", "true") in again[1]
    if len(moves) > 1:
        other = both(twins, "POST", moves_path(), json=moves[1], headers=keyed)
        assert other[0] == 422


def test_an_app_with_a_request_hook_the_fast_path_does_not_declare_refuses_to_start(
    redis_url,
):
    """A hook added to the app would run on Flask's path only: the fast path names it and
    refuses, at start and at the first request (hooks added after the app was made)."""
    app = make_app(db_url(redis_url, 5), False)

    @app.before_request
    def audit():
        return None

    with pytest.raises(fast_moves.UndeclaredHook, match="audit"):
        fast_moves.FastMoves(app, app.wsgi_app)
    late = make_app(db_url(redis_url, 5), True)
    late.after_request(lambda response: response)
    with pytest.raises(fast_moves.UndeclaredHook, match="lambda"):
        late.test_client().get("/healthz")
    assert fast_moves.app_hooks(make_app(db_url(redis_url, 5), True)) <= fast_moves.HOOKS.keys()

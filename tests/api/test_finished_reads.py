"""A finished game's replay, replay page and `?at=` answers are built once, kept compressed,
and revalidated by a strong ETag; a live game's are never kept nor served from the cache."""

from __future__ import annotations

import dataclasses
import gzip
import secrets
import threading
import time

import brotli
import orjson
import pytest
from flask.testing import FlaskClient

from api.core import schemas
from api.games import presenters
from application.games import built_once, history, replay_reads
from application.games.service import GameService
from devtools.finished_games import finish_bot_game
from store import keys
from store.games.derived import DerivedStore

PAGE = "replay.html"
WAIT_S = 30  # bound of every wait on another thread below


@pytest.fixture
def games(redis_client) -> GameService:
    return GameService(redis_client)


@pytest.fixture
def finished(games) -> str:
    return finish_bot_game(games, "keltis-card").game_id


@pytest.fixture
def raw(app) -> FlaskClient:
    """A client that does not hold answers against the contract (a compressed JSON body is
    not JSON to it)."""
    return FlaskClient(app)


def toy_game(games, toy, finish: bool):
    """A toy game of two named seats, played to its end when `finish`: id, tokens."""
    record, tokens, _ = games.create(toy, [{"name": "a"}, {"name": "b"}], {})
    while finish and not record.finished:
        move = record.rules.legal_moves(record.state, record.to_move)[0]
        games.play(record.game_id, tokens[record.to_move], move, lambda *a: {})
        record, _, _ = games.load(record.game_id)
    return record.game_id, tokens


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def derived_fields(redis_client, game_id: str) -> set[bytes]:
    return set(redis_client.hkeys(keys.game_derived(game_id)))


@pytest.mark.parametrize(
    ("accept", "coding"),
    [
        ("gzip, br", "br"),
        ("br;q=0.5, gzip", "gzip"),
        ("gzip", "gzip"),
        ("*", "br"),
        ("br;q=0, gzip;q=0", None),
        (None, None),
    ],
)
def test_the_page_comes_in_the_coding_the_client_accepts(client, finished, accept, coding):
    headers = {"Accept-Encoding": accept} if accept else {}
    answer = client.get(f"/v1/games/{finished}/{PAGE}", headers=headers)
    assert answer.status_code == 200 and answer.mimetype == "text/html"
    assert answer.headers.get("Content-Encoding") == coding
    assert "Accept-Encoding" in answer.headers["Vary"]
    unpack = {"br": brotli.decompress, "gzip": gzip.decompress, None: lambda body: body}
    html = unpack[coding](answer.data).decode()
    assert "<title>Keltis replay" in html and finished in html
    plain = client.get(f"/v1/games/{finished}/{PAGE}")
    assert int(plain.headers["Content-Length"]) == len(plain.data)
    assert unpack[coding](answer.data) == plain.data


def test_the_replay_download_is_compressed_too_and_is_the_same_replay(client, raw, finished):
    plain = client.get(f"/v1/games/{finished}/replay")
    packed = raw.get(f"/v1/games/{finished}/replay", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert packed.headers["Content-Disposition"] == plain.headers["Content-Disposition"]
    assert orjson.loads(gzip.decompress(packed.data)) == plain.json
    assert plain.json["header"]["game_id"] == finished


def test_an_etag_revalidates_with_304_whatever_coding_it_was_sent_in(client, finished):
    url = f"/v1/games/{finished}/{PAGE}"
    first = client.get(url, headers={"Accept-Encoding": "br"})
    etag = first.headers["ETag"]
    assert etag.startswith('"') and etag.endswith(':br"') and not etag.startswith("W/")
    assert first.headers["Cache-Control"] == "public, no-cache"  # kept, asked again each use
    for accept in ("br", "gzip", None):
        headers = {"If-None-Match": etag, **({"Accept-Encoding": accept} if accept else {})}
        again = client.get(url, headers=headers)
        assert again.status_code == 304 and again.data == b""
        assert again.headers["ETag"] and "Accept-Encoding" in again.headers["Vary"]
    weakened = client.get(url, headers={"If-None-Match": f"W/{etag}"})  # as a proxy may
    assert weakened.status_code == 304
    for odd in ('""', 'W/""', "W/", ",", "*x"):
        assert client.get(url, headers={"If-None-Match": odd}).status_code == 200, odd
    stale = client.get(url, headers={"If-None-Match": '"0123456789abcdef:br"'})
    assert stale.status_code == 200 and stale.data


def test_a_second_fetch_reads_what_the_first_built(client, raw, finished):
    before = built_once.builds
    for accept in ("br", "gzip", None):
        for path in (PAGE, "replay"):
            headers = {"Accept-Encoding": accept} if accept else {}
            assert raw.get(f"/v1/games/{finished}/{path}", headers=headers).status_code == 200
    assert built_once.builds == before + 1  # the page and the download, in every coding


@pytest.fixture
def waiters(monkeypatch) -> list[int]:
    """Counts the requests of this process that wait on another one's build."""
    waiting: list[int] = []

    class CountedEvent(threading.Event):
        def wait(self, timeout=None):
            waiting.append(1)
            return super().wait(timeout)

    @dataclasses.dataclass
    class CountedFlight(built_once._Flight):
        done: threading.Event = dataclasses.field(default_factory=CountedEvent)

    monkeypatch.setattr(built_once, "_Flight", CountedFlight)
    return waiting


def held(build, started: threading.Event, release: threading.Event):
    """`build`, once it has said it started and been released."""

    def held_build(*args):
        started.set()
        assert release.wait(WAIT_S)
        return build(*args)

    return held_build


def beside_a_held_build(first, second, started, release, waiters) -> None:
    """Run `first` until its build starts, then `second` until it waits on that build;
    release the build and let both end."""
    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    threads[0].start()
    assert started.wait(WAIT_S)
    threads[1].start()
    deadline = time.monotonic() + WAIT_S
    while not waiters and time.monotonic() < deadline:
        time.sleep(0.01)
    assert waiters, "the second request never waited on the first one's build"
    release.set()
    for thread in threads:
        thread.join(WAIT_S)


def test_requests_beside_a_build_wait_for_it_and_never_build_again(
    app, finished, monkeypatch, waiters
):
    started, release = threading.Event(), threading.Event()
    monkeypatch.setattr(
        replay_reads, "built_files", held(replay_reads.built_files, started, release)
    )
    answers = []

    def fetch():
        answers.append(FlaskClient(app).get(f"/v1/games/{finished}/{PAGE}"))

    before = built_once.builds
    beside_a_held_build(fetch, fetch, started, release, waiters)
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].data == answers[1].data
    assert built_once.builds == before + 1


def test_a_request_beside_a_build_gets_its_own_part_of_it(redis_client, waiters):
    store, game_id = DerivedStore(redis_client), secrets.token_urlsafe(16)
    started, release = threading.Event(), threading.Event()
    build = held(lambda: {"1": b"one", "2": b"two"}, started, release)
    found = {}

    def fetch(part: str):
        return lambda: found.update(built_once.fetch(store, game_id, "n", (part,), build))

    before = built_once.builds
    beside_a_held_build(fetch("1"), fetch("2"), started, release, waiters)
    assert found == {"1": b"one", "2": b"two"}
    assert built_once.builds == before + 1


def test_another_process_build_is_awaited_not_repeated(app, games, finished, monkeypatch):
    record, _, _ = games.load(finished)
    name = f"replay/{record.version}/0"
    store = DerivedStore(games.client)
    assert store.begin(finished, name, "another-process", 60_000)
    answers = []
    fetching = threading.Thread(
        target=lambda: answers.append(FlaskClient(app).get(f"/v1/games/{finished}/{PAGE}"))
    )
    before = built_once.builds
    fetching.start()
    made = replay_reads.built_files(finished, games.store.load(finished).entries, None)
    store.write(finished, name, made, 60)
    store.end(finished, name, "another-process")
    fetching.join(WAIT_S)
    assert answers and answers[0].status_code == 200
    assert built_once.builds == before
    assert answers[0].data == gzip.decompress(made[f"{PAGE}:gzip"])


def test_R2_a_live_game_has_no_replay_and_nothing_of_it_is_kept(client, games, toy, redis_client):
    game_id, _ = toy_game(games, toy, finish=False)
    record, _, _ = games.load(game_id)
    # a file planted under the name the finished game would have is never served
    planted = {"replay.html:etag": b"x", "replay.html:length": b"5", "replay.html:gzip": b"x"}
    DerivedStore(redis_client).write(game_id, f"replay/{record.version}/0", planted, 60)
    for path in (PAGE, "replay"):
        answer = client.get(f"/v1/games/{game_id}/{path}", headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 409
        assert answer.json["error"]["code"] == "game_not_finished"
    name = f"replay/{record.version}/0"
    assert derived_fields(redis_client, game_id) == {f"{name}|{p}".encode() for p in planted}


def test_R2_a_live_games_past_is_never_kept_and_shows_no_hand(client, games, toy, redis_client):
    game_id, tokens = toy_game(games, toy, finish=False)
    record, _, _ = games.load(game_id)
    for viewer in (None, 0):
        headers = bearer(tokens[viewer]) if viewer is not None else {}
        answer = client.get(f"/v1/games/{game_id}?at={record.version}", headers=headers)
        assert answer.status_code == 200
        assert answer.headers["ETag"] == f'"{record.version}"'
        hands = answer.json["view"].get("hands")
        assert hands is None or all(hand is None for i, hand in enumerate(hands) if i != viewer)
    assert derived_fields(redis_client, game_id) == set()


def test_a_finished_games_past_is_built_once_for_every_viewer(app, client, games, toy):
    game_id, tokens = toy_game(games, toy, finish=True)
    record, _, _ = games.load(game_id)
    at = record.version // 2
    before = built_once.builds
    answers = {}
    for viewer in (None, 0, 1, None):
        headers = bearer(tokens[viewer]) if viewer is not None else {}
        answers[viewer] = client.get(f"/v1/games/{game_id}?at={at}", headers=headers)
        assert answers[viewer].status_code == 200
    assert built_once.builds == before + 1
    entries = games.entries_after(game_id, 0, record.version)
    with app.app_context():
        for viewer, answer in answers.items():
            then = history.fold_at(game_id, entries, at)
            payload = presenters.game(then, viewer, revealed=True)
            assert answer.json == schemas.use(schemas.GameSchema).dump(payload)
    assert answers[0].json["seat"] == 0 and answers[1].json["seat"] == 1
    assert answers[0].headers["ETag"] != answers[1].headers["ETag"]  # `seat` differs
    etag = answers[0].headers["ETag"]
    again = client.get(
        f"/v1/games/{game_id}?at={at}", headers={**bearer(tokens[0]), "If-None-Match": etag}
    )
    assert again.status_code == 304 and again.headers["ETag"] == etag
    assert built_once.builds == before + 1


def test_a_finished_games_every_version_is_as_the_fold_from_its_head_shows_it(
    app, client, games, finished
):
    record, _, _ = games.load(finished)
    entries = games.entries_after(finished, 0, record.version)
    before = built_once.builds
    with app.app_context():
        for at in range(1, record.version + 1):
            then = history.fold_at(finished, entries, at)
            payload = presenters.game(then, None, revealed=True)
            expected = schemas.use(schemas.GameSchema).dump(payload)
            assert client.get(f"/v1/games/{finished}?at={at}").json == expected, at
    assert built_once.builds == before + 1  # every version at once


def test_a_done_analysis_is_another_file(raw, redis_client, finished):
    url = f"/v1/games/{finished}/replay"
    first = raw.get(url)
    assert "analysis" not in orjson.loads(first.data)
    analysis = {"game_id": finished, "seats": []}  # its shape does not matter here
    done = {"status": "done", "result": orjson.dumps(analysis)}
    redis_client.hset(keys.game_analysis(finished), mapping=done)
    second = raw.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert second.status_code == 200 and second.headers["ETag"] != first.headers["ETag"]
    assert orjson.loads(second.data)["analysis"] == analysis


def test_a_build_held_elsewhere_too_long_is_a_503_and_a_dead_builders_is_taken_over(
    redis_client,
):
    store, game_id = DerivedStore(redis_client), secrets.token_urlsafe(16)
    assert store.begin(game_id, "n", "a-live-process", 60_000)
    with pytest.raises(built_once.StillBuilding):
        built_once.fetch(store, game_id, "n", ("1",), lambda: {"1": b"mine"}, wait_s=0.2)
    assert store.begin(game_id, "m", "a-dead-process", 100)  # it never ends its lease
    before = built_once.builds
    found = built_once.fetch(store, game_id, "m", ("1",), lambda: {"1": b"mine"}, wait_s=WAIT_S)
    assert found == {"1": b"mine"} and built_once.builds == before + 1
    assert not store.leased(game_id, "m")

"""A finished game's files and past from the real stack (gunicorn's gevent workers build
them on native threads: application.common.offload), fetched by several clients at once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from application.games.service import GameService
from devtools.finished_games import finish_bot_game
from store import keys

CLIENTS = 4


@pytest.fixture
def finished(redis_client) -> str:
    return finish_bot_game(GameService(redis_client), "keltis-card").game_id


def test_clients_at_once_get_one_page_compressed_and_revalidated(live_stack, session, finished):
    url = f"{live_stack.base_url}/v1/games/{finished}/replay.html"

    def fetch(_):
        return session.get(url, headers={"Accept-Encoding": "gzip, br"}, timeout=60)

    with ThreadPoolExecutor(CLIENTS) as pool:
        answers = list(pool.map(fetch, range(CLIENTS)))
    assert {a.status_code for a in answers} == {200}
    assert {a.headers["Content-Encoding"] for a in answers} == {"br"}
    assert len({a.content for a in answers}) == 1 and b"<title>Keltis replay" in answers[0].content
    etag = answers[0].headers["ETag"]
    again = session.get(url, headers={"If-None-Match": etag, "Accept-Encoding": "gzip"})
    assert again.status_code == 304


def test_a_finished_games_past_from_the_real_stack(live_stack, session, redis_client, finished):
    base = f"{live_stack.base_url}/v1/games/{finished}"
    now = session.get(base).json()
    with ThreadPoolExecutor(CLIENTS) as pool:
        past = list(pool.map(lambda at: session.get(f"{base}?at={at}", timeout=60), range(1, 9)))
    assert [a.status_code for a in past] == [200] * 8
    assert past[-1].json()["version"] <= 8 and past[-1].json()["view"] is not None
    last = session.get(f"{base}?at={now['version']}").json()
    assert last["view"] == now["view"] and last["result"] == now["result"]
    name = f"at/{now['version']}|{now['version']}".encode()
    assert redis_client.hexists(keys.game_derived(finished), name)

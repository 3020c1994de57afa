"""A replaced key's held requests: how long after POST /v1/me/key every
stream and long poll the old key opened has ended, on the stack as `keltis serve` runs it
(gunicorn with several processes, so the requests land on different processes).

Each of ROUNDS rounds: a new bot account seated in a new game opens three game streams, its
account stream and two long polls (wait=25), then replaces its key. Prints
key_replacement_end_ms_p50 / _max over the rounds: the time from the replacement's answer to
the last of the six ends (goal < 1,000), and the statuses seen.
"""

from __future__ import annotations

import concurrent.futures
import secrets
import statistics
import time

import requests

from bench.api import served_stack

ROUNDS = 10
STREAMS = 3  # game streams per round, beside the account stream and the long polls
POLLS = 2


def hold(url: str, headers: dict, opened: concurrent.futures.Future) -> tuple[int, float, bytes]:
    """GET `url` and read it to its end; its status, when it ended (monotonic), and what
    came after the first line. Sets `opened` once the first line (or a refusal) arrived."""
    with requests.get(url, headers=headers, stream=True, timeout=30) as response:
        if response.status_code != 200:
            opened.set_result(True)
            return response.status_code, time.monotonic(), response.content
        lines = response.iter_lines()
        next(lines)  # the opening line (a keep-alive, or the catch-up)
        opened.set_result(True)
        rest = b"\n".join(line for line in lines if line)
        return 200, time.monotonic(), rest


def poll(url: str, headers: dict) -> tuple[requests.Response, float]:
    """GET `url` (a long poll); its answer and when it came (monotonic)."""
    answer = requests.get(url, headers=headers, timeout=30)
    return answer, time.monotonic()


def held_requests(base: str) -> tuple[dict, list[str], list[str]]:
    """A new bot account seated in a new game: (its auth header, stream URLs, poll URLs)."""
    name = f"kr_{secrets.token_hex(4)}"
    account = requests.post(f"{base}/v1/accounts", json={"name": name, "bot": True}, timeout=10)
    players = [{"account": name}, {"name": "bea"}]
    auth = {"Authorization": f"Bearer {account.json()['key']}"}  # seated with its own key
    created = requests.post(
        f"{base}/v1/games",
        json={"game": "keltis-card", "players": players},
        headers=auth,
        timeout=10,
    ).json()
    game, version = f"{base}/v1/games/{created['id']}", created["version"]
    streams = [f"{game}/stream?after={version}"] * STREAMS + [f"{base}/v1/me/events"]
    polls = [f"{game}/events?after={version}&wait=25"] * POLLS
    return {"Authorization": f"Bearer {account.json()['key']}"}, streams, polls


def one_round(base: str) -> tuple[float, set[int]]:
    """Open the held requests, replace the key: (ms until the last ended, statuses)."""
    auth, streams, polls = held_requests(base)
    with concurrent.futures.ThreadPoolExecutor(len(streams) + len(polls)) as pool:
        opened = [concurrent.futures.Future() for _ in streams]
        held = [pool.submit(hold, u, auth, o) for u, o in zip(streams, opened, strict=True)]
        waits = [pool.submit(poll, u, auth) for u in polls]
        for future in opened:
            future.result(timeout=10)
        time.sleep(0.5)  # the long polls reach the server and wait
        requests.post(f"{base}/v1/me/key", headers=auth, timeout=10).raise_for_status()
        at = time.monotonic()
        ends = [future.result(timeout=30)[1] for future in held]
        answers = [future.result(timeout=30) for future in waits]
    ends += [ended for _, ended in answers]
    return (max(ends) - at) * 1000, {answer.status_code for answer, _ in answers}


def run() -> None:
    """Start the stack, measure ROUNDS rounds, print `name: value` lines."""
    with served_stack() as stack:
        rounds = [one_round(stack.base_url) for _ in range(ROUNDS)]
    times = [ms for ms, _ in rounds]
    statuses = sorted(set().union(*(s for _, s in rounds)))
    print(f"key_replacement_end_ms_p50: {statistics.median(times):.1f}")
    print(f"key_replacement_end_ms_max: {max(times):.1f}")
    print(f"key_replacement_rounds: {len(times)}")
    print(f"key_replacement_poll_statuses: {','.join(map(str, statuses))}")


if __name__ == "__main__":
    run()

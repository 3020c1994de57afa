"""`keltis export`: download finished games' replays from a server (GET /v1/games/export)
into an NDJSON file, one replay a line, with a progress bar; resumable."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path

import click

from replays.files import MAX_FILE_BYTES
from replays.shown import one_line

RETRIES = 3  # reconnections after a cut stream, each from the last line written
CHUNK = 1024 * 1024


@click.command()
@click.option("--server", required=True, help="Base URL, e.g. http://127.0.0.1:8000")
@click.option("--game", default=None, help="Only this game type.")
@click.option("--since", type=int, default=None, help="Created at or after (ms since epoch).")
@click.option("--until", type=int, default=None, help="Created before (ms since epoch).")
@click.option("--tournament", default=None, help="Only this tournament's games.")
@click.option("--account", default=None, help="Only games with a seat of this account.")
@click.option("--arena", default=None, help="Only this arena's games.")
@click.option("--limit", type=int, default=None, help="At most this many games.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), required=True)
@click.option(
    "--resume", is_flag=True, help="Append to OUTPUT after the last game it holds (its cursor)."
)
@click.option("--progress/--no-progress", default=True, show_default=True)
def export(server, game, since, until, tournament, account, arena, limit, output, resume, progress):
    """Write the replays of finished games to OUTPUT, one JSON line each (`{"cursor",
    "replay"}`), newest first; `keltis replay verify OUTPUT` checks every line."""
    import requests
    from tqdm import tqdm

    target = Path(output)
    cursor = last_cursor(target) if resume and target.exists() else None
    query = {
        "game": game,
        "since": since,
        "until": until,
        "tournament": tournament,
        "account": account,
        "arena": arena,
    }
    query = {name: value for name, value in query.items() if value is not None}
    walk = Walk(cursor)
    breaks, end = 0, None
    broken = (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError)
    with (
        target.open("ab" if resume else "wb") as out,
        tqdm(unit=" games", disable=not progress, desc="export") as bar,
    ):
        while end is None or _goes_on(end, limit, walk):
            if end is not None:  # the server's time for one stream ran out: go on from it
                walk.cursor, end = end["next_cursor"], None
            page = {**query, **({"cursor": walk.cursor} if walk.cursor else {})}
            if limit is not None:
                page["limit"] = limit - walk.written
            try:
                end = _download(requests, server, page, out, bar, walk)
            except broken:
                end = None
            if end is None:  # cut before its last line: go on after the last line written
                breaks += 1
                if breaks > RETRIES:
                    raise click.ClickException("the stream kept breaking; run again with --resume")
                time.sleep(min(2**breaks, 10))
    click.echo(f"exported {walk.written} games to {target}", err=True)


@dataclass
class Walk:
    """Where a download stands: the cursor of the last line written, and lines written."""

    cursor: str | None
    written: int = 0


def _download(requests, server, query, out, bar, walk: Walk) -> dict | None:
    """One request: write each replay line as it comes (noting it in `walk`); the export's
    last line, or None when the stream ended before it."""
    url = server.rstrip("/") + "/v1/games/export"
    with requests.get(url, params=query, stream=True, timeout=(10, 300)) as response:
        if response.status_code != 200:
            problem = f"{url}: {response.status_code} {_error(response)}"
            raise click.ClickException(one_line(problem))
        for raw in response.iter_lines(chunk_size=CHUNK):
            if not raw:
                continue
            if len(raw) > MAX_FILE_BYTES:
                raise click.ClickException("the server sent a line longer than a replay may be")
            line = json.loads(raw)
            if line.get("end") is True:
                return line
            out.write(raw + b"\n")
            walk.cursor = line["cursor"]
            walk.written += 1
            bar.update(1)
    out.flush()
    return None


def _goes_on(end: dict, limit: int | None, walk: Walk) -> bool:
    """Whether an export that ended with `end` has more to give (and is wanted)."""
    return bool(end.get("next_cursor")) and (limit is None or walk.written < limit)


def _error(response) -> str:
    try:
        return response.json()["error"]["message"]
    except (ValueError, KeyError, TypeError):
        return response.reason or ""


def last_cursor(path: Path) -> str | None:
    """The cursor of the last whole line of an export file (a cut last line is dropped)."""
    with path.open("rb+") as file:
        file.seek(0, 2)
        size = file.tell()
        start = max(0, size - 2 * MAX_FILE_BYTES)
        file.seek(start)
        tail = file.read()
        whole = tail[: tail.rfind(b"\n") + 1]
        file.truncate(start + len(whole))  # a line cut mid-way is downloaded again
    for raw in reversed(whole.splitlines()):
        if raw.strip():
            return json.loads(raw)["cursor"]
    return None

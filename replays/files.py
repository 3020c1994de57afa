"""Reading and writing replay files (UTF-8 JSON), with the limits of FORMAT.md."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator

from replays.bounds import MAX_DEPTH, check_bounds
from replays.errors import MalformedReplay

MAX_FILE_BYTES = 16 * 1024 * 1024  # a 4-player game's replay is about 100 KB


def load_replay(path) -> dict:
    """The decoded replay in `path`; MalformedReplay when it cannot be read, is larger than
    MAX_FILE_BYTES, is not UTF-8 or not JSON, or leaves the bounds (replays.bounds)."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        raise MalformedReplay(f"cannot read {path}: {error.strerror or error}") from None
    if len(data) > MAX_FILE_BYTES:
        raise MalformedReplay(f"larger than {MAX_FILE_BYTES} bytes, the most a replay may be")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise MalformedReplay(f"not UTF-8 text (byte {error.start}: {error.reason})") from None
    return parse_replay(text)


def parse_replay(text: str) -> dict:
    """The decoded replay in `text`; MalformedReplay when it is not JSON or leaves the bounds."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        raise MalformedReplay(f"not JSON: {error}") from None
    except RecursionError:
        raise MalformedReplay(f"not a replay: nested more than {MAX_DEPTH} levels deep") from None
    except ValueError:  # only the integer conversion limit is left
        digits = sys.get_int_max_str_digits()
        raise MalformedReplay(f"not a replay: an integer has more than {digits} digits") from None
    check_bounds(value)
    return value


def _refuse_constant(name: str):
    raise MalformedReplay(f"not JSON: {name} is not a number JSON allows")


def dump_replay(replay: dict) -> str:
    """A replay as readable JSON text (key order kept; the chain does not depend on it)."""
    return json.dumps(replay, ensure_ascii=False, indent=1) + "\n"


def is_export(path) -> bool:
    """Whether `path` holds an export (NDJSON: GET /v1/games/export or `keltis export`)
    rather than one replay: its first line is a whole JSON object with a `replay` (or the
    export's last line, `end`). A replay file, even one written on one line, is not."""
    try:
        with open(path, "rb") as file:
            first = file.readline(MAX_FILE_BYTES + 1).strip()
    except OSError:
        return False
    if len(first) < 2 or not first.startswith(b"{") or not first.endswith(b"}"):
        return False
    try:
        line = json.loads(first)
    except (ValueError, RecursionError):
        return False
    return isinstance(line, dict) and ("replay" in line or line.get("end") is True)


def export_lines(path) -> Iterator[tuple[int, dict | MalformedReplay | None]]:
    """(line number, replay) per line of an export file, read one line at a time: the
    line's `replay` (or the line itself when it has none), MalformedReplay for a line that is
    not one (too long, not UTF-8, not JSON, out of bounds), None for the export's last line
    (`{"end": true, ...}`) and blank lines."""
    with open(path, "rb") as file:
        number = 0
        while True:
            raw = file.readline(MAX_FILE_BYTES + 1)
            if not raw:
                return
            number += 1
            if len(raw) > MAX_FILE_BYTES:
                yield number, MalformedReplay(f"line longer than {MAX_FILE_BYTES} bytes")
                while raw and not raw.endswith(b"\n"):  # skip the rest of the line
                    raw = file.readline(MAX_FILE_BYTES + 1)
                continue
            yield number, _export_line(raw)


def _export_line(raw: bytes) -> dict | MalformedReplay | None:
    if not raw.strip():
        return None
    try:
        value = parse_replay(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        return MalformedReplay(f"not UTF-8 text (byte {error.start}: {error.reason})")
    except MalformedReplay as error:
        return error
    if isinstance(value, dict) and value.get("end") is True and "replay" not in value:
        return None
    if isinstance(value, dict) and "replay" in value:
        return value["replay"]
    return value

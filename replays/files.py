"""Reading and writing replay files (UTF-8 JSON)."""

from __future__ import annotations

import json
from pathlib import Path

from replays.errors import MalformedReplay


def load_replay(path) -> dict:
    """The decoded replay in `path`; MalformedReplay when it is not readable JSON."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise MalformedReplay(f"cannot read {path}: {error}") from None
    return parse_replay(text)


def parse_replay(text: str) -> dict:
    """The decoded replay in `text`; MalformedReplay when it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise MalformedReplay(f"not JSON: {error}") from None


def dump_replay(replay: dict) -> str:
    """A replay as readable JSON text (key order kept; the chain does not depend on it)."""
    return json.dumps(replay, ensure_ascii=False, indent=1) + "\n"

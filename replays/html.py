"""A self-contained HTML viewer of a replay: no network, no build step.

The page embeds every step's full view and scores (precomputed here, so its script only
draws them) as JSON in a `<script type="application/json">` tag.
"""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from importlib import resources

from domain.game import GameRules
from replays.timeline import steps

_MARKERS = re.compile(r"__(TITLE|DATA|WORDS)__")
# Inside the JSON these characters only occur in strings, where \\uXXXX means the same.
_SCRIPT_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


@lru_cache(maxsize=1)
def _template() -> str:
    return resources.files("replays").joinpath("viewer.html").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def words_script() -> str:
    """words.js (moves and events in words, shared with the web client) as plain script."""
    text = resources.files("replays").joinpath("words.js").read_text(encoding="utf-8")
    return re.sub(r"^export ", "", text, flags=re.M)


def script_json(value) -> str:
    """JSON that is safe inside a <script> element: no `</script>`, `<!--` or `&` survives."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return re.sub("[<>&\u2028\u2029]", lambda m: _SCRIPT_ESCAPES[m.group(0)], text)


def viewer_data(replay: dict, rules: GameRules | None = None) -> dict:
    """What the page shows: header, result, final hash and every step (view, scores)."""
    return {
        "header": replay["header"],
        "result": replay["result"],
        "final_hash": replay["chain"]["final"],
        "steps": steps(replay, rules),
    }


def render_html(replay: dict, rules: GameRules | None = None) -> str:
    """The viewer page of a finished game's replay (as `build_replay` returns it)."""
    header = replay["header"]
    values = {
        "TITLE": html.escape(f"Keltis replay: {header['game']} game {header['game_id']}"),
        "DATA": script_json(viewer_data(replay, rules)),
        "WORDS": words_script(),
    }
    return _MARKERS.sub(lambda m: values[m.group(1)], _template())

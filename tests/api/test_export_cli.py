"""`keltis export` against a real server (gunicorn over the test Redis), and `keltis replay
verify` on the file it writes: every line verified, a summary at the end."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from application.games.service import GameService
from cli.main import cli
from devtools.finished_games import finish_bot_game
from store.core.clock import now_ms


@pytest.fixture
def finished(redis_client) -> tuple[int, list[str]]:
    """(ms before they were made, ids newest first) of four finished games."""
    games = GameService(redis_client)
    since = now_ms()
    made = [finish_bot_game(games, game).game_id for game in ("keltis-dice", "keltis-card") * 2]
    return since, made[::-1]


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)


def ids_in(path) -> list[str]:
    return [
        json.loads(line)["replay"]["header"]["game_id"] for line in path.read_text().splitlines()
    ]


def test_keltis_export_writes_one_replay_a_line_and_verify_checks_each(
    live_stack, finished, tmp_path
):
    since, made = finished
    out = tmp_path / "games.ndjson"
    done = run("export", "--server", live_stack.base_url, "--since", since, "-o", out)
    assert done.exit_code == 0, done.output
    assert "exported 4 games" in done.output
    assert ids_in(out) == made
    checked = run("replay", "verify", out)
    assert checked.exit_code == 0
    assert checked.output.strip().splitlines()[-1] == "OK: 4 replays: 4 verified, 0 failed"


def test_keltis_export_resumes_after_the_last_whole_line(live_stack, finished, tmp_path):
    since, made = finished
    out = tmp_path / "games.ndjson"
    assert run("export", "--server", live_stack.base_url, "--since", since, "--limit", 2,
               "-o", out).exit_code == 0  # fmt: skip
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(lines[0] + lines[1][:100])  # the second line was cut mid-way
    resumed = run("export", "--server", live_stack.base_url, "--since", since, "--resume",
                  "-o", out)  # fmt: skip
    assert resumed.exit_code == 0, resumed.output
    assert ids_in(out) == made


def test_replay_verify_of_an_export_names_each_bad_line_and_sums_up(live_stack, finished, tmp_path):
    since, _ = finished
    out = tmp_path / "games.ndjson"
    run("export", "--server", live_stack.base_url, "--since", since, "-o", out)
    lines = out.read_text().splitlines()
    tampered = json.loads(lines[1])
    tampered["replay"]["result"]["scores"][0] += 1
    lines[1] = json.dumps(tampered)
    lines.insert(3, "\x1b[31mnot json")
    out.write_text("\n".join(lines) + "\n")
    checked = run("replay", "verify", out)
    assert checked.exit_code == 1
    shown = checked.output.strip().splitlines()
    assert shown[0].startswith("line 2: FAILED")
    assert shown[1].startswith("line 4: FAILED [format]")
    assert "\x1b" not in checked.output
    assert shown[-1] == "FAILED: 5 replays: 3 verified, 2 failed"


def test_keltis_export_reports_a_refused_filter(live_stack, tmp_path):
    refused = CliRunner().invoke(
        cli, ["export", "--server", live_stack.base_url, "--account", "x", "-o", tmp_path / "o"]
    )
    assert refused.exit_code == 1
    assert "400" in refused.output  # a malformed query: invalid_query

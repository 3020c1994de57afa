"""R3 on export files (NDJSON, one replay a line): `keltis replay verify` checks every line,
names each bad one in one escaped line and sums up; hostile lines never reach the terminal
raw and no line is read whole past the size a replay may have."""

from __future__ import annotations

import json

from click.testing import CliRunner

from cli.main import cli
from replays.files import MAX_FILE_BYTES, dump_replay, export_lines, is_export
from tests.replays.conftest import finished_replay

EVIL = "\x1b[2J\x1b]0;owned\x07\u202e"


def line_of(replay: dict, cursor: str = "c") -> str:
    return json.dumps({"cursor": cursor, "replay": replay})


def verify(path):
    return CliRunner().invoke(cli, ["replay", "verify", str(path)], catch_exceptions=False)


def test_R3_an_export_file_has_every_line_verified_and_a_summary(tmp_path):
    good = [finished_replay("keltis-card", 2, 1), finished_replay("keltis-dice", 2, 2)]
    path = tmp_path / "games.ndjson"
    end = json.dumps({"end": True, "exported": 2, "next_cursor": None})
    path.write_text("\n".join([line_of(good[0]), line_of(good[1]), end]) + "\n")
    assert is_export(path)
    done = verify(path)
    assert done.exit_code == 0
    assert done.output.strip() == "OK: 2 replays: 2 verified, 0 failed"


def test_R3_a_replay_file_even_on_one_line_is_not_an_export(tmp_path):
    replay = finished_replay("keltis-card", 2, 3)
    pretty, compact = tmp_path / "a.json", tmp_path / "b.json"
    pretty.write_text(dump_replay(replay))
    compact.write_text(json.dumps(replay))
    assert not is_export(pretty) and not is_export(compact)
    assert verify(compact).output.startswith("OK: ")


def test_R3_hostile_export_lines_fail_one_escaped_line_each(tmp_path):
    replay = finished_replay("keltis-dice", 2, 5)
    tampered = json.loads(json.dumps(replay))
    tampered["header"]["game_id"] = EVIL
    path = tmp_path / "games.ndjson"
    lines = [
        line_of(replay).encode(),
        line_of(tampered).encode(),
        b"[" * 100_000,
        b"\xff\xfe not utf-8",
        json.dumps({"cursor": "c", "replay": "not a replay " + EVIL}).encode(),
        b"NaN",
    ]
    path.write_bytes(b"\n".join(lines) + b"\n")
    done = verify(path)
    assert done.exit_code == 1
    shown = done.output.strip().splitlines()
    assert [line.split(":")[0] for line in shown[:-1]] == [f"line {n}" for n in (2, 3, 4, 5, 6)]
    assert "\x1b" not in done.output and "\u202e" not in done.output
    assert shown[-1] == "FAILED: 6 replays: 1 verified, 5 failed"


def test_R3_an_export_line_past_the_size_limit_is_refused_unread(tmp_path):
    path = tmp_path / "games.ndjson"
    replay = finished_replay("keltis-card", 2, 7)
    with path.open("wb") as out:
        out.write(line_of(replay).encode() + b"\n")
        out.write(b'{"cursor":"c","replay":"' + b"x" * (MAX_FILE_BYTES + 10) + b'"}\n')
        out.write(line_of(replay).encode() + b"\n")
    found = list(export_lines(path))
    assert [n for n, _ in found] == [1, 2, 3]
    assert "longer than" in found[1][1].message
    assert verify(path).output.strip().splitlines()[-1] == "FAILED: 3 replays: 2 verified, 1 failed"

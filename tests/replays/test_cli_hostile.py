"""R3 on hostile files: `keltis replay verify|show|html` answer every malformed or malicious
file with one escaped, bounded error line (exit status 1 or 2), never a traceback."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.main import cli
from replays import files
from replays.build import build_replay
from replays.chain import build_chain
from replays.files import MAX_FILE_BYTES, dump_replay
from replays.shown import LINE_LIMIT, QUOTE_LIMIT
from replays.verify import Report
from tests.replays.conftest import finished_entries, finished_replay

ROOT = Path(__file__).resolve().parents[2]
# What must never reach a terminal raw: C0 (but the final newline), DEL, C1, bidi controls,
# line and paragraph separators.
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200e\u200f\u2028-\u202e\u2066-\u2069]")
EVIL = "\x1b[2J\x1b]0;owned\x07\x9b31m\u202egnp.exe\x7f"
COMMANDS = (("verify",), ("show", "--no-interactive"), ("html", "--unverified"))


def _valid() -> dict:
    return finished_replay("keltis-card", players=2)


def _rechained(change) -> str:
    replay = _valid()
    change(replay)
    replay["chain"] = build_chain(replay)
    return dump_replay(replay)


def _set(path: tuple, value):
    def change(replay):
        target = replay
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _delete(path: tuple):
    def change(replay):
        target = replay
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _replay_with(fragment: str) -> str:
    """A replay's text whose `result` is the raw JSON `fragment`."""
    text = json.dumps(_valid())
    return text.replace('"result": {', f'"result": {fragment}, "was": {{', 1)


def _valid_text() -> str:
    return dump_replay(_valid())


def _first_command(replay) -> int:
    return next(index for index, entry in enumerate(replay["entries"]) if "cmd" in entry)


def _command(field: str | None, value):
    """Set the first command (field None) or one of its fields."""

    def change(replay):
        entry = replay["entries"][_first_command(replay)]
        if field is None:
            entry["cmd"] = value
        else:
            entry["cmd"][field] = value

    return change


def _options(value):
    def change(replay):
        replay["header"]["options"] = replay["entries"][0]["e"]["options"] = value

    return change


# name -> (a maker of the file content, a phrase the one error line of `verify` holds)
HOSTILE: dict[str, tuple[Callable[[], str | bytes], str]] = {
    "empty": (lambda: "", "not JSON"),
    "truncated": (lambda: _valid_text()[:5000], "not JSON"),
    "not utf-8": (lambda: b'{"format": "keltis-replay\xff\xfe"}', "not UTF-8"),
    "utf-8 bom": (lambda: "\ufeff" + _valid_text(), "not JSON"),
    "nested 50,000 deep": (lambda: _nested(50_000), "nested more than 64 levels"),
    "nested 900 deep inside": (lambda: _replay_with(_nested(900)), "nested more than 64 levels"),
    "nested 70 deep inside": (lambda: _replay_with(_nested(70)), "nested more than 64 levels"),
    "integer of 4,301 digits": (lambda: _replay_with("9" * 4301), "more than 4300 digits"),
    "integer of 4,000 digits": (lambda: _replay_with("9" * 4000), "larger than 2**53 - 1"),
    "integer 2**60 in an entry": (
        lambda: _rechained(_set(("entries", 3, "n"), 2**60)),
        "larger than 2**53 - 1",
    ),
    "NaN": (lambda: _replay_with("NaN"), "NaN is not a number JSON allows"),
    "Infinity": (lambda: _replay_with("-Infinity"), "-Infinity is not a number"),
    "1e999": (lambda: _replay_with("1e999"), "not finite"),
    "lone surrogate value": (lambda: _replay_with('"\\udc00x"'), "lone surrogate"),
    "lone surrogate key": (lambda: _replay_with('{"\\ud800": 1}'), "lone surrogate"),
    "a JSON list": (lambda: "[1, 2]", "a replay is a JSON object"),
    "a JSON string": (lambda: json.dumps(EVIL), "a replay is a JSON object"),
    "format of 4 MB with escapes": (
        lambda: json.dumps({"format": "A" * 4_000_000 + EVIL}),
        "not a keltis-replay file",
    ),
    "format an object": (
        lambda: json.dumps({"format": {"a": [EVIL] * 1000}}),
        "not a keltis-replay",
    ),
    "format_version a huge list": (
        lambda: json.dumps({"format": "keltis-replay", "format_version": [EVIL] * 100_000}),
        "format_version",
    ),
    "header a list": (lambda: _rechained(_set(("header",), [EVIL])), "header is not an object"),
    "header without game": (lambda: _rechained(_delete(("header", "game"))), "header misses: game"),
    "no entries": (
        lambda: dump_replay({k: v for k, v in _valid().items() if k != "entries"}),
        "missing key(s): entries",
    ),
    "no chain": (lambda: json.dumps({k: v for k, v in _valid().items() if k != "chain"}), "chain"),
    "entries an object": (lambda: _rechained(_set(("entries",), {"1": {}})), "entries is not"),
    "chain a string": (
        lambda: dump_replay({**_valid(), "chain": EVIL}),
        "chain needs h0, entries (a list) and final",
    ),
    "game_id with escapes": (
        lambda: _rechained(_set(("header", "game_id"), "g" + EVIL)),
        "holds characters not to be shown",
    ),
    "game_id of 1 MB": (lambda: _rechained(_set(("header", "game_id"), "g" * 2**20)), "game_id"),
    "entry a string": (
        lambda: _rechained(_set(("entries", 4), EVIL * 1000)),
        "entry 5 is not an object",
    ),
    "entry without e": (lambda: _rechained(_delete(("entries", 2, "e"))), "lacks e"),
    "event a list": (lambda: _rechained(_set(("entries", 2, "e"), [1])), "the event has no type"),
    "event type of 1 MB with escapes": (
        lambda: _rechained(_set(("entries", 0, "e", "type"), "t" * 2**20 + EVIL)),
        "entry 1 is",
    ),
    "entry version a 1 MB text": (
        lambda: _rechained(_set(("entries", 6, "v"), "v" * 2**20 + EVIL)),
        "unknown entry version",
    ),
    "command a list": (lambda: _rechained(_command(None, [EVIL])), "command is not"),
    "command full of escapes": (
        lambda: _rechained(_command("card", EVIL * 10_000)),
        "FAILED [turn]",
    ),
    "result a string": (lambda: _rechained(_set(("result",), EVIL * 10_000)), "result"),
    "players a number": (
        lambda: _rechained(_set(("entries", 0, "e", "players"), 7)),
        "game_created lists no players",
    ),
    "more entries than a replay may have": (
        lambda: _rechained(lambda replay: replay["entries"].extend([{}] * 5_000)),
        "more than 5000 entries",
    ),
    "options a list": (lambda: _rechained(_options([EVIL])), "FAILED [opening]"),
    "options with a huge value": (
        lambda: _rechained(_options({"x": EVIL * 10_000})),
        "FAILED [opening]",
    ),
}


def _write(tmp_path, content, name="hostile.json") -> str:
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8", errors="surrogatepass")
    return str(path)


def _invoke(*args):
    return CliRunner().invoke(cli, ["replay", *args])


def assert_one_clean_line(result, phrase: str | None = None) -> str:
    """Exit status 1 or 2 by SystemExit, nothing on stdout, one escaped bounded stderr line."""
    assert result.exit_code in (1, 2), (result.exit_code, result.output[:500])
    assert isinstance(result.exception, SystemExit), repr(result.exception)[:500]
    assert "Traceback" not in result.output
    assert result.stdout == ""
    line = result.stderr
    assert line.endswith("\n") and line.count("\n") == 1, line[:500]
    assert len(line) <= LINE_LIMIT + 20, len(line)
    assert not RAW_CONTROL.search(line[:-1]), line
    if phrase is not None:
        assert phrase in line, line
    return line


@pytest.mark.parametrize("name", list(HOSTILE))
def test_R3_hostile_file_gives_one_clean_line(tmp_path, name):
    make, phrase = HOSTILE[name]
    path = _write(tmp_path, make())
    page = tmp_path / "page.html"
    for command in COMMANDS:
        extra = ("-o", str(page)) if command[0] == "html" else ()
        result = _invoke(*command, path, *extra)
        if command[0] == "html" and result.exit_code == 0:  # the log replays: it is drawn
            assert page.read_text().startswith("<!DOCTYPE html>")
            assert result.stdout == f"wrote {page}\n"
            continue
        assert_one_clean_line(result, phrase if command[0] == "verify" else None)
        assert not page.exists()


def test_R3_a_quoted_value_is_cut_to_about_80_characters(tmp_path):
    path = _write(tmp_path, json.dumps({"format": "x" * 10_000 + "TAIL"}))
    line = assert_one_clean_line(_invoke("verify", path))
    quoted = re.search(r"format is ('.*')\)", line).group(1)
    assert len(quoted) <= QUOTE_LIMIT and quoted.endswith("TAIL'")


def test_R3_an_escape_sequence_in_a_value_is_shown_escaped(tmp_path):
    path = _write(tmp_path, json.dumps({"format": EVIL}))
    line = assert_one_clean_line(_invoke("verify", path))
    assert r"\x1b[2J\x1b]0;owned\x07\x9b31m\u202egnp.exe\x7f" in line


def test_R3_file_larger_than_the_limit_is_refused_unread(tmp_path):
    path = tmp_path / "big.json"
    with open(path, "wb") as file:
        file.write(b'{"format": "')
        file.seek(MAX_FILE_BYTES)
        file.write(b'"}')
    line = assert_one_clean_line(_invoke("verify", str(path)))
    assert f"larger than {MAX_FILE_BYTES} bytes" in line


def test_R3_limit_is_on_bytes_read_not_on_the_size_reported(tmp_path, monkeypatch):
    monkeypatch.setattr(files, "MAX_FILE_BYTES", 1000)
    path = _write(tmp_path, _valid_text())
    assert_one_clean_line(_invoke("verify", path), "larger than 1000 bytes")


def test_R3_missing_file_and_directory_are_one_line(tmp_path):
    assert_one_clean_line(_invoke("verify", str(tmp_path / "nope.json")), "cannot read")
    assert_one_clean_line(_invoke("verify", str(tmp_path)))


def test_R3_html_into_a_missing_directory_is_one_line(tmp_path):
    path = _write(tmp_path, _valid_text())
    result = _invoke("html", path, "-o", str(tmp_path / "no" / "such" / "page.html"))
    assert_one_clean_line(result, "cannot write")


def test_R3_html_unverified_draws_a_replay_whose_only_fault_is_the_chain(tmp_path):
    replay = _valid()
    replay["chain"]["final"] = "0" * 64
    path = _write(tmp_path, dump_replay(replay))
    out = tmp_path / "page.html"
    assert _invoke("html", path, "-o", str(out)).exit_code == 1
    result = _invoke("html", "--unverified", path, "-o", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(
    ("change", "phrase"),
    [
        (_set(("entries", 5, "e"), {"type": "cards_dealt"}), "the rules cannot replay"),
        (_set(("entries", 5, "e"), {"type": "x" * 100_000 + EVIL}), "the rules cannot replay"),
        (_command(None, {"action": EVIL}), None),
        (_set(("entries", 0, "e", "game"), "chess" + EVIL), "unknown game"),
        (_delete(("entries", 0, "e", "players")), "game_created lists no players"),
        (_set(("entries", 1, "by"), 1), "by=1"),
    ],
)
def test_R3_html_unverified_on_a_broken_log_is_one_line(tmp_path, change, phrase):
    path = _write(tmp_path, _rechained(change))
    out = tmp_path / "page.html"
    result = _invoke("html", "--unverified", path, "-o", str(out))
    if result.exit_code == 0:  # a replay whose log still replays is drawn, as documented
        assert phrase is None and out.exists()
        return
    assert_one_clean_line(result, phrase)
    assert not out.exists()


def _forged_names(names: list, joined: str | None = None) -> dict:
    """A replay, consistent but for its names, built from a log with these seat names; with
    `joined`, seat 1 was open and took that name by a seat_joined entry (n=2)."""
    entries = finished_entries("keltis-card", players=2)
    created = entries[0]["e"]
    for seat, name in enumerate(names):
        created["players"][seat]["name"] = name
    if joined is not None:
        created["players"][1] = {"open": True}
        join = {"v": 1, "n": 2, "at": entries[0]["at"], "by": None}
        join["e"] = {"type": "seat_joined", "seat": 1, "name": joined}
        entries.insert(1, join)
        for position, entry in enumerate(entries, start=1):
            entry["n"] = position
    return build_replay("forged-names", entries)


@pytest.mark.parametrize(
    ("name", "phrase", "shown"),
    [
        (EVIL, "must not contain control", r"\x1b[2J"),
        ("ann\u202eevil", "must not contain control", r"\u202e"),
        ("bob\u2066", "must not contain control", r"\u2066"),
        ("del\x7f", "must not contain control", r"\x7f"),
        ("c1\x85", "must not contain control", r"\x85"),
        ("new\nline", "must not contain control", r"\n"),
        ("zero\u200bwidth", "must not contain control", r"\u200b"),
        ("   ", "must not be only whitespace", "'   '"),
        ("\u3000\u00a0", "must not be only whitespace", None),
        ("", "must be 1 to 40 characters", "''"),
        ("n" * 41, "must be 1 to 40 characters", "n" * 20),
        (None, "is not a string", "None"),
        (7, "is not a string", "7"),
    ],
)
def test_R3_verify_checks_names_as_the_api_does(tmp_path, name, phrase, shown):
    replay = _forged_names(["ann", name])
    path = _write(tmp_path, dump_replay(replay))
    line = assert_one_clean_line(_invoke("verify", path), phrase)
    assert line.startswith("FAILED [names] (entry n=1): seat 1's name")
    if shown is not None:
        assert shown in line
    assert_one_clean_line(_invoke("show", path, "--no-interactive"), "FAILED [names]")


def test_R3_verify_names_the_seat_joined_entry_of_a_bad_name(tmp_path):
    replay = _forged_names(["ann", "placeholder"], joined="\x1b[31mred")
    path = _write(tmp_path, dump_replay(replay))
    line = assert_one_clean_line(_invoke("verify", path))
    assert line.startswith("FAILED [names] (entry n=2): seat 1's name '\\x1b[31mred'")


def test_R3_verify_accepts_the_names_the_api_accepts(tmp_path):
    replay = _forged_names(["Ádám Éva", "n" * 40], joined="小林 🎲")
    result = _invoke("verify", _write(tmp_path, dump_replay(replay)))
    assert result.exit_code == 0, result.output
    assert "小林 🎲" in result.stdout


def test_R3_show_escapes_even_what_verify_let_through(tmp_path, monkeypatch):
    """Defence in depth: were verify to pass a hostile name, show still writes it escaped."""
    import cli.replay as command

    monkeypatch.setattr(command, "verify_replay", lambda data: Report(True, "trusted"))
    path = _write(tmp_path, dump_replay(_forged_names(["ann", EVIL])))
    result = _invoke("show", path, "--no-interactive")
    assert result.exit_code == 0, result.output
    assert "won by" in result.stdout
    assert not RAW_CONTROL.search(result.stdout.replace("\n", ""))
    assert r"\x1b[2J\x1b]0;owned\x07\x9b31m\u202egnp.exe\x7f" in result.stdout


@pytest.mark.parametrize("name", ["nested 50,000 deep", "integer of 4,301 digits", "NaN"])
def test_R3_hostile_file_in_a_real_process(tmp_path, name):
    path = _write(tmp_path, HOSTILE[name][0]())
    done = subprocess.run(
        [sys.executable, "-c", "from cli.main import main; main()", "replay", "verify", path],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    assert done.stdout == ""
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1
    assert HOSTILE[name][1] in done.stderr

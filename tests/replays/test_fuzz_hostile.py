"""R3 fuzzed: damaged replay files (text edits, and any JSON, raw or rechained, at any place)
through `keltis replay verify` and `html --unverified`: never a traceback, one clean line."""

from __future__ import annotations

import json
import tempfile
from contextlib import suppress
from functools import cache
from pathlib import Path

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli.main import cli
from replays.chain import build_chain
from replays.files import dump_replay
from tests.replays.conftest import finished_replay
from tests.replays.test_cli_hostile import EVIL, assert_one_clean_line

RAW = "\u0000raw\u0000"  # stands for raw JSON text no Python value dumps to
SETTINGS = settings(
    max_examples=int(__import__("os").environ.get("FUZZ_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

RAW_TEXT = st.one_of(
    st.integers(1, 60_000).map(lambda depth: "[" * depth + "]" * depth),
    st.integers(17, 6_000).map(lambda digits: "-" * (digits % 2) + "7" * digits),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e999", '"\\ud800"', '{"\\udfff": 0}']),
)
TEXT = st.text(max_size=20) | st.sampled_from(
    [EVIL, "\ud800", "\udc00", "\u202e", "\x85", " ", "x" * 5_000, "keltis-card", "seat_joined"]
)
LEAF = (
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT
)
VALUE = st.recursive(
    LEAF,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=3),
    max_leaves=8,
)


@cache
def _valid_text() -> str:
    return dump_replay(finished_replay("keltis-dice", players=2))


@cache
def _paths() -> tuple:
    found = []

    def walk(value, path):
        found.append(path)
        if isinstance(value, dict):
            for key, item in value.items():
                walk(item, (*path, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                walk(item, (*path, index))

    walk(json.loads(_valid_text()), ())
    return tuple(found[1:])


def _run_all(content: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.json"
        path.write_text(content, encoding="utf-8", errors="surrogatepass")
        page = Path(folder) / "page.html"
        for args in (["verify"], ["html", "--unverified", "-o", str(page)]):
            result = CliRunner().invoke(cli, ["replay", *args, str(path)])
            if result.exit_code == 0:
                assert result.exception is None
                assert result.stdout.count("\n") == 1 and result.stderr == ""
            else:
                assert_one_clean_line(result)


EDITS = st.lists(
    st.tuples(
        st.floats(0, 1),
        st.integers(0, 40),
        st.text(alphabet='[]{}",:\\0123456789eE.-+ nultrfaNI\x1b\u202e', max_size=8),
    ),
    min_size=1,
    max_size=4,
)


@SETTINGS
@given(edits=EDITS, cut=st.none() | st.floats(0, 1))
def test_R3_fuzz_text_edits_never_crash_the_cli(edits, cut):
    text = _valid_text()
    for where, deleted, inserted in edits:
        at = int(where * len(text))
        text = text[:at] + inserted + text[at + deleted :]
    if cut is not None:
        text = text[: int(cut * len(text))]
    _run_all(text)


@SETTINGS
@given(
    data=st.data(),
    value=VALUE | RAW_TEXT.map(lambda raw: (RAW, raw)),
    rechain=st.booleans(),
)
def test_R3_fuzz_any_value_anywhere_never_crashes_the_cli(data, value, rechain):
    replay = json.loads(_valid_text())
    path = data.draw(st.sampled_from(_paths()))
    raw = None
    if isinstance(value, tuple):
        value, raw = RAW, value[1]
    target = replay
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    if rechain and path[0] != "chain":
        with suppress(UnicodeEncodeError):  # a lone surrogate has no UTF-8 form to hash
            replay["chain"] = build_chain(replay)
    text = json.dumps(replay, ensure_ascii=data.draw(st.booleans()), indent=1)
    if raw is not None:
        text = text.replace(json.dumps(RAW), raw)
    _run_all(text)

"""One rule for the names shown to players: api/core/schemas.py and openapi.yaml say the same."""

from __future__ import annotations

import re
import sys
import unicodedata

import yaml

from gamelog.names import HIDDEN_CHARS, NAME_PATTERN
from tests.api.contract import SPEC


def test_the_contract_states_the_servers_name_pattern():
    spec = yaml.safe_load(SPEC.read_text())
    assert spec["components"]["schemas"]["Name"]["pattern"] == NAME_PATTERN


def test_every_control_format_and_private_use_character_is_hidden():
    hidden = re.compile(f"[{HIDDEN_CHARS}]")
    missed = [
        hex(code)
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) in {"Cc", "Cf", "Co"} and not hidden.match(chr(code))
    ]
    assert missed == []


def test_letters_marks_symbols_and_inner_spaces_are_shown():
    shown = re.compile(NAME_PATTERN)
    for name in ("ann", "Zoë", "李小龍", "a b", "🍀", "x\u0301", "-_-"):
        assert shown.fullmatch(name), name

"""One rule for the names shown to players: api/core/schemas.py and openapi.yaml say the same."""

from __future__ import annotations

import re
import sys
import unicodedata

import yaml

from gamelog.names import (
    CONTRACT_HIDDEN_ASTRAL,
    CONTRACT_NAME_PATTERN,
    HIDDEN_CHARS,
    NAME_PATTERN,
)
from tests.api.contract import SPEC


def test_the_contract_states_the_servers_name_pattern():
    name = yaml.safe_load(SPEC.read_text())["components"]["schemas"]["Name"]
    assert name["pattern"] == CONTRACT_NAME_PATTERN
    assert name["not"] == {"pattern": CONTRACT_HIDDEN_ASTRAL}


def test_the_contracts_two_parts_say_what_the_service_says():
    """Around each code point (the hidden ones included), as a name alone and with a
    visible character beside it: the service's pattern and the contract's two parts agree."""
    service = re.compile(NAME_PATTERN)
    bmp, astral = re.compile(CONTRACT_NAME_PATTERN), re.compile(CONTRACT_HIDDEN_ASTRAL)
    disagree = []
    for code in range(sys.maxunicode + 1):
        if 0xD800 <= code <= 0xDFFF:
            continue  # lone surrogates are refused before any pattern (UTF-8 has none)
        for name in (chr(code), f"a{chr(code)}"):
            contract = bool(bmp.fullmatch(name)) and not astral.search(name)
            if contract != bool(service.fullmatch(name)):
                disagree.append(hex(code))
    assert disagree == []


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

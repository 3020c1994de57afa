"""The web client's message catalogs (api/webclient/lang-*.js): English, Hungarian and German
hold the same keys with the same places and plural forms, every key the pages use is in
them, and every error code the service answers with has its words in each language."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "api" / "webclient"
LANGUAGES = ("en", "hu", "de")
PLACE = re.compile(r"\{(\w+)\}")
# Folders whose Python raises the service's errors (moved about freely: they are scanned).
NOT_SERVICE = {".venv", "tests", "clients", "var", "node_modules", ".git", "build"}


@cache
def catalog(lang: str) -> dict:
    """A catalog module's object (`export const messages = {...};`, strict JSON inside)."""
    text = (WEB / f"lang-{lang}.js").read_text(encoding="utf-8")
    body = text[text.index("export const messages = ") + len("export const messages = ") :]
    return json.loads(body.rstrip().removesuffix(";"))


def _places(message) -> set[str]:
    texts = message.values() if isinstance(message, dict) else [message]
    return {name for text in texts for name in PLACE.findall(text)}


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_has_exactly_the_english_keys(lang):
    english, other = catalog("en"), catalog(lang)
    assert sorted(set(english) - set(other)) == [], f"missing in {lang}"
    assert sorted(set(other) - set(english)) == [], f"only in {lang}"


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_translations_keep_the_places_and_the_plural_forms(lang):
    english, other = catalog("en"), catalog(lang)
    for key, message in english.items():
        translated = other[key]
        assert isinstance(translated, dict) == isinstance(message, dict), key
        if isinstance(message, dict):
            assert "other" in translated and set(translated) <= {
                "zero",
                "one",
                "two",
                "few",
                "many",
                "other",
            }, key
        # `{id}` in a message that quotes an API path is text, not a place
        assert _places(translated) - {"id"} <= _places(message), f"{lang} {key}: {translated}"
        assert translated != "" or message == "", f"{lang} {key} is empty"


def _sources(*patterns: str) -> str:
    return "\n".join(
        p.read_text(encoding="utf-8") for pattern in patterns for p in WEB.glob(pattern)
    )


def _used_keys() -> set[str]:
    """The keys the pages name literally: t("k"), tOr("k", ...), tableWords' say("k"),
    data-i18n="k", data-i18n-attr="attr=k", and quoted keys handed to t() later."""
    scripts = _sources("*.js")
    pages = _sources("*.html") + (WEB / "rules.py").read_text(encoding="utf-8")
    used = set(re.findall(r"\b(?:t|tOr)\(\s*\"([\w.]+)\"\s*[,)]", scripts))
    used |= {"event." + k for k in re.findall(r"\bsay\(\"(\w+)\"", scripts)}
    used |= set(re.findall(r"data-i18n(?:-title)?=\"([\w.]+)\"", pages))
    for pairs in re.findall(r"data-i18n-attr=\"([^\"]+)\"", pages):
        used |= {pair.split("=")[1] for pair in pairs.split(";")}
    namespaces = {key.split(".")[0] for key in catalog("en")} - {"lang"}
    quoted = set(re.findall(r"\"([a-z]+\.[\w.]+)\"", scripts)) - used
    # a quoted prefix that keys are built from ("bots.greedy" + ".strength") is no key itself
    built = {q for q in quoted if any(k.startswith(q) and k != q for k in catalog("en"))}
    used |= {
        q
        for q in quoted - built
        if q.split(".")[0] in namespaces and not q.endswith((".js", ".css"))
    }
    return {key for key in used if not key.endswith(".")}


def test_every_key_the_pages_use_is_in_the_catalogs():
    used = _used_keys()
    assert len(used) > 300  # the scan finds the pages' keys
    assert sorted(used - set(catalog("en"))) == []


def test_every_key_built_from_a_value_is_in_the_catalogs():
    """Keys made from a value at run time ("colour." + colour, "status." + status...)."""
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    schemas = spec["components"]["schemas"]
    prefixes = {
        "colour.": ["brown", "yellow", "pink", "green", "blue", "point"],
        "bonus.": ["clover", "stone", "kobold"],
        "side.": ["basic", "advanced"],
        "status.": schemas["Status"]["enum"],
        "decline.": re.findall(r"\w+", _decline_reasons()),
        "strength.": ["beginner", "easy", "medium", "strong", "strongest"],
        "end.": ["deck_empty", "fifth_row", "goal_markers", "all_markers_in_goal", "forfeit",
                 "cancelled", "aborted", "idle_turns", "turn_limit"],
        "status.http": ["0", "400", "401", "403", "404", "409", "413", "422", "429", "503",
                        "Other"],
        "arena.status.": ["scheduled", "running", "finishing", "finished"],
    }  # fmt: skip
    wanted = {prefix + value for prefix, values in prefixes.items() for value in values}
    assert sorted(wanted - set(catalog("en"))) == []


def _decline_reasons() -> str:
    text = (ROOT / "openapi.yaml").read_text(encoding="utf-8")
    found = re.search(r"enum: \[(generic[^\]]*)\]", text)
    assert found, "the decline reasons' enum is no longer in openapi.yaml"
    return found.group(1)


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_the_rules_translations_hold_every_rule_in_its_order(lang):
    """The rules page in `lang` (api/webclient/rules-<lang>.md) follows docs/RULES.md: the
    same rule ids, in the same order, so that /rules#P3 is the same rule in every language."""
    rule_id = re.compile(r"^\s*- \*\*([A-Z]\d{1,2})\.\*\*", re.M)
    english = rule_id.findall((ROOT / "docs" / "RULES.md").read_text(encoding="utf-8"))
    translated = rule_id.findall((WEB / f"rules-{lang}.md").read_text(encoding="utf-8"))
    assert len(english) > 40
    assert translated == english


def error_codes() -> set[str]:
    """Every error code the service answers with: each error class's `code = "..."` and
    each `ApiError(status, "code", ...)` / `error_response(status, "code", ...)`."""
    codes: set[str] = set()
    for path in ROOT.rglob("*.py"):
        if NOT_SERVICE & set(path.relative_to(ROOT).parts):
            continue
        text = path.read_text(encoding="utf-8", errors="ignore")
        codes |= set(re.findall(r"^\s+code = \"([a-z][a-z_]*)\"", text, re.M))
        codes |= set(re.findall(r"(?:ApiError|error_response)\(\s*\d{3},\s*\"([a-z_]+)\"", text))
    return codes


def test_error_codes_are_found():
    codes = error_codes()
    assert {"illegal_move", "version_conflict", "name_taken", "invalid_request"} <= codes


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_error_code_has_words_in_each_language(lang):
    # werkzeug's own errors and the client's own (no answer at all) are answered too
    codes = error_codes() | {"not_found", "method_not_allowed", "bad_request", "network"}
    missing = sorted(code for code in codes if f"errors.{code}" not in catalog(lang))
    assert missing == [], f"{lang}: no words for {missing}"


def test_the_catalogs_and_the_language_modules_are_served(client):
    for name in (
        "i18n.js",
        "language.js",
        "tableWords.js",
        "page.js",
        *(f"lang-{lang}.js" for lang in LANGUAGES),
    ):
        answer = client.get(f"/web/{name}")
        assert answer.status_code == 200, name
        assert answer.mimetype == "text/javascript"
    language = client.get("/web/language.js").get_data(as_text=True)
    # each catalog is imported by its versioned URL, so a browser keeps it for a year
    for lang in ("hu", "de"):
        assert re.search(rf'import\("\./lang-{lang}\.js\?v=[0-9a-f]{{16}}"\)', language), lang

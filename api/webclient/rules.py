"""docs/RULES.md as a page of the web client (`/rules`): every rule (`**P3.**`) gets an
anchor of its id, so the lobby and the tables can link `/rules#P3`."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from markdown_it import MarkdownIt

RULES_PATH = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"
_RULE = re.compile(r"<li>(\s*<p>)?<strong>([A-Z]\d{1,2})\.</strong>")
_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Keltis: the rules</title>
<link rel="stylesheet" href="/web/app.css">
<link rel="stylesheet" href="/web/rules.css">
<script type="module" src="/web/page.js"></script>
</head>
<body data-i18n-title="rules.pageTitle">
<header class="top">
  <a href="/" class="brand">Keltis</a>
  <h1 data-i18n="rules.heading">The rules</h1>
  <nav class="links" aria-label="pages" data-i18n-attr="aria-label=nav.pages">
    <a href="/" data-i18n="nav.lobby">Lobby</a> ·
    <a href="/docs" data-i18n="nav.apiDocs">API docs</a>
  </nav>
</header>
<main class="rules" data-testid="rules">
<p class="notice" data-testid="rules-language" data-i18n="rules.languageNote" data-i18n-optional
   hidden></p>
__BODY__
</main>
</body>
</html>
"""


# The rules in the pages' other languages, for reading (the English is binding): each rule
# has `data-rule` in place of its id, and the page (language.js) moves the ids to the list
# of the reader's language, so that /rules#P3 finds one rule in any language.
TRANSLATIONS = {lang: Path(__file__).with_name(f"rules-{lang}.md") for lang in ("hu", "de")}


def _html(markdown: str, anchor: str) -> str:
    """Markdown as HTML (raw HTML in it is escaped, not kept), each rule with its `anchor`
    attribute (id, data-rule) and a link to itself."""
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)
    return _RULE.sub(rf'<li {anchor}="\2">\1<strong><a href="#\2">\2.</a></strong>', body)


@lru_cache(maxsize=1)
def rules_page() -> str:
    """The page: the document in English, and its translations hidden until chosen."""
    texts = [("en", _html(RULES_PATH.read_text(), "id"), "")]
    for lang, path in TRANSLATIONS.items():
        texts.append((lang, _html(path.read_text(encoding="utf-8"), "data-rule"), " hidden"))
    body = "\n".join(
        f'<section class="rules-text" lang="{lang}" data-rules-lang="{lang}"{hidden}>\n'
        f"{html}</section>"
        for lang, html, hidden in texts
    )
    return _PAGE.replace("__BODY__", body)

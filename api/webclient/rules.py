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
</head>
<body>
<header class="top">
  <a href="/" class="brand">Keltis</a>
  <h1>The rules</h1>
  <nav class="links" aria-label="pages"><a href="/">Lobby</a> · <a href="/docs">API docs</a></nav>
</header>
<main class="rules" data-testid="rules">
__BODY__
</main>
</body>
</html>
"""


@lru_cache(maxsize=1)
def rules_page() -> str:
    """The page: the document's Markdown as HTML (raw HTML in it is escaped, not kept)."""
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(RULES_PATH.read_text())
    body = _RULE.sub(r'<li id="\2">\1<strong><a href="#\2">\2.</a></strong>', body)
    return _PAGE.replace("__BODY__", body)

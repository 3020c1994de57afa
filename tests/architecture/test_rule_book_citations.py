"""docs/RULES.md cites the rule books by title and edition, not by a path the repository
lacks."""

from __future__ import annotations

from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]
RULES = CHECKOUT / "docs" / "RULES.md"


def test_rules_cite_both_rule_books_by_title_and_edition():
    text = RULES.read_text(encoding="utf-8")
    assert "*Keltis: Das Kartenspiel*, Reiner Knizia, Kosmos (German edition, 2009)" in text
    assert "*Keltis: Das Würfelspiel*, Reiner Knizia, Kosmos (German edition, 2012)" in text


def test_no_document_points_at_a_seeds_directory():
    documents = [CHECKOUT / "README.md", *sorted((CHECKOUT / "docs").glob("*.md"))]
    cited = [doc.name for doc in documents if "seeds/" in doc.read_text(encoding="utf-8")]
    assert not cited, f"{cited} cite files under seeds/, which the repository lacks"

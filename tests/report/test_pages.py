"""summary.md and claims.md as HTML pages of the report (budgetboost.report.pages): tables
rendered, a label's markup shown as text, a complete UTF-8 page."""

from __future__ import annotations

import html
from html.parser import HTMLParser

from budgetboost.report.pages import CAPTIONS, markdown_page

MARKDOWN = """# The paper's claims on this run

Each claim with its **verdict**; `findings.parquet` has every row.

| claim | verdict | statement |
|---|---|---|
| 1 | reproduced | AdaBoostBT beats <script>alert(1)</script> at every budget |
| 2 | inconclusive | Greedy & Smoothed: 0.061 ± 0.010 |
"""


class _Parts(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.text, self.inside = [], [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.inside.append(tag)

    def handle_endtag(self, tag):
        if self.inside and self.inside[-1] == tag:
            self.inside.pop()

    def handle_data(self, data):
        if not {"style", "title"} & set(self.inside):
            self.text.append(data)


def _parsed(page: str) -> _Parts:
    parts = _Parts()
    parts.feed(page)
    return parts


def test_a_markdown_table_becomes_an_html_table():
    page = markdown_page(MARKDOWN, "claims.md")
    parts = _parsed(page)
    assert page.startswith("<!DOCTYPE html>") and '<meta charset="utf-8">' in page
    assert parts.tags.count("tr") == 3 and parts.tags.count("td") == 6
    assert {"h1", "strong", "code", "table", "thead", "tbody"} <= set(parts.tags)
    text = " ".join(" ".join(parts.text).split())
    assert "Greedy & Smoothed: 0.061 ± 0.010" in text
    assert "<title>claims.md</title>" in page


def test_markup_in_the_markdown_is_shown_as_text():
    """A label that reads like HTML is a label: nothing on a page runs a script."""
    page = markdown_page(MARKDOWN, "<b>claims</b>")
    parts = _parsed(page)
    assert "script" not in parts.tags and "b" not in parts.tags
    assert "<script>alert(1)</script>" in " ".join(parts.text)
    assert f"<title>{html.escape('<b>claims</b>')}</title>" in page


def test_each_page_has_a_caption():
    assert set(CAPTIONS) == {"summary", "claims"}
    for page, caption in CAPTIONS.items():
        assert f"``{page}.md``" in caption and "</" not in caption

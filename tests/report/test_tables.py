"""Tables as text (budgetboost.report.tables): Markdown cells escaped and aligned."""

from __future__ import annotations

import pandas as pd

from budgetboost.report import tables


def test_markdown_table_escapes_and_aligns():
    text = tables.markdown_table(pd.DataFrame({"name": ["a|b"], "x": [0.5]}))
    header, rule, body = text.splitlines()
    assert "a\\|b" in body and rule.endswith(":|")


def test_markdown_table_escapes_headers_and_line_breaks():
    """A label is a column header in summary.md: its ``|`` and line breaks must not
    break the table."""
    text = tables.markdown_table(pd.DataFrame({"Mine | v2\nnew": [0.5], "x": ["a\nb"]}))
    header, rule, body = text.splitlines()
    assert header.startswith("| Mine \\| v2 new |") and header.count(" | ") == 1
    assert "a b" in body

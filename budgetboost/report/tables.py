"""Tables as text: GitHub-flavoured Markdown for ``summary.md`` and ``claims.md``,
reStructuredText for the report's first page."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetboost.report.escape import text_width

__all__ = ["markdown_table", "rst_table"]


def rst_table(df: pd.DataFrame) -> str:
    """``df`` as an reStructuredText grid of the simple kind (columns padded, ``=`` rules).

    Cells are written as they are (text that is not the report's own is escaped before,
    :mod:`budgetboost.report.escape`) and padded by their width on screen, so wide
    characters (CJK, emoji) keep the columns where docutils measures them.
    """
    cells = [[str(c) for c in df.columns], *[[str(v) for v in row] for row in df.to_numpy()]]
    widths = [max(text_width(r[i]) for r in cells) for i in range(len(df.columns))]
    rule = "  ".join("=" * w for w in widths)
    body = ["  ".join(_pad(v, w) for v, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    return "\n".join([rule, body[0], rule, *body[1:], rule])


def _pad(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns on screen."""
    fill = " " * (width - text_width(text))
    return fill + text if right else text + fill


def markdown_table(df: pd.DataFrame, floatfmt: str = ".3f") -> str:
    """Render ``df`` as a GitHub-flavoured pipe table, padded for reading in a terminal.

    Numeric columns are right-aligned, text left-aligned; ``|`` inside a cell or a header is
    escaped and line breaks become spaces (a label can break neither the table nor its row).
    Budgets (columns named ``budget`` or ``*_budget``) print in their shortest form.
    """

    def fmt(value: object, spec: str) -> str:
        if isinstance(value, (float, np.floating)):
            if np.isnan(value):
                return "–"
            if np.isinf(value):
                return "inf"
            return format(value, spec)
        return text(value)

    def text(value: object) -> str:
        return " ".join(str(value).splitlines()).replace("|", "\\|")

    header = [text(col) for col in df.columns]
    specs = [
        "g" if col == "budget" or str(col).endswith("_budget") else floatfmt for col in df.columns
    ]
    numeric = [pd.api.types.is_numeric_dtype(df[col]) for col in df.columns]
    body = [
        [fmt(v, spec) for v, spec in zip(row, specs, strict=True)]
        for row in df.itertuples(index=False, name=None)
    ]
    widths = [max(text_width(cell) for cell in col) for col in zip(header, *body, strict=True)]

    def line(cells: list[str]) -> str:
        padded = (_pad(c, w, num) for c, w, num in zip(cells, widths, numeric, strict=True))
        return "| " + " | ".join(padded) + " |"

    rule = (
        "|"
        + "|".join(
            ("-" * (w + 1) + ":") if num else ("-" * (w + 2))
            for w, num in zip(widths, numeric, strict=True)
        )
        + "|"
    )
    return "\n".join([line(header), rule, *(line(row) for row in body)])

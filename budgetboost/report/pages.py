"""``summary.md`` and ``claims.md`` as HTML pages the report can show.

Snakemake's report embeds each result as a ``data:`` URL of the file's type and shows
``text/html`` in a frame of the report, but offers every other type as a link: Chromium
downloads a ``data:text/markdown`` URL instead of showing it, so the evidence the first page
points to could not be read in the report. The report therefore holds these pages, rendered
from the Markdown with markdown-it-py (CommonMark with GitHub's tables, as a Markdown viewer
shows the files); the Markdown files stay the run's plain-text record.

Raw HTML in the Markdown is shown as text, not interpreted (``html=False``): a label that
reads ``<script>`` is a label. Nothing on a page runs a script or loads a file.
"""

from __future__ import annotations

import html

from markdown_it import MarkdownIt

from budgetboost.analysis.results import TABLES

__all__ = ["CAPTIONS", "STYLE", "markdown_page"]

#: Each page's caption in the report (reStructuredText); the summary's names every
#: registered results table (:data:`budgetboost.analysis.tables.TABLES`).
CAPTIONS = {
    "summary": """
Test error per dataset, cost model, algorithm and budget: mean over trials ± half-width of
the 95 % Student-t confidence interval (budget ``inf`` is the unbudgeted AdaBoost reference),
then the smallest budget at which each algorithm reaches the AdaBoost reference, the cost
AdaBoostRS pays per test example, and the findings beyond the paper. Full tables, in
``summary/`` of the results folder: {tables}. A row of ``findings.parquet`` is one
comparison, dataset, cost model and budget band: the mean paired difference with its 90 %
interval (the one its outcome reads), the exact sign-flip test, Holm over the comparison's
rows, two one-sided tests of equivalence, the smallest detectable difference and the
outcome; ``comparisons.parquet``
holds such rows for every algorithm against Smoothed too. This page is ``summary.md`` of the
results folder, shown as HTML.
""".strip().format(tables=", ".join(f"``{name}.parquet``" for name in TABLES)),
    "claims": """
The claims of Huang, Powers & Reyzin (2015, Sections 6-7) checked on this run: each with a
verdict (reproduced, not reproduced, inconclusive) read from the rows of its paired
comparisons (each trial's error averaged over a budget band, the exact sign-flip test, Holm
over the comparison's rows, two one-sided tests of equivalence) and the deciding evidence;
the findings beyond the paper and on its open questions; and every threshold the verdicts
use. This page is ``claims.md`` of the results folder, shown as HTML.
""".strip(),
}

#: The page's look: readable line length, tables with rules, numbers in tabular figures.
STYLE = """
body { font-family: system-ui, sans-serif; line-height: 1.45; margin: 1.5rem auto;
       max-width: 72rem; padding: 0 1rem; color: #222222; }
table { border-collapse: collapse; margin: 0.8rem 0; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
code { background: #f3f3f3; padding: 0 0.2rem; }
h1, h2, h3 { line-height: 1.2; }
"""


def markdown_page(text: str, title: str) -> str:
    """``text`` (Markdown) as a complete HTML page titled ``title``.

    Parameters
    ----------
    text : str
        The Markdown, e.g. ``claims.md``.
    title : str
        The page's ``<title>`` (escaped).

    Returns
    -------
    str
        An HTML5 document: CommonMark plus tables, raw HTML escaped, UTF-8.
    """
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html.escape(title)}</title>\n"
        f"<style>{STYLE}</style>\n"
        f"</head>\n<body>\n{body}</body>\n</html>\n"
    )

"""Labels written where a reader meets them (budgetboost.report.escape, bad cases
1-3 and the poor cases of labels): Markdown rendered by a CommonMark parser, the first page
by Jinja2 as Snakemake renders it and then by docutils, tables aligned with wide characters.
"""

from __future__ import annotations

import html

import docutils.core
import pandas as pd
import pytest
from jinja2 import Environment
from markdown_it import MarkdownIt
from synthetic_results import PEER, PEER_CATALOGUE, curve_results

from budgetboost.catalogue import Catalogue
from budgetboost.report import escape
from budgetboost.report.claims import claims_markdown
from budgetboost.report.findings import findings_sections, landing_lines
from budgetboost.report.landing import landing_page
from budgetboost.report.summary import summary_markdown
from budgetboost.report.tables import markdown_table, rst_table

#: labels a sweep of hostile input tried, each a markup or template of one kind
HOSTILE = {
    "smoothed": "<script>document.title='pwned'</script>",
    "greedy": "<img src=x onerror=alert(1)>",
    PEER: "click <javascript:alert(document.domain)>`_",
    "smoothed_tuned": "Greedy {{ 7*7 }} {% if 1 %}x{% endif %} {# c #}",
}
MORE = [
    "javascript:alert(1",
    "Greedy {{ oops",
    "[link](javascript:alert(1)) ![i](x) *em* __b__ `code` $x$ ~~s~~ &amp; #h",
    "|sub| :math:`x` [1]_ name_ `t <javascript:x>`__ a@b.org http://x.org",
    ".. raw:: html",
    "- item",
    "1. first",
    "决策树 🌳 CJK",
    "AdaBoostBT_Greedy",
    "Smoothed τ=0.5",
]


def hostile_catalogue(labels=HOSTILE) -> Catalogue:
    records = PEER_CATALOGUE.records()
    for name, label in labels.items():
        records[name]["label"] = label
    return Catalogue(records)


def rendered_markdown(text: str) -> str:
    return MarkdownIt("commonmark").enable(["table", "strikethrough"]).render(text)


def rendered_first_page(text: str) -> str:
    """The first page as Snakemake renders it (Jinja2, then docutils), failing on any
    docutils warning (a malformed table, an unknown target)."""
    env = Environment(trim_blocks=True, lstrip_blocks=True)
    source = env.from_string(text).render(snakemake=None, categories={}, files=[])
    parts = docutils.core.publish_parts(
        source,
        writer="html",
        settings_overrides={"halt_level": 2, "report_level": 2, "warning_stream": False},
    )
    return parts["html_body"]


def _no_markup_from(html_text: str) -> None:
    """No element a label could have made: scripts, images, links, emphasis, code."""
    lowered = html_text.lower()
    for tag in ("<script", "<img", "<a ", "<em>", "<strong>", "<code>", "<del>", "<h1"):
        assert tag not in lowered, (tag, html_text)


@pytest.mark.parametrize("label", [*HOSTILE.values(), *MORE])
def test_a_label_is_literal_in_markdown(label):
    text = f"- {escape.markdown_text(label)}: 3 trials\n\n" + markdown_table(
        pd.DataFrame({"algorithm": [escape.markdown_text(label)], "error": [0.5]})
    )
    out = rendered_markdown(text)
    _no_markup_from(out)
    assert label in html.unescape(out)


@pytest.mark.parametrize("label", [*HOSTILE.values(), *MORE])
def test_a_label_is_literal_on_the_first_page(label):
    cell = escape.rst_text(label)
    text = "\n".join(
        [
            ".. {% raw %}",
            "",
            f"- {cell} (``x``, boosting)",
            "",
            rst_table(pd.DataFrame({"comparison": [f"{cell} vs y"], "outcome": ["better"]})),
            "",
            ".. {% endraw %}",
            "",
        ]
    )
    out = rendered_first_page(text)
    _no_markup_from(out)
    assert label in html.unescape(out)


def test_plain_labels_keep_their_look_in_markdown():
    for label in ("AdaBoostBT_Greedy", "Smoothed τ=0.5", "LightGBM CEGB, stumps", "Hybrid"):
        assert escape.markdown_text(label) == label


def test_wide_characters_keep_the_tables_aligned():
    """A CJK or emoji label keeps the first page's tables aligned (no "Malformed table")."""
    labels = ["决策树", "🌳🌲 trees", "Smoothed τ=0.5", "e\u0301"]
    table = rst_table(pd.DataFrame({"algorithm": labels, "error": [0.1, 0.2, 0.3, 0.4]}))
    assert "决策树" in rendered_first_page(table)
    widths = {
        escape.text_width(line) for line in markdown_table(pd.DataFrame({"a": labels})).splitlines()
    }
    assert len(widths) == 1  # every line of the Markdown table as wide on screen


def test_the_reports_text_writes_labels_literally():
    """summary.md, claims.md and the first page, made from a run whose labels are markup."""
    catalogue = hostile_catalogue()
    curves = {"smoothed": 0.2, "greedy": 0.25, PEER: 0.3, "smoothed_tuned": 0.22}
    run = curve_results(
        {name: (lambda b, e=e: e) for name, e in curves.items()}, catalogue=catalogue
    )
    summary = summary_markdown(run, catalogue)
    claims = claims_markdown([], catalogue, findings_sections(run.findings, catalogue))
    for text in (summary, claims):
        rendered = rendered_markdown(text)
        for tag in ("<script", "<img", "<a "):
            assert tag not in rendered
        for label in HOSTILE.values():
            assert label in html.unescape(rendered), label
    page = landing_page(
        pd.DataFrame({"claim": ["1"], "verdict": ["reproduced"], "statement": ["A claim."]}),
        run.summary,
        catalogue=catalogue,
        figures=[("figure1", "1: {{ title }}", "Repro <b>")],
        version="1.0",
        findings=landing_lines(run.findings, catalogue),
    )
    out = rendered_first_page(page)
    for tag in ("<script", "<img", "<a "):
        assert tag not in out
    assert "Greedy {{ 7*7 }}" in html.unescape(out)
    assert "Greedy 49" not in html.unescape(out)
    assert "1: {{ title }}" in html.unescape(out) and "Repro <b>" in html.unescape(out)


def test_the_catalogue_param_cannot_close_a_script_element():
    catalogue = hostile_catalogue()
    param = catalogue.param()
    assert "<" not in param and ">" not in param and "&" not in param
    assert Catalogue.from_param(param).records() == catalogue.records()

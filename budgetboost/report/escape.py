"""Names and labels as text for where they land: Markdown, reStructuredText, Jinja2, HTML.

A label is the config's (``algorithms.<name>.label``), a figure's title and category its
module's: text a reader did not write reaches ``summary.md``, ``claims.md`` and the report's
first page. Written raw, ``<script>`` ran in the report, ``<javascript:...>`_`` became a link
and ``{{ 7*7 }}`` read "49" (Snakemake renders the first page through Jinja2 before
docutils). Each function here makes a text literal where it lands:

- :func:`markdown_text`: CommonMark / GitHub backslash escapes for everything that starts
  markup (emphasis, code, links and autolinks, raw HTML, entities, math, a list item);
- :func:`rst_text`: reStructuredText backslash escapes likewise (inline markup, roles,
  substitutions, references, standalone hyperlinks and e-mail addresses, a directive or a
  list at the start of a table cell) and for Jinja2's delimiters (``{`` ``}`` ``%`` ``#``);
- :func:`for_markdown`, :func:`for_rst`: a catalogue whose labels are so escaped, for the
  report modules that write labels (tables, lists, findings);
- :func:`text_width`: how many columns a text takes in a terminal and for docutils (wide
  CJK characters and emoji two, combining marks none), so tables stay aligned.

What Snakemake embeds from a rule's params into the HTML report is the catalogue's
:meth:`~budgetboost.catalogue.Catalogue.param`, JSON that cannot close a tag.

Plain labels keep their look: ``AdaBoostBT_Greedy``, ``Smoothed τ=0.5``, ``LightGBM CEGB,
stumps`` come out unchanged in Markdown (an underscore inside a word starts nothing).
"""

from __future__ import annotations

import re
import unicodedata

from budgetboost.catalogue import Catalogue

__all__ = [
    "for_markdown",
    "for_rst",
    "markdown_text",
    "rst_text",
    "text_width",
]

# CommonMark: emphasis, code, links, autolinks and HTML, entities, strikethrough, math,
# headings; e-mail autolinks (GitHub)
_MARKDOWN = set("\\`*[]<>&~$#@")
# reStructuredText inline markup, roles, substitutions, targets, standalone URIs and e-mail
# addresses; Jinja2's delimiters ({{ }}, {% %}, {# #})
_RST = set("\\`*|[]<>:@{}%#")
# a list item, enumerator, quote, directive, heading or table rule at the start of a line
_LEADING = re.compile(r"^([-+*=.#>|!(]|\d+[.)])")


def markdown_text(text: object) -> str:
    """``text`` as literal Markdown (CommonMark and GitHub), on one line."""
    return _escaped(" ".join(str(text).splitlines()), _MARKDOWN, url=True)


def rst_text(text: object) -> str:
    """``text`` as literal reStructuredText inline text (also inside a simple table's cell),
    with no Jinja2 delimiter left, on one line."""
    return _escaped(" ".join(str(text).splitlines()), _RST, url=False)


def _escaped(text: str, always: set[str], url: bool) -> str:
    out = []
    for i, ch in enumerate(text):
        before = text[i - 1] if i else " "
        after = text[i + 1] if i + 1 < len(text) else " "
        intraword = before.isalnum() and after.isalnum()
        if (
            ch in always
            or (ch == "_" and not intraword)
            or (url and ch == ":" and text[i + 1 : i + 3] == "//")
        ):
            out.append("\\" + ch)
        else:
            out.append(ch)
    escaped = "".join(out)
    lead = _LEADING.match(text)
    if lead and not escaped.startswith("\\"):
        end = len(lead.group(1)) - 1  # escape the marker's last character: "1." -> "1\."
        escaped = escaped[:end] + "\\" + escaped[end:]
    return escaped


def for_markdown(catalogue: Catalogue) -> Catalogue:
    """``catalogue`` with every label escaped by :func:`markdown_text`."""
    return _relabelled(catalogue, markdown_text)


def for_rst(catalogue: Catalogue) -> Catalogue:
    """``catalogue`` with every label escaped by :func:`rst_text`."""
    return _relabelled(catalogue, rst_text)


def _relabelled(catalogue: Catalogue, escape) -> Catalogue:
    records = catalogue.records()
    for record in records.values():
        record["label"] = escape(record["label"])
    return Catalogue(records)


def text_width(text: str) -> int:
    """Columns ``text`` takes: East Asian wide and full-width characters two, combining
    characters none, the rest one (docutils' ``column_width``, which a simple table's
    columns are measured with)."""
    wide = sum(unicodedata.east_asian_width(ch) in "WF" for ch in text)
    combining = sum(bool(unicodedata.combining(ch)) for ch in text)
    return len(text) + wide - combining

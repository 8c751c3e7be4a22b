"""Figure files (budgetboost.figures.style): PNG and PDF, the same bytes on every save, no
temporary file left."""

from __future__ import annotations

from budgetboost.figures import curves as plots
from budgetboost.figures import panels as curve_panels
from budgetboost.figures.style import save_figure

from .helpers import CONTEXT


def test_save_figure_png_and_pdf_reproducible(summary, tmp_path):
    fig = curve_panels.budget_curves(
        summary, plots.figure2_panels(summary, CONTEXT), "Figure 2", CONTEXT
    )
    png, pdf = tmp_path / "f.png", tmp_path / "f.pdf"
    save_figure(fig, png, pdf)
    first = png.read_bytes(), pdf.read_bytes()
    assert first[0].startswith(b"\x89PNG") and first[1].startswith(b"%PDF")
    save_figure(fig, png, pdf)
    assert (png.read_bytes(), pdf.read_bytes()) == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.pdf", "f.png"]  # no temp files


def test_the_paper_style_is_seaborns_whitegrid_in_its_paper_context():
    """The rc parameters written out are those seaborn sets (but its own colour map, which
    every image of the figures replaces), so the figures look as seaborn drew them."""
    import seaborn as sns

    from budgetboost.figures.style import PAPER_CONTEXT, WHITEGRID

    whitegrid = dict(sns.axes_style("whitegrid"))
    assert whitegrid.pop("image.cmap") == "rocket"
    assert WHITEGRID == whitegrid
    assert dict(sns.plotting_context("paper", font_scale=1.1)) == PAPER_CONTEXT

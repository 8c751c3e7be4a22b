"""A figure registered from outside the package, for the plug-in test of tests/test_report.py.

Listed under ``figure_modules`` in a test config, it is drawn by the real snakemake and lands
in the report with its caption, with no edit anywhere else.
"""

from matplotlib.figure import Figure

from budgetboost.figures.registry import figure


@figure(
    "extra_errors",
    title="test: mean error per algorithm",
    category="Tests",
    families=("reference", "boosting", "sampling", "tree"),
    caption="A test-only figure: **mean test error** of every algorithm of its families.",
)
def extra_errors(tables, context):
    summary = tables["summary"]
    means = summary.groupby("algorithm")["error_mean"].mean()
    names = context.algorithms(means.index)
    fig = Figure(figsize=(6, 3), layout="constrained")
    ax = fig.subplots()
    ax.bar(
        [context.catalogue.label(n) for n in names],
        means[names],
        color=[context.catalogue[n].style.colour for n in names],
    )
    ax.set_ylabel("mean test error")
    ax.tick_params(axis="x", labelrotation=30)
    return fig

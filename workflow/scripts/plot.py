"""Rule ``plot``: the paper's Figures 1-3 (PNG and PDF) from the summary table."""

from budgetboost import plots
from budgetboost.io import job_log, read_table

sm = snakemake  # noqa: F821
log = job_log(sm.log[0], "plot")

try:
    summary = read_table(sm.input.summary)
    local = list(sm.params.local_datasets)
    fig1 = plots.figure_budget_curves(
        summary, plots.figure1_panels(summary, local),
        "Figure 1: test error against budget (95 % CI; AdaBoostRS on the right axis)")
    plots.save_figure(fig1, sm.output.figure1, sm.output.figure1_pdf)
    fig2 = plots.figure_budget_curves(
        summary, plots.figure2_panels(summary, local),
        "Figure 2: real feature costs (heart with Turney's costs, local datasets)",
        empty_message="no real-cost results\n(cost model turney or a local dataset)")
    plots.save_figure(fig2, sm.output.figure2, sm.output.figure2_pdf)
    fig3 = plots.figure_trees(summary)
    plots.save_figure(fig3, sm.output.figure3, sm.output.figure3_pdf)
except Exception:
    log.exception("plot failed")
    raise
log.info("figures written: %s", ", ".join(map(str, sm.output)))

"""The report's first page (budgetboost.report.landing): the undecidable rows summarised."""

from __future__ import annotations

import pandas as pd
from synthetic_results import sizes_for, synthetic_shards

from budgetboost.analysis.results import aggregate
from budgetboost.analysis.vocabulary import TOO_FEW_DATASETS, TOO_FEW_TRIALS
from budgetboost.catalogue import Catalogue
from budgetboost.report import findings as findings_text
from budgetboost.report.landing import decided_findings

UNDECIDABLE = [TOO_FEW_DATASETS, TOO_FEW_TRIALS]


def _findings():
    """Depth-2 variants of Greedy on 8 datasets (decided) and of Smoothed on 2 (not)."""
    shards = synthetic_shards(trials=3)
    greedy = shards[(shards["algorithm"] == "greedy") & (shards["dataset"] != "census")]
    smoothed = shards[
        (shards["algorithm"] == "smoothed") & shards["dataset"].isin(["heart", "ecoli"])
    ]
    shards = pd.concat(
        [
            shards,
            greedy.assign(algorithm="greedy_tree2"),
            smoothed.assign(algorithm="smoothed_tree2"),
        ],
        ignore_index=True,
    )
    config = {name: {} for name in shards["algorithm"].unique()}
    config["greedy_tree2"] = {"family": "boosted_trees", "variant_of": "greedy"}
    config["smoothed_tree2"] = {"family": "boosted_trees", "variant_of": "smoothed"}
    catalogue = Catalogue.from_config(config)
    return aggregate(shards, catalogue, "uniform_0_2", sizes_for(shards)).findings, catalogue


def test_the_first_page_prints_decided_rows_and_counts_the_rest():
    """The tiny run's first page prints the comparisons that reached an outcome and one sentence for
    the others, not a row per undecided comparison."""
    rows, catalogue = _findings()
    every = findings_text.findings_table(rows, catalogue)
    undecidable = every["outcome"].isin(UNDECIDABLE)
    assert undecidable.any() and (~undecidable).any()  # the case has both
    # no test was possible: no p-value or probabilities beside "too few datasets" (claims.md
    # printed "Wilcoxon p (Holm) 1" there)
    few = every[every["outcome"] == TOO_FEW_DATASETS]
    assert len(few) and (few["Wilcoxon p (Holm)"] == "–").all()
    assert (few["P(better / equiv. / worse)"] == "–").all()
    decided, sentence = decided_findings(rows)
    kept = findings_text.findings_table(decided, catalogue)
    assert not kept["outcome"].isin(UNDECIDABLE).any()
    # the rows kept read exactly as in the whole table (their per-dataset counts too)
    assert kept.to_dict("records") == every[~undecidable].to_dict("records")
    assert f"Of the {len(every)} comparisons" in sentence
    assert f"{int(undecidable.sum())} cannot be decided on this run" in sentence
    assert decided_findings(rows.iloc[:0])[1] == ""
    assert decided_findings(decided)[1] == ""  # nothing left to summarise


def test_the_findings_tables_name_each_rows_cost_model():
    """The README example's rows under U[0, 2] and the correlated model differed only in
    their numbers: each row says its cost model ("all" across datasets and cost models)."""
    rows, catalogue = _findings()
    table = findings_text.findings_table(rows, catalogue)
    across = table["datasets"].map(lambda d: isinstance(d, int))
    assert (table.loc[across, "cost model"] == "all").all()
    assert across.all()  # every comparison here ran on several datasets
    # a comparison on one dataset gets that row, with its own cost model
    one = rows[(rows["x"] == "greedy_tree2") & (rows["dataset"] == "heart")]
    alone = findings_text.findings_table(one, catalogue)
    assert set(alone["cost model"]) == set(one["cost_model"]) and len(alone)


def test_the_method_text_is_printed_once_per_report():
    """The ~300-word paragraph on how findings are decided stood on the first page, in
    claims.md and in summary.md: only claims.md prints it, the others point to it."""
    from budgetboost.analysis import claims
    from budgetboost.analysis.results import aggregate as aggregate_results
    from budgetboost.report import summary as report_summary
    from budgetboost.report.claims import claims_markdown

    rows, catalogue = _findings()
    paragraph = findings_text.how_findings_read()
    first_page = "\n".join(findings_text.landing_lines(rows, catalogue))
    assert paragraph not in first_page and "How a verdict is reached" in first_page
    shards = synthetic_shards(trials=3)
    results = aggregate_results(shards, Catalogue.default(), "uniform_0_2", sizes_for(shards))
    summary_md = report_summary.summary_markdown(results, Catalogue.default())
    assert paragraph not in summary_md
    checked = claims.check_claims(
        results.summary, results.comparisons, results.budget_to_match, None
    )
    sections = findings_text.findings_sections(rows, catalogue)
    assert claims_markdown(checked, catalogue, sections).count(paragraph) == 1


def test_the_first_page_links_the_interactive_page():
    """The first page links ``explore.html`` by its name (beside the report in the run's
    folder) and names its path; a page without one has no link."""
    import docutils.core

    from budgetboost.report.landing import landing_page

    summary = pd.DataFrame(
        {"dataset": ["heart"], "cost_model": ["c"], "algorithm": ["greedy"], "trials": [3]}
    )
    claims = pd.DataFrame({"claim": ["1"], "verdict": ["reproduced"], "statement": ["A."]})
    pages = {
        explore: docutils.core.publish_parts(
            landing_page(
                claims,
                summary,
                catalogue=Catalogue.default(),
                figures=[],
                version="1",
                explore=explore,
            ),
            writer="html",
            settings_overrides={"halt_level": 2, "report_level": 2, "warning_stream": False},
        )["html_body"]
        for explore in ("results/my_run/explore.html", "")
    }
    linked = pages["results/my_run/explore.html"]
    assert '<a class="reference external" href="explore.html">explore.html</a>' in linked
    assert "results/my_run/explore.html" in linked
    assert 'href="explore.html"' not in pages[""]


def test_what_ran_is_one_line_per_dataset_and_per_family():
    """Each dataset lists its cost models with their trials, each family its algorithms, in
    the catalogue's order: the suite's 38 datasets and 20 methods fit in under a screen."""
    from budgetboost.report.landing import landing_page

    summary = pd.DataFrame(
        {
            "dataset": ["heart", "heart", "ecoli", "heart", "heart"],
            "cost_model": ["u", "a", "u", "u", "u"],
            "algorithm": ["greedy", "greedy", "greedy", "smoothed", "adaboost_rs"],
            "trials": [3, 2, 3, 3, 3],
        }
    )
    claims = pd.DataFrame({"claim": ["1"], "verdict": ["reproduced"], "statement": ["A."]})
    page = landing_page(
        claims, summary, catalogue=Catalogue.default(), figures=[], version="1", explore=""
    )
    lines = page.splitlines()
    assert "- ecoli: u (3)" in lines
    assert "- heart: a (2), u (3)" in lines
    boosting = [line for line in lines if line.startswith("- boosting: ")]
    assert boosting == [
        "- boosting: AdaBoostBT_Greedy (``greedy``), AdaBoostBT_Smoothed (``smoothed``)"
    ]
    assert "- sampling: AdaBoostRS (``adaboost_rs``)" in lines


def test_a_run_without_the_paper_regime_reads_as_untested_not_as_failed():
    """Every claim not tested for one reason (a run without the paper's regime): the first
    page says the run tests none of them and why, where it would tally "0 of 8 claims
    reproduced"; the page stays valid reStructuredText."""
    import docutils.core

    from budgetboost.analysis.claims import STATEMENTS, no_paper_regime
    from budgetboost.report.landing import landing_page

    summary = pd.DataFrame(
        {
            "dataset": ["heart", "heart"],
            "cost_model": ["turney", "attribute_unit"],
            "algorithm": ["greedy", "greedy"],
            "trials": [3, 2],
        }
    )
    claims = pd.DataFrame(
        {
            "claim": list(STATEMENTS),
            "verdict": "not tested",
            "statement": list(STATEMENTS.values()),
            "evidence": no_paper_regime(summary),
        }
    )
    page = landing_page(
        claims, summary, catalogue=Catalogue.default(), figures=[], version="1", explore=""
    )
    assert "This run tests none of the 8 claims of Huang, Powers & Reyzin (IJCAI 2015): " in page
    assert "claims reproduced" not in page
    html = docutils.core.publish_parts(
        page,
        writer="html",
        settings_overrides={"halt_level": 2, "report_level": 2, "warning_stream": False},
    )["html_body"]
    assert "no runs in the paper's regime (per-indicator U[0, 2] costs) in this run" in html
    assert "attribute_unit, turney" in html
    # one claim tested: the tally, as before
    claims.loc[0, "verdict"] = "reproduced"
    tally = landing_page(
        claims, summary, catalogue=Catalogue.default(), figures=[], version="1", explore=""
    )
    assert "1 of 8 claims reproduced, 0 not reproduced, 0 inconclusive, 7 not tested" in tally

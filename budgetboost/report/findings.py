"""The findings as text: the sections of ``claims.md`` and ``summary.md``, the tables of the
report's first page. Every one reads the findings table (``results/summary/findings.parquet``,
:mod:`budgetboost.analysis.findings`): one count, one rule.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from budgetboost.analysis.bands import in_budget_band
from budgetboost.analysis.field import family_verdicts
from budgetboost.analysis.findings import QUESTIONS, pool, protocol, tally
from budgetboost.analysis.paired import BINDING_POOL
from budgetboost.analysis.vocabulary import (
    ALL,
    ALPHA,
    BETTER,
    DECISION_CONFIDENCE,
    EQUIVALENCE_MARGIN,
    EQUIVALENT,
    INCONCLUSIVE,
    MIN_DATASETS,
    MIN_TRIALS,
    OUTCOMES,
    RULE,
    TOO_FEW_DATASETS,
    WORSE,
    bound_text,
)
from budgetboost.catalogue import FAMILY_NAMES, Catalogue
from budgetboost.report.escape import for_markdown, for_rst
from budgetboost.report.tables import markdown_table, rst_table

__all__ = [
    "INTERVAL_COLUMN",
    "TITLES",
    "family_sentences",
    "field_lines",
    "findings_sections",
    "findings_table",
    "how_findings_read",
    "landing_lines",
    "where_findings_read",
]

#: Each question's title, in the order of :data:`budgetboost.analysis.findings.QUESTIONS`.
TITLES = {
    "field": "The field's methods against the paper's boosters, the library peers and each other",
    "peers": "The paper's boosters against the library peers (as published, and tuned)",
    "tuning": "What tuning on a validation part does to the paper's boosters",
    "trees": "Boosting depth-2 trees against stumps, same criterion (Section 8)",
    "costs": "Each algorithm under the open questions' cost models against U[0, 2] (Section 8)",
}
BAND_NAMES = {"small": "small", "medium": "medium", "large": "larger", "all": "all"}
#: The findings tables' column of a row's difference with the interval its outcome reads.
INTERVAL_COLUMN = f"difference [{DECISION_CONFIDENCE:.0%} CI]"


def where_findings_read(code: str = "``") -> str:
    """One line pointing to :func:`how_findings_read`'s paragraph, which only ``claims.md``
    prints (it stood on the first page, in claims.md and in summary.md); ``code`` is the
    markup's literal quote (two backquotes in reStructuredText, one in Markdown)."""
    return (
        "How each comparison is decided (the datasets as the unit, the test across them, the "
        f"±0.01 margin, the outcomes): {code}claims.md{code}, *How a verdict is reached*."
    )


def how_findings_read() -> str:
    """The rule every finding follows, in one paragraph."""
    return (
        "Each comparison is decided across datasets, the datasets being the unit: one value "
        "per dataset, its mean paired difference x − y in the budget band (small: the lowest "
        "third of the grid, medium: the middle, larger: the highest; a dataset under several "
        "cost models counts once, with their mean); the difference across datasets is their "
        f"Hodges–Lehmann median with the {DECISION_CONFIDENCE * 100:.0f} % interval of the exact "
        "Wilcoxon signed-rank test (a zero difference takes the sign least favourable to "
        "rejecting, in the test as in the interval). Outcomes, x against y, are read off that "
        f"interval with the margin of practical equivalence ±{EQUIVALENCE_MARGIN} (Holm over "
        f"the comparison's bands at {ALPHA}): {RULE}; *too few datasets*: fewer than "
        f"{MIN_DATASETS}. Beside it: the two-sided Wilcoxon p of no difference (Holm; the "
        f"{DECISION_CONFIDENCE * 100:.0f} % interval clears 0 where the one-sided test at {ALPHA} "
        f"rejects, so it can clear 0 beside a p above {ALPHA}; a difference significant after "
        "Holm whose outcome is not *better* or *worse* is shown beside the outcome, x lower or "
        "higher), and the "
        "Bayesian signed-rank test's P(x better / equivalent / y better) with the same margin "
        "(it describes the row; it does not decide it). Under it, one row per dataset and "
        "cost model: the trials of a dataset split one finite sample, so each row is tested "
        "about the dataset's population with the corrected resampled t-test (Nadeau & Bengio "
        "2003), whose variance counts the rows two trials share, test rows and training rows "
        "(its interval and every test share it; Holm over the rows), read by the same rule; "
        f"*too few trials* with fewer than {MIN_TRIALS} trials or when the test could not "
        "detect even the largest possible difference (equal differences alone never make "
        "*equivalent*). `min detectable`: the smallest true difference that reads *better* or "
        "*worse* with 80 % power, the margin plus what the test resolves (∞: it cannot reach "
        "the level). *Tuned*: chose its trade-off and the size of its model on a validation "
        "part of the training rows, then refit on all of them; *as published*: the paper's "
        "rule (tau = 1, the longest affordable prefix)."
    )


def _interval(row: pd.Series) -> str:
    """The difference with its interval: per dataset the mean, across datasets the
    Hodges-Lehmann estimate with the interval of the signed-rank test (``±∞``: a bound the
    test cannot reach with so few datasets; a bound that would round onto the margin is
    written with the decimals that tell its side,
    :func:`~budgetboost.analysis.vocabulary.bound_text`)."""
    across = row["dataset"] == ALL
    centre = row["hodges_lehmann"] if across else row["mean_difference"]
    if math.isnan(row["ci_low"]) and math.isnan(row["ci_high"]):
        return f"{centre:+.3f}"

    def bound(value: float, side: str) -> str:
        return f"{side}∞" if math.isnan(value) else bound_text(value)

    return f"{centre:+.3f} [{bound(row['ci_low'], '−')}, {bound(row['ci_high'], '+')}]"


def _detectable(value: float) -> str:
    return "∞" if math.isinf(value) else f"{value:.3f}"


def _outcome(row: pd.Series) -> str:
    """The outcome, with a significant difference beside an outcome that does not say it
    (*equivalent*: inside the margin; *inconclusive*: reaching across a bound of it)."""
    if row["outcome"] in (EQUIVALENT, INCONCLUSIVE) and row["p_holm"] < ALPHA:
        centre = row["hodges_lehmann"] if row["dataset"] == ALL else row["mean_difference"]
        side = "x lower" if centre < 0 else "x higher"
        return f"{row['outcome']} ({side}, p {row['p_holm']:.2g})"
    return str(row["outcome"])


def _probabilities(row: pd.Series) -> str:
    if math.isnan(row["prob_better"]) or row["outcome"] == TOO_FEW_DATASETS:
        return "–"  # no outcome: its probabilities would read as one
    return f"{row['prob_better']:.2f} / {row['prob_equivalent']:.2f} / {row['prob_worse']:.2f}"


def _who(name: str, catalogue: Catalogue) -> str:
    """The label and the protocol, unless the label says it already ("Smoothed, tuned")."""
    label, how = catalogue.label(name), protocol(catalogue, name)
    return label if how in label.lower() else f"{label} ({how})"


def _per_dataset(counts: pd.Series | None) -> str:
    if counts is None:
        return "–"
    return " / ".join(str(int(counts[o])) for o in OUTCOMES)


def findings_table(rows: pd.DataFrame, catalogue: Catalogue) -> pd.DataFrame:
    """One line per (comparison, band): the outcome across datasets with its difference,
    interval, Wilcoxon p and Bayesian probabilities, the per-dataset outcomes counted,
    trials and power; a comparison that ran on one dataset only (no test across datasets)
    gets that dataset's row instead."""
    counts = tally(rows, catalogue).set_index(["question", "x", "y", "pool", "band"])
    rows = rows.assign(pool=pool(rows))
    across = rows[rows["dataset"] == ALL]
    pooled = {(r.question, r.x, r.y, r.band, r.pool) for r in across.itertuples()}
    lonely = [
        r.dataset != ALL and (r.question, r.x, r.y, r.band, r.pool) not in pooled
        for r in rows.itertuples()
    ]
    alone = rows[np.array(lonely, dtype=bool)]
    lines = []
    for _, row in pd.concat([across, alone]).iterrows():
        key = (row["question"], row["x"], row["y"], row["pool"], row["band"])
        n = counts.loc[key] if row["dataset"] == ALL and key in counts.index else None
        if row["question"] == "costs":
            comparison = f"{catalogue.label(row['x'])}: {row['cost_model']} vs U[0, 2]"
        else:
            comparison = f"{_who(row['x'], catalogue)} vs {_who(row['y'], catalogue)}"
        lines.append(
            {
                "comparison": comparison,
                # rows under two cost models read alike but for their numbers otherwise
                "cost model": row["cost_model"] if row["dataset"] != ALL else row["pool"],
                "budgets": BAND_NAMES.get(row["band"], row["band"]),
                INTERVAL_COLUMN: _interval(row),
                "outcome": _outcome(row),
                "datasets": int(row["datasets"]) if n is not None else row["dataset"],
                "Wilcoxon p (Holm)": (
                    f"{row['p_holm']:.3g}"
                    if n is not None
                    and not math.isnan(row["p_holm"])
                    and row["outcome"] != TOO_FEW_DATASETS  # no test was possible
                    else "–"
                ),
                "P(better / equiv. / worse)": _probabilities(row),
                f"per dataset ({' / '.join(OUTCOMES)})": _per_dataset(n),
                "trials": int(n["trials"]) if n is not None else int(row["trials"]),
                "min detectable": _detectable(row["min_detectable"]),
            }
        )
    return pd.DataFrame(lines)


def _against(row: pd.Series, catalogue: Catalogue) -> str:
    return f"{_interval(row)} against {catalogue.label(row['y'])}"


def _named(rows: pd.DataFrame, catalogue: Catalogue) -> str:
    """Each row's other method with its difference and interval, in the rows' order."""
    return ", ".join(f"{catalogue.label(r['y'])} ({_interval(r)})" for _, r in rows.iterrows())


#: How the field's sentences name each outcome of the named method's rows, in their order.
_SAID = (
    (BETTER, "lower than"),
    (EQUIVALENT, "equivalent to"),
    (WORSE, "higher than"),
    (INCONCLUSIVE, "undecided against"),
    (TOO_FEW_DATASETS, "too few datasets against"),
)


def family_sentences(findings: pd.DataFrame, catalogue: Catalogue) -> list[str]:
    """Which family of methods wins at small, medium and larger budgets, a sentence each
    (:func:`budgetboost.analysis.field.family_verdicts`); none when no family faced another.

    A sentence says only what the rows across datasets it rests on say, each by name with
    its difference (x's error minus the other's: Hodges-Lehmann with its 90 % interval): a
    family wins when one of its methods is lower than every method of the other families
    by more than the margin; otherwise the method closest to winning is named with the
    methods it is lower than, equivalent to, higher than and undecided against (the outcome
    rule: :data:`~budgetboost.analysis.vocabulary.RULE`); when none of its rows decides,
    the sentence says that the method was named by chance.
    """
    sentences = []
    margin = f"±{EQUIVALENCE_MARGIN:g}"
    for verdict in family_verdicts(findings, catalogue):
        rows = verdict.rows
        if verdict.method is None or rows.empty:
            continue
        budgets = f"At {BAND_NAMES[verdict.band]} budgets"
        name = catalogue.label(verdict.method)
        datasets = int(rows["datasets"].max())
        if verdict.family is not None:
            least, most = rows.iloc[-1], rows.iloc[0]
            by = _against(least, catalogue)
            if len(rows) > 1:
                by += f" to {_against(most, catalogue)}"
            sentences.append(
                f"{budgets}, {FAMILY_NAMES.get(verdict.family, verdict.family)} wins: {name} "
                f"has a lower error than every method of the other families by more than the "
                f"margin ({margin}) across {datasets} datasets, by {by} (its error minus "
                f"theirs, with {DECISION_CONFIDENCE * 100:.0f} % intervals)."
            )
            continue
        if (rows["outcome"] == TOO_FEW_DATASETS).all():
            sentences.append(
                f"{budgets}, too few datasets ({datasets}; an outcome needs {MIN_DATASETS}) "
                "to tell which family wins."
            )
            continue
        family = FAMILY_NAMES.get(catalogue.including([verdict.method])[verdict.method].family)
        said = "; ".join(
            f"{words} {_named(rows[rows['outcome'] == outcome], catalogue)}"
            for outcome, words in _SAID
            if (rows["outcome"] == outcome).any()
        )
        decided = rows["outcome"].isin((BETTER, WORSE, EQUIVALENT)).any()
        closest = (
            f"The closest, {name} ({family}), is"
            if decided
            else f"Named the closest by its estimates alone, which noise can order as well (no "
            f"row of it decides: other trials could name another), {name} ({family}) is"
        )
        sentences.append(
            f"{budgets}, no family wins: no method has a lower error than every method of the "
            f"other families by more than the margin ({margin}) across {datasets} datasets. "
            f"{closest} {said} (its error minus theirs, with {DECISION_CONFIDENCE * 100:.0f} % "
            "intervals; outcomes Holm-corrected over the rows named here and over the budget "
            "bands, so a row can read undecided here where its table row, corrected over the "
            "bands alone, reads better, worse or equivalent)."
        )
    return sentences


def findings_sections(findings: pd.DataFrame, catalogue: Catalogue) -> list[str]:
    """The sections of ``claims.md`` on the field's question (which family wins, a sentence
    per band, then the rows), ``## Beyond the paper`` and ``## Future work``."""
    catalogue = for_markdown(catalogue)
    field, beyond, future = ["field"], ["peers", "tuning"], ["trees", "costs"]
    sections = []
    for title, questions in (
        ("Which approach at a test-time budget: the field", field),
        ("Beyond the paper: the library peers", beyond),
        ("Future work: the paper's open questions (Section 8)", future),
    ):
        if questions == field and findings[findings["question"] == "field"].empty:
            continue
        lines = [f"## {title}", ""]
        if questions == field:
            lines += [*family_sentences(findings, catalogue), ""]
        # the rule is printed once, under "How a verdict is reached" (claims_markdown)
        lines += ["Each row reads as *How a verdict is reached* says, below.", ""]
        for question in questions:
            rows = findings[findings["question"] == question]
            lines += [f"### {TITLES[question]}", ""]
            if rows.empty:
                lines += ["No such comparison ran in this run.", ""]
                continue
            lines += [markdown_table(findings_table(rows, catalogue)), ""]
        lines.append("Every row, per dataset and cost model: `findings.parquet`.")
        sections.append("\n".join([*lines, ""]))
    return sections


def landing_lines(findings: pd.DataFrame, catalogue: Catalogue) -> list[str]:
    """The findings as reStructuredText tables for the report's first page: per question,
    one row per comparison and band with the difference across datasets, its interval, the
    outcome, the per-dataset outcomes and the protocol each side had."""
    catalogue = for_rst(catalogue)
    lines: list[str] = []
    for question in QUESTIONS:
        rows = findings[findings["question"] == question] if not findings.empty else findings
        if rows.empty:
            continue
        table = findings_table(rows, catalogue)
        if table.empty:
            continue
        lines += [f"{TITLES[question]}:", "", rst_table(table), ""]
    if lines:
        lines = [where_findings_read(), "", *lines]
    return lines


#: How the first page names each reading (:data:`budgetboost.analysis.average_cost.READINGS`).
READING_NAMES = {
    "cap": "read at the hard cap per example",
    "mean": "read at matched mean cost per example",
}


def _pool_name(pool: str) -> str:
    if pool.endswith(BINDING_POOL):
        base = pool.removesuffix(BINDING_POOL)
        return f"pool ``{base}`` on the datasets where the band binds"
    return "the paper's experiments" if pool == ALL else f"pool ``{pool}``"


def _band_budgets(binding: pd.DataFrame, pools: pd.Series, pool: str, band: str) -> str:
    """The budgets of ``band`` on the grid of ``pool``'s cost models, as text; where the
    pool's cost models have grids of their own (Turney's prices), the band is the same third
    of each, and the text says so rather than list one cost model's budgets."""
    models = pools[pools == pool.removesuffix(BINDING_POOL)].index
    grid = binding[binding["cost_model"].isin(models)]
    if grid.empty:
        return ""
    grids = set()
    for _, model in grid.groupby("cost_model", sort=True):
        first = model[model["dataset"] == model["dataset"].iloc[0]]
        grids.add(tuple(np.sort(first["budget"].unique())))
    if len(grids) > 1:
        return "its third of each cost model's own grid"
    budgets = np.array(grids.pop())
    inside = in_budget_band(np.arange(budgets.size), budgets.size, band)
    return ", ".join(f"{b:g}" for b in budgets[inside])


def _lead_sentence(part: pd.DataFrame) -> str:
    """The families' per-dataset standings of one band: each family with a decided
    standing somewhere, as ``leads / on par / trails`` of its datasets, with the same
    where the band binds and the datasets it leads on."""
    decided = part[part[["leads", "on_par", "trails"]].sum(axis=1) > 0]
    if decided.empty:
        return (
            f"no family leads, is on par or trails on any of {int(part['datasets'].max())} "
            "datasets (every standing undecided)"
        )
    said = []
    for _, row in decided.iterrows():
        family = FAMILY_NAMES.get(row["family"], row["family"])
        text = f"{family} {row['leads']} / {row['on_par']} / {row['trails']} of {row['datasets']}"
        if row["binding_datasets"]:
            text += (
                f" (where the band binds: {row['leads_binding']} / {row['on_par_binding']} / "
                f"{row['trails_binding']} of {row['binding_datasets']})"
            )
        if row["leads_on"]:
            text += f", leading on {row['leads_on']}"
        said.append(text)
    rest = len(part) - len(decided)
    tail = f"; {rest} other families undecided everywhere" if rest else ""
    return "leads / on par / trails: " + "; ".join(said) + tail


def _same_for_every_band(sentences: list[str]) -> list[str]:
    """The bands' sentences, said once when each says the same of its band ("At small,
    medium and larger budgets, too few datasets ..." for three such sentences)."""
    if len(sentences) < 2 or any(", " not in s for s in sentences):
        return list(sentences)
    heads, tails = (
        zip(*(s.split(", ", 1) for s in sentences), strict=True) if sentences else ((), ())
    )
    if len(sentences) > 1 and len(set(tails)) == 1 and all(h.startswith("At ") for h in heads):
        names = [h.removeprefix("At ").removesuffix(" budgets") for h in heads]
        bands = " and ".join([", ".join(names[:-1]), names[-1]])
        return [f"At {bands} budgets, {tails[0]}"]
    return list(sentences)


def field_lines(
    readings: dict[str, pd.DataFrame],
    leads: pd.DataFrame,
    binding: pd.DataFrame,
    catalogue: Catalogue,
) -> list[str]:
    """The first page's answer to *which approach at a test-time budget*, per pool of the
    field's regime (or on the paper's experiments where a run has none) and per reading:
    the across-dataset verdict of each band (:func:`family_sentences`), then on how many
    datasets each family leads, is on par, trails or is undecided
    (:mod:`budgetboost.analysis.leads`), also where the band binds
    (:mod:`budgetboost.analysis.binding`): one paragraph per pool and reading."""
    cap = readings.get("cap", pd.DataFrame())
    if cap.empty or "pool" not in cap:
        return []
    field = cap[cap["question"] == "field"]
    per_dataset = field[field["dataset"] != ALL]
    pools_of = per_dataset.drop_duplicates("cost_model").set_index("cost_model")["pool"]
    order = [p for p in dict.fromkeys(field["pool"]) if p != ALL] or [ALL]
    lines = []
    for pool_ in order:
        bodies: dict[str, list[str]] = {}
        for reading, table in readings.items():
            if table.empty:
                continue
            rows = table[table["question"].isin(("field", "peers")) & (table["pool"] == pool_)]
            sentences = family_sentences(rows, catalogue)
            counts = leads[(leads["reading"] == reading) & (leads["pool"] == pool_)]
            if not sentences and counts.empty:
                continue
            said = _same_for_every_band(sentences)
            decided = counts[["leads", "on_par", "trails"]].to_numpy().sum() > 0
            for band, part in counts.groupby("band", sort=False) if decided else ():
                budgets = _band_budgets(binding, pools_of, pool_, band)
                at = f" ({budgets})" if budgets else ""
                bound = int(part["binding_datasets"].max())
                said.append(
                    f"Per dataset at {BAND_NAMES.get(band, band)} budgets{at}, binding on "
                    f"{bound} of {int(part['datasets'].max())} datasets: "
                    f"{_lead_sentence(part)}."
                )
            if not counts.empty and not decided:
                said.append("Per dataset: all undecided.")
            bodies.setdefault(" ".join(said), []).append(reading)
        for body, read in bodies.items():  # readings that say the same: one paragraph
            named = " and ".join(READING_NAMES[r] for r in read)
            lines.append(f"*{_pool_name(pool_).capitalize()}, {named}.* {body}")
    return lines

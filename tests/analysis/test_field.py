"""Which family wins a budget band (analysis.field): a method better than every method of every
other family, read from the across-dataset rows in either direction."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetboost.analysis.field import family_verdicts, pairwise
from budgetboost.catalogue import Catalogue
from budgetboost.report.findings import family_sentences

CATALOGUE = Catalogue(
    {
        "smoothed": {},
        "greedy": {},
        "lightgbm": {"family": "peer", "label": "LightGBM"},
        "prune": {"family": "forest", "label": "BudgetPrune"},
        "aaco": {"family": "acquisition", "label": "AACO"},
    }
)


#: The p-values of the interval against the margin that each outcome reads (Holm over
#: the comparison's bands already applied).
P_OF = {
    "better": (0.001, 1.0),
    "worse": (0.001, 1.0),
    "equivalent": (1.0, 0.001),
    "inconclusive": (0.5, 0.5),
    "too few datasets": (np.nan, np.nan),
}


def row(question, x, y, band, outcome, hl, p=None):
    p_beyond, p_equivalence = P_OF[outcome] if p is None else p
    return {
        "question": question,
        "x": x,
        "y": y,
        "dataset": "all",
        "cost_model": "all",
        "band": band,
        "datasets": 38,
        "outcome": outcome,
        "hodges_lehmann": hl,
        "ci_low": hl - 0.01,
        "ci_high": hl + 0.01,
        "p_beyond": p_beyond,
        "p_equivalence": p_equivalence,
    }


def findings(outcomes: dict[tuple[str, str], tuple[str, float]], band="small") -> pd.DataFrame:
    rows = [
        row("peers" if x in ("smoothed", "greedy") else "field", x, y, band, o, hl)
        for (x, y), (o, hl) in outcomes.items()
    ]
    rows.append(row("field", "prune", "aaco", "large", "better", -0.5))  # another band
    rows.append({**row("field", "prune", "aaco", "small", "better", -0.5), "dataset": "heart"})
    return pd.DataFrame(rows)


def test_a_method_better_than_every_other_familys_wins_its_band():
    table = findings(
        {
            ("smoothed", "lightgbm"): ("worse", 0.02),  # read as lightgbm better than smoothed
            ("greedy", "lightgbm"): ("worse", 0.03),
            ("prune", "lightgbm"): ("worse", 0.01),
            ("prune", "smoothed"): ("inconclusive", 0.0),
            ("prune", "greedy"): ("better", -0.01),
            ("aaco", "lightgbm"): ("worse", 0.04),
            ("aaco", "smoothed"): ("worse", 0.02),
            ("aaco", "greedy"): ("worse", 0.01),
            ("prune", "aaco"): ("better", -0.03),
        }
    )
    small = family_verdicts(table, CATALOGUE)[0]
    assert (small.band, small.family, small.method) == ("small", "peer", "lightgbm")
    assert sorted(small.rows["y"]) == ["aaco", "greedy", "prune", "smoothed"]
    assert (small.rows["outcome"] == "better").all()
    # turned round: LightGBM minus Smoothed is minus (Smoothed minus LightGBM)
    turned = small.rows.set_index("y").loc["smoothed"]
    assert turned["hodges_lehmann"] == pytest.approx(-0.02)
    assert (turned["ci_low"], turned["ci_high"]) == pytest.approx((-0.03, -0.01))
    sentence = family_sentences(table, CATALOGUE)[0]
    assert sentence.startswith(
        "At small budgets, the libraries' cost-aware boosting wins: LightGBM has a lower "
        "error than every method of the other families by more than the margin (±0.01)"
    )
    assert "−" not in sentence or "[" in sentence


def test_no_winner_when_one_pair_is_undecided():
    table = findings(
        {
            ("smoothed", "lightgbm"): ("worse", 0.02),
            ("greedy", "lightgbm"): ("worse", 0.03),
            ("prune", "lightgbm"): ("inconclusive", 0.001),
            ("aaco", "lightgbm"): ("worse", 0.04),
            ("prune", "smoothed"): ("better", -0.01),
            ("prune", "greedy"): ("better", -0.01),
            ("aaco", "smoothed"): ("worse", 0.02),
            ("aaco", "greedy"): ("worse", 0.01),
            ("prune", "aaco"): ("better", -0.03),
        }
    )
    small = family_verdicts(table, CATALOGUE)[0]
    assert small.family is None
    sentence = family_sentences(table, CATALOGUE)[0]
    assert sentence.startswith("At small budgets, no family wins: no method has a lower error")
    # each row by name, as it reads: no count of rows, no negative the rows do not state
    closest = "The closest, LightGBM (the libraries' cost-aware boosting), is lower than "
    assert closest in sentence
    assert sentence.endswith(
        "; undecided against BudgetPrune (-0.001 [-0.011, +0.009]) (its error minus theirs, "
        "with 90 % intervals; outcomes Holm-corrected over the rows named here and over the "
        "budget bands, so a row can read undecided here where its table row, corrected over "
        "the bands alone, reads better, worse or equivalent)."
    )
    for name in ("AdaBoostBT_Smoothed", "AdaBoostBT_Greedy", "AACO"):
        assert name in sentence.split(closest)[1].split("undecided")[0]
    assert "of the 4" not in sentence and "the rest" not in sentence


def test_members_of_one_family_never_face_each_other():
    table = findings(
        {("smoothed", "greedy"): ("better", -0.01), ("prune", "aaco"): ("better", -0.1)}
    )
    both = pairwise(table, CATALOGUE)
    assert not ((both["x"] == "smoothed") & (both["y"] == "greedy")).any()
    assert set(both["family_x"]) == {"forest", "acquisition"}


def test_a_family_compared_with_none_cannot_win():
    """Only smoothed against lightgbm ran: LightGBM better than the one method it faced
    wins; a band with no rows has no verdict."""
    table = findings({("smoothed", "lightgbm"): ("worse", 0.02)}).query("x != 'prune'")
    small, _, large = family_verdicts(table, CATALOGUE)
    assert small.family == "peer"
    assert (
        large.method is None and family_sentences(table.query("band == 'large'"), CATALOGUE) == []
    )
    assert np.isfinite(small.rows["hodges_lehmann"]).all()


def test_too_few_datasets_everywhere_says_so_in_one_sentence():
    table = findings({("smoothed", "lightgbm"): ("too few datasets", 0.02)}).query("x != 'prune'")
    table = table.assign(datasets=2)
    assert family_sentences(table, CATALOGUE)[0] == (
        "At small budgets, too few datasets (2; an outcome needs 6) to tell which family wins."
    )


def test_without_a_winner_the_rows_named_one_by_one_are_corrected_together():
    """Each of LightGBM's three leads reads ``better`` on its own (p 0.02, 0.03, 0.04 after
    its comparison's Holm), and the sentence states them one by one: with Holm over its four
    rows (0.08, 0.09, 0.09, 0.5) none holds. A win is one statement, every row at its own
    level, so one more ``better`` row makes a winner of the same rows."""
    outcomes = {
        ("smoothed", "lightgbm"): ("worse", 0.02),
        ("greedy", "lightgbm"): ("worse", 0.03),
        ("prune", "lightgbm"): ("inconclusive", 0.001),
        ("aaco", "lightgbm"): ("worse", 0.04),
    }
    table = findings(outcomes)
    p = {("smoothed", "lightgbm"): 0.02, ("greedy", "lightgbm"): 0.03, ("aaco", "lightgbm"): 0.04}
    for (x, y), value in p.items():
        table.loc[(table.x == x) & (table.y == y), "p_beyond"] = value
    small = family_verdicts(table, CATALOGUE)[0]
    assert small.family is None and small.method == "lightgbm"
    assert set(small.rows["outcome"]) == {"inconclusive"}
    assert small.rows["p_beyond"].max() == pytest.approx(0.5)
    assert sorted(small.rows["p_beyond"])[:3] == pytest.approx([0.08, 0.09, 0.09])
    sentence = family_sentences(table, CATALOGUE)[0]
    assert "is undecided against" in sentence and "lower than" not in sentence.split(".")[1]
    won = table.copy()
    won.loc[(won.x == "prune") & (won.y == "lightgbm"), ["outcome", "p_beyond"]] = ("worse", 0.04)
    small = family_verdicts(won, CATALOGUE)[0]
    assert small.family == "peer" and (small.rows["outcome"] == "better").all()


def test_a_closest_method_no_row_decides_is_said_to_be_named_by_its_estimates():
    """All rows inconclusive (an all-equal truth): the method named closest is ordered by its
    estimates alone, which noise orders as well, and the sentence says so; a method with a
    deciding row is named plainly."""
    undecided = findings(
        {
            (x, y): ("inconclusive", hl)
            for (x, y), hl in {
                ("smoothed", "lightgbm"): 0.002,
                ("prune", "lightgbm"): -0.001,
                ("aaco", "lightgbm"): 0.003,
                ("prune", "smoothed"): -0.004,
                ("aaco", "prune"): 0.001,
            }.items()
        }
    )
    sentence = family_sentences(undecided, CATALOGUE)[0]
    assert "Named the closest by its estimates alone, which noise can order as well" in sentence
    assert "The closest," not in sentence
    decided = findings(
        {
            ("smoothed", "lightgbm"): ("equivalent", 0.002),
            ("prune", "lightgbm"): ("inconclusive", -0.001),
            ("aaco", "lightgbm"): ("inconclusive", 0.003),
        }
    )
    assert "Named the closest" not in family_sentences(decided, CATALOGUE)[0]

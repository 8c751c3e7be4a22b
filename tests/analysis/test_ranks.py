"""Rank statistics of budgetboost.analysis.ranks against Demšar (2006) and hand-computed values."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from helpers import DEMSAR_AUC, DEMSAR_NAMES, examples
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps
from synthetic_results import synthetic_shards

from budgetboost.analysis import paired, ranks, significance
from budgetboost.data.io import read_metadata, read_table, write_table


@pytest.fixture
def demsar_errors() -> pd.DataFrame:
    """Table 6 as "errors" (1 - AUC), so that rank 1 is the highest AUC as in the paper."""
    return 1.0 - pd.DataFrame(DEMSAR_AUC, columns=DEMSAR_NAMES)


def tie_correction(errors: pd.DataFrame) -> float:
    """scipy's tie correction of Friedman's chi2: 1 - sum(t^3 - t) / (N k (k^2 - 1))."""
    n, k = errors.shape
    ties = errors.round(12).apply(lambda row: row.value_counts(), axis=1).fillna(0)
    t = ties.to_numpy()
    return 1 - np.sum(t**3 - t) / (n * k * (k**2 - 1))


def corrected_chi2(errors: pd.DataFrame) -> float:
    """Friedman's tie-corrected statistic from its definition (Conover 1999, 7.2):
    (k - 1) sum_j (S_j - N (k + 1) / 2)^2 / sum_ij (r_ij - (k + 1) / 2)^2."""
    r = sps.rankdata(errors.round(12).to_numpy(), axis=1)
    n, k = r.shape
    centre = (k + 1) / 2
    return (k - 1) * np.sum((r.sum(axis=0) - n * centre) ** 2) / np.sum((r - centre) ** 2)


def test_demsar_example_average_ranks_and_friedman(demsar_errors):
    # Demšar (2006), Section 3.2.2 example: average ranks 3.143, 2.000, 2.893, 1.964,
    # chi2_F = 9.28, F_F = 3.69 (critical value F(3, 39) = 2.85 at 0.05: rejected). Demšar's
    # chi2_F has no tie correction; the table ties in four rows (all four at 1.000, three
    # pairs), so scipy's, which we report, is 9.28 / 0.9071 = 10.23.
    r = ranks.average_ranks(demsar_errors)
    assert list(r.index) == DEMSAR_NAMES
    assert r.to_numpy() == pytest.approx([3.143, 2.000, 2.893, 1.964], abs=5e-4)
    result = ranks.friedman(demsar_errors)
    theirs = sps.friedmanchisquare(*demsar_errors.to_numpy().T)
    assert result.chi2 == pytest.approx(theirs.statistic, rel=1e-12)
    assert result.p == pytest.approx(theirs.pvalue, rel=1e-10)
    correction = tie_correction(demsar_errors)
    assert correction == pytest.approx(1 - 78 / 840)
    assert result.chi2 * correction == pytest.approx(9.28, abs=5e-3)  # Demšar's
    # Iman-Davenport of Demšar's chi2_F: his F_F = 3.69, beyond the 5 % critical value
    f_stat, p_f = ranks.iman_davenport(9.2786, 14, 4)
    assert f_stat == pytest.approx(3.69, abs=5e-3)
    assert p_f < 0.05 < sps.f.sf(2.85, 3, 39) + 1e-3
    # ours, of the corrected chi2: larger, and what friedman() reports
    assert result.iman_davenport_F == pytest.approx(
        ranks.iman_davenport(result.chi2, 14, 4)[0], rel=1e-12
    )
    assert result.iman_davenport_F > 3.69 and result.p_F < p_f


def test_demsar_example_critical_difference_and_nemenyi(demsar_errors):
    # CD = 2.569 sqrt(4 * 5 / (6 * 14)) = 1.25 at alpha = 0.05: even the best and the worst
    # (1.964 vs 3.143) are not significantly different.
    r = ranks.average_ranks(demsar_errors)
    cd = ranks.nemenyi_cd(4, 14)
    assert cd == pytest.approx(1.25, abs=5e-3)
    p = ranks.nemenyi_p(r, 14)
    assert (p.to_numpy() >= 0.05).all()
    # alpha = 0.10: q = 2.291, CD = 1.12; C4.5 is worse than C4.5+m and C4.5+m+cf and no
    # other pair differs (the paper's Figure 1 discussion)
    cd10 = ranks.nemenyi_cd(4, 14, alpha=0.10)
    assert cd10 == pytest.approx(1.12, abs=5e-3)
    below = {
        tuple(sorted((a, b))) for a in DEMSAR_NAMES for b in DEMSAR_NAMES if p.loc[a, b] < 0.10
    }
    assert below == {("C4.5", "C4.5+m"), ("C4.5", "C4.5+m+cf")}


def test_nemenyi_p_equals_scikit_posthocs(demsar_errors):
    import scikit_posthocs

    rng = np.random.default_rng(5)
    tables = [
        demsar_errors,
        pd.DataFrame(rng.integers(0, 4, size=(9, 6)) / 10, columns=list("abcdef")),
    ]
    for errors in tables:
        theirs = scikit_posthocs.posthoc_nemenyi_friedman(errors.round(12))
        ours = ranks.nemenyi_p(ranks.average_ranks(errors), len(errors))
        pd.testing.assert_frame_equal(ours, theirs, check_names=False, rtol=0, atol=1e-12)


@settings(max_examples=examples(40))
@given(
    st.lists(st.floats(1.0, 6.0), min_size=2, max_size=8),
    st.integers(2, 40),
    st.sampled_from([0.01, 0.05, 0.10]),
)
def test_nemenyi_p_below_alpha_exactly_beyond_the_cd(values, n, alpha):
    r = pd.Series(values)
    k = len(r)
    p = ranks.nemenyi_p(r, n).to_numpy()
    gap = np.abs(r.to_numpy()[:, None] - r.to_numpy()[None, :])
    cd = ranks.nemenyi_cd(k, n, alpha)
    clear = np.abs(gap - cd) > 1e-9  # not on the boundary itself
    np.testing.assert_array_equal((p < alpha)[clear], (gap > cd)[clear])


def test_hand_computed_example():
    # Three datasets, three algorithms:
    #   row 1: A .10 B .20 C .30 -> ranks 1, 2, 3
    #   row 2: A .10 B .30 C .20 -> ranks 1, 3, 2
    #   row 3: A .20 B .10 C .20 -> ranks 2.5, 1, 2.5 (A and C tie for ranks 2 and 3)
    # average ranks 1.5, 2, 2.5;
    # Demšar's chi2_F = 12*3/(3*4) * (1.5^2 + 2^2 + 2.5^2 - 3*4^2/4) = 3 * (12.5 - 12) = 1.5;
    # one tie of two: correction 1 - (2^3 - 2) / (3 * 3 * (3^2 - 1)) = 1 - 6/72 = 11/12,
    # chi2_F = 1.5 * 12/11 = 18/11
    # F_F = (3 - 1) * 18/11 / (3 * 2 - 18/11) = (36/11) / (48/11) = 3/4
    # p = chi2_2.sf(18/11) = exp(-9/11) (chi-square with 2 df is exponential)
    # p_F = F(2, 4).sf(3/4) = (1 + 2 * (3/4) / 4) ** (-4/2) = (11/8) ** -2 = 64/121
    errors = pd.DataFrame(
        {"A": [0.1, 0.1, 0.2], "B": [0.2, 0.3, 0.1], "C": [0.3, 0.2, 0.2]},
        index=["d1", "d2", "d3"],
    )
    r = ranks.average_ranks(errors)
    assert r.name == "average_rank"
    assert r.to_dict() == pytest.approx({"A": 1.5, "B": 2.0, "C": 2.5})
    result = ranks.friedman(errors)
    assert result.chi2 == pytest.approx(18 / 11)
    assert result.p == pytest.approx(math.exp(-9 / 11))
    assert result.iman_davenport_F == pytest.approx(3 / 4)
    assert result.p_F == pytest.approx(64 / 121)


def tied_tables(k: tuple[int, int], rows: tuple[int, int]) -> st.SearchStrategy:
    """Error tables of tenths (0 to 0.4): many ties. ``k`` and ``rows``: (fewest, most)."""
    return st.integers(*k).flatmap(
        lambda width: st.lists(
            st.lists(st.integers(0, 4), min_size=width, max_size=width),
            min_size=rows[0],
            max_size=rows[1],
        ).map(lambda values: pd.DataFrame(np.array(values, dtype=float) / 10))
    )


@settings(max_examples=examples(60))
@given(tied_tables(k=(3, 7), rows=(2, 15)))
def test_friedman_equals_scipy_with_and_without_ties(errors):
    # errors 1e-15 apart still tie (rounded)
    errors.iloc[0, 0] += 1e-15
    ours = ranks.friedman(errors)
    if (errors.round(12).nunique(axis=1) == 1).all():
        assert ours == (0.0, 1.0, 0.0, 1.0)  # scipy: 0 / 0
        return
    theirs = sps.friedmanchisquare(*errors.round(12).to_numpy().T)
    assert ours.chi2 == pytest.approx(theirs.statistic, rel=1e-9, abs=1e-12)
    assert ours.p == pytest.approx(theirs.pvalue, rel=1e-9, abs=1e-12)
    assert ours.chi2 == pytest.approx(corrected_chi2(errors), rel=1e-9, abs=1e-12)


def test_friedman_of_two_algorithms_is_the_sign_tests_chi2():
    # scipy refuses k = 2; the corrected statistic is (w - l)^2 / (w + l): a wins 5, loses 1,
    # ties 2 -> 16 / 6
    errors = pd.DataFrame(
        {
            "a": [0.1, 0.1, 0.2, 0.1, 0.3, 0.1, 0.2, 0.4],
            "b": [0.2, 0.3, 0.3, 0.2, 0.2, 0.4, 0.2, 0.4],
        }
    )
    with pytest.raises(ValueError):
        sps.friedmanchisquare(*errors.to_numpy().T)
    result = ranks.friedman(errors)
    assert result.chi2 == pytest.approx(16 / 6)
    assert result.chi2 == pytest.approx(corrected_chi2(errors))
    assert result.p == pytest.approx(sps.chi2.sf(16 / 6, 1))


def test_iman_davenport_is_the_anova_f_on_the_ranks(demsar_errors):
    # Iman and Davenport's F_F of the tie-corrected chi2 is the repeated-measures ANOVA F on
    # the ranks (datasets as subjects, algorithms as the within factor): statsmodels' AnovaRM.
    # Of Demšar's uncorrected chi2 it is not, when rows tie.
    from statsmodels.stats.anova import AnovaRM

    rng = np.random.default_rng(11)
    tied = pd.DataFrame(rng.integers(0, 3, size=(10, 4)) / 10, columns=list("abcd"))
    for errors in (demsar_errors, tied):
        r = pd.DataFrame(sps.rankdata(errors.round(12).to_numpy(), axis=1), columns=errors.columns)
        long = r.rename_axis("dataset").reset_index().melt("dataset", var_name="algorithm")
        anova = AnovaRM(long, "value", "dataset", within=["algorithm"]).fit().anova_table
        result = ranks.friedman(errors)
        assert result.iman_davenport_F == pytest.approx(anova["F Value"].iloc[0], rel=1e-9)
        assert result.p_F == pytest.approx(anova["Pr > F"].iloc[0], rel=1e-6)
        uncorrected = result.chi2 * tie_correction(errors)
        assert ranks.iman_davenport(uncorrected, *errors.shape)[0] < anova["F Value"].iloc[0]


def test_friedman_perfect_agreement_and_degenerate_tables():
    errors = pd.DataFrame({"a": [0.1, 0.2, 0.3], "b": [0.2, 0.3, 0.4], "c": [0.3, 0.4, 0.5]})
    result = ranks.friedman(errors)
    assert result.chi2 == pytest.approx(3 * 2)  # N (k - 1): the largest possible chi2_F
    assert result.iman_davenport_F == np.inf
    assert result.p_F == 0.0
    # all ranks equal: no evidence at all (scipy divides 0 by 0)
    for tied in (
        pd.DataFrame({"a": [0.1, 0.2], "b": [0.1, 0.2]}),
        pd.DataFrame({"a": [0.1, 0.2], "b": [0.1, 0.2], "c": [0.1, 0.2]}),
    ):
        assert ranks.friedman(tied) == (0.0, 1.0, 0.0, 1.0)
    for table in (errors[["a"]], errors.iloc[:1]):
        assert np.isnan(ranks.friedman(table)).all()
    with pytest.raises(ValueError, match="missing values in \\['b'\\]"):
        ranks.average_ranks(errors.assign(b=[0.1, np.nan, 0.2]))


# Demšar (2006), Table 5a: critical values of the two-tailed Nemenyi test, to three decimals
# (not all rounded to nearest: k = 3 prints 2.343 for 2.34370)
Q_005 = {2: 1.960, 3: 2.343, 4: 2.569, 5: 2.728, 6: 2.850, 7: 2.949, 8: 3.031, 9: 3.102, 10: 3.164}
Q_010 = {2: 1.645, 4: 2.291, 10: 2.920}


@pytest.mark.parametrize(("k", "q"), sorted(Q_005.items()))
def test_nemenyi_q_alpha_005_matches_table_5a(k, q):
    assert ranks.nemenyi_q(k) == pytest.approx(q, abs=1e-3)


@pytest.mark.parametrize(("k", "q"), sorted(Q_010.items()))
def test_nemenyi_q_alpha_010_matches_table_5a(k, q):
    assert ranks.nemenyi_q(k, alpha=0.10) == pytest.approx(q, abs=1e-3)


def test_nemenyi_cd_formula_and_arguments():
    assert ranks.nemenyi_cd(4, 14) == pytest.approx(ranks.nemenyi_q(4) * math.sqrt(20 / 84))
    assert ranks.nemenyi_cd(6, 40) < ranks.nemenyi_cd(6, 10)  # more data sets, smaller CD
    assert ranks.nemenyi_cd(6, 10, alpha=0.01) > ranks.nemenyi_cd(6, 10)
    with pytest.raises(ValueError, match="at least 2 algorithms"):
        ranks.nemenyi_cd(1, 10)
    with pytest.raises(ValueError, match="at least 1 dataset"):
        ranks.nemenyi_cd(3, 0)
    with pytest.raises(ValueError, match="alpha must lie in"):
        ranks.nemenyi_q(3, alpha=1.5)


@settings(max_examples=examples(60))
@given(tied_tables(k=(2, 8), rows=(1, 12)))
def test_average_ranks_sum_to_k_k_plus_1_over_2(errors):
    # tied ranks are averaged, so the sum holds anyway
    n, k = errors.shape
    r = ranks.average_ranks(errors)
    assert r.sum() == pytest.approx(k * (k + 1) / 2)
    assert ((r >= 1) & (r <= k)).all()
    chi2 = ranks.friedman(errors).chi2
    assert np.isnan(chi2) or 0 <= chi2 <= n * (k - 1) + 1e-9


def trial_rows(rows: list[tuple]) -> pd.DataFrame:
    """Band means as :func:`budgetboost.analysis.paired.band_means` gives them."""
    return pd.DataFrame(
        rows, columns=["dataset", "cost_model", "band", "algorithm", "trial", "error"]
    )


def test_band_errors_average_common_trials_and_drop_incomplete_algorithms():
    rows = []
    for dataset, offset in (("d1", 0.0), ("d2", 0.5)):
        for trial in range(4):
            rows.append((dataset, "c", "small", "smoothed", trial, offset + 0.01 * trial))
            if trial < 3:  # greedy ran on the first three trials only
                rows.append((dataset, "c", "small", "greedy", trial, offset + 0.1))
            if dataset == "d1":  # speedboost never runs on d2
                rows.append((dataset, "c", "small", "speedboost", trial, 0.3))
    small = ranks.band_errors(trial_rows(rows), "small")
    assert list(small.index) == ["d1", "d2"]
    assert small.index.name == "dataset"
    assert list(small.columns) == ["greedy", "smoothed"]  # canonical order
    # smoothed on the trials greedy ran too (0, 1, 2), not on its fourth
    assert small.loc["d1", "smoothed"] == pytest.approx(0.01)
    assert small.loc["d2", "greedy"] == pytest.approx(0.6)
    assert small.attrs == {"band": "small", "trials": 3, "dropped": ["speedboost"]}
    assert ranks.band_errors(trial_rows(rows).iloc[:0], "large").empty


def test_a_dataset_under_two_cost_models_counts_once():
    # heart under two cost models, with their own common trials (greedy ran 2 of 3 under
    # turney); ecoli and sonar under one. heart's score: the mean of its two cost models'
    # means, each over its common trials.
    errors = {
        ("heart", "u"): {"greedy": [0.10, 0.05, 0.15], "smoothed": [0.20, 0.20, 0.20]},
        ("heart", "turney"): {"greedy": [0.40, 0.50], "smoothed": [0.30, 0.30, 0.90]},
        ("ecoli", "u"): {"greedy": [0.10, 0.10, 0.10], "smoothed": [0.15, 0.15, 0.15]},
        ("sonar", "u"): {"greedy": [0.30, 0.30, 0.30], "smoothed": [0.25, 0.25, 0.25]},
    }
    rows = [
        (d, c, "large", algorithm, trial, e)
        for (d, c), by_algorithm in errors.items()
        for algorithm, values in by_algorithm.items()
        for trial, e in enumerate(values)
    ]
    large = ranks.band_errors(trial_rows(rows), "large")
    assert list(large.index) == ["ecoli", "heart", "sonar"]
    assert large.loc["heart", "greedy"] == pytest.approx((0.1 + 0.45) / 2)
    assert large.loc["heart", "smoothed"] == pytest.approx((0.2 + 0.3) / 2)  # not its 0.9
    assert large.attrs["trials"] == 2
    table = ranks.cd_analysis(trial_rows(rows))
    assert (table["n_datasets"] == 3).all()
    # greedy loses on heart (0.275 > 0.25) and sonar, wins on ecoli: ranks 5/3 and 4/3
    assert table.set_index("algorithm")["average_rank"].to_dict() == pytest.approx(
        {"smoothed": 4 / 3, "greedy": 5 / 3}
    )
    # with each (dataset, cost model) pair a unit, heart would count twice, a win and a
    # loss for greedy, and the two would tie
    pairs = ranks.average_ranks(
        trial_rows(rows)
        .query("trial < 2 or cost_model != 'turney'")
        .groupby(["dataset", "cost_model", "algorithm"])["error"]
        .mean()
        .unstack()
    )
    assert pairs.to_dict() == pytest.approx({"greedy": 1.5, "smoothed": 1.5})


@pytest.fixture(scope="module")
def shards() -> pd.DataFrame:
    return synthetic_shards(
        datasets=("ecoli", "heart", "sonar", "ionosphere"),
        trials=8,
        budgets=(2, 6, 10, 14, 18, 22),
        extra=(("heart", "turney"),),
    )


def budgeted_means(shards: pd.DataFrame) -> pd.DataFrame:
    means = paired.band_means(shards, ranks.BANDS)
    return means[means["algorithm"] != "adaboost"]


def test_cd_analysis_table(shards, tmp_path):
    means = budgeted_means(shards)
    table = ranks.cd_analysis(means, control="smoothed")
    assert list(table.columns) == ranks.CD_COLUMNS
    assert list(dict.fromkeys(table["band"])) == list(ranks.BANDS)
    assert table["n_datasets"].dtype == np.int64 and table["k"].dtype == np.int64
    assert table["friedman_rejects"].dtype == bool
    for band, part in table.groupby("band"):
        k = part["k"].iloc[0]
        assert len(part) == k == 6  # five boosters and the tree
        # four datasets: heart counts once, under U[0, 2] and Turney's costs
        assert part["n_datasets"].iloc[0] == 4 and part["trials"].iloc[0] == 8
        assert part["average_rank"].sum() == pytest.approx(k * (k + 1) / 2)
        assert part["average_rank"].is_monotonic_increasing
        errors = ranks.band_errors(means, band)
        assert list(errors.index) == ["ecoli", "heart", "ionosphere", "sonar"]
        test = ranks.friedman(errors)
        assert part["friedman_p"].iloc[0] == pytest.approx(test.p_F)
        assert (part["friedman_rejects"] == (test.p_F < ranks.ALPHA)).all()
        assert part["cd"].iloc[0] == pytest.approx(ranks.nemenyi_cd(6, 4))
        control = part.set_index("algorithm").loc["smoothed"]
        assert np.isnan(control["p_vs_control"]) and (part["control"] == "smoothed").all()
    # the synthetic curves: AdaBoostRS is worst everywhere, Smoothed best at larger budgets
    assert (table.groupby("band").tail(1)["algorithm"] == "adaboost_rs").all()
    large = table[table["band"] == "large"]
    assert large["algorithm"].iloc[0] == "smoothed"
    assert large["friedman_rejects"].all()
    assert table.attrs["dropped"] == {"small": [], "medium": [], "large": []}
    # Parquet round trip through the project's writer, with the attrs as metadata
    path = tmp_path / "cd.parquet"
    write_table(table, path, metadata=table.attrs)
    pd.testing.assert_frame_equal(read_table(path), table)
    assert read_metadata(path)["skipped"] == {}


def test_friedman_rejects_only_below_alpha():
    # four datasets with no signal: Friedman does not reject, and the column says so; the
    # same algorithms in the same order on every dataset: it rejects
    rng = np.random.default_rng(3)
    algorithms = ("greedy", "smoothed", "speedboost", "adaboost_rs", "tree")
    noise = [
        (f"d{i}", "c", "large", a, t, float(rng.uniform(0.1, 0.3)))
        for i in range(4)
        for a in algorithms
        for t in range(3)
    ]
    table = ranks.cd_analysis(trial_rows(noise), control="smoothed")
    assert table["friedman_p"].iloc[0] > 0.05 and not table["friedman_rejects"].any()
    ordered = [
        (f"d{i}", "c", "large", a, t, 0.1 * j + 0.01 * i)
        for i in range(4)
        for j, a in enumerate(algorithms)
        for t in range(3)
    ]
    table = ranks.cd_analysis(trial_rows(ordered), control="smoothed", alpha=0.01)
    assert table["friedman_p"].iloc[0] < 0.01 and table["friedman_rejects"].all()
    assert (table["alpha"] == 0.01).all()


def test_against_control_is_demsars_z_test_with_holm():
    # ranks a 1, b 2, c 3.5, d 3.5 (c and d tie) on each of 14 datasets
    errors = pd.DataFrame([[0.1, 0.2, 0.3, 0.3]] * 14, columns=list("abcd"))
    out = ranks.against_control(errors, control="a")
    se = math.sqrt(4 * 5 / (6 * 14))
    expected = 2 * sps.norm.sf(np.array([1.0, 2.5, 2.5]) / se)
    np.testing.assert_allclose(out["p"].iloc[1:], expected, rtol=1e-12)
    np.testing.assert_allclose(out["p_holm"].iloc[1:], significance.holm(expected))
    assert np.isnan(out.loc["a", "p"])
    assert ranks.against_control(errors, "absent")["p"].isna().all()
    assert ranks.against_control(errors, None)["p"].isna().all()


def test_cd_analysis_skips_bands_without_a_test():
    # one dataset cannot be tested
    rows = [
        ("d1", "c", "small", a, t, e)
        for a, e in (("greedy", 0.1), ("smoothed", 0.2))
        for t in range(3)
    ]
    table = ranks.cd_analysis(trial_rows(rows))
    assert table.empty and set(table.attrs["skipped"]) == set(ranks.BANDS)
    rows += [
        ("d2", "c", "small", a, t, e + 0.01)
        for a, e in (("greedy", 0.1), ("smoothed", 0.2))
        for t in range(3)
    ]
    table = ranks.cd_analysis(trial_rows(rows))
    assert list(dict.fromkeys(table["band"])) == ["small"]
    assert (table["average_rank"][table["algorithm"] == "greedy"] == 1.0).all()
    empty = ranks.cd_analysis(trial_rows(rows).iloc[:0])
    assert list(empty.columns) == ranks.CD_COLUMNS and empty.empty

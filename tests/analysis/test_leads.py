"""Where each family leads: per-dataset standings from the field's rows."""

import pandas as pd

from budgetboost.analysis.leads import dataset_standings, leads
from budgetboost.catalogue import Catalogue

CATALOGUE = Catalogue(
    {
        "smoothed": {"family": "boosting"},
        "streed": {"family": "optimal_tree"},
        "aaco": {"family": "acquisition"},
        "select": {"family": "selection"},
    }
)


def _rows(outcomes, dataset="d", cost_model="c", band="small", pool="all"):
    """Field rows x vs y with the given outcome (x's error lower: better)."""
    return pd.DataFrame(
        [
            {
                "question": "field",
                "x": x,
                "y": y,
                "dataset": dataset,
                "cost_model": cost_model,
                "pool": pool,
                "band": band,
                "outcome": o,
            }
            for (x, y), o in outcomes.items()
        ]
    )


def _standing(table):
    return dict(zip(table["family"], table["standing"], strict=True))


def test_a_family_leads_when_one_method_is_better_than_every_method_of_every_other_family():
    rows = _rows(
        {
            ("streed", "smoothed"): "better",
            ("streed", "aaco"): "better",
            ("aaco", "smoothed"): "worse",
        }
    )
    standing = _standing(dataset_standings(rows, CATALOGUE))
    assert standing == {"optimal_tree": "leads", "boosting": "trails", "acquisition": "trails"}


def test_equivalent_rows_make_a_family_on_par_and_a_missing_row_keeps_it_from_leading():
    rows = _rows(
        {
            ("streed", "smoothed"): "equivalent",
            ("streed", "aaco"): "better",
            ("aaco", "smoothed"): "inconclusive",
        }
    )
    standing = _standing(dataset_standings(rows, CATALOGUE))
    assert standing["optimal_tree"] == "on_par"
    assert standing["boosting"] == "undecided"
    assert standing["acquisition"] == "trails"
    # streed never faced select's family: it cannot lead nor be on par there
    rows = pd.concat([rows, _rows({("select", "aaco"): "better"})], ignore_index=True)
    rows.loc[rows["x"] == "streed", "outcome"] = "better"
    assert _standing(dataset_standings(rows, CATALOGUE))["optimal_tree"] == "undecided"


def test_counts_per_pool_and_band_name_the_datasets_led_and_count_where_the_band_binds():
    rows = pd.concat(
        [
            _rows({("streed", "smoothed"): "better"}, dataset="a", pool="unit"),
            _rows({("streed", "smoothed"): "equivalent"}, dataset="b", pool="unit"),
            _rows({("streed", "smoothed"): "better"}, dataset="c", cost_model="other"),
        ],
        ignore_index=True,
    )
    binding = pd.DataFrame(
        {
            "dataset": ["a", "b"],
            "cost_model": ["c", "c"],
            "budget": [1.0, 1.0],
            "attributes": [4, 4],
            "share": [0.25, 0.75],
            "binds": [True, False],
        }
    )
    table = leads({"cap": rows}, CATALOGUE, binding)
    trees = table[(table["family"] == "optimal_tree") & (table["pool"] == "unit")].iloc[0]
    assert (trees["datasets"], trees["leads"], trees["on_par"]) == (2, 1, 1)
    assert (trees["binding_datasets"], trees["leads_binding"]) == (1, 1)
    assert trees["leads_on"] == "a"
    other = table[(table["family"] == "optimal_tree") & (table["pool"] == "all")].iloc[0]
    assert other["leads_on"] == "c"


def test_rows_that_face_no_other_family_give_no_counts():
    rows = _rows({("smoothed", "greedy"): "better"})  # one family: nothing to stand against
    catalogue = Catalogue({"smoothed": {"family": "boosting"}, "greedy": {"family": "boosting"}})
    assert leads({"cap": rows}, catalogue, pd.DataFrame()).empty

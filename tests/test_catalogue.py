"""The catalogue: one place for the algorithms' labels, families, roles, styles and order."""

from __future__ import annotations

import matplotlib.colors as mcolors
import pytest
from helpers import REPO
from hypothesis import given
from hypothesis import strategies as st

from budgetboost.catalogue import (
    BUILTIN,
    FAMILIES,
    ROLES,
    Catalogue,
    Style,
)

#: the order of tables, legends and pairs before the catalogue existed (stats.ALGORITHM_ORDER)
PAPER_ORDER = [
    "adaboost",
    "adaboost_bt",
    "greedy",
    "smoothed",
    "speedboost",
    "hybrid",
    "adaboost_rs",
    "adaboost_rs_ac",
    "tree",
    "tree_cs",
]


def test_the_builtin_order_is_the_papers():
    assert list(Catalogue.default()) == PAPER_ORDER
    assert (
        Catalogue.from_config({name: {} for name in reversed(PAPER_ORDER)}).sort(PAPER_ORDER[::-1])
        == PAPER_ORDER
    )


def test_builtin_roles_and_families():
    catalogue = Catalogue.default()
    assert [catalogue.with_role(r) for r in ROLES] == [
        "adaboost",
        "adaboost_bt",
        "greedy",
        "smoothed",
        "speedboost",
        "adaboost_rs",
        "adaboost_rs_ac",
        "tree",
        "tree_cs",
    ]
    assert catalogue.of_family("sampling") == ["adaboost_rs", "adaboost_rs_ac"]
    assert catalogue["adaboost_rs"].right_axis and not catalogue["greedy"].right_axis
    assert catalogue["hybrid"].role is None


def test_config_entries_override_and_extend_the_defaults():
    catalogue = Catalogue.from_config(
        {
            "greedy_eq1": {"estimator": "BudgetedBoost", "role": "greedy", "label": "Greedy"},
            "smoothed": {"label": "Smoothed (Eq. 2)", "style": {"colour": "tab:red"}},
            "lgbm": {"family": "peer"},
            "mystery": {},
        }
    )
    assert list(catalogue) == ["smoothed", "greedy_eq1", "lgbm", "mystery"]
    assert catalogue.with_role("greedy") == "greedy_eq1"
    assert catalogue.with_role("smoothed") == "smoothed"  # built-in role kept
    assert catalogue.label("smoothed") == "Smoothed (Eq. 2)"
    assert catalogue["smoothed"].style == Style("tab:red", "o", "-")
    assert catalogue["lgbm"].family == "peer" and catalogue["mystery"].family == "other"
    assert catalogue.label("unknown") == "unknown"


def test_records_rebuild_the_same_catalogue():
    catalogue = Catalogue.from_config({"smoothed": {}, "x": {"family": "boosting"}})
    again = Catalogue(catalogue.records())
    assert list(again) == list(catalogue)
    assert all(again[n] == catalogue[n] for n in catalogue)


@pytest.mark.parametrize(
    "entries, message",
    [
        ({"a": {"family": "boostin"}}, "family 'boostin'"),
        ({"a": {"role": "greedy"}}, "both have the role 'greedy'"),
        ({"a": {"role": "gredy"}}, "role 'gredy'"),
    ],
)
def test_bad_entries_are_named(entries, message):
    with pytest.raises(ValueError, match=message):
        Catalogue({**{name: {} for name in BUILTIN}, **entries})


@given(
    st.lists(st.text("abcdefgh_", min_size=1, max_size=8), min_size=1, max_size=40, unique=True),
    st.sampled_from(FAMILIES),
)
def test_new_algorithms_get_distinct_colours_never_grey(names, family):
    entries = {name: {} for name in BUILTIN}
    entries.update({f"new_{n}": {"family": family} for n in names})
    catalogue = Catalogue(entries)
    colours = [mcolors.to_hex(a.style.colour) for a in catalogue.values()]
    assert len(set(colours)) == len(colours)
    assert mcolors.to_hex("grey") not in colours
    assert Catalogue(entries)["new_" + names[0]].style == catalogue["new_" + names[0]].style


def test_unknown_names_sort_last_alphabetically():
    catalogue = Catalogue.default()
    assert catalogue.sort(["zeta", "alpha", "greedy", "adaboost"]) == [
        "adaboost",
        "greedy",
        "alpha",
        "zeta",
    ]
    assert list(catalogue.including(["zeta", "alpha"]))[-2:] == ["alpha", "zeta"]


def test_a_variant_names_another_algorithm_and_is_listed():
    catalogue = Catalogue.from_config(
        {
            "greedy": {},
            "greedy_tree2": {"family": "boosted_trees", "variant_of": "greedy", "label": "G2"},
        }
    )
    assert catalogue.variants() == [("greedy_tree2", "greedy")]
    assert Catalogue(catalogue.records()).variants() == [("greedy_tree2", "greedy")]
    for bad in ("gredy", "greedy_tree2"):
        with pytest.raises(ValueError, match=f"variant_of {bad!r} is not another algorithm"):
            Catalogue({"greedy": {}, "greedy_tree2": {"variant_of": bad}})


def test_the_config_schema_allows_exactly_the_catalogues_families_and_roles(monkeypatch):
    """Families and roles have one definition, the catalogue's: the schema as loaded takes
    its enums from there (a copy in the schema drifted), and a family added to the catalogue
    is accepted by a config."""
    import yaml

    from budgetboost import catalogue as catalogue_module
    from budgetboost.pipeline.config import ConfigError, validate_config, with_vocabularies

    raw = yaml.safe_load((REPO / "budgetboost/schemas/config.schema.yaml").read_text())
    assert "enum" not in raw["$defs"]["algorithm"]["properties"]["family"]  # no copy
    algorithm = with_vocabularies(raw)["$defs"]["algorithm"]["properties"]
    assert tuple(algorithm["family"]["enum"]) == FAMILIES
    assert tuple(algorithm["role"]["enum"]) == ROLES
    config = yaml.safe_load((REPO / "config/test.yaml").read_text())
    config["algorithms"]["greedy"]["family"] = "brand_new"
    with pytest.raises(ConfigError, match="brand_new"):
        validate_config(config)
    monkeypatch.setattr(catalogue_module, "FAMILIES", (*FAMILIES, "brand_new"))
    validate_config(config)


def test_label_and_family_default_to_the_estimator_class_and_a_config_overrides_them():
    """An entry without ``label`` or ``family`` takes what its estimator class declares
    (BudgetedEstimator.label, .family); the entry's own keys win, and so do a built-in
    name's defaults and its role's family (they say more than the class)."""
    from budgetboost import BudgetedTree, BudgetPrune
    from budgetboost.pipeline.plan import algorithm_catalogue

    catalogue = algorithm_catalogue(
        {
            "prune": {"estimator": "BudgetPrune"},
            "prune_mine": {"estimator": "BudgetPrune", "label": "Mine", "family": "other"},
            "tree_cs": {"estimator": "BudgetedTree"},
            "a_tree": {"estimator": "BudgetedTree"},
            "my_rs": {"estimator": "BudgetedBoost", "role": "adaboost_rs", "label": "RS"},
        }
    )
    assert (catalogue["prune"].label, catalogue["prune"].family) == (
        BudgetPrune.label,
        BudgetPrune.family,
    )
    assert (catalogue["prune_mine"].label, catalogue["prune_mine"].family) == ("Mine", "other")
    assert catalogue["tree_cs"].label == BUILTIN["tree_cs"]["label"] != BudgetedTree.label
    assert catalogue["a_tree"].label == BudgetedTree.label
    assert catalogue["my_rs"].family == BUILTIN["adaboost_rs"]["family"] == "sampling"
    # the catalogue alone (a rule script's, from its param) knows no classes
    assert Catalogue.from_config({"prune": {"estimator": "BudgetPrune"}})["prune"].label == "prune"

"""The config checks made when the workflow is planned (budgetboost.checks, .pipeline.config).

Every message is one line that starts with the config path of the offending value; the
end-to-end counterparts (``snakemake -n`` stops before any job) are in test_workflow.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import REPO, edited

from budgetboost.checks import ConfigError
from budgetboost.pipeline.config import check_config, validate_config

SCHEMA_ERRORS = [
    (
        lambda c: c["cost_models"]["uniform_0_2"].update(trials=0),
        "config cost_models.uniform_0_2.trials: 0 is less than the minimum of 1",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(trials="all"),
        "config algorithms.greedy.trials: 'all' is not of type 'integer'",
    ),
    (
        lambda c: c["algorithms"].update({"../../../../x": {"estimator": "BudgetedBoost"}}),
        "config algorithms: name '../../../../x' does not match "
        "^[A-Za-z](?:[A-Za-z0-9_]*[A-Za-z0-9])?$",
    ),
    (
        lambda c: c["cost_models"].update({"a/b": c["cost_models"]["uniform_0_2"]}),
        "config cost_models: name 'a/b' does not match",
    ),
    (
        lambda c: c["datasets"]["heart"].update(cost_models=["../x"]),
        "config datasets.heart.cost_models.0: '../x' does not match",
    ),
    (lambda c: c.pop("algorithms"), "config (top level): 'algorithms' is a required property"),
    (
        lambda c: c.update(resources={"plot": {"mem_mb": 500}}),
        "config resources.plot: unknown key (allowed here: adaboost_path, binarize, train)",
    ),
    (
        lambda c: c.update(resources={"train": {"mem_mb": 0}}),
        "config resources.train.mem_mb: 0 is less than the minimum of 100",
    ),
    # YAML reads 2e0 as text; a dotted class path; both said in words
    (
        lambda c: c["cost_models"]["uniform_0_2"]["budgets"].update(step="2e0"),
        "config cost_models.uniform_0_2.budgets.step: must be of type 'number'; got '2e0' "
        "(text, not a number: write 2)",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(estimator="my_methods.CheapestStump"),
        "config algorithms.greedy.estimator: must be a built-in estimator (BudgetedBoost, "
        "TunedBoost, AACO, ...: budgetboost.estimators.contract.registry.ESTIMATORS) or a "
        "\"module:Class\" path; got 'my_methods.CheapestStump' (a colon between the "
        "module and the class: 'my_methods:CheapestStump')",
    ),
]


@pytest.mark.parametrize("edit, message", SCHEMA_ERRORS)
def test_schema_errors_are_one_line_naming_the_path(test_config, edit, message):
    with pytest.raises(ConfigError) as err:
        validate_config(edited(test_config, edit))
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_validation_fills_defaults_without_touching_the_input(test_config):
    config = edited(test_config, lambda c: c.pop("block_size"))
    filled = validate_config(config)
    assert filled["block_seconds"] == 120 and "block_seconds" not in config
    assert "block_size" not in filled  # no cap unless the config sets one
    assert filled["algorithms"]["adaboost"]["unbudgeted"] is True
    assert filled["algorithms"]["greedy"]["refit_per_budget"] is False


CHECK_ERRORS = [
    # estimator parameters, by the estimator's own declared constraints
    (
        lambda c: c["algorithms"]["adaboost_rs"]["params"].update(n_rounds=0),
        "config algorithms.adaboost_rs.params.n_rounds: ",
    ),
    (
        lambda c: c["algorithms"]["tree"]["params"].update(criterion="gni"),
        "config algorithms.tree.params.criterion: ",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(estimator="nowhere.module:Cls"),
        "config algorithms.greedy.estimator: estimator 'nowhere.module:Cls': cannot import",
    ),
    (
        lambda c: c["algorithms"]["adaboost"].update(rounds_from_registry="rounds"),
        "config algorithms.adaboost.rounds_from_registry: BudgetedBoost has no parameter 'rounds'",
    ),
    # the cost-sensitive tree's trade-off grid
    (
        lambda c: c["algorithms"]["tree"]["params"].update(tradeoffs=[0, 1]),
        "config algorithms.tree.params.tradeoffs: only used with cost_sensitive=True",
    ),
    (
        lambda c: c["algorithms"]["tree_cs"]["params"].update(tradeoffs=[0, -1]),
        "config algorithms.tree_cs.params.tradeoffs: must be ",
    ),
    (
        lambda c: c["algorithms"]["tree_cs"]["params"].update(validation_fraction=0.0),
        "config algorithms.tree_cs.params.validation_fraction: must be > 0 to choose",
    ),
    (
        lambda c: c["algorithms"]["tree_cs"]["params"].update(
            tradeoffs=[0, 0.01, 0.1], validation_fraction=0.3
        ),
        None,
    ),
    # cost-model specs
    (
        lambda c: c["cost_models"]["uniform_0_2"]["spec"].update(high="2e0"),
        "config cost_models.uniform_0_2.spec.high: must be a finite number >= 0; got '2e0' "
        "(text, not a number: write 2)",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"]["spec"].update(high="inf"),
        "config cost_models.uniform_0_2.spec.high: must be a finite number >= 0; got 'inf' "
        "(text, not a number: YAML writes infinity .inf, not-a-number .nan)",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"].update(
            spec={"model": "few_cheap", "fraction": 2}
        ),
        "config cost_models.uniform_0_2.spec.fraction: must lie in [0, 1]; got 2",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"].update(
            spec={"model": "few_cheap", "cheap": [0, 0.2], "expensive": [2.5, 1.5]}
        ),
        "config cost_models.uniform_0_2.spec.expensive: low 2.5 is larger than high 1.5",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"].update(
            spec={"model": "correlated", "low": 0, "high": 2, "noise": 0.25}
        ),
        None,
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"]["spec"].update(low=3),
        "config cost_models.uniform_0_2.spec.low: 3.0 is larger than high 2.0",
    ),
    (
        lambda c: c["cost_models"]["turney"]["spec"].update(file="resources/nowhere.csv"),
        None,
    ),  # not used by any dataset: not checked
    # references between entries
    (
        lambda c: c["datasets"]["heart"].update(algorithms=["gredy"]),
        "config datasets.heart.algorithms: 'gredy' is not defined under algorithms",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"].update(algorithms=["gredy"]),
        "config cost_models.uniform_0_2.algorithms: 'gredy' is not defined under algorithms",
    ),
    (
        lambda c: c["datasets"]["heart"].update(budgets={"turney": {"step": 1, "stop": 2}}),
        "config datasets.heart.budgets.turney: not one of this dataset's cost models",
    ),
    # budget grids
    (
        lambda c: c["cost_models"]["uniform_0_2"]["budgets"].update(start=20),
        "config cost_models.uniform_0_2.budgets: budget grid needs 0 < start <= stop",
    ),
    (
        lambda c: c["datasets"]["heart"].update(
            budgets={"uniform_0_2": {"step": 1, "stop": 2, "start": 3}}
        ),
        "config datasets.heart.budgets.uniform_0_2: budget grid needs",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"].update(budgets={"values": [3, 1]}),
        "config cost_models.uniform_0_2.budgets: budget values must increase",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"].update(
            budgets={"values": [1, 2], "step": 2, "stop": 4}
        ),
        "config cost_models.uniform_0_2.budgets: a budget grid is either values or step and "
        "stop, not both: step, stop given with values",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"].update(budgets={"step": 2}),
        "config cost_models.uniform_0_2.budgets: a budget grid needs step and stop (or values); "
        "stop missing",
    ),
    # source files and cost files
    (
        lambda c: (
            c["datasets"]["heart"]["cost_models"].append("turney"),
            c["cost_models"]["turney"]["spec"].update(file="resources/nowhere.csv"),
        ),
        "config cost_models.turney.spec.file: cost file resources/nowhere.csv (used by "
        "heart/turney) not found",
    ),
]


@pytest.mark.parametrize("edit, message", CHECK_ERRORS)
def test_check_config_names_the_config_path(test_config, registry, edit, message):
    config = validate_config(edited(test_config, edit))
    if message is None:
        check_config(config, registry, REPO)
        return
    with pytest.raises(ConfigError) as err:
        check_config(config, registry, REPO)
    assert str(err.value).startswith(message), str(err.value)
    assert "\n" not in str(err.value)


# ------------------------------------------------------------------ planning checks


def test_a_class_that_is_not_a_budgeted_estimator_stops_at_planning(test_config, registry):
    """``sklearn.tree:DecisionTreeClassifier``, not a budgeted estimator, stops at planning, before
    any job."""
    pytest.importorskip("sklearn")
    config = validate_config(
        edited(
            test_config,
            lambda c: c["algorithms"]["greedy"].update(
                estimator="sklearn.tree:DecisionTreeClassifier", params={}
            ),
        )
    )
    with pytest.raises(ConfigError) as err:
        check_config(config, registry, REPO)
    assert str(err.value).startswith(
        "config algorithms.greedy.estimator: sklearn.tree:DecisionTreeClassifier is not a "
        "budgetboost.BudgetedEstimator"
    )


def test_a_required_constructor_parameter_stops_at_planning(test_config, registry):
    """An estimator whose ``__init__`` needs an argument the config does not give stops at planning,
    before any train job."""
    needy = "fixtures.misbehaving_estimators:Needy"
    config = validate_config(
        edited(test_config, lambda c: c["algorithms"]["greedy"].update(estimator=needy, params={}))
    )
    with pytest.raises(ConfigError) as err:
        check_config(config, registry, REPO)
    assert str(err.value) == (
        f"config algorithms.greedy.params: {needy} needs 'depth' (a constructor parameter "
        "without a default): give it here"
    )
    config["algorithms"]["greedy"]["params"] = {"depth": 2}
    check_config(config, registry, REPO)


def test_an_estimator_without_the_prices_its_cost_model_passes_stops_at_planning(
    test_config, registry
):
    """The README's method (no ``discount_groups``) under heart's real costs, whose tests
    share parts, passed planning and would stop every train job on a ``TypeError``; under
    costs without shared parts it runs, and leaving it out of that cost model is the way."""
    mine = "external_estimator:CheapestStump"

    def edit(c):
        c["datasets"]["heart"]["cost_models"] = ["uniform_0_2", "turney"]
        c["algorithms"]["mine"] = {"estimator": mine}

    config = validate_config(edited(test_config, edit))
    with pytest.raises(ConfigError) as err:
        check_config(config, registry, REPO)
    assert str(err.value) == (
        f"config algorithms.mine.estimator: {mine} takes no discount_groups or "
        "discount_costs, which cost model 'turney' passes (it has tests that share a part "
        "(discount groups in its cost file); dataset 'heart'): add the parameter (see "
        "BudgetedEstimator, 'Parameters the pipeline sets per trial'), or leave 'mine' out "
        "of cost_models.turney.algorithms"
    )
    others = [a for a in config["algorithms"] if a != "mine"]
    config["cost_models"]["turney"]["algorithms"] = others
    check_config(config, registry, REPO)


@pytest.mark.parametrize(
    ("estimator", "methods"),
    [
        ("fixtures.misbehaving_estimators:HalfError", "evaluate_at_budgets"),
        ("external_estimator:DictEvaluation", "evaluate_at_budgets"),
    ],
)
def test_an_estimator_overriding_what_the_pipeline_computes_stops_at_planning(
    test_config, registry, estimator, methods
):
    """An estimator whose own evaluate_at_budgets reports half its error stops at planning: a train
    job never calls it, and planning says so."""
    config = validate_config(
        edited(test_config, lambda c: c["algorithms"].update(mine={"estimator": estimator}))
    )
    with pytest.raises(ConfigError) as err:
        check_config(config, registry, REPO)
    assert str(err.value) == (
        f"config algorithms.mine.estimator: {estimator} overrides {methods}, which a train "
        "job never calls: it computes the errors from the labels of _scores_and_costs and "
        "the costs from the feature groups _groups_read says each example reads; remove the "
        "override and implement those hooks (see budgetboost.BudgetedEstimator, 'Writing an "
        "estimator')"
    )


def test_a_constraint_written_the_scikit_learn_way_is_read_so(test_config, registry):
    """A ``_parameter_constraints`` entry that is a plain type (``[int]``, as scikit-learn allows)
    is read as scikit-learn reads it; an entry that is no constraint stops planning in one line
    naming the class and parameter."""
    fixtures = "fixtures.misbehaving_estimators"

    def planned(estimator, params):
        entry = {"estimator": f"{fixtures}:{estimator}", "params": params}
        config = validate_config(edited(test_config, lambda c: c["algorithms"].update(mine=entry)))
        check_config(config, registry, REPO)

    planned("PlainTypes", {"depth": 2})
    with pytest.raises(ConfigError) as err:
        planned("PlainTypes", {"depth": 2.5})
    assert str(err.value) == (
        "config algorithms.mine.params.depth: must be an instance of int; got 2.5"
    )
    with pytest.raises(ConfigError) as err:
        planned("NotAConstraint", {"depth": 2})
    assert str(err.value) == (
        "config algorithms.mine.estimator: NotAConstraint._parameter_constraints['depth'] "
        "holds 'int', which is not a constraint: use None, a type, or a constraint of "
        "budgetboost.estimators.contract.params (Interval, Options, InstanceOf, ...)"
    )


def test_a_parameter_check_that_raises_stops_planning_in_one_line(test_config, registry):
    """A constraint object of scikit-learn's own (no ``explain``) passes the values it admits
    and refuses the others in its own words, as scikit-learn does; a plug-in's check raising
    an error of its own stops planning in one line naming the key, never a traceback."""

    def planned(estimator, params):
        entry = {"estimator": f"fixtures.foreign_constraints:{estimator}", "params": params}
        config = validate_config(edited(test_config, lambda c: c["algorithms"].update(mine=entry)))
        check_config(config, registry, REPO)

    planned("ForeignConstraint", {"depth": 3})
    with pytest.raises(ConfigError) as err:
        planned("ForeignConstraint", {"depth": 0})
    assert str(err.value) == (
        "config algorithms.mine.params.depth: must be an int in the range [1, inf); got 0"
    )
    with pytest.raises(ConfigError) as err:
        planned("RaisingCheck", {"depth": 3})
    assert str(err.value) == (
        "config algorithms.mine.estimator: checking its params raised RuntimeError: the depth "
        "checker is offline"
    )


def test_an_estimator_without_feature_groups_stops_under_a_grouped_cost_model(
    test_config, registry
):
    ungrouped = "fixtures.misbehaving_estimators:Ungrouped"

    def edit(c):
        c["cost_models"]["uniform_0_2"]["spec"]["grouped"] = True
        c["algorithms"]["mine"] = {"estimator": ungrouped}

    config = validate_config(edited(test_config, edit))
    with pytest.raises(
        ConfigError,
        match=r"^config algorithms\.mine\.estimator: .* takes no "
        r"feature_groups, which cost model 'uniform_0_2' passes \(it pays a raw "
        r"attribute's indicators together; dataset 'heart'\)",
    ):
        check_config(config, registry, REPO)


@pytest.mark.parametrize(
    "source, detail",
    [
        ("def broken(:\n", "(SyntaxError: "),
        ("raise RuntimeError('no licence server')\n", "(RuntimeError: no licence server)"),
    ],
)
def test_an_estimator_module_that_fails_to_import_names_the_key(
    test_config, registry, tmp_path, monkeypatch, source, detail
):
    (tmp_path / "broken_estimators.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    config = validate_config(
        edited(
            test_config,
            lambda c: c["algorithms"]["greedy"].update(estimator="broken_estimators:Mine"),
        )
    )
    with pytest.raises(ConfigError) as err:
        check_config(config, registry, REPO)
    message = str(err.value)
    assert message.startswith(
        "config algorithms.greedy.estimator: estimator 'broken_estimators:Mine': cannot "
        "import module 'broken_estimators' "
    )
    assert detail in message and "\n" not in message


@pytest.mark.parametrize(
    "value, reason",
    [
        ("-5", "is -5.0 (costs must be finite and >= 0)"),
        ("inf", "is inf (costs must be finite and >= 0)"),
        ("nan", "is not a number: 'nan'"),
    ],
)
def test_real_cost_values_are_checked_at_planning(test_config, registry, tmp_path, value, reason):
    costs = (REPO / "resources/heart_cleveland_turney_costs.csv").read_text().splitlines()
    costs[1] = f"age,{value}"
    (tmp_path / "costs.csv").write_text("\n".join(costs) + "\n")

    def edit(c):
        c["datasets"]["heart"]["cost_models"].append("turney")
        c["cost_models"]["turney"]["spec"].update(file=str(tmp_path / "costs.csv"))

    config = validate_config(edited(test_config, edit))
    with pytest.raises(ConfigError) as err:
        check_config(config, registry, REPO)
    assert str(err.value) == (
        f"config cost_models.turney.spec.file: cost file {tmp_path / 'costs.csv'}: cost of "
        f"'age' {reason}"
    )


@pytest.mark.parametrize(
    "edit, detail",
    [
        (
            lambda rows: rows.remove("thal,102.90,B,1.00"),
            "has no cost for attribute(s) ['thal'] (price them in the file, or under the "
            "spec's `prices`: a price, or null: the test is not offered)",
        ),
        (  # an empty cost cell passed planning and stopped every train job
            lambda rows: rows.__setitem__(1, "age,,,"),
            "gives no price for ['age'] (an empty cost cell): price them in the file, or name "
            "them under the spec's `prices` (a price, or null: the test is not offered)",
        ),
        (
            lambda rows: rows.append("thall,1.00,,1.00"),
            "prices ['thall'], not columns of the dataset (its columns: ",
        ),
        (
            lambda rows: rows.append("presence,1.00,,1.00"),
            "prices the label column 'presence': no method reads the label (remove its row, or "
            "is the registry's label column another one?)",
        ),
    ],
)
def test_a_cost_file_against_the_datasets_attributes_at_planning(
    test_config, registry, tmp_path, edit, detail
):
    """A cost file missing an attribute, or with a cost for an attribute that does not exist or for
    the label, stops at planning, before any train job."""
    rows = (REPO / "resources/heart_cleveland_turney_costs.csv").read_text().splitlines()
    assert "thal,102.90,B,1.00" in rows
    edit(rows)
    (tmp_path / "costs.csv").write_text("\n".join(rows) + "\n")

    def config_edit(c):
        c["datasets"]["heart"]["cost_models"].append("turney")
        c["cost_models"]["turney"]["spec"].update(file=str(tmp_path / "costs.csv"))

    config = validate_config(edited(test_config, config_edit))
    with pytest.raises(ConfigError) as err:
        check_config(config, registry, REPO)
    assert str(err.value).startswith(
        f"config cost_models.turney.spec.file: cost file {tmp_path / 'costs.csv'} {detail}"
    )
    assert str(err.value).endswith("(dataset 'heart')")


def test_a_cost_file_header_may_have_spaces_around_its_names(tmp_path):
    """A header ``feature , cost`` (spaces around the names) is recognised as the cost table's."""
    from budgetboost.data.cost_kinds import read_test_costs

    (tmp_path / "c.csv").write_text("feature , cost\nage,1.5\nsex,2\n")
    assert read_test_costs(tmp_path / "c.csv")["cost"].to_dict() == {"age": 1.5, "sex": 2.0}


@pytest.fixture(scope="module")
def heart_data(tmp_path_factory, registry) -> Path:
    """A repository root whose results/data holds heart's binarized table, as after a run."""
    from budgetboost.data.datasets import build_binarized, write_binarized

    root = tmp_path_factory.mktemp("root")
    (root / "results" / "data").mkdir(parents=True)
    data = build_binarized("heart", registry["heart"], REPO)
    write_binarized(data, root / "results" / "data" / "heart.parquet")
    for folder in ("resources",):
        (root / folder).symlink_to(REPO / folder)
    return root


@pytest.mark.parametrize(
    "sizes, message",
    [
        (
            {"train_size": 250},
            # the source file is read first (for its label rule), and counted
            "config datasets.heart.train_size: train_size 250 + test_size 170 = 420 rows, but "
            "heart has 270 (resources/heart.parquet)",
        ),
        (
            {"train_size": 2, "test_size": 10},
            "config datasets.heart: dataset 'heart', trial ",
        ),
        ({"train_size": 100}, None),
    ],
)
def test_sizes_are_checked_against_the_data_where_it_exists(
    test_config, registry, heart_data, sizes, message
):
    config = validate_config(edited(test_config, lambda c: c["datasets"]["heart"].update(sizes)))
    if message is None:
        check_config(config, registry, heart_data)
        return
    with pytest.raises(ConfigError) as err:
        check_config(config, registry, heart_data)
    assert str(err.value).startswith(message), str(err.value)
    if "trial" in message:
        assert "training rows all have label" in str(err.value)
        assert "raise train_size (datasets.heart.train_size in the config)" in str(err.value)

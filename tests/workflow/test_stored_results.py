"""What a train job stores for an honest estimator, over every shard of the test config's run
(the session's ``base_run``, marker ``slow``): the errors the pipeline computes from the
predicted labels are those the estimator's own ``evaluate_at_budgets`` reports, to the last
bit, so computing them in the pipeline moved no honest result."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from helpers import RESULTS, TEST_CONFIG

from budgetboost.checks import check_all, load_config_file
from budgetboost.data.io import CHECKSUM_KEY, METADATA_KEY, content_digest, read_table
from budgetboost.pipeline import blocks
from budgetboost.pipeline.plan import Plan
from budgetboost.pipeline.specs import canonical_spec

pytestmark = pytest.mark.slow


def own_evaluation(estimator, X: np.ndarray, y: np.ndarray, budgets):
    """The labels and record of the estimator's own public methods: what a train job stored
    before it computed them itself (``verify.measure``)."""
    return estimator.predict_at_budgets(X, budgets), estimator.evaluate_at_budgets(X, y, budgets)


def refit(plan: Plan, repo: Path, dataset: str, cost_model: str, algorithm: str, block: int):
    """The shard of one train job of ``plan``, fitted again in this process from the run's
    inputs, as the job fits it (its params as ``workflow/rules`` give them)."""
    paths = []
    if plan.config["algorithms"][algorithm].get("adaboost_path", False):
        paths = [
            repo / RESULTS / f"paths/{dataset}/block-{k}.parquet"
            for k in plan.path_blocks(block, dataset, cost_model, algorithm)
        ]
    shard, _, _ = blocks.fit_block(
        repo / RESULTS / f"data/{dataset}.parquet",
        paths,
        dataset=dataset,
        cost_model=cost_model,
        spec=plan.algorithm(algorithm, dataset),
        cost_spec=canonical_spec(plan.cost_spec(cost_model)),
        split=plan.split_sizes(dataset),
        budgets=[float(b) for b in plan.block_budgets(dataset, cost_model, algorithm)],
        trials=plan.block_trials(block, dataset, cost_model, algorithm),
        isolated=contextlib.nullcontext,
    )
    return shard


def digest(shard: pd.DataFrame) -> str:
    """The content checksum a train job would store for ``shard`` (its values and types)."""
    return content_digest(pa.Table.from_pandas(shard.reset_index(drop=True), preserve_index=False))


def stored_digest(path: Path) -> str:
    """The content checksum a train job stored with the shard at ``path``."""
    return json.loads(pq.read_schema(path).metadata[METADATA_KEY])[CHECKSUM_KEY]


def test_every_honest_shard_holds_the_estimators_own_evaluation(base_run, monkeypatch):
    """Every shard of the test config's run (every algorithm, dataset, cost model and block)
    equals, value for value, the shard fitted again with the errors and costs taken from the
    estimator's own ``evaluate_at_budgets`` (its labels from ``predict_at_budgets``): the
    pipeline's own record changed no honest estimator's result."""
    monkeypatch.chdir(base_run)
    config, registry = check_all(load_config_file(TEST_CONFIG), ".", [TEST_CONFIG])
    plan = Plan(config, registry)
    monkeypatch.setattr(blocks, "measure", own_evaluation)
    checked = set()
    for dataset, cost_model, algorithm in plan.experiments():
        for block in range(plan.blocks(dataset, cost_model, algorithm)):
            path = f"{RESULTS}/shards/{dataset}/{cost_model}/{algorithm}/block-{block}.parquet"
            again = refit(plan, base_run, dataset, cost_model, algorithm, block)
            if digest(again) != stored_digest(base_run / path):
                pd.testing.assert_frame_equal(  # names the first value that differs
                    again.reset_index(drop=True),
                    read_table(base_run / path),
                    check_exact=True,
                    check_dtype=False,
                )
                pytest.fail(f"{path}: the same values, of other types")
            checked.add(path)
    assert checked == set(plan.shards())
    assert {p.split("/")[-2] for p in checked} == set(config["algorithms"])

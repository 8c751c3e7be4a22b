"""What made a job's output, as a digest it carries (budgetboost.pipeline.identity)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetboost.data.io import write_table
from budgetboost.pipeline.identity import (
    IDENTITY_KEY,
    IdentityError,
    check_identities,
    job_identity,
)

WILDCARDS = {"dataset": "heart", "cost_model": "u", "algorithm": "greedy", "block": "0"}
PARAMS = {"algorithm": {"params": {"max_rounds": 10, "criterion": "greedy"}}, "trials": [0, 1]}


@pytest.fixture
def code(tmp_path):
    path = tmp_path / "module.py"
    path.write_text("X = 1\n")
    return path


def test_the_identity_is_what_made_the_output(code, tmp_path):
    """The same plan gives the same digest, whatever the order of keys or where the code
    lies; another param, wildcard or code gives another."""
    first = job_identity(WILDCARDS, PARAMS, [code])
    assert first == job_identity(dict(reversed(WILDCARDS.items())), PARAMS, [code])
    shuffled = {
        "trials": [0, 1],
        "algorithm": {"params": {"criterion": "greedy", "max_rounds": 10}},
    }
    assert first == job_identity(WILDCARDS, shuffled, [code])
    moved = tmp_path / "elsewhere.py"
    moved.write_text("X = 1\n")
    assert first == job_identity(WILDCARDS, PARAMS, [moved])
    assert first == job_identity(WILDCARDS, {**PARAMS, "trials": np.array([0, 1])}, [code])
    others = [
        job_identity(WILDCARDS, {**PARAMS, "algorithm": {"params": {"max_rounds": 3}}}, [code]),
        job_identity({**WILDCARDS, "block": "1"}, PARAMS, [code]),
        job_identity(WILDCARDS, {**PARAMS, "trials": [0, 2]}, [code]),
    ]
    code.write_text("X = 2\n")
    others.append(job_identity(WILDCARDS, PARAMS, [code]))
    assert len({first, *others}) == 5


def test_an_output_of_another_plan_is_named_with_its_rebuild(tmp_path):
    """The reader stops at the first output whose identity is not the plan's (or has none),
    naming it and the command that rebuilds it."""
    frame = pd.DataFrame({"x": [1.0]})
    ours, copied, old = (str(tmp_path / f"{n}.parquet") for n in ("ours", "copied", "old"))
    write_table(frame, ours, {IDENTITY_KEY: "a" * 64})
    write_table(frame, copied, {IDENTITY_KEY: "b" * 64})
    write_table(frame, old, {})
    expected = {ours: "a" * 64, copied: "a" * 64, old: "a" * 64}
    check_identities([ours], expected)
    with pytest.raises(IdentityError) as err:
        check_identities([ours, copied, old], expected)
    assert str(err.value) == (
        f"{copied}: not made by this config's plan (was made as bbbbbbbbbbbb, the plan's is "
        "aaaaaaaaaaaa: other params, trials, seeds or code, e.g. copied from another run); it "
        f"is not read. Rebuild it: run the same snakemake command with --forcerun {copied}"
    )
    with pytest.raises(IdentityError, match=f"{old}: not made by this config's plan .carries no"):
        check_identities([old], expected)
    with pytest.raises(IdentityError, match="the plan expects no such output"):
        check_identities([ours], {})

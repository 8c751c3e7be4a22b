"""What the data layer's tests share: a small binarized table."""

from __future__ import annotations

import numpy as np

from budgetboost.data.datasets import BinarizedData


def toy_data(n_rows: int = 60, groups: tuple[int, ...] = (3, 1, 2)) -> BinarizedData:
    """Random 0/1 data with raw attributes a0, a1, ... of the given indicator counts."""
    rng = np.random.default_rng(0)
    attributes = np.repeat([f"a{i}" for i in range(len(groups))], groups)
    X = rng.integers(0, 2, size=(n_rows, len(attributes)), dtype=np.uint8)
    y = np.where(rng.random(n_rows) < 0.5, 1, -1).astype(np.int8)
    return BinarizedData(
        X=X,
        y=y,
        columns=[f"c{j}" for j in range(len(attributes))],
        attributes=attributes,
        groups=np.repeat(np.arange(len(groups)), groups),
        meta={"dataset": "toy", "attributes": [f"a{i}" for i in range(len(groups))]},
    )

"""How every figure looks and is written: the paper's style, checked styles, atomic files.

- :func:`paper_style`: seaborn's whitegrid axes in its paper context, as context managers
  (seaborn is imported here, when a figure is drawn, not when the registry is loaded to plan
  a workflow: it takes a second or more);
- :func:`check_styles`: the config's ``style`` entries are ones matplotlib can draw, checked
  when the workflow is planned, not in a plot job after the training;
- :func:`save_figure`: PNG and PDF written atomically, without dates or versions, so that
  unchanged results give unchanged files.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from budgetboost.data.io import atomic_path

__all__ = ["check_styles", "paper_style", "save_figure"]


def paper_style():
    """The figures' look: ``(axes style, plotting context)`` context managers to nest."""
    import seaborn as sns

    return sns.axes_style("whitegrid"), sns.plotting_context("paper", font_scale=1.1)


def check_styles(algorithms: Mapping[str, Mapping[str, Any]]) -> str | None:
    """The first ``style`` of the config's ``algorithms`` that matplotlib cannot draw, as a
    one-line message naming its config path (``None`` when every style is drawable)."""
    from matplotlib.colors import to_rgba

    for name, entry in algorithms.items():
        colour = (entry.get("style") or {}).get("colour")
        if colour is None:
            continue
        try:
            to_rgba(colour)
        except ValueError:
            return f"config algorithms.{name}.style.colour: not a matplotlib colour: {colour!r}"
    return None


def save_figure(fig, *paths: str | os.PathLike) -> None:
    """Write ``fig`` to each path (format from the suffix: .png at 150 dpi, .pdf) atomically.

    Creation dates and software versions are left out so unchanged results give unchanged
    files.
    """
    for path in paths:
        fmt = os.fspath(path).rsplit(".", 1)[-1].lower()
        metadata = {
            "pdf": {"CreationDate": None, "Producer": None, "Creator": None},
            "png": {"Software": None},
        }.get(fmt)
        with atomic_path(path, suffix=f".{fmt}") as tmp:
            fig.savefig(tmp, format=fmt, dpi=150, metadata=metadata)

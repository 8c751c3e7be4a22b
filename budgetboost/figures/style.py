"""How every figure looks and is written: the paper's style, checked styles, atomic files.

- :func:`paper_style`: seaborn's whitegrid axes in its paper context, as context managers
  setting matplotlib's rc parameters (:data:`WHITEGRID`, :data:`PAPER_CONTEXT`: seaborn's
  values written out, so a plot job does not import seaborn, which loads scipy.stats: a
  second of every figure's job);
- :func:`check_styles`, :func:`check_labels`: the config's ``style`` entries and labels are
  ones matplotlib can draw, checked when the workflow is planned, not in a plot job after the
  training;
- :func:`save_figure`: PNG and PDF written atomically, without dates or versions, so that
  unchanged results give unchanged files.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from budgetboost.data.io import atomic_path
from budgetboost.figures.pages import PNG_DPI

__all__ = [
    "PAPER_CONTEXT",
    "WHITEGRID",
    "check_labels",
    "check_styles",
    "paper_style",
    "save_figure",
]

#: seaborn's ``axes_style("whitegrid")`` (seaborn 0.13) as matplotlib rc parameters, but its
#: ``image.cmap`` (seaborn's own "rocket", registered by importing seaborn): every image of
#: the figures names its colour map.
WHITEGRID: dict[str, Any] = {
    "axes.axisbelow": True,
    "axes.edgecolor": ".8",
    "axes.facecolor": "white",
    "axes.grid": True,
    "axes.labelcolor": ".15",
    "axes.spines.bottom": True,
    "axes.spines.left": True,
    "axes.spines.right": True,
    "axes.spines.top": True,
    "figure.facecolor": "white",
    "font.family": ["sans-serif"],
    "font.sans-serif": [
        "Arial",
        "DejaVu Sans",
        "Liberation Sans",
        "Bitstream Vera Sans",
        "sans-serif",
    ],
    "grid.color": ".8",
    "grid.linestyle": "-",
    "lines.solid_capstyle": "round",
    "patch.edgecolor": "w",
    "patch.force_edgecolor": True,
    "text.color": ".15",
    "xtick.bottom": False,
    "xtick.color": ".15",
    "xtick.direction": "out",
    "xtick.top": False,
    "ytick.color": ".15",
    "ytick.direction": "out",
    "ytick.left": False,
    "ytick.right": False,
}

#: seaborn's "paper" scaling of its "notebook" sizes, and the figures' font scale.
_PAPER, _FONT_SCALE = 0.8, 1.1
#: seaborn's ``plotting_context("paper", font_scale=1.1)`` (seaborn 0.13) as matplotlib rc
#: parameters, computed as seaborn computes them: its notebook sizes times the paper
#: scaling, the font sizes times the font scale too.
PAPER_CONTEXT: dict[str, float] = {
    **{
        key: size * _PAPER
        for key, size in {
            "axes.linewidth": 1.25,
            "grid.linewidth": 1,
            "lines.linewidth": 1.5,
            "lines.markersize": 6,
            "patch.linewidth": 1,
            "xtick.major.width": 1.25,
            "ytick.major.width": 1.25,
            "xtick.minor.width": 1,
            "ytick.minor.width": 1,
            "xtick.major.size": 6,
            "ytick.major.size": 6,
            "xtick.minor.size": 4,
            "ytick.minor.size": 4,
        }.items()
    },
    **{
        key: size * _PAPER * _FONT_SCALE
        for key, size in {
            "font.size": 12,
            "axes.labelsize": 12,
            "axes.titlesize": 12,
            "xtick.labelsize": 11,
            "ytick.labelsize": 11,
            "legend.fontsize": 11,
            "legend.title_fontsize": 12,
        }.items()
    },
}


def paper_style():
    """The figures' look: ``(axes style, plotting context)`` context managers to nest,
    seaborn's whitegrid axes (:data:`WHITEGRID`) in its paper context (:data:`PAPER_CONTEXT`);
    each restores matplotlib's rc parameters on exit, as seaborn's do."""
    import matplotlib as mpl

    return mpl.rc_context(WHITEGRID), mpl.rc_context(PAPER_CONTEXT)


def check_styles(algorithms: Mapping[str, Mapping[str, Any]]) -> str | None:
    """The first problem with the styles the config's ``algorithms`` are drawn in, as a
    one-line message naming its config path (``None`` when there is none).

    Each style (the config's, else the built-in one) must be drawable by matplotlib (colour,
    marker, line style) and each algorithm's colour its own: two algorithms whose colours are
    the same colour (``#de8f05`` and ``#DE8F05``, or a name and its hex code) could not be
    told apart in a figure.
    """
    from matplotlib.colors import to_hex
    from matplotlib.lines import Line2D
    from matplotlib.markers import MarkerStyle

    from budgetboost.pipeline.plan import algorithm_catalogue

    explicit = {n: (e.get("style") or {}) for n, e in algorithms.items()}
    catalogue = algorithm_catalogue(algorithms)
    styles = {name: catalogue[name].style for name in catalogue}
    seen: dict[str, str] = {}
    for name, style in styles.items():
        where = f"config algorithms.{name}.style"
        for key, value, check in (
            ("colour", style.colour, to_hex),
            ("marker", style.marker, MarkerStyle),
            ("linestyle", style.linestyle, Line2D([], []).set_linestyle),
        ):
            try:
                check(value)
            except (ValueError, TypeError):
                return f"{where}.{key}: not a matplotlib {key}: {value!r}"
        colour = to_hex(style.colour, keep_alpha=True)
        if colour in seen:
            other = seen[colour]
            mine = "colour" in explicit.get(name, {})
            first, second = (name, other) if mine else (other, name)
            return (
                f"config algorithms.{first}.style.colour: {styles[first].colour!r} is the "
                f"colour of algorithm {second!r} ({styles[second].colour!r}): each "
                "algorithm needs a colour of its own"
            )
        seen[colour] = name
    return None


def check_labels(algorithms: Mapping[str, Mapping[str, Any]]) -> str | None:
    """The first label matplotlib cannot draw, as a one-line message naming its config path
    (``None`` when every label draws).

    A label with two unescaped ``$`` is mathtext to matplotlib (``Smoothed $\\tau=0.5$``
    draws a tau); one it cannot parse (``$\\bogus$``) would fail every plot job after the
    training, so it stops when the workflow is planned; so does any other label with a
    character the fonts cannot draw (an emoji, CJK: empty boxes in every figure).
    """
    from matplotlib import cbook
    from matplotlib.mathtext import MathTextParser

    from budgetboost.pipeline.plan import algorithm_catalogue

    catalogue = algorithm_catalogue(algorithms)
    parser = MathTextParser("path")
    for name in algorithms:
        label = catalogue.label(name)
        if not cbook.is_math_text(label):
            if (missing := _missing_glyph(label)) is not None:
                return (
                    f"config algorithms.{name}.label: {label!r} holds {missing!r} (U+"
                    f"{ord(missing):04X}), which matplotlib's fonts here cannot draw: figures "
                    "would show an empty box (write the label in other characters, or install "
                    "a font that has it and name it in matplotlib's rcParams)"
                )
            continue
        try:
            parser.parse(label, dpi=72)
        except ValueError as exc:
            lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
            reason = lines[-1].split(":", 1)[-1].strip() if lines else "cannot parse it"
            return (
                f"config algorithms.{name}.label: matplotlib cannot draw {label!r} as math "
                f"(between two $: {reason}); write \\$ for a dollar sign drawn as it is"
            )
    return None


def _missing_glyph(text: str) -> str | None:
    """The first character of ``text`` that no font of matplotlib's default family has (its
    fallback chain included), else None: matplotlib draws it as an empty box (emoji, CJK
    under the default DejaVu Sans)."""
    from matplotlib import font_manager, ft2font

    properties = font_manager.FontProperties()
    find = getattr(font_manager.fontManager, "_find_fonts_by_props", None)  # matplotlib >= 3.6
    paths = find(properties) if find is not None else [font_manager.findfont(properties)]
    charmaps = [set(ft2font.FT2Font(str(path)).get_charmap()) for path in paths]
    for char in text:
        if not char.isspace() and not any(ord(char) in charmap for charmap in charmaps):
            return char
    return None


def save_figure(fig, *paths: str | os.PathLike) -> None:
    """Write ``fig`` to each path (format from the suffix: .png at
    :data:`~budgetboost.figures.pages.PNG_DPI`, .pdf) atomically.

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
            fig.savefig(tmp, format=fmt, dpi=PNG_DPI, metadata=metadata)

"""How large a figure may be, and how one too large for it is split into pages.

A figure is read on a screen: shown at most :data:`SCREEN_WIDTH` pixels wide (never
enlarged), its PNG may be at most :data:`MAX_SHOWN_HEIGHT` pixels tall, two screens. Small
multiples that would run past it (the suite's 38 datasets made one figure of 9,431 px) are
split into pages: a figure's *units* (its panels, the rows of a grid, the methods it
compares) go on one page if they fit, else on pages of one group each (a cost model), each
group split into as few pages of about equal size as fit. The workflow plans one PNG per
page (:func:`budgetboost.figures.registry.planned`): ``{name}.png`` is the first page,
``{name}-{k}.png`` the k-th.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

__all__ = [
    "MAX_SHOWN_HEIGHT",
    "PNG_DPI",
    "SCREEN_WIDTH",
    "fits",
    "most_that_fit",
    "page_name",
    "paginate",
    "shown_height",
]

T = TypeVar("T")

#: The widest a figure is shown (pixels): a PNG wider than this is scaled down to it.
SCREEN_WIDTH = 1400
#: The tallest a figure may be when shown at most :data:`SCREEN_WIDTH` wide: two screens of
#: 1,000 pixels. Every registered figure is drawn to stay within it.
MAX_SHOWN_HEIGHT = 2 * 1000


#: The PNGs' resolution (dots per inch; :func:`budgetboost.figures.style.save_figure`).
PNG_DPI = 150


def shown_height(width: float, height: float) -> float:
    """The height (pixels) of a ``width`` x ``height`` pixel image shown at most
    :data:`SCREEN_WIDTH` wide, never enlarged: what :data:`MAX_SHOWN_HEIGHT` bounds."""
    return height * min(1.0, SCREEN_WIDTH / width)


def fits(width: float, height: float) -> bool:
    """Whether a figure of ``width`` x ``height`` inches, saved at :data:`PNG_DPI`, is
    shown within :data:`MAX_SHOWN_HEIGHT`."""
    return shown_height(width * PNG_DPI, height * PNG_DPI) <= MAX_SHOWN_HEIGHT


def most_that_fit(size: Callable[[int], tuple[float, float]], limit: int = 1000) -> int:
    """The most units a page holds: the largest ``n`` (at least 1, at most ``limit``) whose
    figure, ``size(n)`` inches wide and tall, :func:`fits`; a page's figure grows with its
    units, so the first that does not fit ends the search."""
    n = 1
    while n < limit and fits(*size(n + 1)):
        n += 1
    return n


def paginate(
    units: Sequence[T], per_page: int, group: Callable[[T], Hashable] | None = None
) -> list[list[T]]:
    """``units`` on pages of at most ``per_page``, in their order.

    All on one page when they fit; else, with ``group``, the units of each group (in order of
    first appearance) on pages of their own, each group on as few pages as hold it, of
    sizes differing by one at most (38 panels on 4 pages of 10, 10, 9, 9; not 12, 12, 12, 2),
    and groups that fit on one page share it with the next ones while they fit (five Turney
    panels and one of each open question's cost model on one page, not three). No units, no
    pages.
    """
    units = list(units)
    if len(units) <= per_page:
        return [units] if units else []
    groups: dict[Hashable, list[T]] = {}
    for unit in units:
        groups.setdefault(group(unit) if group is not None else None, []).append(unit)
    pages: list[list[T]] = []
    whole = False  # whether the last page holds whole groups only
    for members in groups.values():
        if len(members) <= per_page and whole and len(pages[-1]) + len(members) <= per_page:
            pages[-1].extend(members)  # small groups share a page
            continue
        whole = len(members) <= per_page
        n_pages = math.ceil(len(members) / per_page)
        size, extra = divmod(len(members), n_pages)
        start = 0
        for k in range(n_pages):
            stop = start + size + (k < extra)
            pages.append(members[start:stop])
            start = stop
    return pages


def page_name(figure: str, page: int) -> str:
    """The file name (without suffix) of page ``page`` (0 first) of ``figure``:
    ``figure`` itself for the first page, ``figure-2`` for the second, and so on."""
    return figure if page == 0 else f"{figure}-{page + 1}"

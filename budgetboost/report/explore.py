"""The run's interactive results page, ``explore.html``: pick a cost model, a dataset (or all
of them), a budget band, a reading and the methods, and see those curves and where each
family leads.

The page is one self-contained, offline HTML file: plotly.js is embedded in it (no CDN, no
network), the run's numbers are embedded once as JSON (:func:`explore_data`) and a small
script filters them and redraws with ``Plotly.react`` when a selector changes, so the page
holds one copy of the data however many selections it offers. The address names the view
(``explore.html#cost_model=...&dataset=heart&reading=mean&methods=greedy,smoothed``), so a
view can be shared or bookmarked. Every number it shows is
computed here, from the results tables:

* **curves** per (dataset, cost model, method, budget) from ``summary``: the mean test error
  over trials with its 95 % interval (the summary's, clipped to [0, 1] and not drawn below
  :data:`MIN_INTERVAL_TRIALS` trials, where it says nothing), the mean per-example cost and
  the budget's band(s) (:mod:`budgetboost.analysis.bands`). The hard-cap reading draws error
  against the budget, the mean-cost reading against the mean per-example cost (each method's
  error-cost front, :mod:`budgetboost.analysis.average_cost`);
* **across datasets** (:func:`across_datasets`) per (reading, cost model, method, budget):
  the mean over datasets of each dataset's mean error, its 95 % t-interval over datasets
  (the replicated unit), on how many of the cost model's datasets the method is read, and
  the mean rank among the methods read on every one of them. At mean cost each dataset's
  front of mean points is read at each budget as a mean-cost level, by the rule of
  :func:`budgetboost.analysis.average_cost.at_mean_cost`;
* **standings**: each family's standing per dataset and band, at the hard cap and at mean
  cost (:func:`budgetboost.analysis.leads.standings_of_run`).
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from budgetboost.analysis.average_cost import READINGS, at_mean_cost
from budgetboost.analysis.bands import BAND_LABELS, BANDS, in_budget_band
from budgetboost.analysis.leads import STANDINGS, standings_of_run
from budgetboost.analysis.vocabulary import CONFIDENCE
from budgetboost.catalogue import FAMILY_NAMES, Catalogue
from budgetboost.figures.standings import SHORT_FAMILY_NAMES, STANDING_COLOURS

__all__ = [
    "MIN_INTERVAL_TRIALS",
    "TABLES",
    "across_datasets",
    "curve_points",
    "explore_data",
    "explore_page",
]

#: The results tables the page reads (``summary``; the standings read the other three).
TABLES = ("summary", "findings", "field_mean_cost", "binding")
#: The fewest trials (or datasets, across datasets) an interval is drawn with: with two, the
#: Student-t interval of a mean spans about 0 to 1 (t = 12.7 on one degree of freedom) and
#: squashes the curves flat.
MIN_INTERVAL_TRIALS = 3
#: Each band as a bit: a point may lie in two bands (a grid of one or two budgets).
BAND_BITS = {band: 1 << i for i, band in enumerate(BANDS)}
#: matplotlib line styles and markers (the catalogue's) as plotly names them.
_DASHES = {"-": "solid", "--": "dash", ":": "dot", "-.": "dashdot"}
_SYMBOLS = {
    "o": "circle",
    "s": "square",
    "^": "triangle-up",
    "v": "triangle-down",
    "<": "triangle-left",
    ">": "triangle-right",
    "P": "cross",
    "X": "x",
    "D": "diamond",
    "d": "diamond-tall",
    "h": "hexagon",
    "H": "hexagon2",
    "p": "pentagon",
    "*": "star",
    "8": "octagon",
}
_DIGITS = 4


def _interval(low: pd.Series, high: pd.Series, n: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """``low`` and ``high`` clipped to [0, 1]; NaN where fewer than :data:`MIN_INTERVAL_TRIALS`
    values stand behind them."""
    shown = n.to_numpy() >= MIN_INTERVAL_TRIALS
    lo = np.where(shown, np.clip(low.to_numpy(dtype=float), 0.0, 1.0), np.nan)
    hi = np.where(shown, np.clip(high.to_numpy(dtype=float), 0.0, 1.0), np.nan)
    return lo, hi


def _band_bits(budgets: pd.Series, groups: list[pd.Series]) -> np.ndarray:
    """The bands (:data:`BAND_BITS`, or-ed) of each budget in its group's sorted grid."""
    grid = budgets.groupby(groups, sort=False)
    position = grid.rank(method="dense").to_numpy(dtype=np.int64) - 1
    size = grid.transform("nunique").to_numpy(dtype=np.int64)
    bits = np.zeros(len(budgets), dtype=np.int64)
    for band, bit in BAND_BITS.items():
        bits |= np.where(in_budget_band(position, size, band), bit, 0)
    return bits


def curve_points(summary: pd.DataFrame) -> pd.DataFrame:
    """Each (dataset, cost model, algorithm, finite budget)'s point of the page's curves.

    Returns
    -------
    DataFrame
        ``dataset, cost_model, algorithm, budget, band`` (:data:`BAND_BITS`), ``trials,
        error, low, high`` (the interval as drawn: NaN below :data:`MIN_INTERVAL_TRIALS`
        trials) and ``cost`` (the mean per-example cost).
    """
    finite = summary[np.isfinite(summary["budget"])].reset_index(drop=True)
    low, high = _interval(finite["ci_low"], finite["ci_high"], finite["trials"])
    return pd.DataFrame(
        {
            "dataset": finite["dataset"].astype(str),
            "cost_model": finite["cost_model"].astype(str),
            "algorithm": finite["algorithm"].astype(str),
            "budget": finite["budget"].astype(float),
            "band": _band_bits(finite["budget"], [finite["dataset"], finite["cost_model"]]),
            "trials": finite["trials"].astype(np.int64),
            "error": finite["error_mean"].astype(float),
            "low": low,
            "high": high,
            "cost": finite["example_cost_mean"].astype(float),
        }
    )


def reference_points(summary: pd.DataFrame) -> pd.DataFrame:
    """The unbudgeted rows (infinite budget) per (dataset, cost model, algorithm): ``trials,
    error, low, high, cost`` as :func:`curve_points`'."""
    rows = summary[~np.isfinite(summary["budget"])].reset_index(drop=True)
    low, high = _interval(rows["ci_low"], rows["ci_high"], rows["trials"])
    return pd.DataFrame(
        {
            "dataset": rows["dataset"].astype(str),
            "cost_model": rows["cost_model"].astype(str),
            "algorithm": rows["algorithm"].astype(str),
            "trials": rows["trials"].astype(np.int64),
            "error": rows["error_mean"].astype(float),
            "low": low,
            "high": high,
            "cost": rows["example_cost_mean"].astype(float),
        }
    )


def _front_levels(summary: pd.DataFrame) -> pd.DataFrame:
    """Each (dataset, cost model, algorithm)'s front of mean points (``example_cost_mean``,
    ``error_mean`` per budget) read at each budget of its grid as a mean-cost level, by
    :func:`~budgetboost.analysis.average_cost.at_mean_cost`'s rule (one front per method)."""
    means = summary.rename(
        columns={"error_mean": "test_error", "example_cost_mean": "mean_example_cost"}
    ).assign(trial=0)
    read = at_mean_cost(means)
    return read.rename(columns={"test_error": "error"})[
        ["dataset", "cost_model", "algorithm", "budget", "error"]
    ]


def across_datasets(points: pd.DataFrame, confidence: float = CONFIDENCE) -> pd.DataFrame:
    """Per (cost model, algorithm, budget): the mean over datasets of ``points``' ``error``
    (one value per dataset), its t-interval over datasets (clipped to [0, 1]; NaN below
    :data:`MIN_INTERVAL_TRIALS` datasets), on how many datasets the algorithm is read
    (``datasets``) of the cost model's (``of``), and its mean rank (1: lowest error; ties
    share the mean rank) among the algorithms read on every dataset of the cost model at that
    budget (NaN for the others, and where fewer than two are).

    Returns
    -------
    DataFrame
        ``cost_model, algorithm, budget, band, datasets, of, error, low, high, rank``.
    """
    columns = ["cost_model", "algorithm", "budget", "band", "datasets", "of", "error"]
    columns += ["low", "high", "rank"]
    if points.empty:
        return pd.DataFrame(columns=columns)
    keys = ["cost_model", "algorithm", "budget"]
    stats = points.groupby(keys, sort=False)["error"].agg(["mean", "std", "size"]).reset_index()
    n = stats["size"].to_numpy(dtype=float)
    # here: the workflow imports this module when it plans, and scipy takes a second
    from scipy.special import stdtrit  # Student's t quantile (what scipy.stats.t.ppf calls)

    with np.errstate(invalid="ignore", divide="ignore"):
        t = stdtrit(np.maximum(n - 1, 1), 0.5 + confidence / 2)
        half = t * stats["std"].to_numpy(dtype=float) / np.sqrt(n)
    low, high = _interval(stats["mean"] - half, stats["mean"] + half, stats["size"])
    of = points.groupby("cost_model")["dataset"].nunique()
    out = pd.DataFrame(
        {
            "cost_model": stats["cost_model"],
            "algorithm": stats["algorithm"],
            "budget": stats["budget"].astype(float),
            "datasets": stats["size"].astype(np.int64),
            "of": stats["cost_model"].map(of).astype(np.int64),
            "error": stats["mean"].astype(float),
            "low": low,
            "high": high,
        }
    )
    # the band of a budget in its cost model's grid (the union of its datasets' budgets)
    grid = out.drop_duplicates(["cost_model", "budget"])[["cost_model", "budget"]]
    grid = grid.assign(band=_band_bits(grid["budget"], [grid["cost_model"]]))
    out = out.merge(grid, on=["cost_model", "budget"], how="left")
    complete = out.loc[out["datasets"] == out["of"], keys]
    ranked = points.merge(complete, on=keys)
    ranked = ranked[ranked.groupby(["cost_model", "budget"])["algorithm"].transform("nunique") > 1]
    ranked = ranked.assign(
        rank=ranked.groupby(["cost_model", "budget", "dataset"])["error"].rank(method="average")
    )
    ranks = ranked.groupby(keys, sort=False)["rank"].mean().reset_index()
    out = out.merge(ranks, on=keys, how="left")
    return out[columns]


def _columns(frame: pd.DataFrame, names: Mapping[str, list[str]]) -> dict[str, list[Any]]:
    """``frame`` as a dictionary of columns for the page: the columns of ``names`` as indices
    into its lists, floats rounded to ``_DIGITS`` decimals, NaN as ``null``."""
    out: dict[str, list[Any]] = {}
    frame = frame.rename(columns={"algorithm": "method"})
    for column in frame.columns:
        values = frame[column]
        if column in names:
            index = {name: i for i, name in enumerate(names[column])}
            out[column] = [index[v] for v in values]
        elif values.dtype.kind == "f":
            rounded = np.round(values.to_numpy(dtype=float), _DIGITS)
            out[column] = [None if np.isnan(v) else v for v in rounded.tolist()]
        elif values.dtype.kind == "b":
            out[column] = [int(v) for v in values]
        elif values.dtype.kind in "iu":
            out[column] = values.astype(np.int64).tolist()
        else:
            out[column] = [str(v) for v in values]
    return out


def _style(catalogue: Catalogue, name: str) -> dict[str, str]:
    """The catalogue's style of ``name`` as plotly names it (colour as hex)."""
    from matplotlib.colors import to_hex

    style = catalogue[name].style
    return {
        "colour": to_hex(style.colour),
        "dash": _DASHES.get(style.linestyle, "solid"),
        "symbol": _SYMBOLS.get(style.marker, "circle"),
    }


def explore_data(
    tables: Mapping[str, pd.DataFrame],
    catalogue: Catalogue,
    *,
    datasets: Sequence[str] = (),
    cost_models: Sequence[str] = (),
    standings: pd.DataFrame | None = None,
) -> dict[str, Any]:
    """What the page embeds (module docstring): names, styles and the tables as columns.

    Parameters
    ----------
    tables : mapping of str to DataFrame
        The run's results tables by name (:data:`TABLES`).
    catalogue : Catalogue
        Labels, families and styles of the algorithms.
    datasets, cost_models : sequence of str
        The order the selectors list them in (the run's; names not given follow, sorted).
    standings : DataFrame, optional
        :func:`~budgetboost.analysis.leads.standings_of_run` of ``tables`` (computed when
        not given).
    """
    summary = tables["summary"]
    catalogue = catalogue.including(summary["algorithm"])
    if standings is None:
        standings = standings_of_run(tables, catalogue)
    if "binds" not in standings:  # a run without the field's per-dataset rows
        standings = standings.assign(binds=False)
    curves = curve_points(summary)
    references = reference_points(summary)
    across = pd.concat(
        [
            across_datasets(
                curves[["dataset", "cost_model", "algorithm", "budget", "error"]]
            ).assign(reading="cap"),
            across_datasets(_front_levels(summary)).assign(reading="mean"),
        ],
        ignore_index=True,
    )
    reference_across = across_datasets(references.assign(budget=np.inf))
    present = {str(d) for d in summary["dataset"]}
    methods = catalogue.sort(pd.unique(summary["algorithm"]))
    families = {catalogue[a].family for a in methods} | {str(f) for f in standings["family"]}
    names = {
        "dataset": [d for d in datasets if d in present] + sorted(present - set(datasets)),
        "cost_model": _ordered(summary["cost_model"], cost_models),
        "method": methods,
        "family": [f for f in FAMILY_NAMES if f in families] + sorted(families - set(FAMILY_NAMES)),
        "standing": list(STANDINGS),
    }
    standings = standings[standings["cost_model"].isin(names["cost_model"])]
    in_model = summary.groupby("cost_model", sort=False)
    model_datasets = {cm: set(part) for cm, part in in_model["dataset"]}
    model_methods = {cm: set(part) for cm, part in in_model["algorithm"]}
    return {
        "datasets": names["dataset"],
        "cost_models": names["cost_model"],
        "methods": methods,
        "labels": [catalogue.label(a) for a in methods],
        "styles": [_style(catalogue, a) for a in methods],
        "readings": READINGS,
        "bands": {band: BAND_LABELS[band] for band in BANDS},
        "band_bits": BAND_BITS,
        "families": [FAMILY_NAMES.get(f, f) for f in names["family"]],
        "family_short": [SHORT_FAMILY_NAMES.get(f, f) for f in names["family"]],
        "standings_order": names["standing"],
        "standing_colours": STANDING_COLOURS,
        "min_interval": MIN_INTERVAL_TRIALS,
        "confidence": CONFIDENCE,
        "model_datasets": {
            cm: [i for i, d in enumerate(names["dataset"]) if d in here]
            for cm, here in model_datasets.items()
        },
        "model_methods": {
            cm: [i for i, a in enumerate(methods) if a in here]
            for cm, here in model_methods.items()
        },
        "curves": _columns(curves, names),
        "references": _columns(references, names),
        "across": _columns(across, names),
        "reference_across": _columns(
            reference_across.drop(columns=["budget", "band", "rank"]), names
        ),
        "standings": _columns(
            standings[["reading", "cost_model", "dataset", "band", "family", "standing"]].assign(
                binds=standings["binds"].astype(bool)
            ),
            names,
        ),
    }


def _ordered(values: pd.Series, order: Sequence[str]) -> list[str]:
    """The distinct ``values`` in ``order``, then the rest sorted."""
    present = {str(v) for v in values}
    return [v for v in order if v in present] + sorted(present - set(order))


def explore_page(data: Mapping[str, Any], title: str) -> str:
    """The page (module docstring): plotly.js, ``data`` (:func:`explore_data`) as JSON and
    the script that draws it, in one HTML document that needs no network."""
    from plotly.offline import get_plotlyjs

    # "</" would end the script element early; "<\/" is the same JSON string
    payload = json.dumps(data, separators=(",", ":"), allow_nan=False).replace("</", "<\\/")
    return (
        _PAGE.replace("@TITLE@", html.escape(title))
        .replace("@STYLE@", _STYLE)
        .replace("@APP@", _APP)
        .replace("@PLOTLY@", get_plotlyjs())
        .replace("@DATA@", payload)
    )


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1rem auto; max-width: 90rem;
       padding: 0 1rem; color: #222222; }
h1 { font-size: 1.4rem; margin: 0.2rem 0 0.6rem; }
h2 { font-size: 1.1rem; margin: 1.2rem 0 0.3rem; }
#controls { display: flex; flex-wrap: wrap; gap: 0.4rem 1.2rem; align-items: center; }
#controls label { font-size: 0.9rem; }
select { font-size: 0.9rem; margin-left: 0.3rem; }
#methods { display: flex; flex-wrap: wrap; gap: 0.1rem 0.9rem; border: 1px solid #ddd;
           margin: 0.6rem 0; padding: 0.3rem 0.6rem; font-size: 0.85rem; }
#methods legend button { font-size: 0.8rem; margin-left: 0.4rem; }
#methods label.absent { color: #999999; }
.swatch { display: inline-block; width: 0.8rem; height: 0.8rem; margin-right: 0.25rem;
          vertical-align: -0.1rem; border-radius: 2px; }
.note { font-size: 0.85rem; color: #444444; max-width: 75rem; margin: 0.2rem 0; }
#standings-key span { margin-right: 1rem; font-size: 0.85rem; }
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>@TITLE@</title>
<style>@STYLE@</style>
<script>@PLOTLY@</script>
</head>
<body>
<h1>@TITLE@</h1>
<div id="controls">
<label>Cost model<select id="cost_model"></select></label>
<label>Dataset<select id="dataset"></select></label>
<label>Budget band<select id="band"></select></label>
<label>Reading<select id="reading"></select></label>
<label>Across datasets<select id="measure">
<option value="error">mean error</option><option value="rank">mean rank</option>
</select></label>
</div>
<fieldset id="methods"><legend>Methods<button type="button" id="every">all</button>
<button type="button" id="no">none</button></legend></fieldset>
<div id="curves" style="height: 540px"></div>
<p class="note" id="curves-note"></p>
<h2>Where each family leads</h2>
<p class="note" id="standings-key"></p>
<div id="standings"></div>
<p class="note" id="standings-note"></p>
<script id="explore-data" type="application/json">@DATA@</script>
<script>@APP@</script>
</body>
</html>
"""

_APP = r"""
"use strict";
// when plotly.js is loaded (its parse), then the data parsed and the first drawing done
document.body.dataset.plotly = performance.now().toFixed(0);
const D = JSON.parse(document.getElementById("explore-data").textContent);
document.body.dataset.data = performance.now().toFixed(0);
const $ = (id) => document.getElementById(id);
const fmt = (v, d = 3) => (v === null || v === undefined ? "n/a" : v.toFixed(d));

function option(select, value, text) {
  const o = document.createElement("option");
  o.value = value; o.textContent = text; select.appendChild(o);
}
function where(table, keep) {
  const out = [];
  const n = table[Object.keys(table)[0]].length;
  for (let i = 0; i < n; i++) if (keep(i)) out.push(i);
  return out;
}

D.cost_models.forEach((cm, i) => option($("cost_model"), i, cm));
option($("band"), "all", "All budgets");
for (const [band, label] of Object.entries(D.bands)) option($("band"), band, label);
for (const [reading, label] of Object.entries(D.readings)) option($("reading"), reading, label);

const boxes = D.methods.map((name, m) => {
  const label = document.createElement("label");
  const box = document.createElement("input");
  box.type = "checkbox"; box.checked = true; box.value = m; box.dataset.method = name;
  box.addEventListener("change", draw);
  const swatch = document.createElement("span");
  swatch.className = "swatch"; swatch.style.background = D.styles[m].colour;
  label.append(box, swatch, document.createTextNode(D.labels[m]));
  $("methods").appendChild(label);
  return box;
});
$("every").addEventListener("click", () => { boxes.forEach((b) => (b.checked = true)); draw(); });
$("no").addEventListener("click", () => { boxes.forEach((b) => (b.checked = false)); draw(); });

function fillDatasets() {
  const cm = $("cost_model").value, keep = $("dataset").value;
  $("dataset").replaceChildren();
  option($("dataset"), "all", "all (across datasets)");
  for (const d of D.model_datasets[D.cost_models[cm]]) option($("dataset"), d, D.datasets[d]);
  if ([...$("dataset").options].some((o) => o.value === keep)) $("dataset").value = keep;
  const here = new Set(D.model_methods[D.cost_models[cm]]);
  boxes.forEach((b, m) => b.parentElement.classList.toggle("absent", !here.has(m)));
}
for (const id of ["cost_model", "dataset", "band", "reading", "measure"]) {
  $(id).addEventListener("change", () => { if (id === "cost_model") fillDatasets(); draw(); });
}

function state() {
  const band = $("band").value;
  return {
    cm: Number($("cost_model").value),
    ds: $("dataset").value === "all" ? "all" : Number($("dataset").value),
    bits: band === "all" ? -1 : D.band_bits[band],
    band: band,
    reading: $("reading").value,
    measure: $("measure").value,
    chosen: new Set(boxes.filter((b) => b.checked).map((b) => Number(b.value))),
  };
}

function trace(m, xs, ys, lows, highs, hover) {
  const s = D.styles[m];
  const up = ys.map((y, i) => (highs[i] === null ? null : highs[i] - y));
  const down = ys.map((y, i) => (lows[i] === null ? null : y - lows[i]));
  return {
    type: "scatter", mode: "lines+markers", name: D.labels[m], x: xs, y: ys,
    line: {color: s.colour, dash: s.dash, width: 1.6},
    marker: {color: s.colour, symbol: s.symbol, size: 6},
    error_y: {type: "data", symmetric: false, array: up, arrayminus: down, visible: true,
              thickness: 1, width: 3, color: s.colour},
    text: hover, hovertemplate: "%{text}<extra></extra>",
  };
}

function curvesOfDataset(st) {
  const C = D.curves, mean = st.reading === "mean";
  const rows = where(C, (i) => C.cost_model[i] === st.cm && C.dataset[i] === st.ds &&
    st.chosen.has(C.method[i]) && (st.bits < 0 || (C.band[i] & st.bits)));
  const by = new Map();
  for (const i of rows) (by.get(C.method[i]) || by.set(C.method[i], []).get(C.method[i])).push(i);
  const traces = [];
  for (const m of D.model_methods[D.cost_models[st.cm]]) {
    const idx = by.get(m);
    if (!idx) continue;
    idx.sort((a, b) => (mean ? C.cost[a] - C.cost[b] : C.budget[a] - C.budget[b]));
    const hover = idx.map((i) => `<b>${D.labels[m]}</b><br>budget ${C.budget[i]}` +
      `<br>mean cost per example ${fmt(C.cost[i])}<br>test error ${fmt(C.error[i])}` +
      (C.low[i] === null ? ` (no interval: ${C.trials[i]} trials)` :
        ` [${fmt(C.low[i])}, ${fmt(C.high[i])}]`) + `<br>${C.trials[i]} trials`);
    traces.push(trace(m, idx.map((i) => (mean ? C.cost[i] : C.budget[i])),
      idx.map((i) => C.error[i]), idx.map((i) => C.low[i]), idx.map((i) => C.high[i]), hover));
  }
  const R = D.references;
  const refs = where(R, (i) => R.cost_model[i] === st.cm && R.dataset[i] === st.ds &&
    st.chosen.has(R.method[i]));
  return {traces: traces, refs: refs.map((i) => ({m: R.method[i], error: R.error[i],
    text: `<b>${D.labels[R.method[i]]}</b> (unbudgeted)<br>test error ${fmt(R.error[i])}` +
      (R.low[i] === null ? ` (no interval: ${R.trials[i]} trials)` :
        ` [${fmt(R.low[i])}, ${fmt(R.high[i])}]`) +
      `<br>mean cost per example ${fmt(R.cost[i])}<br>${R.trials[i]} trials`}))};
}

function curvesAcross(st) {
  const A = D.across, rank = st.measure === "rank";
  const rows = where(A, (i) => A.cost_model[i] === st.cm && A.reading[i] === st.reading &&
    st.chosen.has(A.method[i]) && (st.bits < 0 || (A.band[i] & st.bits)) &&
    (!rank || A.rank[i] !== null));
  const by = new Map();
  for (const i of rows) (by.get(A.method[i]) || by.set(A.method[i], []).get(A.method[i])).push(i);
  const traces = [];
  for (const m of D.model_methods[D.cost_models[st.cm]]) {
    const idx = by.get(m);
    if (!idx) continue;
    idx.sort((a, b) => A.budget[a] - A.budget[b]);
    const hover = idx.map((i) => `<b>${D.labels[m]}</b><br>` +
      (st.reading === "mean" ? "mean cost level " : "budget ") + A.budget[i] +
      `<br>mean test error ${fmt(A.error[i])}` +
      (A.low[i] === null ? " (no interval)" : ` [${fmt(A.low[i])}, ${fmt(A.high[i])}]`) +
      `<br>mean rank ${fmt(A.rank[i], 2)}<br>on ${A.datasets[i]} of ${A.of[i]} datasets`);
    const ys = idx.map((i) => (rank ? A.rank[i] : A.error[i]));
    const none = idx.map(() => null);
    traces.push(trace(m, idx.map((i) => A.budget[i]), ys,
      rank ? none : idx.map((i) => A.low[i]), rank ? none : idx.map((i) => A.high[i]), hover));
  }
  const R = D.reference_across;
  const refs = rank ? [] : where(R, (i) => R.cost_model[i] === st.cm && st.chosen.has(R.method[i]));
  return {traces: traces, refs: refs.map((i) => ({m: R.method[i], error: R.error[i],
    text: `<b>${D.labels[R.method[i]]}</b> (unbudgeted)<br>mean test error ` +
      `${fmt(R.error[i])}` + (R.low[i] === null ? " (no interval)" :
        ` [${fmt(R.low[i])}, ${fmt(R.high[i])}]`) +
      `<br>on ${R.datasets[i]} of ${R.of[i]} datasets`}))};
}

function drawCurves(st) {
  const all = st.ds === "all";
  const {traces, refs} = all ? curvesAcross(st) : curvesOfDataset(st);
  const xs = traces.flatMap((t) => t.x);
  const lo = xs.length ? Math.min(...xs) : 0, hi = xs.length ? Math.max(...xs) : 1;
  for (const r of refs) {  // an unbudgeted method: a dotted level line across the curves
    const t = trace(r.m, [lo, hi], [r.error, r.error], [null, null], [null, null],
      [r.text, r.text]);
    t.mode = "lines";
    t.line.dash = "dot"; t.line.width = 1.2;
    traces.push(t);
  }
  const cm = D.cost_models[st.cm];
  const xTitle = st.reading === "mean" ?
    (all ? "mean cost per example (level each method is read at)" :
      "mean cost per example (each method's error-cost front)") :
    "budget B (hard cap per example)";
  const yTitle = all ? (st.measure === "rank" ? "mean rank over datasets (1: best)" :
    "mean test error over datasets") : "test error";
  const where_ = all ? `${D.model_datasets[cm].length} datasets` : D.datasets[st.ds];
  const layout = {
    title: {text: `${where_} · ${cm} · ${D.readings[st.reading]}` +
      (st.band === "all" ? "" : ` · ${D.bands[st.band]}`), font: {size: 15}},
    xaxis: {title: {text: xTitle}, zeroline: false},
    yaxis: {title: {text: yTitle}, zeroline: false,
            autorange: all && st.measure === "rank" ? "reversed" : true},
    hovermode: "closest", margin: {t: 50, r: 20, b: 55, l: 65},
    legend: {font: {size: 11}}, showlegend: true,
  };
  const budgets = [...new Set(xs)].sort((a, b) => a - b);
  if (st.reading === "cap" && budgets.length <= 12) {  // a hard cap: ticks at the budgets run
    layout.xaxis.tickvals = budgets;
  }
  $("curves-note").textContent = all ? (st.measure === "rank" ?
    "Mean rank per budget over the cost model's datasets, among the methods read on every " +
    "one of them (ties share the mean rank)." :
    `Mean over datasets of each dataset's mean test error; interval: ` +
    `${Math.round(D.confidence * 100)} % Student t over datasets, clipped to [0, 1], not ` +
    `drawn below ${D.min_interval} datasets. Hover: on how many datasets each is read.`) +
    (st.reading === "mean" ? " At mean cost, each dataset's front of mean points is read " +
      "at each budget as a mean-cost level (linear between points, the costliest point's " +
      "error above it, nothing below its cheapest)." : "") :
    `Mean test error over trials; interval: ${Math.round(D.confidence * 100)} % as in ` +
    `summary.md (one method's error on the dataset's population), clipped to [0, 1], not ` +
    `drawn below ${D.min_interval} trials. Bars that overlap can still differ: the paired ` +
    `comparisons of the findings decide.` +
    (st.reading === "mean" ? " Each point is a budget's operating point at its mean cost " +
      "per test example." : "");
  if (!traces.length) $("curves-note").textContent = "Nothing to draw: no chosen method has " +
    "results in this selection. " + $("curves-note").textContent;
  return Plotly.react("curves", traces, layout, {responsive: true, displaylogo: false});
}

function drawStandings(st) {
  const S = D.standings;
  const rows = where(S, (i) => S.cost_model[i] === st.cm && S.reading[i] === st.reading &&
    (st.band === "all" || S.band[i] === st.band));
  if (!rows.length) {
    const models = [...new Set(S.cost_model)].map((c) => D.cost_models[c]);
    $("standings-note").textContent = `No per-dataset standings under ${D.cost_models[st.cm]}` +
      (models.length ? `: the field's question is asked under ${models.join(", ")}.` :
        ": the run asks no field's question per dataset.");
    Plotly.purge("standings");
    $("standings").style.height = "0px";
    return Promise.resolve();
  }
  const datasets = [...new Set(rows.map((i) => S.dataset[i]))].sort((a, b) => a - b);
  const bands = [...new Set(rows.map((i) => S.band[i]))];
  const families = [...new Set(rows.map((i) => S.family[i]))].sort((a, b) => a - b);
  const ys = bands.flatMap((b) => families.map((f) => [b, f]));
  const z = ys.map(() => datasets.map(() => null));
  const text = ys.map(() => datasets.map(() => ""));
  const hover = ys.map(() => datasets.map(() => ""));
  const row = new Map(ys.map(([b, f], k) => [b + "|" + f, k]));
  const col = new Map(datasets.map((d, j) => [d, j]));
  for (const i of rows) {
    const k = row.get(S.band[i] + "|" + S.family[i]), j = col.get(S.dataset[i]);
    z[k][j] = S.standing[i];
    text[k][j] = S.binds[i] ? "*" : "";
    hover[k][j] = `<b>${D.families[S.family[i]]}</b><br>` +
      `${D.datasets[S.dataset[i]]}, ${D.bands[S.band[i]] || S.band[i]}: ` +
      `${D.standings_order[S.standing[i]].replace("_", " ")}` +
      (S.binds[i] ? "<br>the band binds here" : "<br>the band does not bind here");
  }
  const n = D.standings_order.length;
  const colours = D.standings_order.map((s) => D.standing_colours[s]);
  const scale = colours.flatMap((c, k) => [[k / n, c], [(k + 1) / n, c]]);
  const trace = {
    type: "heatmap", z: z, x: datasets.map((d) => D.datasets[d]),
    y: ys.map(([b, f]) => `${b}: ${D.family_short[f]}`), zmin: -0.5, zmax: n - 0.5,
    colorscale: scale, showscale: false, text: text, texttemplate: "%{text}",
    customdata: hover, hovertemplate: "%{customdata}<extra></extra>", xgap: 1, ygap: 1,
  };
  const shapes = [];
  if (st.ds !== "all" && col.has(st.ds)) {
    const j = col.get(st.ds);
    shapes.push({type: "rect", xref: "x", yref: "paper", x0: j - 0.5, x1: j + 0.5, y0: 0,
                 y1: 1, line: {color: "#222222", width: 2}});
  }
  const height = 120 + 24 * ys.length + 6 * Math.max(...datasets.map((d) =>
    D.datasets[d].length));
  $("standings").style.height = height + "px";
  $("standings-note").textContent = "Each cell: the family's standing on that dataset in " +
    "that band (per-dataset paired tests, Holm over each comparison's rows); * the band " +
    "binds there (a cheapest-first buyer reads at most half the attributes). The counts: " +
    "leads.parquet.";
  return Plotly.react("standings", [trace], {
    margin: {t: 10, r: 20, b: 10 + 6 * Math.max(...datasets.map((d) => D.datasets[d].length)),
             l: 170},
    xaxis: {tickangle: -60, automargin: true}, yaxis: {autorange: "reversed", automargin: true},
    shapes: shapes, height: height,
  }, {responsive: true, displaylogo: false});
}

$("standings-key").replaceChildren(...D.standings_order.map((s) => {
  const span = document.createElement("span");
  const swatch = document.createElement("span");
  swatch.className = "swatch"; swatch.style.background = D.standing_colours[s];
  span.append(swatch, document.createTextNode(s.replace("_", " ")));
  return span;
}));

function draw() {
  const st = state();
  $("measure").disabled = st.ds !== "all";
  if (document.body.dataset.ready) toAddress();
  return Promise.all([drawCurves(st), drawStandings(st)]);
}

// a view is named in the address: #cost_model=...&dataset=...&band=...&reading=...&methods=a,b
function fromAddress() {
  const asked = new URLSearchParams(location.hash.slice(1));
  const pick = (id, name, names) => {
    const value = names ? String(names.indexOf(name)) : name;
    if (name !== null && [...$(id).options].some((o) => o.value === value)) $(id).value = value;
  };
  pick("cost_model", asked.get("cost_model"), D.cost_models);
  fillDatasets();
  const dataset = asked.get("dataset");
  pick("dataset", dataset === "all" ? null : dataset, D.datasets);
  for (const id of ["band", "reading", "measure"]) pick(id, asked.get(id));
  if (asked.has("methods")) {
    const chosen = new Set(asked.get("methods").split(","));
    boxes.forEach((b) => (b.checked = chosen.has(b.dataset.method)));
  }
}
function toAddress() {
  const st = state();
  const view = new URLSearchParams({cost_model: D.cost_models[st.cm],
    dataset: st.ds === "all" ? "all" : D.datasets[st.ds], band: st.band, reading: st.reading,
    measure: st.measure});
  if (st.chosen.size < boxes.length) {
    view.set("methods", [...st.chosen].map((m) => D.methods[m]).join(","));
  }
  try { history.replaceState(null, "", "#" + view.toString()); } catch (e) { /* no history */ }
}

fromAddress();
draw().then(() => { document.body.dataset.ready = performance.now().toFixed(0); });
"""

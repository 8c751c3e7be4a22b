"""The interactive results page: the numbers it embeds, and the page in headless chromium."""

from __future__ import annotations

import html as html_lib
import json
import re
import subprocess
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from synthetic_results import PEER, PEER_CATALOGUE, const, curve_shards, sizes_for

from budgetboost.analysis.binding import Prices
from budgetboost.analysis.leads import standings_of_run
from budgetboost.analysis.results import aggregate
from budgetboost.analysis.summary import t_interval
from budgetboost.catalogue import Catalogue
from budgetboost.data.seeds import rng_from_key
from budgetboost.report.explore import (
    BAND_BITS,
    MIN_INTERVAL_TRIALS,
    across_datasets,
    curve_points,
    explore_data,
    explore_page,
)

CHROMIUM = Path("/usr/bin/chromium")
CATALOGUE = Catalogue(
    {**PEER_CATALOGUE.records(), "streed": {"label": "STreeD", "family": "optimal_tree"}}
)
CURVES = {
    "streed": lambda b: 0.22 - 0.01 * b,
    "smoothed": const(0.16),
    "greedy": const(0.17),
    PEER: lambda b: 0.12 + 0.005 * b,
}


@pytest.fixture(scope="module")
def results():
    """A paper-regime run and a field-regime cost model ``unit`` on eight datasets, with the
    datasets' errors shifted apart so that each draws its own curves."""
    paper = curve_shards(CURVES, trials=6)
    field = curve_shards(CURVES, cost_model="unit", trials=6, spent={"streed": 0.5}, reference=None)
    shards = pd.concat([paper, field], ignore_index=True)
    shift = shards["dataset"].map({d: 0.01 * i for i, d in enumerate(sorted(set(shards.dataset)))})
    shards["test_error"] = (shards["test_error"] + shift).clip(0, 1)
    prices = {
        (d, "unit"): Prices(np.ones((6, 4)), np.arange(4), True) for d in field["dataset"].unique()
    }
    return aggregate(
        shards, CATALOGUE, "uniform_0_2", sizes_for(shards), field={"unit": "unit"}, prices=prices
    )


def _summary(**columns) -> pd.DataFrame:
    n = len(next(iter(columns.values())))
    base = {
        "dataset": ["d"] * n,
        "cost_model": ["c"] * n,
        "algorithm": ["greedy"] * n,
        "trials": [5] * n,
        "example_cost_mean": [1.0] * n,
    }
    return pd.DataFrame({**base, **columns})


# ---------------------------------------------------------------------- the data


def test_intervals_are_clipped_and_not_drawn_below_three_trials():
    summary = _summary(
        budget=[1.0, 2.0, 3.0, np.inf],
        trials=[2, MIN_INTERVAL_TRIALS, 10, 10],
        error_mean=[0.25, 0.05, 0.9, 0.2],
        ci_low=[-0.6, -0.1, 0.8, 0.1],
        ci_high=[1.2, 0.2, 1.3, 0.3],
    )
    points = curve_points(summary)
    assert list(points["budget"]) == [1.0, 2.0, 3.0]  # the unbudgeted row is a reference
    assert np.isnan(points.loc[0, "low"]) and np.isnan(points.loc[0, "high"])
    assert points.loc[1, ["low", "high"]].tolist() == [0.0, 0.2]
    assert points.loc[2, ["low", "high"]].tolist() == [0.8, 1.0]


def test_each_budget_is_in_its_grids_bands():
    summary = _summary(
        budget=[1.0, 2.0, 3.0, 4.0, 5.0, 8.0, 2.0],
        dataset=["d"] * 6 + ["e"],  # a grid of one budget: small and large at once
        error_mean=[0.1] * 7,
        ci_low=[0.0] * 7,
        ci_high=[0.2] * 7,
    )
    small, medium, large = (BAND_BITS[b] for b in ("small", "medium", "large"))
    bands = curve_points(summary)["band"].tolist()
    assert bands == [small, small, medium, medium, large, large, small | large]


def test_across_datasets_means_intervals_and_ranks_by_hand():
    errors = {"a": [0.1, 0.2, 0.3, 0.4], "b": [0.2, 0.1, 0.5, 0.6], "c": [0.3, 0.3, 0.2]}
    points = pd.DataFrame(
        [
            ("d" + str(i), "cm", alg, 2.0, e)
            for alg, values in errors.items()
            for i, e in enumerate(values)
        ],
        columns=["dataset", "cost_model", "algorithm", "budget", "error"],
    )
    out = across_datasets(points).set_index("algorithm")
    mean, _, low, high = t_interval(errors["a"])
    assert out.loc["a", "error"] == pytest.approx(mean)
    assert out.loc["a", ["low", "high"]].tolist() == pytest.approx([max(low, 0), high])
    assert out.loc["c", ["datasets", "of"]].tolist() == [3, 4]
    # a and b are read on all four datasets: ranks 1, 1, 1, 1 for a but on the second
    assert out.loc["a", "rank"] == pytest.approx((1 + 2 + 1 + 1) / 4)
    assert out.loc["b", "rank"] == pytest.approx((2 + 1 + 2 + 2) / 4)
    assert np.isnan(out.loc["c", "rank"])  # missing on one dataset: not ranked


def test_the_page_embeds_the_summarys_numbers(results):
    data = explore_data(results, CATALOGUE)
    summary = results.summary
    assert data["methods"] == CATALOGUE.sort(summary["algorithm"].unique())
    assert data["labels"] == [CATALOGUE.label(m) for m in data["methods"]]
    assert set(data["cost_models"]) == {"uniform_0_2", "unit"}
    curves = pd.DataFrame(data["curves"])
    curves["dataset"] = [data["datasets"][i] for i in curves["dataset"]]
    curves["cost_model"] = [data["cost_models"][i] for i in curves["cost_model"]]
    curves["algorithm"] = [data["methods"][i] for i in curves["method"]]
    merged = curves.merge(summary, on=["dataset", "cost_model", "algorithm", "budget"])
    assert len(merged) == len(curves) == np.isfinite(summary["budget"]).sum()
    assert np.allclose(merged["error"], merged["error_mean"], atol=1e-4)
    assert np.allclose(merged["cost"], merged["example_cost_mean"], atol=1e-4)
    assert (merged["low"] <= merged["error"] + 1e-4).all()
    assert (merged["high"] >= merged["error"] - 1e-4).all()
    references = pd.DataFrame(data["references"])
    assert {data["methods"][i] for i in references["method"]} == {"adaboost"}
    # across datasets: both readings, each method of each cost model
    across = pd.DataFrame(data["across"])
    assert set(across["reading"]) == {"cap", "mean"}
    cap = across[(across["reading"] == "cap") & (across["method"] == data["methods"].index(PEER))]
    peer = summary[(summary["algorithm"] == PEER) & np.isfinite(summary["budget"])]
    expected = peer.groupby(["cost_model", "budget"])["error_mean"].mean()
    got = cap.assign(cost_model=[data["cost_models"][i] for i in cap["cost_model"]])
    got = got.set_index(["cost_model", "budget"])["error"]
    assert np.allclose(got.sort_index(), expected.sort_index(), atol=1e-4)


def test_the_mean_cost_reading_across_datasets_reads_each_front():
    # one method, fronts of two points: mean cost 1 -> error 0.3, mean cost 3 -> 0.1
    summary = pd.concat(
        [
            _summary(
                dataset=[d, d],
                budget=[2.0, 4.0],
                example_cost_mean=[1.0, 3.0],
                error_mean=[0.3, 0.1],
                ci_low=[0.2, 0.0],
                ci_high=[0.4, 0.2],
            )
            for d in ("d1", "d2", "d3")
        ],
        ignore_index=True,
    )
    data = explore_data({"summary": summary}, CATALOGUE, standings=_no_standings())
    across = pd.DataFrame(data["across"])
    mean = across[across["reading"] == "mean"].set_index("budget")["error"]
    assert mean.to_dict() == pytest.approx({2.0: 0.2, 4.0: 0.1})  # halfway; past the front
    cap = across[across["reading"] == "cap"].set_index("budget")["error"]
    assert cap.to_dict() == pytest.approx({2.0: 0.3, 4.0: 0.1})


def _no_standings() -> pd.DataFrame:
    """What :func:`standings_of_run` gives a run without the field's per-dataset rows."""
    columns = ["reading", "pool", "dataset", "cost_model", "band", "family", "standing"]
    return pd.DataFrame(columns=columns)


def test_the_standings_are_the_figures(results):
    data = explore_data(results, CATALOGUE)
    expected = standings_of_run(results, CATALOGUE)
    got = pd.DataFrame(data["standings"])
    assert len(got) == len(expected) > 0
    got = got.assign(
        dataset=[data["datasets"][i] for i in got["dataset"]],
        standing=[data["standings_order"][i] for i in got["standing"]],
        binds=got["binds"].astype(bool),
    )
    keys = ["reading", "dataset", "band", "standing", "binds"]
    assert sorted(map(tuple, got[keys].to_numpy().tolist())) == sorted(
        map(tuple, expected[keys].to_numpy().tolist())
    )


def test_the_page_is_self_contained_and_a_label_stays_text(results):
    hostile = "</script><script>alert(1)</script>"
    catalogue = Catalogue({**CATALOGUE.records(), "greedy": {"label": hostile}})
    data = explore_data(results, catalogue)
    page = explore_page(data, "run <b>x</b>")
    assert not re.search(r"<script[^>]*\bsrc\s*=", page) and "<link" not in page
    assert "<title>run &lt;b&gt;x&lt;/b&gt;</title>" in page
    embedded = re.search(
        r'<script id="explore-data" type="application/json">(.*?)</script>', page, re.S
    )
    assert json.loads(embedded.group(1)) == json.loads(json.dumps(data))
    assert hostile in json.loads(embedded.group(1))["labels"]
    assert page.count("</script>") == 3  # plotly.js, the data, the page's script


def test_the_curves_caption_says_what_a_dataset_interval_is(results):
    """A dataset's bars are each method's error on the dataset's population, wider than the
    paired differences that decide: the caption says so, lest overlap read as no difference."""
    page = explore_page(explore_data(results, CATALOGUE), "run")
    assert "one method's error on the dataset's population" in page
    assert "Bars that overlap can still differ: the paired" in page


# ------------------------------------------------------------------ headless chromium


def _chromium(url: str, profile: Path, *flags: str) -> list[str]:
    return [
        str(CHROMIUM),
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={profile}",
        "--window-size=1400,1000",
        *flags,
        url,
    ]


#: Run once the page has drawn: as a reader, choose datasets and methods, and write what the
#: curves show into the page for --dump-dom.
_PROBE = """<script>
window.addEventListener("load", async () => {
  const pause = () => new Promise((done) => setTimeout(done, 50));
  const curves = () => document.getElementById("curves").data.map(
    (t) => ({name: t.name, x: [...t.x], y: [...t.y]}));
  const choose = async (id, value) => {
    const select = document.getElementById(id);
    select.value = value; select.dispatchEvent(new Event("change")); await pause();
  };
  const out = {views: {}, methods: {}, errors: []};
  try {
    await pause();
    out.views.all = curves();
    const datasets = [...document.getElementById("dataset").options].map((o) => o.value);
    for (const d of datasets.filter((v) => v !== "all").slice(0, 2)) {
      await choose("dataset", d); out.views[d] = curves();
    }
    await choose("reading", "mean"); out.views.mean = curves();
    await choose("reading", "cap");
    const boxes = [...document.querySelectorAll("#methods input")];
    const models = [...document.getElementById("cost_model").options].map((o) => o.value);
    for (const box of boxes) {
      out.methods[box.dataset.method] = [];
      for (const cm of models) {
        await choose("cost_model", cm); await choose("dataset", "all");
        boxes.forEach((b) => (b.checked = b === box));
        box.dispatchEvent(new Event("change")); await pause();
        out.methods[box.dataset.method].push(...curves().map((t) => t.name));
      }
    }
    out.standings = (document.getElementById("standings").data || []).length;
  } catch (e) { out.errors.push(String(e)); }
  const pre = document.createElement("pre");
  pre.id = "explore-probe"; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def _probe(page: str, tmp_path: Path) -> dict:
    end = page.rindex("</body>")
    probed = tmp_path / "probed.html"
    probed.write_text(page[:end] + _PROBE + page[end:], encoding="utf-8")
    cmd = _chromium(
        probed.as_uri(), tmp_path / "profile", "--virtual-time-budget=60000", "--dump-dom"
    )
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    found = re.search(r'<pre id="explore-probe">(.*?)</pre>', proc.stdout, re.S)
    if proc.returncode != 0 or not found:
        raise AssertionError(f"chromium failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(html_lib.unescape(found.group(1)))


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium)")
def test_a_reader_chooses_datasets_and_every_method_in_chromium(results, tmp_path):
    data = explore_data(results, CATALOGUE)
    seen = _probe(explore_page(data, "synthetic run"), tmp_path)
    assert seen["errors"] == []
    views = seen["views"]
    first, second = (k for k in views if k not in ("all", "mean"))
    assert views["all"] and views[first] and views[second]
    assert views[first] != views["all"] and views[first] != views[second]
    assert [t["name"] for t in views[first]] == [t["name"] for t in views[second]]
    assert views["mean"] != views[second]  # the same dataset against mean cost
    for method, label in zip(data["methods"], data["labels"], strict=True):
        assert label in seen["methods"][method], (method, seen["methods"][method])
    assert seen["standings"] == 1


def suite_sized_page(datasets=38, methods=30, budgets=20, cost_models=3) -> str:
    """A page as large as the suite's: every (dataset, cost model, method, budget) a point."""
    names = [f"dataset_{i:02d}" for i in range(datasets)]
    algorithms = [f"method_{i:02d}" for i in range(methods)]
    models = [f"cost_model_{i}" for i in range(cost_models)]
    index = pd.MultiIndex.from_product(
        [names, models, algorithms, np.arange(1.0, budgets + 1)],
        names=["dataset", "cost_model", "algorithm", "budget"],
    )
    rng = rng_from_key("explore", "suite-sized page")
    error = rng.uniform(0.05, 0.4, len(index))
    summary = index.to_frame(index=False).assign(
        trials=10,
        error_mean=error,
        ci_low=error - 0.03,
        ci_high=error + 0.03,
        example_cost_mean=index.get_level_values("budget") * rng.uniform(0.4, 1.0, len(index)),
    )
    catalogue = Catalogue(
        {a: {"family": ("peer", "forest", "selection")[i % 3]} for i, a in enumerate(algorithms)}
    )
    cells = pd.MultiIndex.from_product(
        [["cap", "mean"], names, models[:2], ["small", "large"], ["peer", "forest", "selection"]],
        names=["reading", "dataset", "cost_model", "band", "family"],
    ).to_frame(index=False)
    standings = cells.assign(
        pool=cells["cost_model"],
        standing=rng.choice(["leads", "on_par", "trails", "undecided"], len(cells)),
        binds=rng.random(len(cells)) < 0.5,
    )
    data = explore_data({"summary": summary}, catalogue, standings=standings)
    return explore_page(data, "suite-sized run")


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium)")
def test_a_suite_sized_page_loads_quickly(tmp_path):
    """38 datasets x 30 methods x 20 budgets x 3 cost models: the page's size and the time
    from navigation to its first drawing (printed; the bound only catches a page that hangs)."""
    page = suite_sized_page()
    path = tmp_path / "explore.html"
    path.write_text(page, encoding="utf-8")
    start = time.perf_counter()
    cmd = _chromium(path.as_uri(), tmp_path / "profile", "--dump-dom")
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    wall = time.perf_counter() - start
    body = re.search(r"<body([^>]*)>", proc.stdout)
    times = dict(re.findall(r'data-(\w+)="(\d+)"', body.group(1))) if body else {}
    assert proc.returncode == 0 and "ready" in times, proc.stderr[-3000:]
    ms = {k: int(v) for k, v in times.items()}
    print(
        f"suite-sized explore.html: {len(page.encode()) / 1e6:.1f} MB; after navigation: "
        f"plotly.js loaded {ms['plotly'] / 1000:.2f} s, data parsed {ms['data'] / 1000:.2f} s, "
        f"drawn {ms['ready'] / 1000:.2f} s ({wall:.1f} s with chromium's start)"
    )
    assert ms["ready"] < 30_000

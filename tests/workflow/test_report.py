"""The Snakemake HTML report: every registered figure embedded, and it renders in chromium.

Two real reports are checked: one from the whole pipeline on config/test.yaml (the shared
``base_run`` fixture of conftest.py), and one from a minimal workflow that includes only
``workflow/rules/results.smk`` over synthetic shards, so the results rules are exercised even
when training changes. Both are end-to-end runs of the real snakemake (``slow``).
"""

from __future__ import annotations

import base64
import html as html_lib
import json
import re
import subprocess
import textwrap
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import snakemake.report as snakemake_report
from helpers import REPO, RESULTS, SNAKEMAKE, clone_run, copy_repo, edit_config, runtime_env
from matplotlib import image as mpimg
from synthetic_results import synthetic_shards

from budgetboost.data.costs import CostTable, write_costs
from budgetboost.data.io import read_table, write_table
from budgetboost.data.splits import write_splits
from budgetboost.figures import registry as figures
from budgetboost.figures.registry import TABLES
from budgetboost.pipeline.identity import IDENTITY_KEY
from budgetboost.report.escape import rst_text

CHROMIUM = Path("/usr/bin/chromium")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ENTRY = re.compile(r'"([^"]+)": (?=\{"name": )')


# ------------------------------------------------------------------ helpers (no snakemake)


def results_of(repo: Path) -> str:
    """The results folder of the run in ``repo``: the test config's, else ``results``."""
    return RESULTS if (repo / RESULTS).is_dir() else "results"


def figure_paths(repo: Path) -> list[str]:
    """The images of the run's figures in its results folder: the pages the test config
    plans (budgetboost.figures.registry.plan_figures: none with nothing to draw), or every
    registered figure in a run of the mini workflow (which makes them all)."""
    folder = results_of(repo)
    names = planned_pages(repo) if folder == RESULTS else list(figures.load())
    return [f"{folder}/figures/{name}.png" for name in names]


def planned_pages(repo: Path) -> list[str]:
    """The files (without suffix) of the package's figures the test config's run in ``repo``
    makes."""
    import yaml

    from budgetboost.checks import check_all
    from budgetboost.pipeline.plan import Plan

    config = yaml.safe_load((repo / "config/test.yaml").read_text())
    # the package's figures only: a module of the repo's own is not importable here
    config.pop("figure_modules", None)
    checked, registry = check_all(config, repo)
    plan = Plan(checked, registry)
    catalogue = plan.catalogue()
    return list(figures.plan_figures(figures.load(), plan, catalogue))


def report_entries(html: str) -> dict[str, dict]:
    """The result entries embedded in a Snakemake report, keyed by their output path.

    Snakemake 9 stores each registered file as a JSON object ``"path": {"name": ...,
    "mime_type": ..., "data_uri": "data:...;base64,..."}`` inside the page's script.
    """
    decoder = json.JSONDecoder()
    entries = {}
    for match in _ENTRY.finditer(html):
        entry, _ = decoder.raw_decode(html, match.end())
        if isinstance(entry, dict) and "data_uri" in entry:
            entries[match.group(1)] = entry
    return entries


def embedded_bytes(entry: dict) -> bytes:
    """Decode the base64 ``data_uri`` of a report entry."""
    head, _, payload = entry["data_uri"].partition("base64,")
    if not head.startswith("data:") or not payload:
        raise ValueError(f"{entry.get('name')}: not a base64 data URI: {head[:60]!r}")
    return base64.b64decode(payload)


def missing_images(html: str, repo: Path, images: list[str]) -> list[str]:
    """Registered images not embedded byte for byte in the report (empty list: all there)."""
    entries = report_entries(html)
    problems = []
    for path in images:
        entry = entries.get(path)
        if entry is None:
            problems.append(f"{path}: no entry in the report")
        elif not entry.get("mime_type", "").startswith("image/"):
            problems.append(f"{path}: mime type {entry.get('mime_type')!r}")
        elif embedded_bytes(entry) != (repo / path).read_bytes():
            problems.append(f"{path}: embedded bytes differ from the file")
    return problems


def chromium(html: Path | str, profile: Path, width: int, height: int, *flags: str) -> list[str]:
    """The headless chromium command that opens ``html`` (a file, or a URL as a string) at
    ``width`` x ``height`` with ``flags`` (what to write: a screenshot, the DOM), offline and
    with a fresh profile."""
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
        "--virtual-time-budget=10000",
        f"--window-size={width},{height}",
        *flags,
        html if isinstance(html, str) else html.resolve().as_uri(),
    ]


def screenshot(html: Path, png: Path, profile: Path) -> None:
    """Render ``html`` in headless chromium and save a 1400×1000 screenshot to ``png``."""
    cmd = chromium(html, profile, 1400, 1000, f"--screenshot={png}")
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    if proc.returncode != 0 or not png.is_file():
        raise AssertionError(f"chromium failed ({proc.returncode}):\n{proc.stderr[-3000:]}")


#: Run in the report once its page has rendered: where the first page's title and its
#: verdicts table lie, in the window's own coordinates, written into the page for --dump-dom.
_PROBE = """<script>
window.addEventListener("load", () => setTimeout(() => {
  const box = (el) => el ? (({top, bottom, left, right}) => ({top, bottom, left, right}))(
    el.getBoundingClientRect()) : null;
  const title = [...document.querySelectorAll("h1")].find(
    (h) => h.textContent.startsWith("budgetboost:"));
  const verdicts = [...document.querySelectorAll("h2, h1")].find(
    (h) => h.textContent.trim() === "Verdicts");
  const section = verdicts && verdicts.closest("section, div.section");
  const table = section && section.querySelector("table");
  const page = title && (title.closest("div.document, article, main") || title.parentElement);
  const probe = document.createElement("pre");
  probe.id = "budgetboost-probe";
  probe.textContent = JSON.stringify({title: box(title), table: box(table), page: box(page),
    width: window.innerWidth, height: window.innerHeight});
  document.body.appendChild(probe);
}, 2000));
</script>"""


def page_positions(html: Path, profile: Path, width: int = 1400, height: int = 900) -> dict:
    """Where the report's first page puts its title and its verdicts table when the report is
    opened in headless chromium at ``width`` x ``height``: their boxes in the window's own
    coordinates (``top`` < 0: above the window, out of sight) and the window's size."""
    probed = profile.parent / "probed-report.html"
    text = html.read_text(encoding="utf-8")
    end = text.rindex("</body>")  # the page's own (a script's string holds another)
    probed.write_text(text[:end] + _PROBE + text[end:], encoding="utf-8")
    cmd = chromium(probed, profile, width, height, "--dump-dom")
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    found = re.search(r'<pre id="budgetboost-probe">(.*?)</pre>', proc.stdout, re.S)
    if proc.returncode != 0 or not found:
        raise AssertionError(f"chromium failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(html_lib.unescape(found.group(1)))


def is_blank(png: Path) -> bool:
    """True if the image is (nearly) one colour: nothing rendered."""
    pixels = mpimg.imread(png)[..., :3]
    colours = np.unique((pixels.reshape(-1, 3) * 255).round().astype(np.uint8), axis=0)
    return len(colours) < 8 or float(pixels.std()) < 0.02


# ---------------------------------------------------------------------- fast unit tests


def _png(tmp_path: Path, name: str) -> Path:
    import matplotlib.figure

    fig = matplotlib.figure.Figure(figsize=(1, 1))
    fig.add_subplot().plot([0, 1], [1, 0])
    path = tmp_path / name
    fig.savefig(path, format="png")
    return path


def test_helpers_detect_missing_and_altered_images(tmp_path):
    (tmp_path / "results/figures").mkdir(parents=True)
    fig1 = _png(tmp_path / "results/figures", "figure1.png")
    data = base64.b64encode(fig1.read_bytes()).decode()
    entry = {
        "name": "figure1.png",
        "mime_type": "image/png",
        "data_uri": f"data:image/png;charset=utf8;filename=figure1.png;base64,{data}",
    }
    html = (
        f"<script>var results = {{{json.dumps('results/figures/figure1.png')}: "
        f"{json.dumps(entry)}}};</script>"
    )
    assert missing_images(html, tmp_path, ["results/figures/figure1.png"]) == []
    assert missing_images(html, tmp_path, ["results/figures/figure2.png"]) == [
        "results/figures/figure2.png: no entry in the report"
    ]
    fig1.write_bytes(fig1.read_bytes() + b"\0")
    assert "differ" in missing_images(html, tmp_path, ["results/figures/figure1.png"])[0]
    assert not is_blank(_png(tmp_path, "plot.png"))
    blank = tmp_path / "blank.png"
    mpimg.imsave(blank, np.ones((20, 20, 3)))
    assert is_blank(blank)


# ------------------------------------------------------------------ end-to-end fixtures


MINI_SNAKEFILE = """\
# Minimal workflow: the results rules over synthetic shards. It defines what
# workflow/rules/common.smk provides to them: all_shards(), split_tables(), cost_tables(),
# local_datasets(), train_identities(),
# dataset_order(), cost_model_roles(), code_files(), the catalogue, the figure registry and
# results_outputs().
from budgetboost.figures import registry as figures
from budgetboost.pipeline import staleness
from budgetboost.catalogue import Catalogue

EXPERIMENTS = {experiments!r}
RESULTS, LOGS = "results", "logs"
CATALOGUE = Catalogue.default()


def R(path):
    return f"{{RESULTS}}/{{path}}"


def L(path):
    return f"{{LOGS}}/{{path}}"

PACKAGE_VERSION = "test"
FIGURE_MODULES = []
FIGURES = figures.load(FIGURE_MODULES)
FIGURE_PAGES = {{name: (name, 0) for name in FIGURES}}


def figure_spec(wildcards):
    return FIGURES[wildcards.figure]


def figure_page(wildcards):
    return {{"figure": wildcards.figure, "page": 0}}


def all_shards():
    return [f"results/shards/{{d}}/{{c}}/{{a}}/block-0.parquet" for d, c, a in EXPERIMENTS]


def split_tables():
    return sorted({{f"results/splits/{{d}}.parquet" for d, _, _ in EXPERIMENTS}})


def cost_tables():
    return sorted({{f"results/costs/{{d}}/{{c}}.parquet" for d, c, _ in EXPERIMENTS}})


def binarized_tables():
    return sorted({{f"results/data/{{d}}.parquet" for d, _, _ in EXPERIMENTS}})


def local_datasets():
    return []


def dataset_order():
    return sorted({{d for d, _, _ in EXPERIMENTS}})


def cost_model_roles():
    kinds = {{"uniform_0_2": "uniform_random", "turney": "real"}}
    return {{"baseline": "uniform_0_2", "kinds": kinds, "field": {{}}}}


def claim_stumps():
    return []


def claim_algorithms():
    return []


def train_identities(folder, algorithms=None):
    # the synthetic shards carry the identity "synthetic" (written so by the test)
    return {{path: "synthetic" for path in all_shards()}} if folder == "shards" else {{}}


def code_files(*modules):
    return []


def figure_modules():
    return []


def figure_inputs(wildcards):
    return FIGURES[wildcards.figure].input_tables(RESULTS)


def figure_report(attribute):
    if attribute == "labels":
        return lambda wildcards: {{"figure": FIGURES[wildcards.figure].title}}
    return lambda wildcards: getattr(FIGURES[wildcards.figure], attribute)


def results_outputs():
    return ["results/summary/summary.md", "results/summary/claims.md",
            "results/summary/summary.html", "results/summary/claims.html",
            "results/report/landing.rst", "results/explore.html",
            *expand("results/figures/{{f}}.{{ext}}", f=FIGURES, ext=["png", "pdf"])]


include: {rules!r}


report: "results/report/landing.rst"


rule all:
    default_target: True
    input:
        results_outputs(),
"""


def _mini_workflow(root: Path) -> Path:
    shards = synthetic_shards(
        datasets=("breast_cancer", "ecoli", "sonar", "ionosphere"),
        trials=5,
        budgets=(2, 6, 10, 14, 18),
    )
    experiments = []
    for (d, c, a), part in shards.groupby(["dataset", "cost_model", "algorithm"]):
        write_table(
            part.reset_index(drop=True),
            root / f"results/shards/{d}/{c}/{a}/block-0.parquet",
            metadata={IDENTITY_KEY: "synthetic"},
        )
        experiments.append((d, c, a))
    for d in {d for d, _, _ in experiments}:  # sizes as sizes_for's: trials share little
        splits = pd.DataFrame({"trial": [], "train": [], "test": []})
        meta = {"dataset": d, "train_size": 200, "test_size": 1000, "n_rows": 20_000}
        write_splits(splits, root / f"results/splits/{d}.parquet", metadata=meta)
    for d in {d for d, _, _ in experiments}:  # each indicator's attribute (metadata only)
        columns = [{"name": f"x{j}", "attribute": f"a{j}"} for j in range(4)]
        write_table(
            pd.DataFrame({"y": pd.Series([], dtype="int8")}),
            root / f"results/data/{d}.parquet",
            metadata={"columns": columns},
        )
    for d, c in {(d, c) for d, c, _ in experiments}:
        costs = np.full((5, 4), 1.0) if c == "turney" else np.linspace(0.1, 2, 20).reshape(5, 4)
        write_costs(
            CostTable(trials=np.arange(5), costs=costs, grouped=False),
            root / f"results/costs/{d}/{c}.parquet",
        )
    (root / "Snakefile").write_text(
        textwrap.dedent(MINI_SNAKEFILE).format(
            experiments=sorted(experiments), rules=str(REPO / "workflow/rules/results.smk")
        )
    )
    return root


def _run(repo: Path, *args: str) -> None:
    proc = subprocess.run(
        [SNAKEMAKE, *args], cwd=repo, capture_output=True, text=True, timeout=900, env=runtime_env()
    )
    if proc.returncode != 0:
        raise AssertionError(
            f"snakemake {' '.join(args)} failed in {repo}:\n"
            f"{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"
        )


#: A results table registered before the results rules are read
TABLE_PLUG_IN = """\
from budgetboost.analysis.tables import table


@table("shard_rows", description="shard rows per algorithm")
def shard_rows(run, tables):
    return run.shards.groupby("algorithm").size().rename("rows").reset_index()


"""


def planned_files(dry_run: str) -> dict[str, dict[str, list[str]]]:
    """``{rule: {"input": [...], "output": [...]}}`` of a ``snakemake -n`` listing (the
    first job of each rule)."""
    jobs: dict[str, dict[str, list[str]]] = {}
    rule = None
    for line in dry_run.splitlines():
        if match := re.match(r"^(?:local)?rule (\w+):", line):
            rule = match.group(1)
            jobs.setdefault(rule, {})
        elif rule and (match := re.match(r"^\s+(input|output): (.*)$", line)):
            jobs[rule].setdefault(match.group(1), match.group(2).split(", "))
    return jobs


@pytest.mark.slow
def test_the_results_rules_read_the_table_registry(tmp_path):
    """No rule names the results tables: a table registered where the rules are read (by
    the Snakefile here, standing in for one more registration in
    budgetboost.analysis.results, which the jobs' processes import too) is an output of rule
    ``aggregate`` and an input of the first page (``landing``), after the built-in ones
    (registered first whatever is imported first). Planned only: the aggregate job's own
    process would not have the Snakefile's registration."""
    repo = _mini_workflow(tmp_path)
    snakefile = repo / "Snakefile"
    snakefile.write_text(TABLE_PLUG_IN + snakefile.read_text())
    proc = subprocess.run(
        [SNAKEMAKE, "-n", "--cores", "1"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=300,
        env=runtime_env(),
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    jobs = planned_files(proc.stdout)
    tables = [f"results/summary/{t}.parquet" for t in [*TABLES, "shard_rows"]]
    assert jobs["aggregate"]["output"] == [*tables, "results/summary/summary.md"]
    assert [p for p in jobs["landing"]["input"] if p in tables] == tables
    assert "shard_rows" not in TABLES  # registered in the workflow's process only


@pytest.fixture(scope="module")
def mini_report(tmp_path_factory) -> Path:
    """Report of the minimal workflow (results rules only); returns the repository."""
    repo = _mini_workflow(tmp_path_factory.mktemp("mini"))
    _run(repo, "--cores", "1")
    _run(repo, "--report", "results/report.html")
    return repo


@pytest.fixture(scope="module")
def pipeline_report(request, tmp_path_factory) -> Path:
    """Report of the whole pipeline run on config/test.yaml (conftest's ``base_run``)."""
    needed = [REPO / "Snakefile", REPO / "config/test.yaml", REPO / "workflow/rules/common.smk"]
    missing = [str(p.relative_to(REPO)) for p in needed if not p.exists()]
    if missing:
        pytest.skip(f"pipeline files not written yet: {', '.join(missing)}")
    base_run = request.getfixturevalue("base_run")
    repo = clone_run(base_run, tmp_path_factory.mktemp("report") / "repo")
    _run(repo, "--configfile", "config/test.yaml", "--report", f"{RESULTS}/report.html")
    return repo


@pytest.fixture(params=["mini_report", "pipeline_report"])
def report_repo(request) -> Path:
    return request.getfixturevalue(request.param)


# ---------------------------------------------------------------------- end-to-end tests


@pytest.mark.slow
def test_report_embeds_every_figure_and_table(report_repo):
    results = results_of(report_repo)
    html = (report_repo / results / "report.html").read_text(encoding="utf-8")
    assert missing_images(html, report_repo, figure_paths(report_repo)) == []
    entries = report_entries(html)
    for page in ("summary", "claims"):  # as pages (a browser downloads Markdown)
        table = f"{results}/summary/{page}.html"
        assert entries[table]["mime_type"] == "text/html", entries[table]["mime_type"]
        assert embedded_bytes(entries[table]) == (report_repo / table).read_bytes()
        assert f"{results}/summary/{page}.md" not in entries
    for path in figure_paths(report_repo):
        assert entries[path]["caption"].strip(), f"{path} has no caption"
        assert embedded_bytes(entries[path]).startswith(PNG_SIGNATURE)


def report_context(repo: Path, families) -> figures.FigureContext:
    """The figure context of the test config's run, as its plot and landing jobs build it."""
    import yaml

    from budgetboost.checks import check_all
    from budgetboost.pipeline.plan import Plan

    config = yaml.safe_load((repo / "config/test.yaml").read_text())
    checked, registry = check_all(config, repo)
    plan = Plan(checked, registry)
    catalogue = plan.catalogue()
    roles = {"baseline": plan.baseline_cost_model(), "kinds": plan.cost_model_kinds()}
    context = figures.FigureContext.of_run(
        catalogue, plan.local_datasets(), plan.dataset_order(), roles
    )
    return replace(context, families=families)


@pytest.mark.slow
def test_the_report_opens_on_the_verdicts_and_points_to_every_figure(pipeline_report):
    """The report's first page (rule ``landing``) says what ran, gives the verdict
    of every claim and names every registered figure."""
    html = (pipeline_report / RESULTS / "report.html").read_text(encoding="utf-8")
    landing = (pipeline_report / RESULTS / "report/landing.rst").read_text(encoding="utf-8")
    claims = read_table(pipeline_report / RESULTS / "summary/claims.parquet")
    for text in ("What ran", "Verdicts", "Where to look", "- heart: ", "uniform_0_2 (3)"):
        assert text in landing, text
    assert f"`explore.html <explore.html>`__ (``{RESULTS}/explore.html``" in landing
    assert (pipeline_report / RESULTS / "explore.html").is_file()
    for text in ("What ran", "Verdicts", "Where to look"):
        assert text in html, text  # the report's own first page
    for statement in claims["statement"]:
        assert statement in landing
    tables = {t: read_table(pipeline_report / RESULTS / f"summary/{t}.parquet") for t in TABLES}
    drawn = 0
    for name, spec in figures.load().items():  # written literally (a title's ':' escaped)
        line = f"- {rst_text(spec.category)}: {rst_text(spec.title)} (``{name}``)"
        context = report_context(pipeline_report, spec.families)
        assert (line in landing) == spec.has_content(tables, context), name
        drawn += line in landing
    assert drawn >= 3  # the test config's figures 1, 3 and the field's at least
    # the findings beyond the paper (the test config runs two peers and a tree variant): on
    # two datasets none can be decided, so the first page says so in one sentence and the
    # rows are in claims.md (the first page was ~6,000 px of such rows)
    claims_md = (pipeline_report / RESULTS / "summary/claims.md").read_text(encoding="utf-8")
    assert "Beyond the paper and its open questions" in landing
    assert "cannot be decided on this run" in landing and "too few datasets" in landing
    for text in (
        "AdaBoostBT_Smoothed (as published) vs LightGBM CEGB, stumps (tuned)",
        "Smoothed, tuned vs CatBoost penalties, stumps (tuned)",
        "Greedy, depth-2 trees (fixed settings) vs AdaBoostBT_Greedy (as published)",
        "AdaBoostBT_Greedy: few_cheap vs U[0, 2]",
    ):
        assert text not in landing and text in claims_md, text
    assert "Beyond the paper and its open questions" in html


@pytest.mark.slow
def test_mini_report_outputs(mini_report):
    summary = (mini_report / "results/summary/summary.md").read_text()
    assert "## sonar · uniform_0_2 (5 trials)" in summary
    claims = (mini_report / "results/summary/claims.md").read_text()
    assert "## Thresholds" in claims and "## Claim 5:" in claims
    for figure in figure_paths(mini_report):
        assert (mini_report / figure).with_suffix(".pdf").is_file()
    # the interactive page, linked from the first page, holds every algorithm of the run
    page = (mini_report / "results/explore.html").read_text(encoding="utf-8")
    data = re.search(r'<script id="explore-data" type="application/json">(.*?)</script>', page)
    summary = read_table(mini_report / "results/summary/summary.parquet")
    assert set(json.loads(data.group(1))["methods"]) == set(summary["algorithm"])
    landing = (mini_report / "results/report/landing.rst").read_text(encoding="utf-8")
    assert "`explore.html <explore.html>`__ (``results/explore.html``" in landing


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium)")
def test_report_renders_in_headless_chromium(report_repo, tmp_path):
    png = tmp_path / "report.png"
    screenshot(report_repo / results_of(report_repo) / "report.html", png, tmp_path / "profile")
    assert not is_blank(png), f"blank screenshot of the report: {png}"


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium)")
@pytest.mark.parametrize("size", [(1400, 900), (1920, 1080)])
def test_the_first_page_opens_on_its_title_and_verdicts(report_repo, tmp_path, size):
    """At 1400x900 and 1920x1080 the first page's title and the whole verdicts table lie inside the
    window, without scrolling (Snakemake centres a tall page)."""
    html = report_repo / results_of(report_repo) / "report.html"
    where = page_positions(html, tmp_path / "profile", *size)
    for name in ("title", "table"):
        box = where[name]
        assert box is not None, f"no {name} on the first page: {where}"
        assert 0 <= box["top"] and box["bottom"] <= where["height"], (name, where)
        assert 0 <= box["left"] and box["right"] <= where["width"], (name, where)
    # the tiny run's first page was 9,194 px long at 1400x900: at most about three screens
    page = where["page"]
    screens = (page["bottom"] - page["top"]) / where["height"]
    print(f"first page at {size}: {page['bottom'] - page['top']:.0f} px, {screens:.2f} screens")
    assert screens <= 3.3, where


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium)")
def test_embedded_figures_display_in_chromium(report_repo, tmp_path):
    """Each figure's data URI, as the report holds it, renders as a non-blank image."""
    html = (report_repo / results_of(report_repo) / "report.html").read_text(encoding="utf-8")
    entries = report_entries(html)
    for i, path in enumerate(figure_paths(report_repo)):
        page = tmp_path / f"figure{i}.html"
        page.write_text(
            "<html><body style='margin:0'><img style='width:1400px' "
            f"src='{entries[path]['data_uri']}'></body></html>"
        )
        png = tmp_path / f"figure{i}.png"
        screenshot(page, png, tmp_path / "profile")
        assert not is_blank(png), f"{path}: blank when displayed from the report's data URI"


#: Run in the report once it has rendered: what the report's own view manager does with each
#: of the evidence pages (the code behind the eye button of a result), and the page's data URL.
_EVIDENCE_PROBE = """<script>
window.addEventListener("load", () => setTimeout(() => {
  const found = {};
  for (const path of PATHS) {
    if (!(path in results)) { found[path] = null; continue; }
    let view = null;
    const app = {setView: (v) => { view = v; }};
    const button = new ButtonViewManager(app).handleSelectedResult(path);
    if (button.props.onClick) button.props.onClick();
    found[path] = {mime: getResultMimeType(path), view: view && view.content,
                   src: view && view.contentPath, download: button.props.download || null};
  }
  const probe = document.createElement("pre");
  probe.id = "budgetboost-probe";
  probe.textContent = JSON.stringify(found);
  document.body.appendChild(probe);
}, 2000));
</script>"""


def report_views(html: Path, paths: list[str], profile: Path) -> dict:
    """For each result of ``paths``, what the report opened in headless chromium does when
    its button is pressed: ``view`` (``html``: shown in a frame of the report; ``None``: the
    link only downloads the file, ``download`` naming it), ``mime`` and the frame's ``src``
    (``None`` for a path the report does not hold)."""
    probed = profile.parent / "views-report.html"
    text = html.read_text(encoding="utf-8")
    end = text.rindex("</body>")
    script = _EVIDENCE_PROBE.replace("PATHS", json.dumps(paths))
    probed.write_text(text[:end] + script + text[end:], encoding="utf-8")
    proc = subprocess.run(
        chromium(probed, profile, 1400, 900, "--dump-dom"),
        capture_output=True,
        text=True,
        timeout=180,
    )
    found = re.search(r'<pre id="budgetboost-probe">(.*?)</pre>', proc.stdout, re.S)
    if proc.returncode != 0 or not found:
        raise AssertionError(f"chromium failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    return json.loads(html_lib.unescape(found.group(1)))


def page_text(url: str, profile: Path) -> str:
    """The text a reader sees on the page at ``url`` in headless chromium (its DOM's text)."""
    from html.parser import HTMLParser

    cmd = chromium(url, profile, 1400, 900, "--dump-dom")
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=180)
    if proc.returncode != 0:
        raise AssertionError(f"chromium failed ({proc.returncode}):\n{proc.stderr[-3000:]}")

    class Text(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.parts, self.skip = [], 0

        def handle_starttag(self, tag, attrs):
            self.skip += tag in ("style", "script", "title")

        def handle_endtag(self, tag):
            self.skip -= tag in ("style", "script", "title")

        def handle_data(self, data):
            if not self.skip:
                self.parts.append(data)

    parser = Text()
    parser.feed(proc.stdout)
    return " ".join("".join(parser.parts).split())  # as the DOM's text content reads


@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium (/usr/bin/chromium)")
def test_the_evidence_opens_as_a_readable_page_in_chromium(report_repo, tmp_path):
    """The first page's links to claims.md (Tables) and summary.md open as HTML pages in chromium,
    not as a ``data:text/markdown`` URL it would download: the report's own code shows each in a
    frame, and the frame's page reads, as text, every heading and table cell of the Markdown."""
    from markdown_it import MarkdownIt

    results = results_of(report_repo)
    html = report_repo / results / "report.html"
    paths = [f"{results}/summary/{page}.html" for page in ("claims", "summary")]
    views = report_views(html, paths, tmp_path / "profile")
    entries = report_entries(html.read_text(encoding="utf-8"))
    for path in paths:
        view = views[path]
        assert view["mime"] == "text/html" and view["view"] == "html", (path, view)
        assert view["download"] is None and view["src"] == entries[path]["data_uri"], path
        shown = page_text(view["src"], tmp_path / "profile")
        markdown = (report_repo / path).with_suffix(".md").read_text(encoding="utf-8")
        tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
        expected = [t.content for t in tokens if t.type == "inline" and t.content.strip()]
        assert expected, path
        plain = [html_lib.unescape(_untagged(MarkdownIt().renderInline(t))) for t in expected]
        missing = [text for text in plain if text not in shown]
        assert missing == [], (path, missing[:5])


def _untagged(rendered: str) -> str:
    """The text of inline HTML (Markdown's emphasis and code spans rendered), tags dropped."""
    return " ".join(re.sub(r"<[^>]+>", "", rendered).split())


def _plug_ins(config: dict) -> None:
    """heart only, a config-only algorithm and a figure module of the test's own."""
    config["datasets"] = {"heart": {"cost_models": ["uniform_0_2"], "trials": 2}}
    config["cost_models"] = {"uniform_0_2": config["cost_models"]["uniform_0_2"]}
    keep = ("adaboost", "smoothed", "adaboost_rs", "tree")
    config["algorithms"] = {name: config["algorithms"][name] for name in keep}
    config["algorithms"]["smoothed_tau_half"] = {
        "estimator": "BudgetedBoost",
        "params": {"criterion": "smoothed", "tau": 0.5, "max_rounds": 40},
        "label": "Smoothed τ=0.5",
        "family": "boosting",
    }
    config["figure_modules"] = ["extra_figures"]


@pytest.mark.slow
def test_a_config_only_algorithm_and_a_test_only_figure_plug_in(tmp_path):
    """An algorithm added in the config alone and a figure registered from a
    test-only module are run, drawn and reported by the real snakemake, no code edited."""
    repo = copy_repo(tmp_path / "repo")
    (repo / "extra_figures.py").write_bytes((REPO / "tests/fixtures/extra_figures.py").read_bytes())
    edit_config(repo, _plug_ins)
    _run(repo, "--cores", "2", "--configfile", "config/test.yaml")
    _run(repo, "--configfile", "config/test.yaml", "--report", f"{RESULTS}/report.html")
    summary = (repo / RESULTS / "summary/summary.md").read_text(encoding="utf-8")
    assert "Smoothed τ=0.5" in summary
    html = (repo / RESULTS / "report.html").read_text(encoding="utf-8")
    images = [f"{RESULTS}/figures/{name}.png" for name in [*planned_pages(repo), "extra_errors"]]
    assert missing_images(html, repo, images) == []
    entries = report_entries(html)
    assert "mean test error" in entries[f"{RESULTS}/figures/extra_errors.png"]["caption"]
    assert "Smoothed τ=0.5" in html or "Smoothed \\u03c4=0.5" in html  # the summary table
    # editing the test module re-runs its figure, and the first page (which lists the
    # figures that draw something) only
    module = repo / "extra_figures.py"
    module.write_text(module.read_text() + "\n# an edit\n")
    proc = subprocess.run(
        [SNAKEMAKE, "-n", "--configfile", "config/test.yaml"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=runtime_env(),
        timeout=300,
    )
    planned = re.findall(r"^(?:local)?rule (\w+):", proc.stdout, flags=re.M)
    assert sorted(rule for rule in planned if rule != "all") == ["landing", "plot"], proc.stdout[
        -3000:
    ]


# ---------------------------------------------------------------------- stale results


@pytest.mark.slow
def test_a_report_from_out_of_date_results_is_refused(base_run, tmp_path):
    """``snakemake --report`` after a config change stops, saying how many jobs are out of date, and
    writes no report from the old results."""
    repo = clone_run(base_run, tmp_path / "repo")
    edit_config(repo, lambda c: c["algorithms"]["greedy"]["params"].update(max_rounds=30))
    proc = subprocess.run(
        [SNAKEMAKE, "--configfile", "config/test.yaml", "--report", f"{RESULTS}/report.html"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=900,
        env=runtime_env(),
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "snakemake --report: " in output and " jobs are out of date (train " in output
    assert "(--report-after-run)" in output
    assert not (repo / RESULTS / "report.html").exists()


@pytest.mark.slow
def test_a_report_outside_the_configs_own_folder_is_refused(base_run, tmp_path):
    """``--report results/report.html --configfile config/test.yaml``
    overwrote the default config's report."""
    repo = clone_run(base_run, tmp_path / "repo")
    (repo / "results" / "report.html").write_text("the default config's report\n")
    proc = subprocess.run(
        [SNAKEMAKE, "--configfile", "config/test.yaml", "--report", "results/report.html"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=900,
        env=runtime_env(),
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert f"goes inside its results folder {RESULTS}/" in output
    assert f"--report {RESULTS}/report.html" in output
    assert (repo / "results" / "report.html").read_text() == "the default config's report\n"


# ---------------------------------------------------------------------- hostile labels

#: labels of a sweep of hostile input, each markup or a template where it lands
HOSTILE = {
    "greedy": "<script>document.title='pwned-script'</script>",
    "smoothed": "<img src=x onerror=\"document.title='pwned-img'\">",
    "speedboost": "click <javascript:alert(document.domain)>`_",
    "hybrid": "javascript:alert(1",
    "adaboost_bt": "Greedy {{ 7*7 }}",
    "tree": "Greedy {{ oops",
    "tree_cs": "Δέντρο — árbol «ü» tree",  # drawable non-ASCII (CJK stops at planning)
    "adaboost_rs": ".. include:: /etc/passwd",
}


def _hostile(config: dict) -> None:
    config["datasets"] = {"heart": {"cost_models": ["uniform_0_2"], "trials": 2}}
    config["cost_models"] = {"uniform_0_2": config["cost_models"]["uniform_0_2"]}
    keep = ("adaboost", *HOSTILE)
    config["algorithms"] = {name: config["algorithms"][name] for name in keep}
    for name, label in HOSTILE.items():
        config["algorithms"][name]["label"] = label


def _script_blocks(html: str) -> dict[str, str]:
    """The text of each ``<script id=...>`` element, as an HTML parser delimits it."""
    from html.parser import HTMLParser

    class Scripts(HTMLParser):
        def __init__(self):
            super().__init__(convert_charrefs=True)
            self.blocks, self.current, self.tags = {}, None, []

        def handle_starttag(self, tag, attrs):
            self.tags.append((tag, dict(attrs)))
            if tag == "script":
                self.current = dict(attrs).get("id", f"anonymous{len(self.tags)}")
                self.blocks[self.current] = ""

        def handle_data(self, data):
            if self.current is not None:
                self.blocks[self.current] += data

        def handle_endtag(self, tag):
            if tag == "script":
                self.current = None

    parser = Scripts()
    parser.feed(html)
    return parser.blocks, parser.tags


@pytest.mark.slow
def test_a_report_shows_hostile_labels_as_text(tmp_path):
    """Hostile labels are shown as text: a label ``</script>`` does not end the report's results
    script (no live ``<img onerror>`` or ``<script>``), no label becomes a ``javascript:`` link or
    is evaluated by Jinja2, ``{{ oops`` does not stop the report, a CJK label keeps the first page's
    tables. The real run, the real report, parsed (and rendered by chromium where it is
    installed)."""
    repo = copy_repo(tmp_path / "repo")
    edit_config(repo, _hostile)
    _run(repo, "--cores", "2", "--configfile", "config/test.yaml")
    _run(repo, "--configfile", "config/test.yaml", "--report", f"{RESULTS}/report.html")
    html = (repo / RESULTS / "report.html").read_text(encoding="utf-8")
    blocks, tags = _script_blocks(html)
    template = (
        Path(snakemake_report.__file__).parent / "html_reporter/template/index.html.jinja2"
    ).read_text()
    assert sum(tag == "script" for tag, _ in tags) == template.count("<script")
    assert not [tag for tag, _ in tags if tag in ("img", "iframe", "object", "embed")]
    assert not [attrs for _, attrs in tags if any(a.startswith("on") for a in attrs)]
    results = json.loads(blocks["results"].strip().removeprefix("var results = ").rstrip(";"))
    assert f"{RESULTS}/summary/summary.html" in results  # the whole JSON, not cut by a label
    first_page = json.loads(
        blocks["workflow-desc"].strip().removeprefix("var workflow_desc = ").rstrip(";")
    )
    from html import unescape

    shown = unescape(first_page)
    for label in HOSTILE.values():
        assert label in shown, label
    assert "Greedy 49" not in shown and "system-message" not in first_page
    assert not re.search(r"<a [^>]*href=\"javascript:[^\"]*alert", first_page)
    from markdown_it import MarkdownIt

    for name in ("summary.md", "claims.md"):  # as a Markdown viewer shows them
        text = (repo / RESULTS / "summary" / name).read_text(encoding="utf-8")
        shown = MarkdownIt("commonmark").enable("table").render(text)
        assert "<script" not in shown and "<img" not in shown and "<a " not in shown
        assert HOSTILE["greedy"] in unescape(shown)
        page = (repo / RESULTS / "summary" / name).with_suffix(".html").read_text("utf-8")
        assert "<script" not in page and "<img" not in page and "<a " not in page, name
        assert HOSTILE["greedy"] in unescape(page), name  # the report's page: as text
    if CHROMIUM.exists():
        proc = subprocess.run(
            [
                str(CHROMIUM),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                f"--user-data-dir={tmp_path / 'profile'}",
                "--virtual-time-budget=10000",
                "--dump-dom",
                (repo / RESULTS / "report.html").resolve().as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=180,
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        assert "<title>" in proc.stdout and "pwned" not in proc.stdout.split("</title>")[0]

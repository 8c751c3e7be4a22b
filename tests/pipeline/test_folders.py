"""Each config's own results folder (budgetboost.pipeline.folders):
the default run's ``results/`` unchanged, any other config's a folder of its own, and a
folder another config owns refused at planning."""

from __future__ import annotations

import pytest
from helpers import REPO

from budgetboost.checks import ConfigError, check_all, check_file, load_config_file
from budgetboost.pipeline import folders
from budgetboost.pipeline.plan import Plan


@pytest.mark.parametrize(
    "files, results",
    [
        ((), "results"),
        (("config/config.yaml",), "results"),
        (("config/test.yaml",), "results/test"),
        (("config/full_size.yaml",), "results/full_size"),
        (("/elsewhere/my run.yaml",), "results/my_run"),
        (("config/test.yaml", "config/data.yaml"), "results/config_data"),
    ],
)
def test_a_config_without_results_gets_a_folder_named_for_its_file(files, results):
    assert folders.default_results(files, REPO) == results


def test_the_shipped_configs_write_to_folders_of_their_own():
    seen = {}
    for path in sorted((REPO / "config").glob("*.yaml")):
        if path.name == "datasets.yaml":
            continue
        plan = Plan(*check_all(load_config_file(path), REPO, [path]))
        assert plan.results not in seen, (path.name, seen.get(plan.results))
        seen[plan.results] = path.name
        assert plan.logs == folders.logs_folder(plan.results)
    assert seen["results"] == "config.yaml" and seen["results/test"] == "test.yaml"


def test_an_explicit_results_key_wins():
    config = check_file(REPO / "config/peers_extended.yaml", REPO)
    assert config["results"] == "results/peers_extended"


@pytest.mark.parametrize("results", ["results/shards", "results/x/summary", "results/train"])
def test_a_results_folder_named_like_an_output_folder_is_refused(results):
    config = {**load_config_file(REPO / "config/test.yaml"), "results": results}
    with pytest.raises(ConfigError, match=r"^config results: '.*': '\w+' names a folder"):
        check_all(config, REPO, ["config/test.yaml"])


def test_a_folder_another_config_owns_is_refused(tmp_path):
    root = tmp_path / "repo"
    for name in ("config", "resources", "workflow"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).symlink_to(REPO / name)
    folders.claim("results", "config/config.yaml", root)
    assert folders.owner("results", root) == "config/config.yaml"
    config = {**load_config_file(REPO / "config/test.yaml"), "results": "results"}
    with pytest.raises(ConfigError) as err:
        check_all(config, root, ["config/test.yaml"])
    assert str(err.value) == (
        "config results: results/ holds the outputs of config/config.yaml "
        "(results/.budgetboost-config); running config/test.yaml there would overwrite "
        "them: give config/test.yaml a results folder of its own (results: results/<name>), "
        "or delete results/.budgetboost-config if config/test.yaml is to replace them"
    )
    # its own folder, and the owner itself, pass
    check_all(load_config_file(REPO / "config/test.yaml"), root, ["config/test.yaml"])
    check_all(load_config_file(REPO / "config/config.yaml"), root, [])
    folders.claim("results", "config/config.yaml", root)  # claiming again is a no-op
    with pytest.raises(folders.FolderError):
        folders.claim("results", "config/test.yaml", root)


# ------------------------------------------------------------------ folders claimed and refused
@pytest.mark.parametrize(
    "argv, target",
    [
        (["--cores", "2"], None),
        (
            ["--report", "results/test/report.html", "--configfile", "x.yaml"],
            "results/test/report.html",
        ),
        (["--report=r.html"], "r.html"),
        (["--report", "--configfile", "x.yaml"], "report.html"),
        (["--report"], "report.html"),
    ],
)
def test_the_report_target_is_read_from_the_command_line(argv, target):
    assert folders.report_target(argv) == target


def test_a_report_goes_only_into_its_own_configs_folder(tmp_path):
    """``snakemake --report results/report.html --configfile config/test.yaml`` overwrote the
    default config's report."""
    folders.claim("results", "config/config.yaml", tmp_path)
    folders.claim("results/test", "config/test.yaml", tmp_path)
    own = ["--report", "results/test/report.html"]
    folders.check_report(own, "results/test", "config/test.yaml", tmp_path)
    folders.check_report(["--report", "results/r.html"], "results", "config/config.yaml", tmp_path)
    for argv in (["--report", "results/report.html"], ["--report"], ["--report=../r.html"]):
        with pytest.raises(folders.FolderError, match=r"--report results/test/report\.html$"):
            folders.check_report(argv, "results/test", "config/test.yaml", tmp_path)
    with pytest.raises(folders.FolderError, match="results/test/ holds the outputs of config/test"):
        folders.check_report(own, "results", "config/config.yaml", tmp_path)


def test_an_owner_record_that_is_no_text_file_or_a_results_file_is_named(tmp_path):
    (tmp_path / "results" / "a" / folders.OWNER_FILE).mkdir(parents=True)
    with pytest.raises(folders.FolderError, match=r"results/a/\.budgetboost-config is not a file"):
        folders.owner("results/a", tmp_path)
    (tmp_path / "results" / "b").mkdir()
    (tmp_path / "results" / "b" / folders.OWNER_FILE).write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(folders.FolderError, match="is not text naming a config"):
        folders.owner("results/b", tmp_path)
    (tmp_path / "results" / "c").write_text("a file where a folder belongs")
    with pytest.raises(folders.FolderError, match="results/c is a file, not a folder"):
        folders.check_owner("results/c", "config/c.yaml", tmp_path)


def test_a_results_folder_that_cannot_be_written_is_one_line(tmp_path, monkeypatch):
    """A read-only results folder (its owner file cannot be written) stops the run in one line, not
    a traceback. Simulated: the tests may run as root, who may write anywhere."""

    def refuse(text, path):
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(folders, "write_text", refuse)
    with pytest.raises(folders.FolderError) as err:
        folders.claim("results/test", "config/test.yaml", tmp_path)
    assert str(err.value) == (
        "results folder results/test cannot be written (Permission denied): make it "
        "writable, or have the config write elsewhere (its key `results`)"
    )

"""Each config's own results folder (budgetboost.pipeline.folders, issue 33 bad case 5):
the default run's ``results/`` unchanged, any other config's a folder of its own, and a
folder another config owns refused at planning."""

from __future__ import annotations

import pytest
from conftest import REPO

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

"""The checks made when the workflow is planned (budgetboost.checks): config files read strictly,
what failed late stops at planning, the registry, the command line; each message one line naming
the config path."""

from __future__ import annotations

import subprocess

import pytest
import yaml
from helpers import BAD_CONFIGS, REPO, SNAKEMAKE, copy_repo, edited, runtime_env

from budgetboost.checks import ConfigError, check_all, load_config_file, main


def test_a_yaml_error_names_file_line_and_column(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        "registry: config/datasets.yaml\ndatasets:\n  heart: {cost_models: [u]\n  ecoli: 1\n"
    )
    with pytest.raises(ConfigError) as err:
        load_config_file(path)
    message = str(err.value)
    assert message.startswith(f"config file {path}, line 4, column ")
    assert "invalid YAML" in message and "\n" not in message


@pytest.mark.parametrize(
    "text, message",
    [
        ("- a\n- b\n", "expected a mapping of keys at the top level, got list"),
        ("", "got NoneType"),
    ],
)
def test_a_config_that_is_not_a_mapping(tmp_path, text, message):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config_file(path)


#: Bad input found when the workflow is planned (check_all, which common.smk
#: calls): each passed planning before and failed a job, or was silently accepted.
PLANNING_ERRORS = [
    (
        lambda c: c["cost_models"]["uniform_0_2"]["spec"].update(high=1e308),
        "config cost_models.uniform_0_2.spec.high: 1e+308 is larger than 1e+100, the "
        "largest cost a feature may have",
    ),
    (
        lambda c: c.update(figure_modules=["os"]),
        "config figure_modules: 'os' registers no figure",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(variant_of="greedy_tree2"),
        "config algorithms: algorithm 'greedy': variant_of goes round in a circle "
        "(greedy -> greedy_tree2 -> greedy)",
    ),
    (  # emoji and CJK drew empty boxes in every figure
        lambda c: c["algorithms"]["greedy"].update(label="Greedy \N{ROCKET}"),
        "config algorithms.greedy.label: 'Greedy \N{ROCKET}' holds '\N{ROCKET}' (U+1F680), "
        "which matplotlib's fonts here cannot draw: figures would show an empty box",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(label="\u8d2a\u5fc3"),
        "config algorithms.greedy.label: '\u8d2a\u5fc3' holds '\u8d2a' (U+8D2A), which",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(label="$\\bogus$"),
        "config algorithms.greedy.label: matplotlib cannot draw '$\\\\bogus$' as math "
        "(between two $: Unknown symbol: \\bogus",
    ),
    (
        lambda c: c.update(registry="/dev/zero"),
        "config registry: dataset registry /dev/zero: is not a regular file",
    ),
    (
        lambda c: c.update(results="results/summary"),
        "config results: 'results/summary': 'summary' names a folder of a run's outputs",
    ),
]


@pytest.mark.parametrize("edit, message", BAD_CONFIGS)
def test_a_bad_config_stops_at_planning_in_one_line(test_config, edit, message):
    """Every bad config of helpers.BAD_CONFIGS, through the checks the workflow makes when
    it is planned (test_workflow.py runs some through ``snakemake -n``)."""
    with pytest.raises(ConfigError) as err:
        check_all(edited(test_config, edit), REPO, ["config/test.yaml"])
    assert message in str(err.value), str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("edit, message", PLANNING_ERRORS)
def test_what_failed_late_stops_at_planning_in_one_line(test_config, edit, message):
    with pytest.raises(ConfigError) as err:
        check_all(edited(test_config, edit), REPO, ["config/test.yaml"])
    assert str(err.value).startswith(message), str(err.value)
    assert "\n" not in str(err.value)


def test_an_unreadable_registry_is_named(test_config):
    with pytest.raises(ConfigError, match="config registry: .*no/such.yaml"):
        check_all(edited(test_config, lambda c: c.update(registry="no/such.yaml")), REPO)


@pytest.mark.parametrize(
    "registry, reason",
    [
        ("/dev/zero", "dataset registry /dev/zero: is not a regular file"),
        ("{root}/bad.yaml", "dataset registry {root}/bad.yaml, line 2, column 1: invalid YAML"),
        ("{root}/twice.yaml", "dataset registry {root}/twice.yaml, line 3: duplicate key 'heart'"),
    ],
)
def test_a_registry_that_cannot_be_read_stops_in_one_line(
    tmp_path, capsys, test_config, registry, reason
):
    """A registry that cannot be read (an endless device file, malformed YAML) stops in one line,
    also under ``python -m budgetboost.checks``."""
    (tmp_path / "bad.yaml").write_text("heart: {source: [1\n")
    (tmp_path / "twice.yaml").write_text("heart: {}\necoli: {}\nheart: {}\n")
    config = edited(test_config, lambda c: c.update(registry=registry.format(root=tmp_path)))
    with pytest.raises(ConfigError) as err:
        check_all(config, REPO)
    assert str(err.value).startswith("config registry: " + reason.format(root=tmp_path))
    assert "\n" not in str(err.value)
    config_file = tmp_path / "c.yaml"
    config_file.write_text(yaml.safe_dump(config))
    assert main([str(config_file), "--root", str(REPO)]) == 1
    assert capsys.readouterr().out.splitlines() == [str(err.value)]


def test_a_key_given_twice_in_a_config_file_stops_naming_both_lines(tmp_path):
    """A second ``datasets:`` block in a config file stops the checks naming both lines, never
    replacing the first."""
    text = (REPO / "config/test.yaml").read_text()
    path = tmp_path / "twice.yaml"
    path.write_text(text + "datasets:\n  heart: {cost_models: [uniform_0_2]}\n")
    first = text.splitlines().index("datasets:") + 1
    with pytest.raises(ConfigError) as err:
        load_config_file(path)
    assert str(err.value) == (
        f"config file {path}, line {len(text.splitlines()) + 1}: duplicate key 'datasets' "
        f"(first at line {first}): YAML would keep only the last; remove or rename one"
    )


def test_the_command_line_checks_files(tmp_path, capsys, test_config):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        yaml.safe_dump(
            edited(test_config, lambda c: c["cost_models"]["uniform_0_2"]["spec"].update(hgh=2))
        )
    )
    assert main([str(REPO / "config/test.yaml"), str(bad), "--root", str(REPO)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("config/test.yaml: ok")
    assert out[1].startswith("config cost_models.uniform_0_2.spec.hgh: unknown parameter")


@pytest.mark.slow
def test_a_device_given_as_configfile_is_snakemakes_to_refuse(capsys):
    """``--configfile /dev/zero``: Snakemake reads every ``--configfile`` itself
    (``ConfigSettings``: ``json.load`` of the whole file) before any code of this workflow runs, so
    only Snakemake can refuse it there: capped at 1 GiB here, it dies of a MemoryError in its own
    loader (when this test fails, Snakemake checks the file itself: docs/running.md can say so).
    ``python -m budgetboost.checks``, which docs/running.md gives for a config file of unknown
    origin, names it in one line."""
    import resource
    import subprocess

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    proc = subprocess.run(
        [SNAKEMAKE, "-n", "--configfile", "/dev/zero"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=cap,
    )
    assert proc.returncode != 0
    output = proc.stdout + proc.stderr
    assert "snakemake/common/configfile.py" in output and "MemoryError" in output
    assert main(["/dev/zero"]) == 1
    assert capsys.readouterr().out == (
        "config file /dev/zero: is not a regular file (a device, folder or pipe)\n"
    )


#: A config's value that YAML would build into a Python object: a tag PyYAML's full loader
#: refuses (object/apply), one it builds (name: the function os.system, not called), one
#: unknown to YAML.
TAGS = [
    ('!!python/object/apply:os.system ["touch {marker}"]', "!!python/object/apply:os.system"),
    ("!!python/name:os.system", "!!python/name:os.system"),
    ("!custom 3", "!custom"),
]


def tag_line(path, line: int, tag: str) -> str:
    return (
        f"config file {path}, line {line}: YAML tag {tag} is not allowed (a config holds plain "
        "values: text, numbers, true/false, lists and mappings); remove the tag, or quote the "
        "value if it is text"
    )


@pytest.mark.parametrize(("value", "tag"), TAGS)
def test_a_yaml_tag_is_named_as_written_and_never_built(tmp_path, value, tag):
    """Poor case: a tag such as ``!!python/object/apply`` was reported as an invalid YAML
    constructor (by Snakemake: as tab indentation)."""
    marker = tmp_path / "ran"
    path = tmp_path / "tagged.yaml"
    path.write_text("results: results/x\nnote: !!str 1\nextra: " + value.format(marker=marker))
    with pytest.raises(ConfigError) as err:
        load_config_file(path)
    assert str(err.value) == tag_line(path, 3, tag)
    assert not marker.exists()


@pytest.mark.slow
def test_a_yaml_tag_in_a_config_stops_planning_in_one_line(tmp_path):
    """Planning reads each config file strictly before its checks (the Snakefile): a tag
    Snakemake's own reader builds, or one in the default config, is named there. A tag that
    reader refuses in a ``--configfile`` stops Snakemake before any code of this workflow
    runs, with its own message (when this test fails there, Snakemake names the tag itself);
    ``python -m budgetboost.checks`` names it. Nothing is ever built or run."""
    repo = copy_repo(tmp_path / "repo")
    marker = tmp_path / "ran"
    apply = TAGS[0][0].format(marker=marker)
    test_config = (repo / "config/test.yaml").read_text()
    (repo / "named.yaml").write_text(test_config + "extra: !!python/name:os.system\n")
    (repo / "applied.yaml").write_text(test_config + f"extra: {apply}\n")
    default = repo / "config/config.yaml"
    default.write_text(default.read_text() + f"extra: {apply}\n")
    last = len(test_config.splitlines()) + 1

    def plan(*args):
        proc = subprocess.run(
            [SNAKEMAKE, "-n", *args],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=300,
            env=runtime_env(),
        )
        assert proc.returncode != 0
        return (proc.stdout + proc.stderr).splitlines()

    named = tag_line("named.yaml", last, "!!python/name:os.system")
    assert named in plan("--configfile", "named.yaml")
    lines = len(default.read_text().splitlines())
    assert tag_line("config/config.yaml", lines, TAGS[0][1]) in plan()
    assert (
        "Config file is not valid JSON or YAML. In case of YAML, make sure to not mix "
        "whitespace and tab indentation."
    ) in plan("--configfile", "applied.yaml")
    assert main([str(repo / "applied.yaml")]) == 1
    assert not marker.exists()

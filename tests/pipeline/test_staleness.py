"""What a report command asks of the workflow (budgetboost.pipeline.staleness): the dry run that
tells whether the results are out of date."""

from __future__ import annotations

import pytest

from budgetboost.pipeline import staleness


@pytest.mark.parametrize(
    "argv, expected",
    [
        (["--cores", "2"], None),
        (["--report-after-run", "--report", "r.html"], None),
        (["--report", "r.html", "--configfile", "c.yaml"], ["--configfile", "c.yaml"]),
        (["--configfile", "c.yaml", "--report=r.zip"], ["--configfile", "c.yaml"]),
        (["--report", "--report-stylesheet", "s.css", "-c1"], ["-c1"]),
    ],
)
def test_a_report_command_gives_the_dry_run_of_the_same_workflow(argv, expected):
    arguments = staleness.dry_run_arguments(argv)
    if expected is None:
        assert arguments is None
    else:
        assert arguments == [*expected, "--dry-run", "--quiet", "rules"]

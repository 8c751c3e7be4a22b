# The budgetboost benchmark: download -> binarize -> splits and costs -> training shards ->
# aggregate -> figures and claims. Configuration: config/config.yaml (full scale) or
# `--configfile config/test.yaml` (tiny); documented in budgetboost/schemas/config.schema.yaml.
import re
import sys

from snakemake.exceptions import WorkflowError
from snakemake.utils import min_version

min_version("9.17")

# plan with the workflow's own copy of the package, as the rule scripts do
sys.path.insert(0, workflow.basedir)

from budgetboost.checks import ConfigError, load_config_file
from budgetboost.pipeline.folders import run_elsewhere, shown_path
from budgetboost.pipeline.scheduler import one_pending_reevaluation

# Snakemake re-plans once a second per finished job as a run goes on (its job rate limiter's
# timers pile up): keep one timer pending, as the limiter needs (budgetboost.pipeline.scheduler)
one_pending_reevaluation()

# the full experiment, unless config files are given on the command line: `--configfile
# config/test.yaml` replaces it instead of being merged into it. Each is read again strictly
# beforehand, so a YAML error names the file and line, and a key given twice (which
# Snakemake's reader keeps silently) stops the run naming both lines.
CONFIG_FILES = [shown_path(f) for f in workflow.overwrite_configfiles]
try:
    for _file in CONFIG_FILES or ["config/config.yaml"]:
        load_config_file(_file)
except ConfigError as exc:
    raise WorkflowError(run_elsewhere(str(exc), workflow.basedir)) from None
if not CONFIG_FILES:

    configfile: "config/config.yaml"


include: "workflow/rules/common.smk"


# the report's first page: what ran, the verdicts, where to look (made by rule `landing`)
report: f"{RESULTS}/report/landing.rst"


# `snakemake --report` builds the report from the results on disk: it stops here when a dry
# run of the same command has jobs to run (budgetboost.pipeline.staleness)
from budgetboost.pipeline.staleness import stale_report

try:  # and only into this config's own results folder (budgetboost.pipeline.folders)
    folders.check_report(sys.argv[1:], RESULTS, folders.config_identity(CONFIG_FILES))
except folders.FolderError as _exc:
    raise WorkflowError(str(_exc)) from None
if _stale := stale_report(sys.argv[1:]):
    raise WorkflowError(_stale)


# a wildcard matches only names from the config, so a typo never matches a rule
wildcard_constraints:
    dataset="|".join(map(re.escape, DATASETS)),
    cost_model="|".join(map(re.escape, COST_MODELS)),
    algorithm="|".join(map(re.escape, ALGORITHMS)),
    figure="|".join(map(re.escape, FIGURE_PAGES)),
    block=r"\d+",


include: "workflow/rules/data.smk"
include: "workflow/rules/train.smk"
include: "workflow/rules/results.smk"


rule all:
    default_target: True
    input:
        get_final_output(),

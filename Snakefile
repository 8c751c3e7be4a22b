# The budgetboost benchmark: download -> binarize -> splits and costs -> training shards ->
# aggregate -> figures and claims. Configuration: config/config.yaml (full scale) or
# `--configfile config/test.yaml` (tiny); documented in workflow/schemas/config.schema.yaml.
import re

from snakemake.utils import min_version

min_version("9.0")


# the full experiment, unless a config file is given on the command line: `--configfile
# config/test.yaml` replaces it instead of being merged into it
if not workflow.overwrite_configfiles:

    configfile: "config/config.yaml"


include: "workflow/rules/common.smk"


# a wildcard matches only names from the config, so a typo never matches a rule
wildcard_constraints:
    dataset="|".join(map(re.escape, DATASETS)),
    cost_model="|".join(map(re.escape, COST_MODELS)),
    algorithm="|".join(map(re.escape, ALGORITHMS)),
    block=r"\d+",


include: "workflow/rules/data.smk"
include: "workflow/rules/train.smk"
include: "workflow/rules/results.smk"


rule all:
    default_target: True
    input:
        get_final_output(),

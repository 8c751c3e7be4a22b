"""A job's log file: its CPU seconds and peak memory at the end."""

from __future__ import annotations

import subprocess
import sys


def test_a_job_log_ends_with_the_cpu_seconds_and_the_peak_memory(tmp_path):
    """Every rule script's log names its process's CPU seconds (what a job costs outside its
    estimators) and peak memory (which job peaks)."""
    log = tmp_path / "job.log"
    code = (
        "import time\nimport numpy as np\nfrom budgetboost.pipeline.job_log import job_log\n"
        f"job_log({str(log)!r}, 'test').info('started')\n"
        "a = np.ones(50 * 2**20 // 8)  # 50 MiB\n"
        "start = time.process_time()\n"
        "while time.process_time() - start < 0.3:\n    a.sum()\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
    lines = log.read_text().splitlines()
    assert "started" in lines[0] and "peak memory:" in lines[-1] and "cpu:" in lines[-2]
    assert float(lines[-1].split("peak memory:")[1].split()[0]) >= 50
    assert float(lines[-2].split("cpu:")[1].split()[0]) >= 0.3

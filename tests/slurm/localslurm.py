"""A throwaway one-node SLURM cluster on the test machine.

Used by ``tests/workflow/test_slurm.py`` (a session fixture) and runnable by hand::

    python tests/slurm/localslurm.py start   # install if needed, configure, start, wait idle
    python tests/slurm/localslurm.py stop    # stop what ``start`` started, restore slurm.conf

It installs Debian's ``slurmctld slurmd slurm-client munge`` when they are absent, writes
``slurm.conf.template`` (next to this file) to ``/etc/slurm/slurm.conf`` -- the only place
every SLURM command sees it, since the executor plugin's job step strips ``SLURM_CONF`` --
after backing up any existing file, creates the munge key if missing, starts ``munged``,
``slurmctld`` and ``slurmd -N localhost`` and waits until ``sinfo`` shows the node idle.
:meth:`LocalSlurm.stop` stops exactly the daemons it started, by the PIDs in their pid files,
and restores the configuration; it is safe to call after a partial start.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import string
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
TEMPLATE = HERE / "slurm.conf.template"
SLURM_CONF = Path("/etc/slurm/slurm.conf")
MUNGE_KEY = Path("/etc/munge/munge.key")
MUNGE_PIDFILE = Path("/run/munge/munged.pid")
PACKAGES = ("slurmctld", "slurmd", "slurm-client", "munge")
BINARIES = ("slurmctld", "slurmd", "sbatch", "squeue", "sinfo", "scontrol", "munged")
PARTITION = "debug"
DEFAULT_STATE_DIR = Path("/var/tmp/budgetboost-slurm")


class SlurmUnavailable(RuntimeError):
    """The machine cannot host the test cluster (not root, no apt-get, ...)."""


def _run(cmd: list[str], timeout: float = 60, check: bool = True, **kwargs):
    """Run ``cmd`` capturing text output; raise with its stderr when it fails."""
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kwargs)
    if check and proc.returncode != 0:
        raise RuntimeError(
            f"{' '.join(cmd)} exited with {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
        )
    return proc


def _sbin(name: str) -> str:
    """Absolute path of a daemon or tool (``/usr/sbin`` is not always on root's PATH)."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/sbin:/bin")
    if found is None:
        raise SlurmUnavailable(f"{name} not found after installing {' '.join(PACKAGES)}")
    return found


def missing_binaries() -> list[str]:
    """Names from :data:`BINARIES` that are not installed."""
    return [
        name
        for name in BINARIES
        if shutil.which(name) is None and shutil.which(name, path="/usr/sbin:/usr/bin") is None
    ]


def ensure_installed() -> None:
    """Install the Debian packages if any SLURM or munge binary is missing.

    Raises
    ------
    SlurmUnavailable
        When not running as root or ``apt-get`` is not available.
    """
    if not missing_binaries():
        return
    if os.geteuid() != 0:
        raise SlurmUnavailable(
            f"SLURM is not installed ({', '.join(missing_binaries())} missing) and this is "
            "not root, so the test cannot install it with apt-get"
        )
    apt = shutil.which("apt-get")
    if apt is None:
        raise SlurmUnavailable("SLURM is not installed and apt-get is not available")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    _run([apt, "update"], timeout=600, env=env)
    _run(
        [apt, "install", "-y", "--no-install-recommends", *PACKAGES],
        timeout=1200,
        env=env,
    )
    if missing_binaries():
        raise SlurmUnavailable(f"still missing after apt-get install: {missing_binaries()}")


def _read_pid(pidfile: Path) -> int | None:
    try:
        return int(pidfile.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _alive(pid: int) -> bool:
    """True if ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def stop_pid(pid: int, name: str, timeout: float = 20) -> None:
    """SIGTERM ``pid``, then SIGKILL it if it is still alive after ``timeout`` seconds."""
    if not _alive(pid):
        return
    os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not _alive(pid):
            return
        time.sleep(0.2)
    print(f"localslurm: {name} (pid {pid}) ignored SIGTERM, killing it", file=sys.stderr)
    os.kill(pid, signal.SIGKILL)


def _wait(predicate, what: str, timeout: float, log: Path | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.5)
    tail = ""
    if log is not None and log.exists():
        tail = "\n" + "\n".join(log.read_text(errors="replace").splitlines()[-30:])
    raise RuntimeError(f"timed out after {timeout:.0f} s waiting for {what}{tail}")


def node_memory_mb() -> int:
    """Memory to advertise as the node's ``RealMemory``: 80 % of MemTotal, in MB."""
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return max(256, int(int(line.split()[1]) * 0.8) // 1024)
    raise RuntimeError("MemTotal not found in /proc/meminfo")


@dataclass
class LocalSlurm:
    """A one-node SLURM cluster started (and stopped) by this process.

    Parameters
    ----------
    state_dir
        Holds the daemons' state, spool, logs and pid files (created; wiped on ``start``).
    cpus
        CPUs of the node; default ``os.cpu_count()``. Runs must cap ``--cores`` at this.
    """

    state_dir: Path = DEFAULT_STATE_DIR
    cpus: int = field(default_factory=lambda: os.cpu_count() or 1)
    memory_mb: int = field(default_factory=node_memory_mb)
    partition: str = PARTITION
    ctld_port: int = 6817
    d_port: int = 6818
    started: dict[str, int] = field(default_factory=dict)
    wrote_conf: bool = False

    @property
    def record(self) -> Path:
        """JSON file remembering what ``start`` did, so a separate ``stop`` can undo it."""
        return self.state_dir / "started.json"

    @property
    def backup(self) -> Path:
        return self.state_dir / "slurm.conf.orig"

    def config_text(self) -> str:
        """``slurm.conf.template`` filled in for this machine."""
        return string.Template(TEMPLATE.read_text()).substitute(
            controller=socket.gethostname().split(".")[0],
            state_dir=self.state_dir,
            cpus=self.cpus,
            memory_mb=self.memory_mb,
            partition=self.partition,
            ctld_port=self.ctld_port,
            d_port=self.d_port,
        )

    # -- start -------------------------------------------------------------------------
    def start(self, timeout: float = 60) -> LocalSlurm:
        """Install if needed, configure, start the daemons and wait for an idle node."""
        if os.geteuid() != 0:
            raise SlurmUnavailable("starting slurmctld/slurmd needs root")
        ensure_installed()
        if self.record.exists():
            raise RuntimeError(
                f"{self.record} exists: a previous test cluster was not stopped; run "
                f"`python {Path(__file__).name} stop` first"
            )
        for port in (self.ctld_port, self.d_port):
            with socket.socket() as sock:
                if sock.connect_ex(("127.0.0.1", port)) == 0:
                    raise RuntimeError(
                        f"port {port} is in use: another SLURM is running on this machine; "
                        "stop it first (the test cluster needs ports "
                        f"{self.ctld_port} and {self.d_port})"
                    )
        shutil.rmtree(self.state_dir, ignore_errors=True)
        for sub in ("ctld", "d"):
            (self.state_dir / sub).mkdir(parents=True, exist_ok=True)
        self._save()
        self._write_config()
        self._start_munge(timeout)
        self._start_daemon("slurmctld", [_sbin("slurmctld")], timeout)
        _wait(
            self._controller_up,
            "slurmctld to answer `scontrol ping`",
            timeout,
            self.state_dir / "slurmctld.log",
        )
        self._start_daemon("slurmd", [_sbin("slurmd"), "-N", "localhost"], timeout)
        _wait(
            self.node_idle,
            "sinfo to show node localhost idle",
            timeout,
            self.state_dir / "slurmd.log",
        )
        return self

    def _save(self) -> None:
        self.record.write_text(json.dumps({"started": self.started, "wrote_conf": self.wrote_conf}))

    def _write_config(self) -> None:
        if SLURM_CONF.exists():
            shutil.copy2(SLURM_CONF, self.backup)
        SLURM_CONF.parent.mkdir(parents=True, exist_ok=True)
        tmp = SLURM_CONF.with_suffix(".conf.tmp")
        tmp.write_text(self.config_text())
        tmp.replace(SLURM_CONF)
        self.wrote_conf = True
        self._save()

    def _start_munge(self, timeout: float) -> None:
        pid = _read_pid(MUNGE_PIDFILE)
        if pid is not None and _alive(pid):
            return  # someone else's munged: use it, leave it running
        if not MUNGE_KEY.exists():
            MUNGE_KEY.parent.mkdir(parents=True, exist_ok=True)
            MUNGE_KEY.write_bytes(os.urandom(1024))
            shutil.chown(MUNGE_KEY, "munge", "munge")
            MUNGE_KEY.chmod(0o400)
        for directory, mode in (
            ("/run/munge", 0o755),
            ("/var/lib/munge", 0o700),
            ("/var/log/munge", 0o700),
        ):
            Path(directory).mkdir(parents=True, exist_ok=True)
            shutil.chown(directory, "munge", "munge")
            Path(directory).chmod(mode)
        _run(["runuser", "-u", "munge", "--", _sbin("munged")], timeout=timeout)
        self._record_pid("munged", MUNGE_PIDFILE, timeout, Path("/var/log/munge/munged.log"))
        _wait(self._munge_works, "munge to encode and decode a credential", timeout)

    def _start_daemon(self, name: str, cmd: list[str], timeout: float) -> None:
        _run(cmd, timeout=timeout)
        self._record_pid(
            name, self.state_dir / f"{name}.pid", timeout, self.state_dir / f"{name}.log"
        )

    def _record_pid(self, name: str, pidfile: Path, timeout: float, log: Path) -> None:
        _wait(lambda: _read_pid(pidfile) is not None, f"{name} to write {pidfile}", timeout, log)
        self.started[name] = _read_pid(pidfile)
        self._save()

    @staticmethod
    def _munge_works() -> bool:
        cred = subprocess.run(["munge", "-n"], capture_output=True)
        if cred.returncode != 0:
            return False
        return subprocess.run(["unmunge"], input=cred.stdout, capture_output=True).returncode == 0

    @staticmethod
    def _controller_up() -> bool:
        proc = subprocess.run(["scontrol", "ping"], capture_output=True, text=True)
        return proc.returncode == 0 and "UP" in proc.stdout

    @staticmethod
    def node_idle() -> bool:
        """True when ``sinfo`` reports node ``localhost`` idle."""
        proc = subprocess.run(
            ["sinfo", "-h", "-N", "-n", "localhost", "-o", "%T"], capture_output=True, text=True
        )
        return proc.returncode == 0 and proc.stdout.strip() == "idle"

    # -- stop --------------------------------------------------------------------------
    def stop(self) -> None:
        """Stop the daemons this cluster started and restore ``/etc/slurm/slurm.conf``.

        Works from the record written by :meth:`start`, so a separate process (or a
        start that failed half-way) can clean up. Every step runs even if one fails.
        """
        if not self.record.exists():
            return
        saved = json.loads(self.record.read_text())
        started: dict[str, int] = saved["started"]
        errors: list[str] = []
        if "slurmctld" in started:
            # Jobs left by a failed test would outlive slurmd in their slurmstepd.
            subprocess.run(["scancel", "--full", "--user", "root"], capture_output=True)
        for name in ("slurmd", "slurmctld", "munged"):
            if name in started:
                try:
                    stop_pid(started[name], name)
                except OSError as err:
                    errors.append(f"{name}: {err}")
        try:
            if saved["wrote_conf"] and self.backup.exists():
                shutil.copy2(self.backup, SLURM_CONF)
            elif saved["wrote_conf"]:
                SLURM_CONF.unlink(missing_ok=True)
        except OSError as err:
            errors.append(f"restoring {SLURM_CONF}: {err}")
        self.record.unlink()
        self.started.clear()
        if errors:
            raise RuntimeError("stopping the test cluster: " + "; ".join(errors))


def main(argv: list[str]) -> int:
    if len(argv) != 1 or argv[0] not in ("start", "stop"):
        print(__doc__, file=sys.stderr)
        return 2
    cluster = LocalSlurm()
    if argv[0] == "start":
        try:
            cluster.start()
        except BaseException:
            cluster.stop()
            raise
        print(
            f"one-node SLURM up: partition {cluster.partition}, {cluster.cpus} CPUs, "
            f"{cluster.memory_mb} MB; state in {cluster.state_dir}"
        )
    else:
        cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

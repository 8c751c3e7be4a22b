"""The one page of measurements, ``docs/performance.md``: a benchmark run with ``--record``
writes its figures there, in a section of its own, with the machine and the commit they were
measured on. The README and the other docs quote no timing of their own: they point here.

A section lies between ``<!-- measured: NAME -->`` and ``<!-- end: NAME -->``; recording it
again replaces it whole, so the page always holds each benchmark's latest figures and what
they were measured on. The page is written atomically (a temporary file renamed over it).
"""

from __future__ import annotations

import datetime
import os
import platform
import re
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "performance.md"


def cpu_model() -> str:
    """The processor's model name (``/proc/cpuinfo``), or the platform's word for it."""
    info = Path("/proc/cpuinfo")
    if info.is_file():
        for line in info.read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown processor"


def commit(root: Path = ROOT) -> str:
    """The checked-out commit (short hash), ``+`` if the work tree has changes."""
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=no"],
        cwd=root,
        capture_output=True,
        text=True,
    ).stdout.strip()
    return (head or "unknown commit") + ("+" if dirty else "")


def machine_line(load_at_start: float) -> str:
    """One line that says what a figure was measured on: when, which commit, which machine,
    and how busy it was when the measurement began (the 1-minute load average)."""
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"*Measured {now}, commit `{commit()}`, {os.cpu_count()} cores ({cpu_model()}), "
        f"Python {platform.python_version()}, load {load_at_start:.2f} at the start.*"
    )


def section(name: str, title: str, body: str, load_at_start: float) -> str:
    """The section ``name`` as the page holds it."""
    return "\n".join(
        [
            f"<!-- measured: {name} -->",
            f"### {title}",
            "",
            machine_line(load_at_start),
            "",
            body.rstrip(),
            f"<!-- end: {name} -->",
        ]
    )


def record(name: str, title: str, body: str, load_at_start: float, page: Path = PAGE) -> None:
    """Write (or replace) the section ``name`` of ``page`` with ``body`` (Markdown).

    A new section goes at the end of the page's *Measured* part (appended when the page has
    none); ``name`` must be a plain word, since it is the section's marker.
    """
    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise ValueError(f"a measured section's name is a lowercase word, not {name!r}")
    text = page.read_text(encoding="utf-8") if page.is_file() else ""
    new = section(name, title, body, load_at_start)
    pattern = re.compile(rf"<!-- measured: {name} -->.*?<!-- end: {name} -->", flags=re.DOTALL)
    if pattern.search(text):
        text = pattern.sub(lambda _: new, text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + new + "\n"
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=page.parent, prefix=f".{page.name}.", delete=False
    ) as out:
        out.write(text)
    os.replace(out.name, page)

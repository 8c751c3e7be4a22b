"""Checksummed download of ``url`` dataset sources with ``pooch``.

Only the ``download`` rule calls this, for registry entries with ``source.type: url``; the
default configuration (vendored datasets) never touches the network. The file is streamed
to a temporary name beside the destination, its sha256 compared with the pinned one, and
only then renamed over the destination, so a failed or interrupted download leaves nothing
behind. Failures are retried (``pooch`` waits 1 s, 2 s, ... between attempts).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pooch

from budgetboost.data.io import sha256_file

__all__ = ["DownloadError", "fetch"]


class DownloadError(RuntimeError):
    """A download failed; the message names the URL and the expected/actual checksum."""


class _Progress:
    """A minimal text progress bar with the interface pooch expects (no tqdm needed)."""

    def __init__(self, label: str, stream=None) -> None:
        self.label, self.total, self.done = label, 0, 0
        self.stream = stream if stream is not None else sys.stderr
        self._shown = -1

    def update(self, n: int) -> None:
        self.done += n
        if self.total:
            percent = min(100, int(100 * self.done / self.total))
            if percent // 10 != self._shown // 10 or percent == 100:
                self._shown = percent
                self.stream.write(f"\r{self.label}: {percent:3d}% of {self.total} bytes")
                self.stream.flush()

    def reset(self) -> None:
        self.done = 0

    def close(self) -> None:
        self.stream.write("\n")
        self.stream.flush()


def fetch(
    url: str,
    sha256: str,
    dest: str | os.PathLike,
    retries: int = 2,
    timeout: float = 60.0,
    progressbar: bool = True,
) -> Path:
    """Download ``url`` to ``dest`` if it is not already there with the right sha256.

    Parameters
    ----------
    url : str
        HTTP(S) or FTP address of the file.
    sha256 : str
        Pinned hex sha256; a file that does not match is never kept.
    dest : path-like
        Destination, normally ``resources/downloads/<dataset>/<filename>``.
    retries : int
        Further attempts after a failed one (network error or checksum mismatch).
    timeout : float
        Seconds before a stalled connection counts as failed.
    progressbar : bool
        Print a progress bar to stderr.

    Returns
    -------
    pathlib.Path
        ``dest``.

    Raises
    ------
    DownloadError
        After the last attempt; names the URL and the expected (and, when a file arrived,
        the actual) sha256. ``dest`` is left as it was (absent, or the previous file).
    """
    if (
        not isinstance(sha256, str)
        or len(sha256) != 64
        or any(c not in "0123456789abcdefABCDEF" for c in sha256)
    ):
        raise ValueError(f"{url}: expected a 64-digit hex sha256, got {sha256!r}")
    sha256 = sha256.lower()
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    if dest.is_file() and sha256_file(dest) == sha256:
        return dest
    progress = _Progress(dest.name) if progressbar else False
    downloader = (
        pooch.HTTPDownloader(progressbar=progress, timeout=timeout)
        if url.startswith(("http://", "https://"))
        else None
    )
    try:
        pooch.create(
            path=dest.parent,
            base_url="",
            registry={dest.name: f"sha256:{sha256}"},
            urls={dest.name: url},
            retry_if_failed=retries,
        ).fetch(dest.name, downloader=downloader)
    except Exception as err:
        actual = _actual_hash(str(err))
        if actual is not None:
            raise DownloadError(
                f"download of {url} failed the checksum: expected sha256 "
                f"{sha256}, got {actual}; {dest} was left unchanged"
            ) from err
        raise DownloadError(
            f"download of {url} failed ({type(err).__name__}: {err}); "
            f"expected sha256 {sha256}; {dest} was left unchanged"
        ) from err
    return dest


def _actual_hash(message: str) -> str | None:
    """The actual hash in pooch's checksum-mismatch message, else ``None``."""
    found = re.search(
        r"does not match the known hash: expected \S+ but got ([0-9a-fA-F]+)", message
    )
    return found.group(1) if found else None

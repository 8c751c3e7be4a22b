"""budgetboost.data.download against real HTTP servers on 127.0.0.1 (no mocks)."""

from __future__ import annotations

import hashlib
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import FIXTURES

from budgetboost.data.download import DownloadError, fetch

CONTENT = b"budgetboost download test\n" * 500
GOOD_SHA = hashlib.sha256(CONTENT).hexdigest()
OTHER_SHA = hashlib.sha256(b"something else").hexdigest()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(args: list[str], port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"test server on port {port} did not start")


@pytest.fixture(scope="module")
def file_server(tmp_path_factory):
    """``python -m http.server`` serving a folder with one known file."""
    folder = tmp_path_factory.mktemp("served")
    (folder / "data.csv").write_bytes(CONTENT)
    port = _free_port()
    proc = _serve(
        ["-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(folder)], port
    )
    yield f"http://127.0.0.1:{port}"
    proc.kill()
    proc.wait()


@pytest.fixture(scope="module")
def truncating_server():
    """A server announcing a longer Content-Length than it sends, then hanging up."""
    port = _free_port()
    proc = _serve([str(FIXTURES / "truncating_http_server.py"), str(port)], port)
    yield f"http://127.0.0.1:{port}"
    proc.kill()
    proc.wait()


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_good_file_is_downloaded_and_verified(file_server, tmp_path, capsys):
    dest = tmp_path / "downloads" / "toy" / "data.csv"
    assert fetch(f"{file_server}/data.csv", GOOD_SHA, dest, retries=0) == dest
    assert dest.read_bytes() == CONTENT
    assert f"data.csv: 100% of {len(CONTENT)} bytes" in capsys.readouterr().err
    assert _files(dest.parent) == ["data.csv"]


def test_present_file_with_right_checksum_is_not_downloaded_again(file_server, tmp_path):
    dest = tmp_path / "data.csv"
    fetch(f"{file_server}/data.csv", GOOD_SHA, dest, retries=0)
    dead_url = f"http://127.0.0.1:{_free_port()}/data.csv"  # nothing listens there
    assert fetch(dead_url, GOOD_SHA, dest, retries=0) == dest
    assert dest.read_bytes() == CONTENT


def test_checksum_mismatch_names_url_and_both_checksums(file_server, tmp_path):
    dest = tmp_path / "toy" / "data.csv"
    url = f"{file_server}/data.csv"
    with pytest.raises(DownloadError) as err:
        fetch(url, OTHER_SHA, dest, retries=1, progressbar=False)
    message = str(err.value)
    assert url in message and OTHER_SHA in message and GOOD_SHA in message
    assert _files(dest.parent) == []


def test_not_found_names_url_and_leaves_nothing(file_server, tmp_path):
    dest = tmp_path / "toy" / "missing.csv"
    url = f"{file_server}/missing.csv"
    with pytest.raises(DownloadError, match="404") as err:
        fetch(url, GOOD_SHA, dest, retries=0)
    assert url in str(err.value) and GOOD_SHA in str(err.value)
    assert _files(dest.parent) == []


def test_truncated_body_leaves_no_partial_file(truncating_server, tmp_path):
    dest = tmp_path / "toy" / "data.csv"
    url = f"{truncating_server}/data.csv"
    with pytest.raises(DownloadError, match="IncompleteRead") as err:
        fetch(url, GOOD_SHA, dest, retries=0)
    assert url in str(err.value) and GOOD_SHA in str(err.value)
    assert _files(dest.parent) == []


def test_failed_update_keeps_the_previous_file(file_server, tmp_path):
    dest = tmp_path / "data.csv"
    dest.write_bytes(b"an older version")
    with pytest.raises(DownloadError):
        fetch(f"{file_server}/data.csv", OTHER_SHA, dest, retries=0)
    assert dest.read_bytes() == b"an older version"
    assert _files(tmp_path) == ["data.csv"]


def test_malformed_checksum_is_rejected_before_any_request(tmp_path):
    with pytest.raises(ValueError, match="64-digit hex sha256"):
        fetch("http://127.0.0.1:9/x", "abc", tmp_path / "x")

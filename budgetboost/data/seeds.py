"""Stable random generators: every random draw in budgetboost starts here.

A generator is seeded from a *key* (e.g. ``("sonar", "uniform_0_2", 17)``), hashed with
SHA-256, so the same key gives the same stream on every machine, in every process and in
any job order. Python's ``hash()`` is salted per process and is never used.
"""

from __future__ import annotations

import hashlib

import numpy as np

__all__ = ["seed_from_key", "rng_from_key"]


def seed_from_key(*key: object) -> int:
    """Return a 128-bit integer seed derived from the string form of ``key``.

    Parts are joined with an ASCII unit separator so that ``("ab", "c")`` and
    ``("a", "bc")`` give different seeds.
    """
    if not key:
        raise ValueError("seed_from_key needs at least one key part")
    text = "\x1f".join(str(part) for part in key)
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:16], "little")


def rng_from_key(*key: object) -> np.random.Generator:
    """A ``numpy.random.Generator`` (PCG64) seeded from ``seed_from_key(*key)``."""
    return np.random.Generator(np.random.PCG64(seed_from_key(*key)))

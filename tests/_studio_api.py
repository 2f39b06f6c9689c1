"""Helpers of the studio's API tests: a rectangular board as the page sends it, and a
run started and asked for until it ends."""

from __future__ import annotations

import time


def board(rows: int, cols: int, pieces: str = "pentominoes", **options) -> dict:
    """A full ``rows`` x ``cols`` square board with a named set, as puzzle JSON."""
    cells = [[x, y] for y in range(rows) for x in range(cols)]
    return {"lattice": "square", "rows": rows, "cols": cols, "cells": cells, "pieces": pieces,
            **options}  # fmt: skip


def run_to_end(
    client, kind: str, puzzle: dict, params: dict | None = None, timeout: float = 30
) -> dict:
    """Start a run and poll it until it is no longer running (or ``timeout`` seconds);
    return its last state."""
    started = client.post("/api/jobs", json={"kind": kind, "puzzle": puzzle, "params": params})
    assert started.status_code == 202, started.text
    job = started.json()
    deadline = time.monotonic() + timeout
    while job["state"] == "running" and time.monotonic() < deadline:
        time.sleep(0.02)
        job = client.get(f"/api/jobs/{job['id']}").json()
    return job

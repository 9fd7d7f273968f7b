"""Run folders: every ``mushgym train`` / ``mushgym eval`` writes into a folder of its own."""

from __future__ import annotations

import time
from pathlib import Path


def new_run_dir(kind: str, name: str, path: str | Path | None = None, root: str | Path = "runs") -> Path:
    """A folder that did not exist before (or exists and is empty): ``path`` if given, else
    ``<root>/<kind>_<name>_<date-time>`` (``-2``, ``-3``... appended if that name is taken).

    A given ``path`` that already holds files is refused: a new run never mixes its
    checkpoints, logs and CSVs with an older run's."""
    if path is not None:
        path = Path(path)
        if path.exists() and any(path.iterdir()):
            raise FileExistsError(f"{path} already holds files (an earlier run?); give a new or empty folder")
        path.mkdir(parents=True, exist_ok=True)
        return path
    base = Path(root) / f"{kind}_{name}_{time.strftime('%Y%m%d-%H%M%S')}"
    candidate, n = base, 1
    while True:
        try:
            candidate.mkdir(parents=True, exist_ok=False)
            return candidate
        except FileExistsError:
            n += 1
            candidate = base.with_name(f"{base.name}-{n}")

"""Measuring a rate: the Row of a table, repeats timed with the collector off, the
machine's description, and which env module a name on the command line means."""

from __future__ import annotations

import gc
import importlib
import os
import platform
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

BATCH_SIZES = (1, 64, 1024, 8192)


@dataclass
class Row:
    """One measured line of a table."""

    group: str
    name: str
    threads: int | None
    steps_per_s: float | None = None
    games_per_s: float | None = None
    spread: tuple[float, float] | None = None  # min, max of steps/s over the repeats
    repeats: int = 0
    note: str = ""
    extra: dict[str, Any] = field(default_factory=dict)


def timed(fn: Callable[[float], tuple[int, int]], budget: float, repeats: int) -> tuple[list[float], list[float]]:
    """Run ``fn(budget)`` ``repeats`` times; each returns (steps, games) done in about ``budget`` s."""
    steps_rates, games_rates = [], []
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        try:
            t0 = time.perf_counter()
            steps, games = fn(budget)
            dt = time.perf_counter() - t0
        finally:
            gc.enable()
        steps_rates.append(steps / dt)
        games_rates.append(games / dt)
    return steps_rates, games_rates


def make_row(group: str, name: str, threads: int | None, rates: tuple[list[float], list[float]], note: str = "",
         **extra: Any) -> Row:
    s, g = rates
    return Row(group, name, threads, statistics.median(s), statistics.median(g), (min(s), max(s)), len(s),
               note, extra)


def machine() -> dict[str, Any]:
    import numba

    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "logical_cpus": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "threading_layer": threading_layer(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "platform": platform.platform(),
    }


def threading_layer() -> str:
    import numba

    try:
        return numba.threading_layer()
    except ValueError:  # no parallel function has run yet
        return "not yet chosen"


# --- env resolution ---------------------------------------------------------------

def resolve_env(spec: str):
    """The env module of a registered env id or of a module import path."""
    from ..registry import env_module, env_modules

    if spec in env_modules():
        return env_module(spec)
    if "." in spec or ":" in spec:
        mod = importlib.import_module(spec.split(":")[0])
        for name in ("Game", "raw_env", "env"):
            if not hasattr(mod, name):
                raise ValueError(f"module {spec!r} defines no {name!r}")
        return mod
    raise ValueError(f"unknown env {spec!r}; registered envs: {sorted(env_modules())}")

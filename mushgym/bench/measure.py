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


def timed_rounds(fns: list[Callable[[float], tuple[int, int]]], budget: float,
                 repeats: int) -> list[tuple[list[float], list[float]]]:
    """:func:`timed` for several measurements in interleaved rounds: each round runs every
    ``fn(budget)`` once, in order. The rates of one round come from the same few seconds, so a
    ratio between two measurements taken round by round holds when the machine's speed drifts
    over a run (a shared host here changed speed 1.5-2x within minutes, session 27)."""
    rates: list[tuple[list[float], list[float]]] = [([], []) for _ in fns]
    for _ in range(repeats):
        for fn, (steps_rates, games_rates) in zip(fns, rates):
            s, g = timed(fn, budget, 1)
            steps_rates += s
            games_rates += g
    return rates


def make_row(group: str, name: str, threads: int | None, rates: tuple[list[float], list[float]], note: str = "",
         **extra: Any) -> Row:
    s, g = rates
    return Row(group, name, threads, statistics.median(s), statistics.median(g), (min(s), max(s)), len(s),
               note, extra)


def round_ratio(a: Row, b: Row) -> tuple[float, tuple[float, float] | None]:
    """``a`` / ``b`` in steps/s: the median of the ratios round by round when both rows were
    measured in the same interleaved rounds (:func:`timed_rounds`; their ``round_rates``),
    with the min-max over the rounds; else the ratio of the medians and no spread."""
    ra, rb = a.extra.get("round_rates"), b.extra.get("round_rates")
    same = (ra is not None and rb is not None and len(ra) == len(rb) and len(ra) > 0
            and a.extra.get("rounds") == b.extra.get("rounds"))
    if not same:
        return a.steps_per_s / b.steps_per_s, None
    ratios = [x / y for x, y in zip(ra, rb)]
    return statistics.median(ratios), (min(ratios), max(ratios))


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

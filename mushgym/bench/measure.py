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


def timed_rounds(
    fns: list[Callable[[float], tuple[int, int]]], budget: float, repeats: int
) -> list[tuple[list[float], list[float]]]:
    """:func:`timed` for several measurements in interleaved rounds: each round runs every
    ``fn(budget)`` once, in order. The rates of one round come from the same few seconds, so a
    ratio between two measurements taken round by round holds when the machine's speed drifts
    over a run (a shared host here changed speed 1.5-2x within minutes, 2026-12-01)."""
    rates: list[tuple[list[float], list[float]]] = [([], []) for _ in fns]
    for _ in range(repeats):
        for fn, (steps_rates, games_rates) in zip(fns, rates):
            s, g = timed(fn, budget, 1)
            steps_rates += s
            games_rates += g
    return rates


def make_row(
    group: str, name: str, threads: int | None, rates: tuple[list[float], list[float]], note: str = "", **extra: Any
) -> Row:
    s, g = rates
    return Row(group, name, threads, statistics.median(s), statistics.median(g), (min(s), max(s)), len(s), note, extra)


def round_ratio(a: Row, b: Row) -> tuple[float, tuple[float, float] | None]:
    """``a`` / ``b`` in steps/s: the median of the ratios round by round when both rows were
    measured in the same interleaved rounds (:func:`timed_rounds`; their ``round_rates``),
    with the min-max over the rounds; else the ratio of the medians and no spread."""
    ra, rb = a.extra.get("round_rates"), b.extra.get("round_rates")
    same = (
        ra is not None
        and rb is not None
        and len(ra) == len(rb)
        and len(ra) > 0
        and a.extra.get("rounds") == b.extra.get("rounds")
    )
    if not same:
        return a.steps_per_s / b.steps_per_s, None
    ratios = [x / y for x, y in zip(ra, rb)]
    return statistics.median(ratios), (min(ratios), max(ratios))


def machine(cpuinfo: str = "/proc/cpuinfo", cache_dir: str = "/sys/devices/system/cpu/cpu0/cache") -> dict[str, Any]:
    """What the run was measured on. The project's VMs of one kind differ in CPU and cache
    from one run to the next, and the vector API's ratios move with the cache: so the CPU's
    vendor, family and model (``lscpu``'s fields), cpu0's caches and the load average at the
    start are recorded with the rates."""
    import numba

    info = _cpuinfo_fields(cpuinfo)
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "cpu": info.get("model name") or platform.processor() or "",
        "cpu_vendor": info.get("vendor_id", ""),
        "cpu_family": _int_or_none(info.get("cpu family")),
        "cpu_model": _int_or_none(info.get("model")),
        "cpu_stepping": _int_or_none(info.get("stepping")),
        "caches": cpu_caches(cache_dir),
        "load_average": list(load) if load is not None else None,
        "logical_cpus": os.cpu_count(),
        "numba_threads": numba.config.NUMBA_NUM_THREADS,
        "threading_layer": threading_layer(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "platform": platform.platform(),
    }


def _cpuinfo_fields(path: str) -> dict[str, str]:
    """The first processor's ``key: value`` lines of ``/proc/cpuinfo`` (empty where there is none)."""
    fields: dict[str, str] = {}
    try:
        with open(path) as f:
            for line in f:
                if not line.strip():
                    if fields:
                        break  # the end of the first processor's block
                    continue
                key, sep, value = line.partition(":")
                if sep:
                    fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    return fields


def _int_or_none(text: str | None) -> int | None:
    try:
        return int(text) if text is not None else None
    except ValueError:
        return None


def cpu_caches(cache_dir: str = "/sys/devices/system/cpu/cpu0/cache") -> list[dict[str, Any]]:
    """cpu0's caches from sysfs: level, type, size in KiB and the CPUs sharing it
    (``[]`` where sysfs does not say; a cache folder it cannot read is left out)."""
    try:
        names = sorted(n for n in os.listdir(cache_dir) if n.startswith("index"))
    except OSError:
        return []
    caches = []
    for name in names:
        try:
            level, kind, size, shared = (
                _read_text(os.path.join(cache_dir, name, key)) for key in ("level", "type", "size", "shared_cpu_list")
            )
            caches.append({"level": int(level), "type": kind, "size_kib": _size_kib(size), "shared_cpus": shared})
        except (OSError, ValueError):
            continue
    return caches


def _read_text(path: str) -> str:
    with open(path) as f:
        return f.read().strip()


def _size_kib(text: str) -> int:
    """sysfs's cache size ("48K", "2M", or bytes) in KiB."""
    units = {"K": 1, "M": 1024, "G": 1024 * 1024}
    if text[-1:] in units:
        return int(text[:-1]) * units[text[-1]]
    return int(text) // 1024


def _fmt_kib(kib: int) -> str:
    return f"{kib // 1024} MiB" if kib >= 1024 and kib % 1024 == 0 else f"{kib} KiB"


def describe_machine(m: dict[str, Any]) -> str:
    """One line for a report: CPU, family/model, the data caches, threads and the load at the
    start (older reports without some of these keys describe with what they have)."""
    cpu = m.get("cpu") or "unknown CPU"
    if m.get("cpu_family") is not None:
        cpu += f" (family {m['cpu_family']} model {m.get('cpu_model')})"
    parts = [cpu]
    caches = [
        f"{'L1d' if c['type'] == 'Data' else 'L%d' % c['level']} {_fmt_kib(c['size_kib'])}"
        + (" shared" if "-" in c["shared_cpus"] or "," in c["shared_cpus"] else "")
        for c in m.get("caches") or []
        if c["type"] != "Instruction"
    ]
    if caches:
        parts.append(", ".join(caches))
    layer = m.get("threading_layer")
    parts.append(
        f"{m.get('logical_cpus')} logical CPUs, {m.get('numba_threads')} numba threads"
        + (f" ({layer})" if layer and layer != LAYER_NOT_CHOSEN else "")
    )
    if m.get("load_average"):
        parts.append("load %.2f at the start" % m["load_average"][0])
    return "; ".join(parts)


#: what :func:`threading_layer` says before numba's first parallel call has chosen a layer
LAYER_NOT_CHOSEN = "not yet chosen"


def threading_layer() -> str:
    import numba

    try:
        return numba.threading_layer()
    except ValueError:  # no parallel function has run yet
        return LAYER_NOT_CHOSEN


# --- env resolution ---------------------------------------------------------------


def resolve_env(spec: str):
    """The env module of a registered env id or of a module import path."""
    from ..registry import env_module

    if "." not in spec and ":" not in spec:
        return env_module(spec)  # an unknown or retired id is refused, naming the registered or current one
    mod = importlib.import_module(spec.split(":")[0])
    for name in ("Game", "raw_env", "env"):
        if not hasattr(mod, name):
            raise ValueError(f"module {spec!r} defines no {name!r}")
    return mod

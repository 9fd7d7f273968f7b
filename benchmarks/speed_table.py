"""The README's speed table from `mushgym bench --json` reports: one column per env.

    mushgym bench fungi_v0 mycology_v1 mycology_v0 --no-startup --no-anchors --json run.json
    python benchmarks/speed_table.py run.json                 # the markdown table of that run
    python benchmarks/speed_table.py run1.json run2.json ...  # + the headline ratios of every run

Rates are steps/s (medians of the rounds); the vector rows carry, in brackets, the ratio to the
in-kernel rollouts on the same threads (the median of the rounds' ratios, as `mushgym bench`
prints it, since session 27 rollouts and vector rows are timed in interleaved rounds).
"""

from __future__ import annotations

import argparse
import json
from typing import Any


def _rate(x: float | None) -> str:
    if x is None:
        return "-"
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if x >= div:
            return f"{x / div:.3g}{unit}"
    return f"{x:.3g}"


def _row(env: dict[str, Any], name: str, threads: Any = "any") -> dict[str, Any] | None:
    for r in env["rows"]:
        if r["name"] == name and (threads == "any" or r["threads"] == threads):
            return r
    return None


def _with_ratio(env: dict[str, Any], name: str, threads: Any, key: str) -> str:
    r = _row(env, name, threads)
    if r is None:
        return "-"
    ratio = env["ratios"].get(key)
    spread = env["ratios"].get(key + " per round", "")
    inside = f"{ratio:.3g}x" if ratio is not None else ""
    if spread:
        inside += f"; rounds {spread.split(' over ')[0].replace('x-', '-')}"
    return f"{_rate(r['steps_per_s'])} ({inside})" if inside else _rate(r["steps_per_s"])


def table(report: dict[str, Any]) -> list[str]:
    envs = list(report["envs"].values())
    nt = report["machine"]["numba_threads"]
    big = f"rollouts ({nt} threads)"
    lines = ["| | " + " | ".join(f"`{e['env_id']}`" for e in envs) + " |",
             "| --- |" + " --- |" * len(envs)]

    def add(label: str, cells: list[str]) -> None:
        lines.append(f"| {label} | " + " | ".join(cells) + " |")

    def rate(name: str, threads: Any = "any") -> list[str]:
        return [_rate((_row(e, name, threads) or {}).get("steps_per_s")) for e in envs]

    add("in-kernel rollouts, 1 thread (`Game.random_rollouts`)", rate("Game.random_rollouts", 1))
    add(f"in-kernel rollouts, {nt} threads", rate("Game.random_rollouts", nt))
    add("vector API, batch 1 (1 thread)", rate("batch 1"))
    add("vector API, batch 64 (1 thread)", rate("batch 64"))
    add(f"vector API, batch 1,024, {nt} threads", rate("batch 1,024", None))
    add(f"**vector API, batch 8,192, {nt} threads** (x {big})",
        [_with_ratio(e, "batch 8,192", None, f"vector batch 8192 / {big}") for e in envs])
    add("**batch 8,192 / batch 1,024**", [
        f"{e['ratios'].get('vector batch 8192 / batch 1024', float('nan')):.3g}x"
        + (f" (rounds {e['ratios']['vector batch 8192 / batch 1024 per round'].split(' over ')[0].replace('x-', '-')})"
           if "vector batch 8192 / batch 1024 per round" in e["ratios"] else "") for e in envs])
    add(f"vector API, batch 8,192, {nt} threads, no observations (`with_obs=False`)",
        [_with_ratio(e, "batch 8,192, no obs", None, f"vector batch 8192 (no obs) / {big}") for e in envs])
    add(f"vector API, batch 8,192, {nt} threads, int64 states + float32 obs (the storage before issue 13)",
        [_with_ratio(e, "batch 8,192, int64 state, float32 obs", None,
                     f"vector batch 8192 (int64 state, float32 obs) / {big}") for e in envs])
    add("vector API, batch 8,192, 1 thread (x rollouts, 1 thread)",
        [_with_ratio(e, "batch 8,192", 1, "vector batch 8192 / rollouts (1 thread)") for e in envs])
    add("bytes per env step, default (state + obs + mask + rewards + rest)", [
        f"{sum(p.values()):,} ({' + '.join(f'{v:,}' for v in p.values())})"
        for p in (e["bytes_per_env_step"]["default"] for e in envs)])
    add("bytes per env step, int64 states + float32 obs", [
        f"{sum(b['int64 state, float32 obs'].values()):,} ({sum(b['int64 state, float32 obs'].values()) / sum(b['default'].values()):.2g}x)"
        for b in (e["bytes_per_env_step"] for e in envs)])
    add("AEC `raw_env()`, PettingZoo `agent_iter` loop", rate("raw_env()"))
    add("AEC `env()` (the standard wrappers' behaviour in one layer)", rate("env() (one-layer standard wrapper)"))
    add("do-nothing AEC env in PettingZoo's three wrappers (that loop's ceiling)",
        rate("do-nothing env, wrapped (baseline)"))
    add("episode loop, Python agents, batch 128 (`mushgym.episodes.play`)", rate("mushgym.episodes.play, batch 128"))
    add("ISMCTS simulations/s, 1 tree (1 thread)", rate("ISMCTS 1000 sims x 1 tree(s)"))
    return lines


def headline(path: str, report: dict[str, Any]) -> str:
    nt = report["machine"]["numba_threads"]
    parts = []
    for e in report["envs"].values():
        r = e["ratios"]
        parts.append(f"{e['env_id']} {r.get(f'vector batch 8192 / rollouts ({nt} threads)', float('nan')):.3g}x "
                     f"(8,192/1,024 {r.get('vector batch 8192 / batch 1024', float('nan')):.3g}x)")
    return f"- `{path}`: " + "; ".join(parts)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("reports", nargs="+", help="JSON files written by `mushgym bench --json`")
    args = p.parse_args(argv)
    reports = []
    for path in args.reports:
        with open(path) as f:
            reports.append((path, json.load(f)))
    print("\n".join(table(reports[0][1])))
    if len(reports) > 1:
        print()
        print(f"batch 8,192 / rollouts on {reports[0][1]['machine']['numba_threads']} threads, run by run:")
        for path, rep in reports:
            print(headline(path, rep))


if __name__ == "__main__":
    main()

"""The speed tables of the docs (docs/speed.md) from `mushgym bench --json` reports: one column per env.

    mushgym bench fungi_v0 mycology_v1 mycology_v0 --no-startup --no-anchors --json run.json
    python benchmarks/speed_table.py run.json                 # the markdown table of that run
    python benchmarks/speed_table.py run1.json run2.json ...  # + the headline ratios of every run

Rates are steps/s (medians of the rounds); the vector rows carry, in brackets, the ratio to the
in-kernel rollouts on the same threads (the median of the rounds' ratios, as `mushgym bench`
prints it, now rollouts and vector rows are timed in interleaved rounds).
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from mushgym.bench.measure import Row, describe_machine, round_ratio
from mushgym.bench.report import fmt_rate


def _row(env: dict[str, Any], name: str, threads: Any = "any") -> Row | None:
    """The row ``name`` of an env's report (on ``threads``), as the bench's :class:`Row`."""
    for r in env["rows"]:
        if r["name"] == name and (threads == "any" or r["threads"] == threads):
            return Row(**r)
    return None


def _ratio(a: Row | None, b: Row | None) -> str:
    """``a / b`` as the bench takes it (:func:`round_ratio`: per round where both share rounds)."""
    if a is None or b is None:
        return "-"
    value, spread = round_ratio(a, b)
    return f"{value:.3g}x" + (f"; rounds {spread[0]:.3g}-{spread[1]:.3g}x" if spread else "")


def _with_ratio(env: dict[str, Any], name: str, threads: Any, base: str, base_threads: Any) -> str:
    r = _row(env, name, threads)
    return "-" if r is None else f"{fmt_rate(r.steps_per_s)} ({_ratio(r, _row(env, base, base_threads))})"


def table(report: dict[str, Any]) -> list[str]:
    envs = list(report["envs"].values())
    nt = report["machine"]["numba_threads"]
    big = f"rollouts ({nt} threads)"
    lines = ["| | " + " | ".join(f"`{e['env_id']}`" for e in envs) + " |", "| --- |" + " --- |" * len(envs)]

    def add(label: str, cells: list[str]) -> None:
        lines.append(f"| {label} | " + " | ".join(cells) + " |")

    def rate(name: str, threads: Any = "any") -> list[str]:
        return [fmt_rate(getattr(_row(e, name, threads), "steps_per_s", None)) for e in envs]

    def against(name: str, threads: Any, base: str = "Game.random_rollouts", base_threads: Any = nt) -> list[str]:
        return [_with_ratio(e, name, threads, base, base_threads) for e in envs]

    add("in-kernel rollouts, 1 thread (`Game.random_rollouts`)", rate("Game.random_rollouts", 1))
    add(f"in-kernel rollouts, {nt} threads", rate("Game.random_rollouts", nt))
    add("vector API, batch 1 (1 thread)", rate("batch 1"))
    add("vector API, batch 64 (1 thread)", rate("batch 64"))
    add(f"vector API, batch 1,024, {nt} threads", rate("batch 1,024", None))
    add(f"**vector API, batch 8,192, {nt} threads** (x {big})", against("batch 8,192", None))
    add(
        "**batch 8,192 / batch 1,024**",
        [_ratio(_row(e, "batch 8,192", None), _row(e, "batch 1,024", None)) for e in envs],
    )
    add(
        f"vector API, batch 8,192, {nt} threads, no observations (`with_obs=False`)",
        against("batch 8,192, no obs", None),
    )
    add(
        f"vector API, batch 8,192, {nt} threads, int64 states + float32 obs",
        against("batch 8,192, int64 state, float32 obs", None),
    )
    add("vector API, batch 8,192, 1 thread (x rollouts, 1 thread)", against("batch 8,192", 1, base_threads=1))
    add(
        "bytes per env step, default (state + obs + mask + rewards + rest)",
        [
            f"{sum(p.values()):,} ({' + '.join(f'{v:,}' for v in p.values())})"
            for p in (e["bytes_per_env_step"]["default"] for e in envs)
        ],
    )
    add(
        "bytes per env step, int64 states + float32 obs",
        [
            f"{sum(b['int64 state, float32 obs'].values()):,} ({sum(b['int64 state, float32 obs'].values()) / sum(b['default'].values()):.2g}x)"  # noqa: E501 (a literal that reads best on one line)
            for b in (e["bytes_per_env_step"] for e in envs)
        ],
    )
    add("AEC `raw_env()`, PettingZoo `agent_iter` loop", rate("raw_env()"))
    add("AEC `env()` (the standard wrappers' behaviour in one layer)", rate("env() (one-layer standard wrapper)"))
    add(
        "do-nothing AEC env in PettingZoo's three wrappers (that loop's ceiling)",
        rate("do-nothing env, wrapped (baseline)"),
    )
    add("episode loop, Python agents, batch 128 (`mushgym.episodes.play`)", rate("mushgym.episodes.play, batch 128"))
    add("ISMCTS simulations/s, 1 tree (1 thread)", rate("ISMCTS 1000 sims x 1 tree(s)"))
    return lines


def headline(path: str, report: dict[str, Any]) -> str:
    nt = report["machine"]["numba_threads"]
    parts = []
    for e in report["envs"].values():
        r = e["ratios"]
        parts.append(
            f"{e['env_id']} {r.get(f'vector batch 8192 / rollouts ({nt} threads)', float('nan')):.3g}x "
            f"(8,192/1,024 {r.get('vector batch 8192 / batch 1024', float('nan')):.3g}x)"
        )
    return f"- `{path}`: " + "; ".join(parts) + f" ({describe_machine(report['machine'])})"


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

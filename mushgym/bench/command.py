"""``mushgym bench`` / ``python -m mushgym.bench``: the options, the run over the envs, the report."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from typing import Any

from .anchors import bench_anchors
from .measure import BATCH_SIZES, Row, describe_machine, machine, threading_layer
from .report import console_for, derived, footer, json_default, print_table, table_rows
from .rows import bench_env, compile_estimate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="mushgym bench", description="random-game throughput of every env, through every API"
    )
    parser.add_argument("envs", nargs="*", metavar="ENV", help="env ids (default: every registered env)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="short table: random games through the AEC env and through compiled loops (seconds per env)",
    )
    parser.add_argument("--json", metavar="PATH", help="write every measurement to PATH")
    parser.add_argument("--budget", type=float, default=None, help="seconds per repeat (default 1.0; 0.25 quick)")
    parser.add_argument("--repeats", type=int, default=None, help="repeats per measurement (default 5; 3 quick)")
    parser.add_argument("--no-anchors", action="store_true", help="skip PettingZoo classic and OpenSpiel rows")
    parser.add_argument("--no-startup", action="store_true", help="skip the compile / start-up subprocesses")
    parser.add_argument("--batches", default=None, help="comma-separated vector batch sizes (default 1,64,1024,8192)")
    parser.add_argument("--plain", action="store_true", help="plain text tables even if rich is installed")
    args = parser.parse_args(argv)

    from ..registry import list_envs

    budget = args.budget if args.budget is not None else (0.25 if args.quick else 1.0)
    repeats = args.repeats if args.repeats is not None else (3 if args.quick else 5)
    batches = tuple(int(b) for b in args.batches.split(",") if b.strip().isdigit()) if args.batches else BATCH_SIZES
    if (
        budget <= 0
        or repeats < 1
        or not batches
        or min(batches) < 1
        or (args.batches and len(batches) != len(args.batches.split(",")))
    ):
        parser.error(
            f"--budget must be > 0 (got {budget:g}), --repeats >= 1 (got {repeats}) and --batches "
            f"positive integers separated by commas (got {args.batches!r})"
        )
    envs = args.envs or list_envs()
    console = console_for(args.plain)

    report: dict[str, Any] = {
        "machine": machine(),
        "quick": args.quick,
        "budget_s": budget,
        "repeats": repeats,
        "envs": {},
        "anchors": [],
        "errors": {},
    }
    print(f"machine: {describe_machine(report['machine'])}")
    seconds, cold = compile_estimate(envs, args.quick)
    if cold:
        print(
            f"compiling first (a cold numba cache): about {seconds / 60:.0f} min on 2 idle cores"
            if seconds >= 120
            else f"compiling first (a cold numba cache): about {seconds:.0f} s on 2 idle cores",
            f"({len(cold)} kernel groups: {', '.join(cold[:4])}{', ...' if len(cold) > 4 else ''}); "
            "later runs load them",
            flush=True,
        )
    report["compile_estimate_s"] = seconds
    anchors: list[Row] = []
    if not args.quick and not args.no_anchors:
        anchors = bench_anchors(budget, repeats)
        report["anchors"] = [asdict(a) for a in anchors]
        print_table("anchors: peer libraries, random games, same run", table_rows(anchors), [], console)

    status = 0
    for spec in envs:
        try:
            result = bench_env(spec, args.quick, budget, repeats, startup=not args.no_startup, batches=batches)
        except Exception as exc:  # one broken env must not hide the others' numbers
            msg = f"{type(exc).__name__}: {exc}"
            report["errors"][spec] = msg
            print(f"{spec}: skipped ({msg})", file=sys.stderr)
            status = 1
            continue
        ratios = derived(result, anchors)
        title = f"{result['env_id']}: random games ({'quick' if args.quick else 'full'}; median of {repeats} x {budget:g} s)"  # noqa: E501 (a literal that reads best on one line)
        print_table(title, table_rows(result["rows"]), footer(result, ratios), console)
        result["ratios"] = ratios
        result["rows"] = [asdict(r) for r in result["rows"]]
        report["envs"][result["env_id"]] = result
    report["machine"]["threading_layer"] = threading_layer()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(report, f, indent=2, default=json_default)
        print(f"wrote {args.json}")
    return status

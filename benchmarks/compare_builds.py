"""`mushgym bench` rows of two builds of the library, measured in one run, interleaved.

A build is a Python interpreter whose environment has a checkout of mushgym installed (a venv
with ``pip install -e CHECKOUT``). The script runs ``python -m mushgym.bench ENV... --json``
with each interpreter in turn, ``--rounds`` times (A, B, A, B, ...), so a change of machine
load or clock falls on both builds alike, then prints every row's median steps/s of each
build over the rounds and the ratio B / A with its range over the rounds, and beside them the
fastest repeat of each build over all rounds and their ratio (the steadier figure on a shared
host, whose other tenants only slow a repeat down).

    python benchmarks/compare_builds.py /venvs/before/bin/python /venvs/after/bin/python \\
        mycelia_v0 mycelium_v0 --rounds 3 --json benchmarks/results/compare.json

Warm both builds' numba caches first (one ``mushgym bench --quick ENV`` each): a round that
compiles measures the compiler. ``--batches`` and ``--budget`` go to ``mushgym bench``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def bench_once(python: str, envs: list[str], budget: float, repeats: int, batches: str) -> dict:
    """One ``mushgym bench`` run of ``envs`` with ``python``; its JSON result."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bench.json"
        cmd = [python, "-m", "mushgym.bench", *envs, "--no-anchors", "--no-startup", "--plain",
               "--budget", str(budget), "--repeats", str(repeats), "--batches", batches, "--json", str(out)]
        # from a neutral directory: ``python -m`` puts the working directory first on sys.path,
        # so run from a checkout both interpreters would import that checkout, not their builds
        run = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp)
        if run.returncode != 0 or not out.exists():
            raise SystemExit(f"{' '.join(cmd)} failed ({run.returncode}):\n{run.stderr[-3000:]}")
        return json.loads(out.read_text())


def build_of(python: str) -> str:
    """The checkout an interpreter imports mushgym from, with its commit (imported from a neutral
    directory, as the benchmark runs)."""
    probe = ("import pathlib, subprocess, mushgym; d = pathlib.Path(mushgym.__file__).parent.parent; "
             "c = subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=d, capture_output=True, text=True)"
             ".stdout.strip(); print(d, c or '(not a git checkout)')")
    with tempfile.TemporaryDirectory() as tmp:
        run = subprocess.run([python, "-c", probe], capture_output=True, text=True, cwd=tmp)
    if run.returncode != 0:
        raise SystemExit(f"{python} cannot import mushgym:\n{run.stderr[-2000:]}")
    return run.stdout.strip()


def row_rates(result: dict, best: bool = False) -> dict[tuple[str, str, str, str], float]:
    """(env, group, row, threads) -> steps/s of one bench result: the median of the row's
    repeats, or with ``best`` the fastest repeat."""
    rates = {}
    for env, entry in result["envs"].items():
        for row in entry.get("rows", []):
            if row.get("steps_per_s"):
                rate = row["spread"][1] if best and row.get("spread") else row["steps_per_s"]
                rates[(env, row["group"], row["name"], str(row["threads"]))] = rate
    return rates


def compare(rounds_a: list[dict], rounds_b: list[dict]) -> list[dict]:
    """Per row: the median of each build over the rounds, the ratio of the medians, the
    smallest and largest ratio of one round's pair (A and B of the same round), and the
    fastest repeat of each build over all rounds with their ratio.

    On a shared host the other tenants only ever slow a repeat down, in bursts that fall on
    one build's round and not the other's; the fastest of many repeats is then the steadiest
    estimate of what the code itself costs (as ``timeit`` reports the minimum time)."""
    per_a, per_b = [row_rates(r) for r in rounds_a], [row_rates(r) for r in rounds_b]
    best_a, best_b = [row_rates(r, best=True) for r in rounds_a], [row_rates(r, best=True) for r in rounds_b]
    keys = [k for k in per_a[0] if all(k in r for r in per_a + per_b)]
    table = []
    for key in keys:
        a = [r[key] for r in per_a]
        b = [r[key] for r in per_b]
        pair = [y / x for x, y in zip(a, b)]
        fastest_a, fastest_b = max(r[key] for r in best_a), max(r[key] for r in best_b)
        table.append({"env": key[0], "group": key[1], "row": key[2], "threads": key[3],
                      "a_steps_per_s": statistics.median(a), "b_steps_per_s": statistics.median(b),
                      "ratio": statistics.median(b) / statistics.median(a),
                      "round_ratio_min": min(pair), "round_ratio_max": max(pair),
                      "a_best_steps_per_s": fastest_a, "b_best_steps_per_s": fastest_b,
                      "best_ratio": fastest_b / fastest_a})
    return table


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("python_a", help="interpreter of build A (the baseline)")
    ap.add_argument("python_b", help="interpreter of build B")
    ap.add_argument("envs", nargs="+")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--budget", type=float, default=0.5)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--batches", default="1,64,1024")
    ap.add_argument("--json", type=Path, default=None, help="write the rounds and the table here")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        raise SystemExit("--rounds must be at least 1")
    builds = {name: build_of(python) for name, python in (("A", args.python_a), ("B", args.python_b))}
    for name, where in builds.items():
        print(f"build {name}: {where}", file=sys.stderr, flush=True)
    rounds_a, rounds_b = [], []
    for i in range(args.rounds):
        for python, into, name in ((args.python_a, rounds_a, "A"), (args.python_b, rounds_b, "B")):
            print(f"round {i + 1}/{args.rounds}: build {name}", file=sys.stderr, flush=True)
            into.append(bench_once(python, args.envs, args.budget, args.repeats, args.batches))
    table = compare(rounds_a, rounds_b)
    print(f"{'env':12s} {'row':42s} {'thr':>3s} {'A median':>10s} {'B median':>10s} {'B/A':>6s}  {'rounds':16s}"
          f" {'A best':>10s} {'B best':>10s} {'B/A':>6s}")
    for t in table:
        print(f"{t['env']:12s} {(t['group'][:3] + t['row'])[:42]:42s} {t['threads']:>3s} {t['a_steps_per_s']:10,.0f} "
              f"{t['b_steps_per_s']:10,.0f} {t['ratio']:6.3f}  [{t['round_ratio_min']:.3f}, {t['round_ratio_max']:.3f}] "
              f"{t['a_best_steps_per_s']:10,.0f} {t['b_best_steps_per_s']:10,.0f} {t['best_ratio']:6.3f}")
    if args.json:
        when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        args.json.write_text(json.dumps({"date": when, "command": " ".join(sys.argv), "machine": rounds_a[0]["machine"], "builds": builds,
                                         "table": table, "rounds_a": rounds_a, "rounds_b": rounds_b}, indent=1))


if __name__ == "__main__":
    main()

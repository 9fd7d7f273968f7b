"""In-kernel random rollouts of two builds run at the same time, one per core, for a busy host.

On a host whose other tenants take the CPU in bursts, builds timed one after the other see
different loads (``compare_builds.py``'s round ratios then spread over 0.5-2x). Here both builds
run side by side, each pinned to a core of its own, the cores swapped every round, and each pair
of repeats (same seeds, same moment) gives one ratio B / A; the median of those ratios is the
figure.

    python benchmarks/compare_rollouts_paired.py /venvs/before/bin/python /venvs/after/bin/python \\
        mycelia_v0 --rounds 6 --games 200

Needs two cores. Warm both builds' numba caches first (one run each): a repeat that compiles
measures the compiler.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess

ROLLOUTS = """
import json, sys, time, mushgym
env, games, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = mushgym.game(env)
game.random_rollouts(20, seed=1, threads=1)
rates = []
for r in range(repeats):
    t = time.perf_counter()
    out = game.random_rollouts(games, seed=1000 + r * games, threads=1)
    rates.append(out["steps"] / (time.perf_counter() - t))
print(json.dumps(rates))
"""


def run_pinned(python: str, core: int, env: str, games: int, repeats: int) -> subprocess.Popen:
    """Start one build's rollouts on ``core`` (from a neutral directory, so the build's own
    install is imported, not a checkout in the working directory)."""
    return subprocess.Popen([python, "-c", ROLLOUTS, env, str(games), str(repeats)], cwd="/", text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            preexec_fn=lambda: os.sched_setaffinity(0, {core}))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("python_a", help="interpreter of build A (the baseline)")
    ap.add_argument("python_b", help="interpreter of build B")
    ap.add_argument("env")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--games", type=int, default=200, help="games per repeat")
    ap.add_argument("--repeats", type=int, default=3, help="repeats per round")
    ap.add_argument("--json", default=None, help="write the rates and ratios here")
    args = ap.parse_args(argv)
    if len(os.sched_getaffinity(0)) < 2:
        raise SystemExit("needs two cores: the builds run side by side, one per core")
    cores = sorted(os.sched_getaffinity(0))[:2]
    rounds, ratios = [], []
    for r in range(args.rounds):
        core_a, core_b = (cores[0], cores[1]) if r % 2 == 0 else (cores[1], cores[0])
        procs = [run_pinned(p, c, args.env, args.games, args.repeats)
                 for p, c in ((args.python_a, core_a), (args.python_b, core_b))]
        outs = [p.communicate()[0] for p in procs]
        if any(p.returncode != 0 for p in procs):
            raise SystemExit(f"round {r + 1}: a build failed (exit codes {[p.returncode for p in procs]})")
        rate_a, rate_b = (json.loads(o) for o in outs)
        pair = [b / a for a, b in zip(rate_a, rate_b)]
        ratios += pair
        rounds.append({"a": rate_a, "b": rate_b, "ratios": pair})
        print(f"round {r + 1}: A {[round(x) for x in rate_a]} B {[round(x) for x in rate_b]} "
              f"B/A {[round(x, 3) for x in pair]}", flush=True)
    quartiles = statistics.quantiles(ratios, n=4)
    print(f"{args.env}: median B/A {statistics.median(ratios):.3f} over {len(ratios)} pairs "
          f"(quartiles {quartiles[0]:.3f}-{quartiles[2]:.3f})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"env": args.env, "games": args.games, "rounds": rounds,
                       "median_ratio": statistics.median(ratios)}, f, indent=1)


if __name__ == "__main__":
    main()

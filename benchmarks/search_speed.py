"""Information-set MCTS speed: simulations per second per game, one thread and every core,
and against the size of the tree (no allocation per simulation: the rate must not fall with
the tree beyond cache effects). Quoted as ratios against in-kernel random games measured in
the same process (the machine is shared and noisy).

    python benchmarks/search_speed.py                      # fungi_v0 mycology_v0, writes search_speed.json
    python benchmarks/search_speed.py fungi_v0 --sizes 1000 10000 100000
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numba

import mushgym
from mushgym.bench.rows import search_positions
from mushgym.search import Searcher


def sims_per_s(game, sims, threads, states, seconds):
    return searcher_rate(Searcher(game, simulations=sims, threads=threads, seed=0), states, seconds)[0]


def searcher_rate(searcher, states, seconds, on_start=None):
    """Simulations per second of ``searcher`` over ``states`` (after one search to warm up, then
    ``on_start()``) and the seconds measured."""
    game, sims, threads = searcher.game, searcher.simulations, searcher.threads
    searcher.search(states[0], game.current_player(states[0]))
    if on_start is not None:
        on_start()
    t0 = time.perf_counter()
    n = 0
    while time.perf_counter() - t0 < seconds or n < len(states):
        s = states[n % len(states)]
        searcher.search(s, game.current_player(s))
        n += 1
    elapsed = time.perf_counter() - t0
    return n * sims * threads / elapsed, elapsed


def games_per_s(game, threads, seconds):
    game.random_rollouts(4, threads=threads)
    n = 64
    while True:
        t0 = time.perf_counter()
        game.random_rollouts(n, seed=1, threads=threads)
        dt = time.perf_counter() - t0
        if dt > seconds:
            return n / dt
        n *= 2


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("envs", nargs="*", default=["fungi_v0", "mycology_v0"])
    ap.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--out", default=str(Path(__file__).with_name("search_speed.json")))
    args = ap.parse_args(argv)
    cores = numba.config.NUMBA_NUM_THREADS
    report = {"cores": cores, "envs": {}}
    for env_id in args.envs:
        game = mushgym.game(env_id)
        states = search_positions(game)
        base1 = games_per_s(game, 1, args.seconds)
        row = {"random_games_per_s_1thread": base1, "sims_per_s_1thread": {}, "sims_per_s_all_cores": None}
        for sims in args.sizes:
            r = sims_per_s(game, sims, 1, states, args.seconds)
            row["sims_per_s_1thread"][sims] = r
            print(
                f"{env_id}: {sims:>7} sims, 1 thread: {r:10,.0f} sims/s = {r / base1:.2f} x random games/s "
                f"({base1:,.0f}/s, same process)",
                flush=True,
            )
        r = sims_per_s(game, args.sizes[0], cores, states, args.seconds)
        row["sims_per_s_all_cores"] = r
        print(
            f"{env_id}: {args.sizes[0]:>7} sims x {cores} trees on {cores} threads: {r:10,.0f} sims/s "
            f"= {r / row['sims_per_s_1thread'][args.sizes[0]]:.2f} x one thread",
            flush=True,
        )
        report["envs"][env_id] = row
    Path(args.out).write_text(json.dumps(report, indent=2))
    print("wrote", args.out)


if __name__ == "__main__":
    main()

"""Vector API throughput at batch 1,024 as a ratio of in-kernel random rollouts, per thread.

    NUMBA_NUM_THREADS=1 python benchmarks/vector_ratio.py mycelia_v0 fungi_v0
    NUMBA_NUM_THREADS=1 python benchmarks/vector_ratio.py mycelia_v0 mycelia_v0:expansion=north_america
    python benchmarks/vector_ratio.py mycelia_v0 --threads 2 --batch 8192   # both cores
    NUMBA_NUM_THREADS=1 python benchmarks/vector_ratio.py mycologyold_v1 mycology_v1 --serial --batch 8192 \
        --warmup 300 --repeats 15 --window 0.4 --cpu-time   # A/B against a copy on MUSHGYM_GAMES_PATH

An env id may carry options after a colon (``name=value`` pairs separated by commas; integers
and None are parsed), e.g. a variant against its base game in the same run.

Both rates are measured in one process, in interleaved 1-second repeats (medians, and the
median of each round's ratio; each vector's rate is also given against the first env's
vector, round by round), so the ratio holds on a loaded machine where the absolute rates do
not; ``--cpu-time`` (one thread) counts the process's CPU time, not the wall clock. Folders in
``MUSHGYM_GAMES_PATH`` count too: a copy of a game with a cheaper ``observe`` shows how much
of the vector step the observation costs (RULES.md of mycelia, "Speed and memory").
``--baseline`` also times, in the same rounds, a vector storing int64 states and writing
float32 observations (the layout before narrow vector storage), one with the default
states writing float32 observations, and one writing no observations (``with_obs=False``),
and prints their ratios.
"""

import argparse
import statistics
import time

import numpy as np

import mushgym
from mushgym import vector as mv


def _value(text: str):
    if text == "None":
        return None
    try:
        return int(text)
    except ValueError:
        return text


def _parse(spec: str):
    """``env_id[:name=value,...]`` -> (env_id, options)."""
    env_id, _, rest = spec.partition(":")
    options = dict(kv.split("=", 1) for kv in rest.split(",") if kv)
    return env_id, {k: _value(v) for k, v in options.items()}


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("env_ids", nargs="+")
    p.add_argument("--batch", type=int, default=1024)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument(
        "--threads", type=int, default=1, help="threads of both the rollouts and the vector (at most NUMBA_NUM_THREADS)"
    )
    p.add_argument(
        "--serial",
        action="store_true",
        help="the serial vector loop (parallel=False): with one thread prange only adds overhead",
    )
    p.add_argument(
        "--warmup",
        type=int,
        default=1,
        help="vector steps before timing (300 spreads the envs over the phases of a game)",
    )
    p.add_argument(
        "--baseline", action="store_true", help="also time int64 states with float32 observations (the wide layout)"
    )
    p.add_argument("--window", type=float, default=1.0, help="seconds of each timed window")
    p.add_argument(
        "--cpu-time",
        action="store_true",
        help="time in the process's CPU time (1 thread only): on a loaded machine a descheduled "
        "time slice then counts for neither rate",
    )
    args = p.parse_args(argv)
    if args.cpu_time and args.threads != 1:
        p.error("--cpu-time measures one thread: use it with --threads 1")
    clock = time.process_time if args.cpu_time else time.perf_counter
    kinds = {"": {}}
    if args.baseline:
        kinds[" (int64 states, float32 obs)"] = dict(state_dtype=np.int64, obs_dtype=np.float32)
        kinds[" (float32 obs)"] = dict(obs_dtype=np.float32)
        kinds[" (no observations)"] = dict(with_obs=False)
    games = {}
    for env_id in args.env_ids:
        name, options = _parse(env_id)
        g = mushgym.game(name, **options)
        g.random_rollouts(4, seed=0, threads=args.threads)  # compile
        for kind, kw in kinds.items():
            v = mv.from_game(g, args.batch, seed=0, threads=args.threads, parallel=not args.serial, **kw)
            v.reset()
            for _ in range(args.warmup):
                v.step(v.sample_random_actions())
            games[env_id + kind] = (g, v)
    rates = {e: ([], []) for e in games}
    for rep in range(args.repeats):
        for e, (g, v) in games.items():
            steps, chunk, t0 = 0, 0, clock()
            while clock() - t0 < args.window:
                steps += int(
                    np.sum(
                        g.random_rollouts(20 * args.threads, seed=rep * 100_000 + chunk, threads=args.threads)[
                            "lengths"
                        ]
                    )
                )
                chunk += 20 * args.threads
            rates[e][0].append(steps / (clock() - t0))
            k, t0 = 0, clock()
            while clock() - t0 < args.window:
                v.step(v.sample_random_actions())
                k += 1
            rates[e][1].append(k * args.batch / (clock() - t0))
    first = next(iter(rates))
    for e, (roll, vec) in rates.items():
        r, w = statistics.median(roll), statistics.median(vec)
        b = games[e][1].bytes_per_step
        per_round = statistics.median([x / y for x, y in zip(vec, roll)])
        versus = statistics.median([x / y for x, y in zip(vec, rates[first][1])])
        print(
            f"{e}: {args.threads} thread(s): rollouts {r / 1e3:.0f}k steps/s, "
            f"vector batch {args.batch} {w / 1e3:.0f}k steps/s, "
            f"ratio {w / r:.3f} (median of the rounds' ratios {per_round:.3f}), "
            f"vector steps/s {versus:.3f}x {first}'s, {b} bytes per env step"
        )


if __name__ == "__main__":
    main()

"""Vector throughput against in-kernel rollouts, and bytes moved per env step.

    python benchmarks/vector_throughput.py [ENV ...]      # default: fungi_v0 mycology_v0
    python benchmarks/vector_throughput.py --rounds 5 --budget 1.0

For each env, in one process and interleaved round by round (the machine is shared and
noisy, so only ratios measured in the same minutes mean anything): in-kernel random
rollouts (``Game.random_rollouts``) and the vector API at batch 1,024 and 8,192, on 2
threads and on 1, with observations written in the default (narrowest exact) dtype, in
float32, and not at all (``with_obs=False``). Prints the median steps/s of each row, its
ratio to the rollouts on the same thread count, and the bytes each env row moves per step.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numba
import numpy as np

import mushgym
import mushgym.vector as mv


def rollouts_rate(game, threads: int, n: int, seed: int) -> float:
    t = time.perf_counter()
    res = game.random_rollouts(n, seed=seed, threads=threads)
    return res["steps"] / (time.perf_counter() - t)


def vector_rate(vec, budget: float) -> float:
    steps = 0
    pending = int(np.count_nonzero(vec.terminated | vec.truncated))
    t0 = time.perf_counter()
    t_end = t0 + budget
    while True:
        for _ in range(4):
            out = vec.step(vec.sample_random_actions())
            term, trunc = out[2], out[3]
            steps += vec.num_envs - pending
            pending = int(np.count_nonzero(term)) + int(np.count_nonzero(trunc))
        if time.perf_counter() >= t_end:
            break
    return steps / (time.perf_counter() - t0)


def variants(env_id: str):
    """(name, kwargs) of each vector variant measured."""
    import inspect

    params = inspect.signature(mv.MushroomVectorEnv.__init__).parameters
    out = [("default", {})]
    if "with_obs" in params:
        out.append(("no obs", {"with_obs": False}))
        out.append(("int64 state, float32 obs", {"obs_dtype": np.float32, "state_dtype": np.int64}))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("envs", nargs="*", default=["fungi_v0", "mycology_v0"])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--budget", type=float, default=0.6, help="seconds per measurement")
    ap.add_argument("--batches", default="1024,8192")
    args = ap.parse_args()
    batches = [int(b) for b in args.batches.split(",")]
    print(f"machine: {os.uname().machine}, {numba.config.NUMBA_NUM_THREADS} numba threads, "
          f"layer {numba.threading_layer() if False else numba.config.THREADING_LAYER}; "
          f"load average {os.getloadavg()[0]:.2f}")
    for env_id in args.envs:
        game = mushgym.game(env_id)
        game.random_rollouts(4, seed=0, threads=2)
        # games per rollout measurement: about ``budget`` seconds on 2 threads
        n = 64
        while True:
            t = time.perf_counter()
            game.random_rollouts(n, seed=1, threads=2)
            if time.perf_counter() - t > args.budget / 4:
                break
            n *= 2
        n = int(n * args.budget / max(time.perf_counter() - t, 1e-9))
        vecs = {}
        for threads in (2, 1):
            for batch in batches:
                for name, kw in variants(env_id):
                    v = mv.MushroomVectorEnv(game, batch, seed=batch, threads=threads, **kw)
                    v.reset()
                    for _ in range(3):
                        v.step(v.sample_random_actions())
                    vecs[(threads, batch, name)] = v
        rates: dict = {}
        seed = 100
        for _ in range(args.rounds):
            for threads in (2, 1):
                rates.setdefault(("rollouts", threads), []).append(rollouts_rate(game, threads, n, seed))
                seed += n
            for key, v in vecs.items():
                rates.setdefault(key, []).append(vector_rate(v, args.budget))
        print(f"\n{env_id}: load average {os.getloadavg()[0]:.2f}, {args.rounds} interleaved rounds, "
              f"median steps/s")
        print(f"| row | threads | steps/s | x rollouts | bytes/env step |")
        print(f"| --- | --- | --- | --- | --- |")
        for threads in (2, 1):
            base = statistics.median(rates[("rollouts", threads)])
            print(f"| in-kernel rollouts | {threads} | {base / 1e6:.2f}M | 1.00 | |")
            for (t, batch, name), v in vecs.items():
                if t != threads:
                    continue
                r = statistics.median(rates[(t, batch, name)])
                bps = getattr(v, "bytes_per_step", None)
                bps = bps if bps is not None else v.bytes_per_env
                print(f"| vector {batch:,}, {name} | {threads} | {r / 1e6:.2f}M | {r / base:.2f} | {bps:,} |")


if __name__ == "__main__":
    main()

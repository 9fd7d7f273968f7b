"""numba's threading layers side by side, same run: which one the parallel kernels should use.

    python benchmarks/threading_layers.py [ENV] [--games 4000] [--rounds 3] [--vector]

Each round runs one subprocess per layer (``NUMBA_THREADING_LAYER=tbb`` / ``omp`` /
``workqueue``, alternating so that load changes hit both), timing the in-kernel parallel
``random_rollouts`` (and, with ``--vector``, 1,024-env ``vector.step`` calls with prange).
Prints each layer's best rate and its ratio to TBB's. mushgym preloads a venv's
``libtbb.so.12`` (mushgym.core.tbb), so the TBB layer is available whenever ``tbb`` is
installed.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import json, sys, time
import numpy as np
import mushgym, numba
env_id, games, vector = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
g = mushgym.game(env_id)
g.random_rollouts(64, seed=1)                  # compile / load, start the pool
t = time.perf_counter(); r = g.random_rollouts(games, seed=2); dt = time.perf_counter() - t
out = {"layer": numba.threading_layer(), "rollout_steps_per_s": r["steps"] / dt}
if vector:
    import mushgym.vector
    v = mushgym.vector.make(env_id, num_envs=1024, seed=0, parallel=True)
    v.reset(); a = v.sample_random_actions()
    for _ in range(20): v.step(a)
    n = 200; t = time.perf_counter()
    for _ in range(n): v.step(a)
    out["vector_rows_per_s"] = n * 1024 / (time.perf_counter() - t)
print(json.dumps(out))
"""


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("env_id", nargs="?", default="fungi_v0")
    p.add_argument("--games", type=int, default=4000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--layers", default="tbb,omp")
    p.add_argument("--vector", action="store_true")
    args = p.parse_args(argv)
    layers = args.layers.split(",")
    best: dict[str, dict[str, float]] = {}
    for _ in range(args.rounds):
        for layer in layers:
            env = dict(os.environ, NUMBA_THREADING_LAYER=layer)
            out = subprocess.run([sys.executable, "-c", CHILD, args.env_id, str(args.games),
                                  "1" if args.vector else "0"], capture_output=True, text=True, env=env)
            if out.returncode != 0:
                print(f"{layer}: failed: {out.stderr.strip().splitlines()[-1:]}")
                continue
            res = json.loads(out.stdout.strip().splitlines()[-1])
            got = best.setdefault(layer, {})
            for k, v in res.items():
                if k != "layer":
                    got[k] = max(got.get(k, 0.0), v)
    base = best.get(layers[0], {})
    for layer, res in best.items():
        cells = ", ".join(f"{k} {v:,.0f} (x{v / base[k]:.2f} vs {layers[0]})" for k, v in res.items() if k in base)
        print(f"{layer:10s} {cells}")


if __name__ == "__main__":
    main()

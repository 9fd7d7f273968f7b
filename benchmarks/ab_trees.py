"""The documented fast paths of two source trees side by side, same run (A/B, alternating).

    python benchmarks/ab_trees.py /path/to/other/checkout [ENV] [--rounds 3]

Each round runs one subprocess per tree (``PYTHONPATH`` = the tree; the other tree's
``mushgym/envs`` and ``mushgym/agents`` must resolve inside it, e.g. symlinks to its
``envs``/``agents``), alternating so that load changes hit both, and times: in-kernel
``random_rollouts`` (steps/s, one thread), the vector API at 64 envs (serial kernels,
rows/s), the AEC env (steps/s) and ``step_inplace(check=False)``. Prints each tree's best
rate and the ratio this tree / other tree.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import json, sys, time
import numpy as np
import mushgym, mushgym.vector
env_id = sys.argv[1]
g = mushgym.game(env_id)
out = {}
g.random_rollouts(32, seed=1, threads=1)
t = time.perf_counter(); r = g.random_rollouts(600, seed=2, threads=1)
out["rollouts_steps_per_s"] = r["steps"] / (time.perf_counter() - t)
v = mushgym.vector.make(env_id, num_envs=64, seed=0, parallel=False)
v.reset(); a = v.sample_random_actions()
for _ in range(50): v.step(a)
n = 600; t = time.perf_counter()
for _ in range(n): v.step(a)
out["vector64_rows_per_s"] = n * 64 / (time.perf_counter() - t)
env = mushgym.make_raw(env_id); env.reset(seed=0); rng = np.random.default_rng(0)
steps = 0; t = time.perf_counter()
while steps < 6000:
    if not env.agents:
        env.reset(); continue
    ag = env.agent_selection
    if env.terminations[ag] or env.truncations[ag]:
        env.step(None); continue
    env.step(int(rng.choice(np.flatnonzero(env._mask)))); steps += 1
out["aec_steps_per_s"] = steps / (time.perf_counter() - t)
s = g.new_state(0); steps = 0; t = time.perf_counter()
while steps < 6000:
    if g.kernels.is_terminal(s):
        s = g.new_state(steps); continue
    m = np.zeros(g.num_actions, np.int8); g.kernels.legal_mask(s, g.config, m, g.work)
    g.step_inplace(s, int(np.flatnonzero(m)[0]), check=False); steps += 1
out["step_inplace_unchecked_per_s"] = steps / (time.perf_counter() - t)
print(json.dumps(out))
"""


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("other")
    p.add_argument("env_id", nargs="?", default="fungi_v0")
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args(argv)
    here = str(Path(__file__).resolve().parents[1])
    trees = {"this": here, "other": str(Path(args.other).resolve())}
    best: dict[str, dict[str, float]] = {}
    for _ in range(args.rounds):
        for name, tree in trees.items():
            env = dict(os.environ, PYTHONPATH=tree, MUSHGYM_COMPILE_NOTICE="0")
            out = subprocess.run([sys.executable, "-c", CHILD, args.env_id], capture_output=True, text=True,
                                 env=env, cwd="/")
            if out.returncode != 0:
                raise SystemExit(f"{name}: {out.stderr[-2000:]}")
            for k, v in json.loads(out.stdout.strip().splitlines()[-1]).items():
                best.setdefault(name, {})[k] = max(best.get(name, {}).get(k, 0.0), v)
    for k in best["this"]:
        a, b = best["this"][k], best["other"][k]
        print(f"{k:30s} this {a:12,.0f}  other {b:12,.0f}  ratio {a / b:.3f}")


if __name__ == "__main__":
    main()

"""Seconds to first use on a cold numba cache, each env in a fresh process: the first AEC step,
then the first vector step at 1,024 envs, then the first ``mcts:100`` move.

    python benchmarks/first_use.py fungi_v0 mycelia_v0 [--log-dir DIR] [--json out.json]

Each env runs in its own process with ``NUMBA_CACHE_DIR`` set to a new empty directory and
compile workers on (as a user gets them), from ``import mushgym`` on. ``--wide`` builds the vector
env with int64 states and float32 observations: the difference is what typing the rules a second
time, for the layout's narrow vector dtypes, costs on first use. With ``--log-dir`` each
process also writes its ``MUSHGYM_COMPILE_LOG`` (``benchmarks/compile_log.py DIR/<env>.log``
says which functions the time went to).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

SCRIPT = r"""
import json, sys, time
t0 = time.perf_counter()
import numpy as np
import mushgym, mushgym.vector
from mushgym.agents import make_agent
env_id, wide = sys.argv[1], sys.argv[2] == "1"
out = {}
env = mushgym.make(env_id)
env.reset(seed=0)
obs, *_ = env.last()
env.step(int(np.flatnonzero(obs["action_mask"])[0]))
out["aec"] = time.perf_counter() - t0
t = time.perf_counter()
kw = dict(state_dtype=np.int64, obs_dtype=np.float32) if wide else {}
vec = mushgym.vector.make(env_id, num_envs=1024, seed=0, **kw)
vec.reset()
vec.step(vec.sample_random_actions())
out["vector_1024"] = time.perf_counter() - t
t = time.perf_counter()
game = mushgym.game(env_id)
agent = make_agent("mcts:100", env_id=env_id, seed=0)
state = game.new_state(0)
agent.act_state(game, state, game.current_player(state))
out["mcts_100"] = time.perf_counter() - t
print(json.dumps(out))
"""


def first_use(env_id: str, log: str | None = None, wide: bool = False) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, MUSHGYM_COMPILE_NOTICE="0")
        if log:
            env["MUSHGYM_COMPILE_LOG"] = log
        out = subprocess.run(
            [sys.executable, "-c", SCRIPT, env_id, "1" if wide else "0"], env=env, capture_output=True, text=True
        )
    if out.returncode != 0:
        raise RuntimeError(f"{env_id}: {out.stderr[-2000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("envs", nargs="+")
    ap.add_argument("--log-dir", default=None)
    ap.add_argument("--json", default=None)
    ap.add_argument(
        "--wide",
        action="store_true",
        help="the vector env with int64 states and float32 observations (the AEC's types: "
        "nothing of the rules is typed again) instead of the layout's narrow ones",
    )
    args = ap.parse_args(argv)
    rows = {}
    print("| env | AEC | + vector (1,024) | + mcts:100 |\n| --- | --- | --- | --- |")
    for env_id in args.envs:
        log = os.path.join(args.log_dir, f"{env_id}.log") if args.log_dir else None
        if log and os.path.exists(log):
            os.remove(log)
        r = rows[env_id] = first_use(env_id, log, args.wide)
        print(f"| {env_id} | {r['aec']:.1f} | {r['vector_1024']:.1f} | {r['mcts_100']:.1f} |", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()

"""First-use cost on a cold numba cache: each scenario in a fresh process with an empty cache.

    python benchmarks/compile_time.py fungi_v0 [--json out.json]

Scenarios (seconds from the start of the process, ``import mushgym`` included):

* ``aec``: ``env()``, ``reset``, first ``step``;
* ``vector``: ``mushgym.vector.make(env, 64)``, ``reset``, first ``step``;
* ``all``: the AEC step, ``random_rollouts``, the vector API at 1 and 64 envs and the
  single-agent vector API (every compiled loop a user can reach).

``NUMBA_CACHE_DIR`` points at a new empty directory for each process, so nothing is
loaded from an earlier run. The JSON record names its date, machine, commit and command. The report also counts the
compiled specialisations per
kernel (a kernel compiled for two argument types costs twice).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

SCRIPT = r"""
import json, sys, time
t0 = time.perf_counter()
import mushgym
env_id, what = sys.argv[1], sys.argv[2]
out = {}
if what in ("aec", "all"):
    env = mushgym.make(env_id)
    env.reset(seed=0)
    obs, *_ = env.last()
    env.step(env.action_space(env.agent_selection).sample(obs["action_mask"]))
    out["aec_s"] = time.perf_counter() - t0
if what in ("vector", "all"):
    import mushgym.vector
    t = time.perf_counter()
    vec = mushgym.vector.make(env_id, num_envs=64, seed=0)
    vec.reset()
    vec.step(vec.sample_random_actions())
    out["vector_s"] = time.perf_counter() - t0
    out["vector_only_s"] = time.perf_counter() - t
if what == "all":
    game = mushgym.game(env_id)
    game.random_rollouts(4, seed=0, threads=1)
    vec = mushgym.vector.make(env_id, num_envs=1, seed=0)
    vec.reset(); vec.step(vec.sample_random_actions())
    sa = mushgym.vector.make_single_agent(env_id, num_envs=64, seed=0)
    sa.reset(); sa.step(sa.action_masks().argmax(axis=1))
kernels = mushgym.game(env_id).kernels
sigs = {}
for name in dir(kernels):
    fn = getattr(kernels, name)
    if hasattr(fn, "signatures") and fn.signatures:
        sigs[name] = len(fn.signatures)
out["total_s"] = time.perf_counter() - t0
out["specialisations"] = sigs
print("COMPILE-TIME " + json.dumps(out))
"""


def run(env_id: str, what: str, precompile: list[str] | None = None, workers: int | None = None) -> dict:
    with tempfile.TemporaryDirectory(prefix="mushgym-cold-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, MUSHGYM_COMPILE_NOTICE="0")
        pre = None
        if precompile:
            cmd = [sys.executable, "-m", "mushgym", "compile", env_id]
            for g in precompile:
                cmd += ["--group", g]
            if workers:
                cmd += ["--workers", str(workers)]
            t0 = time.perf_counter()
            subprocess.run(cmd, env=env, check=True, capture_output=True, text=True, timeout=3600)
            pre = time.perf_counter() - t0
        t0 = time.perf_counter()
        proc = subprocess.run(
            [sys.executable, "-c", SCRIPT, env_id, what], env=env, capture_output=True, text=True, timeout=1800
        )
        wall = time.perf_counter() - t0
    for line in proc.stdout.splitlines():
        if line.startswith("COMPILE-TIME "):
            out = json.loads(line[len("COMPILE-TIME ") :])
            out["process_wall_s"] = wall
            out["precompile_s"] = pre
            out["stderr"] = proc.stderr.strip().splitlines()[-3:]
            return out
    raise RuntimeError(proc.stderr[-3000:])


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("envs", nargs="*", default=["fungi_v0"])
    p.add_argument("--scenarios", default="aec,vector,all")
    p.add_argument("--json", default=None)
    p.add_argument(
        "--precompile",
        default=None,
        help="run `mushgym compile ENV --group G...` (comma-separated groups) in the empty cache "
        "first and time it, e.g. game,rollouts,vector,single_agent",
    )
    p.add_argument("--workers", type=int, default=None, help="workers of the precompile step")
    args = p.parse_args(argv)
    from search_ladder import record_fields  # date (UTC), machine (load at the start), commit

    fields = record_fields()
    results = {}
    pre = args.precompile.split(",") if args.precompile else None
    for env_id in args.envs:
        for what in args.scenarios.split(","):
            r = run(env_id, what, pre, args.workers)
            results[f"{env_id}:{what}"] = r
            keys = [
                k for k in ("precompile_s", "aec_s", "vector_s", "vector_only_s", "total_s") if r.get(k) is not None
            ]
            print(f"{env_id:12s} {what:7s} " + "  ".join(f"{k}={r[k]:.1f}" for k in keys), flush=True)
            if what == "all":
                multi = {k: v for k, v in r["specialisations"].items() if v > 1}
                print(f"{'':20s} kernels compiled: {len(r['specialisations'])}, with >1 specialisation: {multi}")
    if args.json:
        record = {
            **fields,
            "command": "python benchmarks/compile_time.py " + " ".join(argv or sys.argv[1:]),
            "results": results,
        }
        with open(args.json, "w") as f:
            json.dump(record, f, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

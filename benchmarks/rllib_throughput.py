"""Env steps per second of RLlib sampling mushgym games with 1 and 2 env runners.

    python benchmarks/rllib_throughput.py fungi_v0 --runners 1 2 --steps 4000 --rounds 3
    python benchmarks/rllib_throughput.py mycology_v0 --option num_players=3

One local Ray instance for the whole run; for each runner count an RLlib PPO algorithm
(mushgym.integrations.rllib.build_config, the default network) is built, warmed up with one
sample per runner, then ``--rounds`` times every runner samples ``--steps`` env steps at once
(``foreach_env_runner(sample_steps)``, exploration on: env + masked network inference, no
learning). The figure is the env steps of all runners over the wall time of those rounds;
the ratio ``2 runners / 1 runner`` comes from the same run (the machine is shared: quote the
ratio, and the load average printed at the start and the end). ``--json`` writes the rows.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import time


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("env", nargs="?", default="fungi_v0")
    p.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    p.add_argument("--steps", type=int, default=4000, help="env steps per runner per round (default 4000)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--json", default=None)
    args = p.parse_args(argv)

    import ray

    from mushgym.integrations import rllib as mrl
    from mushgym.integrations.ray_session import init_ray
    from mushgym.options import parse_options

    options = parse_options(args.option)
    load0 = os.getloadavg()
    init_ray()
    rows = []
    try:
        for n in args.runners:
            config, _ = mrl.build_config(args.env, options, env_runners=n)
            algo = config.build_algo()
            try:
                sample = functools.partial(mrl.sample_steps, num_timesteps=args.steps)
                algo.env_runner_group.foreach_env_runner(sample, local_env_runner=n == 0)  # warm-up
                t0 = time.perf_counter()
                steps = 0
                for _ in range(args.rounds):
                    steps += sum(algo.env_runner_group.foreach_env_runner(sample, local_env_runner=n == 0))
                wall = time.perf_counter() - t0
            finally:
                algo.stop()
            rows.append(
                {
                    "env": args.env,
                    "options": options,
                    "env_runners": n,
                    "env_steps": steps,
                    "seconds": round(wall, 2),
                    "env_steps_per_second": round(steps / wall, 1),
                }
            )
            print(
                f"{args.env} {options or ''} env runners {n}: {steps:,} env steps in {wall:.1f} s = "
                f"{steps / wall:,.0f} env steps/s",
                flush=True,
            )
    finally:
        ray.shutdown()
    base = rows[0]["env_steps_per_second"]
    for r in rows:
        r["ratio_to_first"] = round(r["env_steps_per_second"] / base, 2)
    print(
        f"load average at start {load0[0]:.1f}, at end {os.getloadavg()[0]:.1f} (1 min); ratios: "
        + ", ".join(f"{r['env_runners']} runners x{r['ratio_to_first']}" for r in rows)
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(
                {"rows": rows, "load_start": load0, "load_end": os.getloadavg(), "cpus": os.cpu_count()}, f, indent=2
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

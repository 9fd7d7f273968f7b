"""Vector-API steps/s against batch size (log-log), next to the in-kernel rollout rates.

    python benchmarks/plot_batch_scaling.py                      # every registered env
    python benchmarks/plot_batch_scaling.py fungi_v0 --budget 0.5
    python benchmarks/plot_batch_scaling.py --from-json benchmarks/batch_scaling.json  # replot only

Measures with the same code as ``mushgym bench`` (random legal actions drawn in
compiled code, observations and masks written every step), writes the numbers to
``benchmarks/batch_scaling.json`` and the figure to ``benchmarks/batch_scaling.png``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BATCHES = (1, 4, 16, 64, 256, 1024, 4096, 8192)


def measure(env_ids, budget: float, repeats: int, batches) -> dict:
    import numba

    from mushgym.bench import bench_rollouts, bench_vector, machine, resolve_env

    nt = numba.config.NUMBA_NUM_THREADS
    out = {"machine": machine(), "budget_s": budget, "repeats": repeats, "envs": {}}
    for env_id in env_ids:
        game = resolve_env(env_id).Game()
        res = {"batches": [], "all_threads": [], "one_thread": []}
        for b in batches:
            res["batches"].append(b)
            res["all_threads"].append(bench_vector(game, b, None, budget, repeats).steps_per_s)
            res["one_thread"].append(bench_vector(game, b, 1, budget, repeats).steps_per_s)
            print(f"{env_id} batch {b}: {res['all_threads'][-1]:.3g} steps/s ({nt} threads), "
                  f"{res['one_thread'][-1]:.3g} (1 thread)", flush=True)
        res["rollouts_1_thread"] = bench_rollouts(game, 1, budget, repeats).steps_per_s
        res["rollouts_all_threads"] = bench_rollouts(game, nt, budget, repeats).steps_per_s
        res["threads"] = nt
        out["envs"][env_id] = res
    return out


def plot(data: dict, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 5))
    colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for k, (env_id, res) in enumerate(data["envs"].items()):
        c = colors[k % len(colors)]
        nt = res.get("threads", 2)
        ax.plot(res["batches"], res["all_threads"], "o-", color=c, label=f"{env_id} vector API, {nt} threads")
        ax.plot(res["batches"], res["one_thread"], "s--", color=c, alpha=0.6, label=f"{env_id} vector API, 1 thread")
        ax.axhline(res["rollouts_all_threads"], color=c, lw=0.8, ls=":",
                   label=f"{env_id} in-kernel rollouts, {nt} threads")
        ax.axhline(res["rollouts_1_thread"], color=c, lw=0.8, ls="-.", alpha=0.6,
                   label=f"{env_id} in-kernel rollouts, 1 thread")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("batch size (envs per step call)")
    ax.set_ylabel("steps / s (random legal actions, obs + masks)")
    cpu = data.get("machine", {}).get("cpu", "")
    ax.set_title(f"mushgym vector API scaling\n{cpu}", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"wrote {path}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("envs", nargs="*")
    p.add_argument("--budget", type=float, default=0.5)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--batches", default=",".join(map(str, BATCHES)))
    p.add_argument("--from-json", metavar="PATH", help="replot saved numbers instead of measuring")
    p.add_argument("--out", default=os.path.join(HERE, "batch_scaling.png"))
    args = p.parse_args(argv)
    if args.from_json:
        with open(args.from_json) as f:
            data = json.load(f)
    else:
        from mushgym import list_envs

        envs = args.envs or list_envs()
        data = measure(envs, args.budget, args.repeats, [int(b) for b in args.batches.split(",")])
        with open(os.path.splitext(args.out)[0] + ".json", "w") as f:
            json.dump(data, f, indent=2)
    plot(data, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())

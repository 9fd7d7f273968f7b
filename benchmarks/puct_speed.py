"""PUCT speed: simulations per second of the search with a policy/value network (the shipped
Fungi PPO model) as prior and leaf evaluator, at several leaf batch sizes, on one thread.
Quoted as ratios against plain information-set MCTS with random rollouts measured in the
same process (the machine is shared and noisy), with the share of the time spent in the
network.

    python benchmarks/puct_speed.py                          # fungi_v0, batches 1 8 32, writes puct_speed.json
    python benchmarks/puct_speed.py --batches 1 8 32 --sims 800 --seconds 5 --backends torch numpy
    python benchmarks/puct_speed.py --batches 8 --pooled 32     # + leaf pooling over 32 games' trees

``--pooled N`` also times ``Searcher.search_many`` on N positions at once (what
``MCTSAgent.act_batch`` does for N games): their trees share each network call (leaf
pooling), against the same N searched one tree at a time (``pool_trees=1``), same process.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from search_speed import searcher_rate  # benchmarks/search_speed.py, beside this script

import mushgym
from mushgym.agents.ppo import load_policy
from mushgym.bench.rows import search_positions
from mushgym.search import Searcher
from mushgym.wrappers import set_torch_threads

HERE = Path(__file__).resolve().parent
MODEL = HERE / "training" / "fungi_v0_ppo.pt"


class Timed:
    """The network, timing its calls."""

    def __init__(self, fn):
        self.fn = fn
        self.seconds = 0.0
        self.rows = 0

    def reset(self):
        self.seconds = 0.0
        self.rows = 0

    def __call__(self, obs):
        t0 = time.perf_counter()
        out = self.fn(obs)
        self.seconds += time.perf_counter() - t0
        self.rows += len(obs)
        return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--env", default="fungi_v0")
    ap.add_argument("--model", default=str(MODEL))
    ap.add_argument("--batches", type=int, nargs="+", default=[1, 8, 32])
    ap.add_argument("--sims", type=int, default=800)
    ap.add_argument(
        "--backends",
        nargs="+",
        default=["torch"],
        choices=["torch", "numpy"],
        help="how PolicyAgent.policy_value runs the network (numpy: faster for one row, "
        "much slower for batches when BLAS threads meet a busy machine)",
    )
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument(
        "--pooled",
        type=int,
        default=0,
        metavar="N",
        help="also time search_many over N positions, pooled against one tree at a time",
    )
    ap.add_argument("--out", default=str(HERE / "puct_speed.json"))
    args = ap.parse_args(argv)
    set_torch_threads(1)
    game = mushgym.game(args.env)
    states = search_positions(game)
    agent = load_policy(args.model, env_id=args.env)
    base = searcher_rate(Searcher(game, simulations=args.sims, seed=0), states, args.seconds)[0]
    print(f"{args.env}: mcts (random rollouts), {args.sims} sims, 1 thread: {base:,.0f} sims/s (baseline)", flush=True)
    report = {
        "env": args.env,
        "model": Path(args.model).name,
        "simulations": args.sims,
        "mcts_random_sims_per_s": base,
        "puct": {},
    }
    for backend in args.backends:

        def fn(o, b=backend):
            return agent.policy_value(o, backend=b)

        for batch in args.batches:
            net = Timed(fn)
            searcher = Searcher(game, simulations=args.sims, seed=0, network=net, batch=batch)
            r, wall = searcher_rate(searcher, states, args.seconds, on_start=net.reset)
            share = net.seconds / wall

            report["puct"][f"{backend}_batch{batch}"] = {
                "sims_per_s": r,
                "ratio_to_mcts": r / base,
                "network_share": share,
            }
            print(
                f"{args.env}: puct {backend:5} batch {batch:>3}: {r:9,.0f} sims/s = {r / base:.3f} x mcts; "
                f"{100 * share:.0f}% of the time in the network",
                flush=True,
            )
    if args.pooled:
        import numpy as np

        from mushgym import testing

        many = testing.random_states(game, args.pooled, 0, 11)[: args.pooled]
        many = np.stack([s for s in many if not game.is_terminal(s)])
        players = np.array([game.current_player(s) for s in many])

        def fn(o):
            return agent.policy_value(o, backend="torch")

        rates = {}
        for batch in args.batches:
            for pool in (1, 32):
                searcher = Searcher(game, simulations=args.sims, seed=0, network=fn, batch=batch, pool_trees=pool)
                searcher.search_many(many[:2], players[:2])
                t0 = time.perf_counter()
                searcher.search_many(many, players)
                rates[pool] = len(many) * args.sims / (time.perf_counter() - t0)
            report["puct"][f"torch_batch{batch}_pooled{len(many)}"] = {
                "sims_per_s": rates[32],
                "one_tree_at_a_time_sims_per_s": rates[1],
                "ratio": rates[32] / rates[1],
            }
            print(
                f"{args.env}: puct batch {batch:>3}, {len(many)} games in one search_many: pooled "
                f"{rates[32]:,.0f} sims/s, one tree at a time {rates[1]:,.0f} sims/s = x{rates[32] / rates[1]:.2f}",
                flush=True,
            )
    Path(args.out).write_text(json.dumps(report, indent=2))
    print("wrote", args.out)


if __name__ == "__main__":
    main()

"""Self-play PPO on Ray RLlib (local, or a cluster), then an evaluation against random and greedy.

    pip install -e '.[rllib]'
    python examples/train_rllib_selfplay.py                          # fungi_v0, 2 env runners, local Ray
    python examples/train_rllib_selfplay.py --minutes 5 --env-runners 1
    python examples/train_rllib_selfplay.py --env mycology_v1 --option num_players=3
    python examples/train_rllib_selfplay.py --address auto --env-runners 22   # on a cluster's head node
    tensorboard --logdir runs/

The same from the command line: ``mushgym train fungi_v0 --backend rllib --env-runners 2
--curve-every 5``, then ``mushgym eval fungi_v0 random greedy runs/<that run>/final.pt``.
"""

import argparse

from mushgym.agents import tournament
from mushgym.integrations import rllib as mushgym_rllib
from mushgym.options import parse_options

parser = argparse.ArgumentParser()
parser.add_argument("--env", default="fungi_v0")
parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
parser.add_argument("--env-runners", type=int, default=2)
parser.add_argument("--address", default=None, help="a Ray cluster (default: RAY_ADDRESS, else a local Ray)")
parser.add_argument("--iterations", type=int, default=1000)
parser.add_argument("--minutes", type=float, default=20.0)
parser.add_argument("--games", type=int, default=500, help="evaluation games per pair")
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
options = parse_options(args.option)

# One learning policy ("main") in one seat of each game; the other seats are frozen past
# copies of it (a league of 4, refreshed every 5 iterations). Illegal actions are masked.
run = mushgym_rllib.train(
    args.env,
    args.iterations,
    options=options,
    env_runners=args.env_runners,
    address=args.address,
    league=4,
    snapshot_every=5,
    seed=args.seed,
    max_minutes=args.minutes,
    curve_every=5,
    curve_games=200,
)
print(f"run folder {run['run_dir']}: {run['env_steps']:,} env steps in {run['wall_seconds']:.0f} s")

# The exported policy is weights only: it loads like any mushgym model, without Ray.
result = tournament(
    args.env,
    {"random": "random", "greedy": "greedy", "rllib": str(run["final"])},
    games=args.games,
    seed=args.seed + 10_000,
    options=options,
)
print(result.table())

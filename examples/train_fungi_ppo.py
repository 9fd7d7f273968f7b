"""Train MaskablePPO on Fungi, then evaluate it against the random and greedy baselines.

    pip install -e '.[train]'
    python examples/train_fungi_ppo.py                  # ~30 minutes on 2 CPU cores
    python examples/train_fungi_ppo.py --minutes 2      # a quick look
    tensorboard --logdir runs/          # each run has its own folder runs/ppo_fungi_v0_..._<date-time>/

The same from the command line: ``mushgym train fungi_v0 --minutes 30`` (which also writes the
learning curve and a final evaluation), then
``mushgym eval fungi_v0 random greedy runs/<that run>/final.pt --games 1000``.
"""

import argparse

from mushgym.agents import tournament, train_ppo

parser = argparse.ArgumentParser()
parser.add_argument("--minutes", type=float, default=30.0)
parser.add_argument("--steps", type=int, default=50_000_000)
parser.add_argument("--opponent", default="self", help="random, greedy or self (default)")
parser.add_argument("--games", type=int, default=1000, help="evaluation games per pair")
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()

# One line: the learner takes a random seat each game, opponents come from the pool,
# the reward is always the learner's, illegal actions are masked.
model = train_ppo(
    "fungi_v0",
    steps=args.steps,
    opponent=args.opponent,
    seed=args.seed,
    max_minutes=args.minutes,
    curve_games=min(args.games, 100),
)
run = model.mushgym_run_dir  # a new folder for every run
print(f"run folder {run}; timing {model.mushgym_timing}")

# Round robin with seats rotated: win/draw/loss with 95% intervals, Elo (greedy = 0).
result = tournament(
    "fungi_v0",
    {"random": "random", "greedy": "greedy", "ppo": str(run / "final.pt")},
    games=args.games,
    seed=args.seed + 1,
    csv_path=run / "eval.csv",
)
m = result.match("ppo", "greedy")
print(f"PPO beats greedy in {m.rate('wins'):.1%} of games, loses {m.rate('losses'):.1%}")

"""Random rollouts with the functional API: a state is one int64 array.

python examples/random_rollouts.py [env_id] [games]
"""

import sys
import time

import numpy as np

import mushgym

env_id = sys.argv[1] if len(sys.argv) > 1 else "fungi_v0"
n_games = int(sys.argv[2]) if len(sys.argv) > 2 else 200

game = mushgym.game(env_id)
print(game, game.spec)

# 1. Step by step in Python: new_state, legal_mask, step_inplace, returns.
rng = np.random.default_rng(0)
t0 = time.perf_counter()
steps = 0
wins = np.zeros(game.num_players)
for seed in range(n_games):
    state = game.new_state(seed)
    while not game.is_terminal(state):
        legal = np.flatnonzero(game.legal_mask(state))
        game.step_inplace(state, int(rng.choice(legal)), check=False)
        steps += 1
    wins += game.returns(state) > 0
dt = time.perf_counter() - t0
print(
    f"python loop: {n_games} games, {steps / n_games:.1f} steps per game, {steps / dt:,.0f} steps/s, "
    f"wins per seat {wins.astype(int).tolist()}"
)

# States are plain arrays: clone, compare, branch from any point.
state = game.new_state(42)
branch = game.step(state, int(game.legal_actions(state)[0]))  # `state` is unchanged
print("after one step:\n" + game.state_to_string(branch))

# 2. Whole games inside compiled code (uniform random legal actions, all cores).
game.random_rollouts(10, seed=0)  # compile / load the cache
t0 = time.perf_counter()
stats = game.random_rollouts(20 * n_games, seed=0)
dt = time.perf_counter() - t0
print(
    f"compiled: {stats['games']} games, {stats['steps'] / dt:,.0f} steps/s, "
    f"mean length {stats['mean_length']:.1f}, wins per seat {stats['wins'].tolist()}"
)

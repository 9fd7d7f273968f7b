"""Play Fungi in the terminal against a saved model (or the greedy / random baseline).

    python examples/play_vs_model.py                                   # against the shipped model
    python examples/play_vs_model.py runs/example_fungi/final.zip --seat 1
    python examples/play_vs_model.py greedy

Each turn lists your legal actions in words, numbered from 1 as in ``mushgym play``
(both use :mod:`mushgym.human`); type the number of one (q quits and shows the table).
"""

import argparse
from pathlib import Path

import mushgym
from mushgym.agents import make_agent
from mushgym.human import ask_move, legend

DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "benchmarks" / "training" / "fungi_v0_ppo.pt"

parser = argparse.ArgumentParser()
parser.add_argument(
    "opponent", nargs="?", default=str(DEFAULT_MODEL), help="a saved model (.zip or exported .pt), 'greedy' or 'random'"
)
parser.add_argument("--seat", type=int, default=0, help="your seat (0 or 1)")
parser.add_argument("--seed", type=int, default=None)
args = parser.parse_args()

env = mushgym.make_raw("fungi_v0", render_mode="ansi")
game = env.game
bot = make_agent(args.opponent, env_id="fungi_v0", seed=args.seed)
me = f"player_{args.seat}"
env.reset(seed=args.seed)
print(f"You are {me}; your opponent is {args.opponent}.")
print(legend(game) + "\n")

for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    if terminated or truncated:
        env.step(None)
        continue
    player = env.agent_name_mapping[agent]
    state = env.unwrapped.game_state
    if agent == me:
        print("\n" + game.render_text(state, player))
        action = ask_move(game, state)
        if action is None:
            print("\nyou quit; the table as it stands:\n" + game.render_text(state, player))
            raise SystemExit(0)
    else:
        action = bot.act_aec(env)  # greedy looks ahead on env.unwrapped.game_state; a model reads obs
        print(f"{args.opponent if len(args.opponent) < 20 else 'model'} plays: {game.action_to_string(state, action)}")
    env.step(action)

scores = game.returns(env.unwrapped.game_state)
print("\n" + game.state_to_string(env.unwrapped.game_state))
print("You win!" if scores[args.seat] > 0 else "You lose." if scores[args.seat] < 0 else "A tie.")

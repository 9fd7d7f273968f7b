"""Agents for mushgym games: baselines, training and evaluation.

    from mushgym.agents import RandomAgent, GreedyAgent, pretrained, tournament, train_ppo
    agent = pretrained("fungi_v0")                 # the network shipped for the game (train extra)
    model = train_ppo("fungi_v0", steps=1_000_000, opponent="greedy", seed=0)
    tournament("fungi_v0", ["random", "greedy", "runs/ppo_fungi_v0/final.zip"], games=1000)

Importing this package imports neither torch nor stable-baselines3: the training
and model-loading functions import them when called (``pip install mushgym[train]``).
"""

from .base import Agent, FunctionAgent, RandomAgent
from .evaluate import (
    MatchResult,
    TournamentResult,
    bradley_terry_elo,
    eval_main,
    play_match,
    tournament,
    wilson_interval,
)
from .factory import make_agent
from .greedy import GreedyAgent, greedy_heuristic, register_greedy
from .mcts import MCTSAgent
from .play import play_games, play_seeds
from .pretrained_models import list_pretrained, pretrained


def train_ppo(*args, **kwargs):
    """Train MaskablePPO on a mushgym env; see :func:`mushgym.agents.ppo.train_ppo`."""
    from .ppo import train_ppo as _train_ppo

    return _train_ppo(*args, **kwargs)


train_ppo.__doc__ = "Train MaskablePPO on a mushgym env (needs the train extra); see mushgym.agents.ppo.train_ppo."


def train_expert(*args, **kwargs):
    """Expert iteration: a network trained on the search's moves; see :func:`mushgym.agents.expert.train_expert`."""
    from .expert import train_expert as _train_expert

    return _train_expert(*args, **kwargs)


def train_main(argv=None):
    """``mushgym train ENV --steps N [--opponent random|greedy|self] [--seed S]`` (SB3),
    ``mushgym train ENV --backend rllib [--address ADDR] [--env-runners N]`` (Ray RLlib), or
    ``mushgym train ENV --algo expert [--minutes M] [--actors N]`` (expert iteration)."""
    from .cli import train_main as _train_main

    return _train_main(argv)


def load_policy(*args, **kwargs):
    """Load a model saved by :func:`train_ppo` as an :class:`Agent` (needs the train extra)."""
    from .ppo_policy import load_policy as _load_policy

    return _load_policy(*args, **kwargs)


__all__ = [
    "Agent",
    "FunctionAgent",
    "GreedyAgent",
    "MCTSAgent",
    "MatchResult",
    "RandomAgent",
    "TournamentResult",
    "bradley_terry_elo",
    "eval_main",
    "greedy_heuristic",
    "list_pretrained",
    "load_policy",
    "make_agent",
    "play_games",
    "play_match",
    "play_seeds",
    "pretrained",
    "register_greedy",
    "tournament",
    "train_expert",
    "train_main",
    "train_ppo",
    "wilson_interval",
]

"""The greedy baseline of Mycelia (``mycelia_v0``): the heuristic lives with the game,
in :mod:`mushgym.envs.mycelia.greedy` (fruit when possible, else spore toward needed colours)."""

from mushgym.envs.mycelia.greedy import heuristic

from .greedy import register_greedy

register_greedy("mycelia_v0", heuristic)

"""Mycelia, 1 to 4 players (see :mod:`mushgym.envs.mycelia.env` for the full description)."""

from mushgym.envs.mycelia.env import Game, MyceliaGame, decode_action, encode_action, env, obs_fields, raw_env  # noqa: F401
from mushgym.envs.mycelia.env import __doc__  # noqa: F401

__all__ = ["Game", "MyceliaGame", "raw_env", "env", "decode_action", "encode_action", "obs_fields"]

"""Mycology, 2 to 6 players (see :mod:`mushgym.envs.mycology.env` for the full description)."""

from mushgym.envs.mycology.env import Game, MycologyGame, decode_action, encode_action, env, obs_fields, raw_env  # noqa: F401
from mushgym.envs.mycology.env import __doc__  # noqa: F401

__all__ = ["Game", "MycologyGame", "raw_env", "env", "decode_action", "encode_action", "obs_fields"]

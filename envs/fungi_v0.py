"""Fungi, two players (see :mod:`mushgym.envs.fungi.env` for the full description)."""

from mushgym.envs.fungi.env import FungiGame, Game, decode_action, encode_action, env, raw_env  # noqa: F401
from mushgym.envs.fungi.env import __doc__  # noqa: F401

__all__ = ["Game", "FungiGame", "raw_env", "env", "decode_action", "encode_action"]

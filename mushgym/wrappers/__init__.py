"""Wrappers: observation encoders and the single-agent Gymnasium view (for SB3)."""

from .encoders import ENCODERS, FlatEncoder, ObservationEncoder, OneHotEncoder, ScaledEncoder, make_encoder
from .single_agent import OpponentPool, SingleAgentEnv, set_torch_threads

__all__ = ["ENCODERS", "FlatEncoder", "ObservationEncoder", "OneHotEncoder", "OpponentPool",
           "ScaledEncoder", "SingleAgentEnv", "make_encoder", "set_torch_threads"]
